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
mod core;
mod playout;

use std::fmt;

use self::bitboard::Wide;
use self::core::{Core, Pos, RawMove};
use crate::ir::{Claim, Rules, Side, Square};
use crate::variant::RuleRef;

pub use self::playout::{PlayoutSummary, Rng};

/// The most piece kinds a variant may declare.
pub const MAX_KINDS: usize = 8;

/// Why rules could not be compiled. Rules from a checked variant file always compile; rules read
/// from JSON may name things that do not exist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// A rule names a piece kind the rules do not declare.
    #[error("the rules name a piece `{0}` that is not declared")]
    UnknownPiece(String),
    /// A rule names a region the rules do not define.
    #[error("the rules name a region `{0}` that is not defined")]
    UnknownRegion(String),
    /// A square lies outside the board.
    #[error("square {0} is outside the board")]
    SquareOffBoard(Square),
    /// The board is larger than 19x19 or smaller than 1x1.
    #[error("a {width}x{height} board is not supported (at most 19x19)")]
    BoardTooLarge {
        /// Files.
        width: u8,
        /// Ranks.
        height: u8,
    },
    /// More piece kinds than the engine supports.
    #[error("{0} piece kinds declared; the engine supports at most 8")]
    TooManyKinds(usize),
    /// More `once_left` access rules than the engine supports.
    #[error("more than 4 access rules with the condition `once_left`")]
    TooManyOnceLeftRules,
    /// A square where no king-capture rule applies.
    #[error("no king-capture rule applies on {0}")]
    NoKingCaptureRule(Square),
    /// The setup diagram does not fit the board or uses an unknown symbol.
    #[error("the setup diagram is malformed: {0}")]
    BadSetup(String),
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

/// Who won, if anyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// This side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl GameOutcome {
    /// `attackers_win`, `defenders_win` or `draw`: the word of the CLI contract.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameOutcome::Win(Side::Attackers) => "attackers_win",
            GameOutcome::Win(Side::Defenders) => "defenders_win",
            GameOutcome::Draw => "draw",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A king reached an escape square.
    KingEscaped,
    /// A piece other than a king reached an escape square.
    PieceEscaped,
    /// A king was captured.
    KingCaptured,
    /// A decisive piece other than a king was captured.
    LeaderCaptured,
    /// The side to move had no legal move.
    NoMoves,
    /// A position was repeated (automatically, or claimed).
    Repetition,
    /// Too many moves without a capture.
    MoveLimit,
    /// The players agreed a draw.
    Agreement,
}

impl EndReason {
    /// The reason word of the CLI contract (`king_escaped`, `no_moves`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::KingEscaped => "king_escaped",
            EndReason::PieceEscaped => "piece_escaped",
            EndReason::KingCaptured => "king_captured",
            EndReason::LeaderCaptured => "leader_captured",
            EndReason::NoMoves => "no_moves",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move_limit",
            EndReason::Agreement => "agreement",
        }
    }
}

/// How a game ended: the result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// Who won.
    pub outcome: GameOutcome,
    /// Why.
    pub reason: EndReason,
}

