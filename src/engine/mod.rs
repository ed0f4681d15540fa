//! The generic rules engine: [`Rules`] compiled into square masks and bit sets.
//!
//! [`Engine::new`] reads the IR once and precomputes everything the rules say about squares:
//! rays, landing and passing bans per piece kind, hostile squares per victim, the king-capture
//! rule of every square, escape squares and Zobrist keys. A [`Position`] is small plain data
//! (copy-make: a move produces a new position), so search and perft need no unmake.
//!
//! The engine knows nothing about variant names: everything comes from the IR.
//!
//! ```
//! # use tafl::engine::Engine;
//! # let rules = tafl::Variant::bundled("linnaeus").unwrap().rules;
//! let engine = Engine::new(&rules).unwrap();
//! let start = engine.start();
//! assert_eq!(engine.legal_moves(&start).len(), 80);
//! assert_eq!(engine.perft(&start, 2), 4_400);
//! ```

pub mod bitboard;
pub(crate) mod core;
mod ending;
mod illegal;
mod playout;
mod repetitions;

use std::fmt;

use self::bitboard::Wide;
use self::core::{Core, Pos, RawMove};
use crate::ir::RuleRef;
use crate::ir::{Claim, Rules, Square};

pub use self::ending::{EndReason, Ending, GameOutcome};
pub use self::illegal::IllegalReason;
pub use self::playout::{PlayoutSummary, Rng};
use self::position::PosInner;
pub use self::position::{Position, PositionError, Setup};
pub use self::repetitions::Repetitions;

/// The most piece kinds a variant may declare (the engine's bit sets and tables are sized by
/// it; the checker reports more as a limit).
pub use crate::ir::MAX_KINDS;

/// Why rules could not be compiled: they break an invariant of the IR (rules read from JSON
/// may name things that do not exist), or exceed the engine's limits. Rules from a checked
/// variant file always compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// More piece kinds than the engine supports.
    #[error("{0} piece kinds declared; the engine supports at most 8")]
    TooManyKinds(usize),
    /// More `once_left` access rules than the engine supports.
    #[error("more than 4 access rules with the condition `once_left`")]
    TooManyOnceLeftRules,
    /// A square where no king-capture rule applies.
    #[error("no king-capture rule applies on {0}")]
    NoKingCaptureRule(Square),
    /// The rules break an invariant of the IR ([`Rules::validate`]).
    #[error(transparent)]
    Invalid(#[from] crate::ir::RulesError),
}

/// A move: a piece goes from one square to another. Written `e1-e3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEffects {
    /// The squares of the captured pieces, sorted.
    pub captured: Vec<Square>,
    /// How the game ended on this move, if it did: with [`Engine::step`], every ending; with
    /// [`Engine::play_unchecked`], the move's own (repetition and "no legal move" need the
    /// history and the next turn).
    pub ending: Option<Ending>,
}