/// Why a move is not legal. Where a rule of the variant forbids it, [`Engine::why_illegal`]
/// returns that rule too.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    /// The from-square is empty.
    #[error("there is no piece on {square}")]
    NoPiece {
        /// The from-square.
        square: Square,
    },
    /// The piece on the from-square belongs to the other side.
    #[error("the piece on {square} belongs to the side not to move")]
    NotYourPiece {
        /// The from-square.
        square: Square,
    },
    /// The move goes nowhere.
    #[error("a move must go to another square")]
    NullMove,
    /// A square is outside the board.
    #[error("{square} is outside the board")]
    OffBoard {
        /// The square.
        square: Square,
    },
    /// The target square holds a piece.
    #[error("{square} is occupied")]
    Occupied {
        /// The target square.
        square: Square,
    },
    /// The squares are not on one rank or file.
    #[error("pieces move along a rank or a file")]
    NotInLine,
    /// A piece stands in the way.
    #[error("the way is blocked at {square}")]
    Blocked {
        /// The first occupied square on the way.
        square: Square,
    },
    /// The piece moves no further than this.
    #[error("the {piece} moves at most {max} squares")]
    TooFar {
        /// The piece's name.
        piece: String,
        /// Its maximum distance.
        max: u8,
    },
    /// An access rule forbids landing there.
    #[error("the {piece} may not land on {square}")]
    MayNotLand {
        /// The piece's name.
        piece: String,
        /// The target square.
        square: Square,
    },
    /// An access rule forbids passing over a square on the way.
    #[error("the {piece} may not pass over {square}")]
    MayNotPass {
        /// The piece's name.
        piece: String,
        /// The square it would pass.
        square: Square,
    },
    /// The piece has shuttled between these two squares too often.
    #[error(
        "a piece may move back and forth between the same two squares only {limit} times in a row"
    )]
    BackAndForth {
        /// The limit.
        limit: u32,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEffects {
    /// The squares of the captured pieces, sorted.
    pub captured: Vec<Square>,
    /// How the game ended on this move, if it did (repetition and no-move endings need the
    /// history or the next move list: [`crate::game::Game`] adds them).
    pub ending: Option<Ending>,
}

#[derive(Clone, Debug)]
enum Inner {
    Narrow(Box<Core<u128>>),
    Wide(Box<Core<Wide>>),
}

/// A position: where the pieces stand, whose move it is, and the little history the rules need
/// (which pieces have left a once-left region, the back-and-forth counters, plies since the last
/// capture). Made by an [`Engine`] and only meaningful with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    inner: PosInner,
}

// Positions are `Copy` and never allocate, so copy-make stays cheap on 9x9 and 11x11; the price
// is that every position is as large as a 19x19 one (about 700 bytes), which only matters for
// games kept in a history.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum PosInner {
    Narrow(Pos<u128>),
    Wide(Pos<Wide>),
}

/// The rules of one variant compiled for play.
#[derive(Clone, Debug)]
pub struct Engine {
    rules: Rules,
    inner: Inner,
    start: Position,
}

/// Runs `$body` with `$core` and `$pos` bound to the engine's core and the position's inner
/// value of the same width.
macro_rules! with_core {
    ($engine:expr, $position:expr, |$core:ident, $pos:ident| $body:expr) => {
        match (&$engine.inner, &$position.inner) {
            (Inner::Narrow($core), PosInner::Narrow($pos)) => $body,
            (Inner::Wide($core), PosInner::Wide($pos)) => $body,
            _ => panic!("a position used with an engine for another board size"),
        }
    };
}

impl Engine {
    /// Compiles `rules`.
    ///
    /// # Errors
    /// [`CompileError`] when the rules name undeclared pieces or regions, use squares off the
    /// board, leave a square without a king-capture rule, or exceed the engine's limits.
    pub fn new(rules: &Rules) -> Result<Engine, CompileError> {
        let (width, height) = (rules.board.width, rules.board.height);
        if width == 0
            || height == 0
            || width > crate::ir::MAX_BOARD_SIDE
            || height > crate::ir::MAX_BOARD_SIDE
        {
            return Err(CompileError::BoardTooLarge { width, height });
        }
        let squares = usize::from(width) * usize::from(height);
        let inner = if squares <= 128 {
            Inner::Narrow(Box::new(Core::compile(rules)?))
        } else {
            Inner::Wide(Box::new(Core::compile(rules)?))
        };
        let mut engine = Engine {
            rules: rules.clone(),
            inner,
            start: Position {
                inner: PosInner::Narrow(Core::<u128>::empty_pos()),
            },
        };
        let mut pieces = Vec::new();
        if rules.setup.len() != usize::from(height) {
            return Err(CompileError::BadSetup(format!(
                "{} rows for a board of {height} ranks",
                rules.setup.len()
            )));
        }
        for (row, text) in rules.setup.iter().enumerate() {
            let rank = height as usize - 1 - row;
            if text.chars().count() != usize::from(width) {
                return Err(CompileError::BadSetup(format!(
                    "row {} is not {width} squares wide",
                    row + 1
                )));
            }
            for (file, symbol) in text.chars().enumerate() {
                if symbol == '.' {
                    continue;
                }
                let kind = rules
                    .pieces
                    .iter()
                    .position(|p| p.symbol == symbol)
                    .ok_or_else(|| CompileError::BadSetup(format!("unknown symbol `{symbol}`")))?;
                pieces.push((Square::new(file as u8, rank as u8), kind));
            }
        }
        engine.start = engine.position(&pieces, rules.first_to_move);
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

    fn index(&self, square: Square) -> usize {
        usize::from(square.rank) * usize::from(self.width()) + usize::from(square.file)
    }

    fn square(&self, index: usize) -> Square {
        let width = usize::from(self.width());
        Square::new((index % width) as u8, (index / width) as u8)
    }

    fn is_on(&self, square: Square) -> bool {
        square.is_on(self.width(), self.height())
    }

    /// A position with `pieces` (square, index into `Rules::pieces`) and `to_move` to play, with
    /// no history: every piece standing in a once-left region counts as never having left it.
    /// Pieces off the board or of unknown kinds are ignored (notation parsing checks both).
    pub fn position(&self, pieces: &[(Square, usize)], to_move: Side) -> Position {
        let raw: Vec<(usize, usize)> = pieces
            .iter()
            .filter(|(square, kind)| self.is_on(*square) && *kind < self.rules.pieces.len())
            .map(|&(square, kind)| (self.index(square), kind))
            .collect();
        let inner = match &self.inner {
            Inner::Narrow(core) => PosInner::Narrow(core.setup(&raw, to_move)),
            Inner::Wide(core) => PosInner::Wide(core.setup(&raw, to_move)),
        };
        Position { inner }
    }

    /// The side to move in `position`.
    pub fn to_move(&self, position: &Position) -> Side {
        match &position.inner {
            PosInner::Narrow(pos) => pos.to_move,
            PosInner::Wide(pos) => pos.to_move,
        }
    }

    /// The Zobrist hash of `position` (pieces and side to move), kept up to date move by move.
    pub fn hash(&self, position: &Position) -> u64 {
        match &position.inner {
            PosInner::Narrow(pos) => pos.hash,
            PosInner::Wide(pos) => pos.hash,
        }
    }

    /// The Zobrist hash of `position` computed from scratch; always equal to [`Engine::hash`].
    pub fn full_hash(&self, position: &Position) -> u64 {
        with_core!(self, position, |core, pos| core.full_hash(pos))
    }

    /// Plies since the last capture (or since the position was set up).
    pub fn quiet_plies(&self, position: &Position) -> u32 {
        match &position.inner {
            PosInner::Narrow(pos) => pos.quiet_plies,
            PosInner::Wide(pos) => pos.quiet_plies,
        }
    }

    /// The piece on `square`, as an index into `Rules::pieces`.
    pub fn piece_at(&self, position: &Position, square: Square) -> Option<usize> {
        if !self.is_on(square) {
            return None;
        }
        let index = self.index(square);
        with_core!(self, position, |core, pos| core.piece_on(pos, index))
    }

    /// Every piece: its square and kind (index into `Rules::pieces`), by rank then file.
    pub fn pieces(&self, position: &Position) -> Vec<(Square, usize)> {
        let squares = usize::from(self.width()) * usize::from(self.height());
        with_core!(self, position, |core, pos| (0..squares)
            .filter_map(|sq| core.piece_on(pos, sq).map(|k| (self.square(sq), k)))
            .collect())
    }

    /// The legal moves of the side to move, sorted by from-square then to-square (file, rank).
    /// A position where the game has ended still has moves here: the game layer knows it ended.
    pub fn legal_moves(&self, position: &Position) -> Vec<Move> {
        let mut raw = Vec::new();
        with_core!(self, position, |core, pos| core.gen_moves(pos, &mut raw));
        let mut moves: Vec<Move> = raw
            .iter()
            .map(|m| Move::new(self.square(m.from.into()), self.square(m.to.into())))
            .collect();
        moves.sort_by_key(|m| (m.from.file, m.from.rank, m.to.file, m.to.rank));
        moves
    }

    /// The number of legal moves of the side to move.
    pub fn count_moves(&self, position: &Position) -> u64 {
        with_core!(self, position, |core, pos| core.count_moves(pos))
    }

    /// Whether the side to move has any legal move.
    pub fn has_moves(&self, position: &Position) -> bool {
        with_core!(self, position, |core, pos| core.has_moves(pos))
    }

    /// `None` if `mv` is legal in `position`; otherwise why not, and the rule that forbids it
    /// when a rule of the variant does (as opposed to the nature of moves: blocked, not in line).
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
        let raw = RawMove {
            from: self.index(mv.from) as u16,
            to: self.index(mv.to) as u16,
        };
        with_core!(self, position, |core, pos| core.why_illegal(pos, raw))
    }