/// The positions a ply's new position may repeat, as [`Engine::ply`] is given them.
#[derive(Clone, Copy)]
enum Earlier<'a> {
    /// The hashes of the positions before the new one, oldest first.
    Hashes(&'a [u64]),
    /// Counted as a game goes.
    Counted(&'a Repetitions),
}

#[derive(Clone, Debug)]
enum Inner {
    Narrow(Box<Core<u128>>),
    Wide(Box<Core<Wide>>),
}

/// The rules of one variant compiled for play.
#[derive(Clone, Debug)]
pub struct Engine {
    rules: Rules,
    inner: Inner,
    start: Position,
    /// Unique to each compilation (clones share it: they play the same rules).
    id: u32,
}

/// Hands out [`Engine::id`]s.
static NEXT_ENGINE_ID: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// Runs `$body` with `$core` and `$pos` bound to the engine's core and the position's inner
/// value, or evaluates `$foreign` when the position was made by another engine.
macro_rules! with_core {
    ($engine:expr, $position:expr, |$core:ident, $pos:ident| $body:expr, else $foreign:expr) => {
        match (&$engine.inner, &$position.inner) {
            (Inner::Narrow($core), PosInner::Narrow($pos)) if $position.engine == $engine.id => {
                $body
            }
            (Inner::Wide($core), PosInner::Wide($pos)) if $position.engine == $engine.id => $body,
            _ => $foreign,
        }
    };
}

// Declared after `with_core!`, which it uses (a macro is visible to the modules that follow it).
mod position;

impl Engine {
    /// Compiles `rules`: resolved once ([`Rules::resolve`]), then compiled for the board's
    /// width.
    ///
    /// # Errors
    /// [`CompileError`] when the rules break an invariant of the IR (an undeclared piece or
    /// region, a square off the board, a malformed setup), leave a square without a
    /// king-capture rule, or exceed the engine's limits.
    pub fn new(rules: &Rules) -> Result<Engine, CompileError> {
        let resolved = rules.resolve()?;
        // `resolve` keeps boards within 19x19, which the wide bit set holds.
        let squares = usize::from(rules.board.width) * usize::from(rules.board.height);
        let inner = if squares <= 128 {
            Inner::Narrow(Box::new(Core::compile(&resolved)?))
        } else {
            Inner::Wide(Box::new(Core::compile(&resolved)?))
        };
        let id = NEXT_ENGINE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut engine = Engine {
            rules: rules.clone(),
            inner,
            start: Position {
                inner: PosInner::Narrow(Core::<u128>::empty_pos()),
                engine: id,
            },
            id,
        };
        engine.start = engine.position_unchecked(&resolved.start(), rules.first_to_move);
        Ok(engine)
    }

    /// The rules this engine plays.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board's width in files.
    pub fn width(&self) -> u8 {
        self.rules.board.width
    }

    /// The board's height in ranks.
    pub fn height(&self) -> u8 {
        self.rules.board.height
    }

    /// The start position of the rules.
    pub fn start(&self) -> Position {
        self.start
    }

    pub(crate) fn index(&self, square: Square) -> usize {
        usize::from(square.rank) * usize::from(self.width()) + usize::from(square.file)
    }

    pub(crate) fn square(&self, index: usize) -> Square {
        let width = usize::from(self.width());
        Square::new((index % width) as u8, (index / width) as u8)
    }

    fn is_on(&self, square: Square) -> bool {
        square.is_on(self.width(), self.height())
    }

    /// The legal moves of the side to move, sorted by from-square then to-square (file, rank).
    /// A position where the game has ended still has moves here: the game layer knows it ended.
    pub fn legal_moves(&self, position: &Position) -> Vec<Move> {
        let mut moves = self.legal_moves_unordered(position);
        moves.sort_by_key(|m| (m.from.file, m.from.rank, m.to.file, m.to.rank));
        moves
    }

    /// [`Engine::legal_moves`] in the order move generation finds them: for callers that
    /// number the moves anyway (Python's vectorised environment), where the sort was a fifth
    /// of a step.
    pub fn legal_moves_unordered(&self, position: &Position) -> Vec<Move> {
        let mut raw = Vec::new();
        with_core!(self, position, |core, pos| core.gen_moves(pos, &mut raw), else ());
        raw.iter().map(|&m| self.move_of(m)).collect()
    }

    /// The number of legal moves of the side to move.
    pub fn count_moves(&self, position: &Position) -> u64 {
        with_core!(self, position, |core, pos| core.count_moves(pos), else 0)
    }

    /// Whether the side to move has any legal move.
    pub fn has_moves(&self, position: &Position) -> bool {
        with_core!(self, position, |core, pos| core.has_moves(pos), else false)
    }

    /// Whether `mv` is one of [`Engine::legal_moves`]: the one definition of legality.
    pub fn is_legal(&self, position: &Position, mv: Move) -> bool {
        if !self.is_on(mv.from) || !self.is_on(mv.to) {
            return false;
        }
        let raw = self.raw(mv);
        with_core!(self, position, |core, pos| core.is_legal(pos, raw), else false)
    }

    /// Checks `mv`: move generation decides ([`Engine::is_legal`]); when it refuses, the reason
    /// and the rule come from [`Engine::why_illegal`].
    ///
    /// # Errors
    /// Why the move is illegal, and the rule that forbids it when a rule of the variant does.
    pub fn check_move(
        &self,
        position: &Position,
        mv: Move,
    ) -> Result<(), (IllegalReason, Option<RuleRef>)> {
        if self.is_legal(position, mv) {
            return Ok(());
        }
        Err(self
            .why_illegal(position, mv)
            .unwrap_or((IllegalReason::NotGenerated, None)))
    }

    /// Why `mv` is illegal in `position`, and the rule that forbids it when a rule of the
    /// variant does (as opposed to the nature of moves: blocked, not in line); `None` when it
    /// finds nothing wrong. This only explains: legality is [`Engine::is_legal`], and a
    /// property test checks that the two agree on every from/to pair.
    pub fn why_illegal(
        &self,
        position: &Position,
        mv: Move,
    ) -> Option<(IllegalReason, Option<RuleRef>)> {
        for square in [mv.from, mv.to] {
            if !self.is_on(square) {
                return Some((IllegalReason::OffBoard { square }, None));
            }
        }
        let raw = self.raw(mv);
        with_core!(self, position, |core, pos| core.why_illegal(pos, raw), else Some((IllegalReason::ForeignPosition, None)))
    }

    /// `mv` by square indices; both squares must be on the board.
    fn raw(&self, mv: Move) -> RawMove {
        RawMove {
            from: self.index(mv.from) as u16,
            to: self.index(mv.to) as u16,
        }
    }

    /// The move `raw` names by square indices, by square names: [`Engine::raw`]'s inverse.
    pub(crate) fn move_of(&self, raw: RawMove) -> Move {
        Move::new(self.square(raw.from.into()), self.square(raw.to.into()))
    }

    /// Plays `mv`, which must be legal (check with [`Engine::is_legal`]), and returns the new
    /// position and what the move did: its captures and the ending the move itself makes. No
    /// history is given, so no repetition is judged, and "no legal move" is left to the next
    /// turn: [`Engine::step`] judges both.
    ///
    /// Never panics. A move with a square off the board, or without a piece of the side to move
    /// on its from-square, or a position of another engine, leaves the position unchanged with
    /// no effects; any other illegal move gives a position that may break the rules.
    pub fn play_unchecked(&self, position: &Position, mv: Move) -> (Position, MoveEffects) {
        self.ply(position, mv, Earlier::Hashes(&[]), false)
    }

    /// One ply of a game, judged as the rules judge it: `mv` played from `position` (it must be
    /// legal), its captures, the ending the move makes, then an automatic repetition counted
    /// over `earlier` (the game's positions before `position`, oldest first), then "no legal
    /// move" for the side to move next. The game ([`crate::game::Game::play`]) plays this way.
    ///
    /// Never panics; an illegal move is handled as by [`Engine::play_unchecked`].
    pub fn step(
        &self,
        position: &Position,
        mv: Move,
        earlier: &[Position],
    ) -> (Position, MoveEffects) {
        // Only the positions since the last capture can repeat (a capture changes the material
        // for good), so only those are hashed: not the whole game at every ply.
        let since_capture = (self.quiet_plies(position) as usize).min(earlier.len());
        let history: Vec<u64> = earlier[earlier.len() - since_capture..]
            .iter()
            .chain(std::iter::once(position))
            .map(|p| self.hash(p))
            .collect();
        self.ply(position, mv, Earlier::Hashes(&history), true)
    }

    /// [`Engine::step`] with the earlier positions counted as the game goes: `seen` counts the
    /// positions since the last capture, `position` included (where the variant has an
    /// automatic repetition rule; [`Engine::tracks_repetition`]). A lookup a ply, where
    /// [`Engine::step`] passes over every position since the last capture.
    pub fn step_counted(
        &self,
        position: &Position,
        mv: Move,
        seen: &Repetitions,
    ) -> (Position, MoveEffects) {
        self.ply(position, mv, Earlier::Counted(seen), true)
    }

    /// Whether the variant has an automatic repetition rule: whether a game must count its
    /// positions for [`Engine::step_counted`].
    pub fn tracks_repetition(&self) -> bool {
        matches!(self.rules.outcome.repetition, Some(r) if r.claim == Claim::Automatic)
    }

    /// [`Core::step`] at this engine's width, with the checks that keep it panic-free; `earlier`
    /// ends with `position`, and `judge_next_turn` adds the no-moves ending.
    fn ply(
        &self,
        position: &Position,
        mv: Move,
        earlier: Earlier<'_>,
        judge_next_turn: bool,
    ) -> (Position, MoveEffects) {
        let unchanged = || {
            (
                *position,
                MoveEffects {
                    captured: Vec::new(),
                    ending: None,
                },
            )
        };
        if !self.owns(position) || !self.is_on(mv.from) || !self.is_on(mv.to) {
            return unchanged();
        }
        match self.piece_at(position, mv.from) {
            Some(kind) if self.rules.pieces[kind].side == self.to_move(position) => {}
            _ => return unchanged(),
        }
        let raw = self.raw(mv);
        let mut next = *position;
        let (captured, ending) = match (&self.inner, &mut next.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => {
                self.judged(core, pos, raw, earlier, judge_next_turn)
            }
            (Inner::Wide(core), PosInner::Wide(pos)) => {
                self.judged(core, pos, raw, earlier, judge_next_turn)
            }
            // `owns` was checked above, and an engine makes positions of its own width only.
            _ => return unchanged(),
        };
        (next, MoveEffects { captured, ending })
    }

    /// Plays `mv` on `pos` in place through [`Core::step`]; the captured squares sorted.
    fn judged<B: bitboard::Bits>(
        &self,
        core: &Core<B>,
        pos: &mut Pos<B>,
        mv: RawMove,
        earlier: Earlier<'_>,
        judge_next_turn: bool,
    ) -> (Vec<Square>, Option<Ending>) {
        let step = match earlier {
            Earlier::Hashes(history) => core.step(pos, mv, history),
            Earlier::Counted(seen) => core.step_counted(pos, mv, |child| seen.occurrences(child)),
        };
        let mut ending = step.ending;
        if ending.is_none() && judge_next_turn && !core.has_moves(pos) {
            ending = Some(core.no_moves_ending(pos.to_move));
        }
        let mut captured: Vec<Square> = step.captured.iter().map(|sq| self.square(sq)).collect();
        captured.sort_by_key(|s| (s.file, s.rank));
        (captured, ending)
    }

    /// How the game ends when the side to move in `position` has no legal move.
    pub fn no_moves_ending(&self, position: &Position) -> Ending {
        let side = self.to_move(position);
        match &self.inner {
            Inner::Narrow(core) => core.no_moves_ending(side),
            Inner::Wide(core) => core.no_moves_ending(side),
        }
    }

    /// Whether a claimable repetition rule holds for a position seen `occurrences` times.
    pub fn repetition_claimable(&self, occurrences: u32) -> bool {
        matches!(self.rules.outcome.repetition, Some(r) if r.claim == Claim::Claimable && occurrences >= r.occurrences)
    }

    /// Whether a claimable no-capture rule holds in `position`.
    pub fn move_limit_claimable(&self, position: &Position) -> bool {
        matches!(self.rules.outcome.no_capture_draw,
            Some(limit) if limit.claim == Claim::Claimable && self.quiet_plies(position) >= limit.moves.saturating_mul(2))
    }

    /// The number of move sequences of `depth` plies from `position` (perft). A position where the
    /// game has ended (by capture, escape, move limit, automatic repetition counted from
    /// `position`, or no move), `position` itself included, has no children. One thread.
    pub fn perft(&self, position: &Position, depth: u32) -> u64 {
        if depth > 0 && self.standing_ending(position).is_some() {
            return 0;
        }
        let mut history = Vec::new();
        with_core!(self, position, |core, pos| core.perft(pos, depth, &mut history), else 0)
    }

    /// [`Engine::perft`] split over the moves of the root, on rayon's thread pool.
    pub fn perft_parallel(&self, position: &Position, depth: u32) -> u64 {
        if depth <= 1 || self.standing_ending(position).is_some() {
            return self.perft(position, depth);
        }
        with_core!(self, position, |core, pos| core.perft_parallel(pos, depth), else 0)
    }

    /// Plays `games` uniformly random games from `position`, each at most `cap` plies, with a
    /// generator seeded from `seed` (the same seed gives the same games).
    pub fn playouts(&self, position: &Position, games: u64, seed: u64, cap: u32) -> PlayoutSummary {
        with_core!(self, position, |core, pos| playout::run(core, pos, 0, games, seed, cap), else PlayoutSummary::default())
    }

    /// [`Engine::playouts`] on rayon's thread pool: the same games, so the same summary.
    pub fn playouts_parallel(
        &self,
        position: &Position,
        games: u64,
        seed: u64,
        cap: u32,
    ) -> PlayoutSummary {
        use rayon::prelude::*;
        const CHUNK: u64 = 16;
        (0..games.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let first = chunk * CHUNK;
                let count = CHUNK.min(games - first);
                with_core!(self, position, |core, pos| playout::run(core, pos, first, count, seed, cap), else PlayoutSummary::default())
            })
            .reduce(PlayoutSummary::default, PlayoutSummary::merge)
    }
}

/// The compiled rules of an engine with one of its positions, at the engine's width: what the
/// search works on directly, generic over the width, with no dispatch in its inner loop.
// Made once per search, never stored in bulk: the size difference does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Compiled<'a> {
    /// Boards up to 11x11.
    Narrow(&'a Core<u128>, Pos<u128>),
    /// Larger boards.
    Wide(&'a Core<Wide>, Pos<Wide>),
}

impl Engine {
    /// The core and the position's inner value, or `None` for a position of another engine.
    pub(crate) fn compiled(&self, position: &Position) -> Option<Compiled<'_>> {
        if !self.owns(position) {
            return None;
        }
        match (&self.inner, &position.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => Some(Compiled::Narrow(core, *pos)),
            (Inner::Wide(core), PosInner::Wide(pos)) => Some(Compiled::Wide(core, *pos)),
            _ => None,
        }
    }
}