    /// Plays `mv`, which must be legal (check with [`Engine::why_illegal`]), and returns the new
    /// position and what the move did.
    ///
    /// An illegal move gives a position that may break the rules (never a panic, though).
    pub fn play_unchecked(&self, position: &Position, mv: Move) -> (Position, MoveEffects) {
        let raw = RawMove {
            from: self.index(mv.from) as u16,
            to: self.index(mv.to) as u16,
        };
        let mut next = *position;
        let (captured, ending) = match (&self.inner, &mut next.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => {
                let (set, ending) = core.make(pos, raw);
                (
                    bitboard::Bits::iter(set)
                        .map(|sq| self.square(sq))
                        .collect::<Vec<_>>(),
                    ending,
                )
            }
            (Inner::Wide(core), PosInner::Wide(pos)) => {
                let (set, ending) = core.make(pos, raw);
                (
                    bitboard::Bits::iter(set)
                        .map(|sq| self.square(sq))
                        .collect::<Vec<_>>(),
                    ending,
                )
            }
            _ => panic!("a position used with an engine for another board size"),
        };
        let mut captured = captured;
        captured.sort_by_key(|s| (s.file, s.rank));
        (next, MoveEffects { captured, ending })
    }

    /// How the game ends when the side to move in `position` has no legal move.
    pub fn no_moves_ending(&self, position: &Position) -> Ending {
        with_core!(self, position, |core, pos| core.no_moves_ending(pos))
    }

    /// How the game ends when `position`, just reached, has occurred `occurrences` times (this
    /// time included), if the repetition rule ends it by itself.
    pub fn repetition_ending(&self, position: &Position, occurrences: u32) -> Option<Ending> {
        with_core!(self, position, |core, pos| core
            .repetition_ending(pos, occurrences))
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
    /// `position`, or no move) has no children. One thread.
    pub fn perft(&self, position: &Position, depth: u32) -> u64 {
        let mut history = Vec::new();
        with_core!(self, position, |core, pos| core.perft(
            pos,
            depth,
            &mut history
        ))
    }

    /// [`Engine::perft`] split over the moves of the root, on rayon's thread pool.
    pub fn perft_parallel(&self, position: &Position, depth: u32) -> u64 {
        use rayon::prelude::*;
        if depth <= 1 {
            return self.perft(position, depth);
        }
        let moves = self.legal_moves(position);
        let start_hash = self.hash(position);
        let track = self
            .rules
            .outcome
            .repetition
            .is_some_and(|r| r.claim == Claim::Automatic);
        moves
            .par_iter()
            .map(|&mv| {
                let (child, effects) = self.play_unchecked(position, mv);
                if effects.ending.is_some() {
                    return 0;
                }
                let occurrences = 1 + u32::from(self.hash(&child) == start_hash);
                if track && self.repetition_ending(&child, occurrences).is_some() {
                    return 0;
                }
                let mut history = vec![start_hash];
                with_core!(self, child, |core, pos| core.perft(
                    pos,
                    depth - 1,
                    &mut history
                ))
            })
            .sum()
    }

    /// Plays `games` uniformly random games from `position`, each at most `cap` plies, with a
    /// generator seeded from `seed` (the same seed gives the same games).
    pub fn playouts(&self, position: &Position, games: u64, seed: u64, cap: u32) -> PlayoutSummary {
        with_core!(self, position, |core, pos| playout::run(
            core, pos, 0, games, seed, cap
        ))
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
                with_core!(self, position, |core, pos| playout::run(
                    core, pos, first, count, seed, cap
                ))
            })
            .reduce(PlayoutSummary::default, PlayoutSummary::merge)
    }
}
