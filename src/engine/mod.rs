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

mod playout;

use std::fmt;

use self::bitboard::Wide;
use self::core::{Core, Pos, RawMove};
use crate::ir::RuleRef;
use crate::ir::{Claim, Rules, Side, Square};

pub use self::playout::{PlayoutSummary, Rng};

/// The most piece kinds a variant may declare (the engine's bit sets and tables are sized by
/// it; the checker reports more as a limit).
pub use crate::ir::MAX_KINDS;

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
    /// The winner enclosed the other side.
    Encircled,
    /// A king held an edge fort.
    EdgeFort,
    /// A position was repeated (automatically, or claimed).
    Repetition,
    /// Too many moves without a capture.
    MoveLimit,
    /// The players agreed a draw.
    Agreement,
    /// A player resigned.
    Resignation,
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
            EndReason::Encircled => "encircled",
            EndReason::EdgeFort => "edge_fort",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move_limit",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
        }
    }
}

/// How a game ended: the result, why, and the rule of the variant that says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    /// Who won.
    pub outcome: GameOutcome,
    /// Why.
    pub reason: EndReason,
    /// The rule that ended the game (cite it with [`crate::Variant::line_of`] and
    /// [`crate::Variant::clause_text`]). `None` only for a resignation, which no rule decides.
    pub rule: Option<RuleRef>,
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
    #[error("the {piece} moves at most {}", crate::english::count(usize::from(*.max), "square"))]
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
        "a piece may move back and forth between the same two squares only {} in a row",
        crate::english::count(*.limit as usize, "time")
    )]
    BackAndForth {
        /// The limit.
        limit: u32,
    },
    /// A berserk move is due: only the piece that just captured may move.
    #[error("the piece on {square} has just captured and must move again")]
    BerserkerMovesAgain {
        /// The berserker's square.
        square: Square,
    },
    /// A berserk move must capture.
    #[error("a berserk move must capture")]
    BerserkMustCapture,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The position was made by an engine for other rules (see [`Engine::owns`]).
    #[error("the position belongs to another variant's engine")]
    ForeignPosition,
    /// Move generation refuses the move and the explaining path finds no reason. A property
    /// test checks that this never happens; it exists so that a disagreement is an error, not
    /// a panic or a wrongly accepted move.
    #[error("the move is not among the legal moves")]
    NotGenerated,
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

#[derive(Clone, Debug)]
enum Inner {
    Narrow(Box<Core<u128>>),
    Wide(Box<Core<Wide>>),
}

/// A position: where the pieces stand, whose move it is, and the little history the rules need
/// (which pieces have left a once-left region, the back-and-forth counters, plies since the last
/// capture).
///
/// Positions are made only by an [`Engine`]: its start, [`Engine::setup`] (which validates a
/// [`Setup`] against the rules) and its moves. A position remembers which engine made it; any
/// other engine treats it as an empty board with no moves (see [`Engine::owns`]), never
/// panicking and never reading it with the wrong geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    inner: PosInner,
    /// The [`Engine::id`] of the engine that made it.
    engine: u32,
}

/// A position as plain data, not yet checked against any rules: pieces by square and kind
/// (an index into `Rules::pieces`), and the side to move. [`Engine::setup`] turns it into a
/// [`Position`] or says why the rules make it impossible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces: square and kind.
    pub pieces: Vec<(Square, usize)>,
    /// The side to move.
    pub to_move: Side,
}

/// Why a [`Setup`] is not a position of the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A piece stands off the board.
    #[error("{square} is outside the board")]
    OffBoard {
        /// The square.
        square: Square,
    },
    /// A piece kind the rules do not declare.
    #[error("piece kind #{kind} is not declared by the rules")]
    UnknownKind {
        /// The index given.
        kind: usize,
    },
    /// Two pieces on one square.
    #[error("two pieces stand on {square}")]
    SharedSquare {
        /// The square.
        square: Square,
    },
    /// More pieces of a kind than the game starts with (pieces are never added).
    #[error(
        "the position has {found} {piece} {}, but the game starts with {most}",
        crate::english::noun(*.found, "piece")
    )]
    TooMany {
        /// The piece's name.
        piece: String,
        /// How many the setup has.
        found: usize,
        /// How many the start position has.
        most: usize,
    },
    /// A piece on a square its kind may never land on, and did not start on.
    #[error("the {piece} on {square} stands where it may never land")]
    Forbidden {
        /// The piece's name.
        piece: String,
        /// The square.
        square: Square,
        /// The access rule that forbids it.
        rule: RuleRef,
    },
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

impl Engine {
    /// Compiles `rules`.
    ///
    /// # Errors
    /// [`CompileError`] when the rules name undeclared pieces or regions, use squares off the
    /// board, leave a square without a king-capture rule, or exceed the engine's limits.
    pub fn new(rules: &Rules) -> Result<Engine, CompileError> {
        rules.validate()?;
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
        let mut pieces = Vec::new();
        if rules.setup.len() != usize::from(height) {
            return Err(CompileError::BadSetup(format!(
                "{} for a board of {}",
                crate::english::count(rules.setup.len(), "row"),
                crate::english::count(usize::from(height), "rank")
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
        engine.start = engine.position_unchecked(&pieces, rules.first_to_move);
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

    /// Whether `position` was made by this engine (or a clone of it). Every method treats a
    /// position it does not own as an empty board with no moves.
    pub fn owns(&self, position: &Position) -> bool {
        position.engine == self.id
    }

    /// The position `setup` describes, with no history: every piece standing in a once-left
    /// region counts as never having left it.
    ///
    /// # Errors
    /// [`PositionError`] when the rules make the setup impossible: a piece off the board or of
    /// an unknown kind, two on one square, more pieces of a kind than the game starts with
    /// (two kings), or a piece on a square its kind may never land on and did not start on (a
    /// soldier on a throne nobody may land on, an attacker on a corner only the king may enter).
    /// A position that is legal but already decided is accepted; see
    /// [`Engine::standing_ending`].
    pub fn setup(&self, setup: &Setup) -> Result<Position, PositionError> {
        let start = self.pieces(&self.start);
        let kinds = &self.rules.pieces;
        let mut seen = std::collections::BTreeSet::new();
        let mut counts = vec![0usize; kinds.len()];
        for &(square, kind) in &setup.pieces {
            if !self.is_on(square) {
                return Err(PositionError::OffBoard { square });
            }
            if kind >= kinds.len() {
                return Err(PositionError::UnknownKind { kind });
            }
            if !seen.insert((square.file, square.rank)) {
                return Err(PositionError::SharedSquare { square });
            }
            counts[kind] += 1;
            if !start.contains(&(square, kind)) {
                if let Some(rule) = self.never_lands(kind, square) {
                    return Err(PositionError::Forbidden {
                        piece: kinds[kind].display.clone(),
                        square,
                        rule,
                    });
                }
            }
        }
        for (kind, &found) in counts.iter().enumerate() {
            let most = start.iter().filter(|(_, k)| *k == kind).count();
            if found > most {
                return Err(PositionError::TooMany {
                    piece: kinds[kind].display.clone(),
                    found,
                    most,
                });
            }
        }
        Ok(self.position_unchecked(&setup.pieces, setup.to_move))
    }

    /// The access rule that forbids a piece of `kind` ever to land on `square`, if one does
    /// (conditional rules do not: a once-left or group condition may allow it).
    fn never_lands(&self, kind: usize, square: Square) -> Option<RuleRef> {
        let name = &self.rules.pieces[kind].name;
        self.rules.access.iter().enumerate().find_map(|(i, rule)| {
            let region = self.rules.region(&rule.region)?;
            (rule.condition == crate::ir::AccessCondition::Always
                && rule.action.includes_landing()
                && rule.pieces.contains(name)
                && region.squares.contains(&square))
            .then_some(RuleRef::Access(i))
        })
    }

    /// A position with `pieces` on the board (squares on it, known kinds: callers check) and
    /// `to_move` to play, with no history.
    fn position_unchecked(&self, pieces: &[(Square, usize)], to_move: Side) -> Position {
        let raw: Vec<(usize, usize)> = pieces
            .iter()
            .filter(|(square, kind)| self.is_on(*square) && *kind < self.rules.pieces.len())
            .map(|&(square, kind)| (self.index(square), kind))
            .collect();
        let inner = match &self.inner {
            Inner::Narrow(core) => PosInner::Narrow(core.setup(&raw, to_move)),
            Inner::Wide(core) => PosInner::Wide(core.setup(&raw, to_move)),
        };
        Position {
            inner,
            engine: self.id,
        }
    }

    /// `position` with the other side to move (the pieces and their history unchanged): what
    /// the position would offer the side that just moved.
    /// A berserk move due in `position` is dropped: the side given moves freely.
    /// A position this engine does not own is returned as it is: its berserker square indexes
    /// another board's tables.
    pub fn with_side_to_move(&self, position: &Position, side: Side) -> Position {
        let mut flipped = *position;
        if !self.owns(position) {
            return flipped;
        }
        match (&self.inner, &mut flipped.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => core.set_to_move(pos, side),
            (Inner::Wide(core), PosInner::Wide(pos)) => core.set_to_move(pos, side),
            // An owned position always has this engine's width.
            _ => {}
        }
        flipped
    }

    /// How `position` already stands decided, before anyone moves in it: a piece stands on a
    /// square its escape rule wins on, a piece whose capture decides is missing from the board,
    /// or the side to move has no legal move. `None` for a position where play goes on.
    pub fn standing_ending(&self, position: &Position) -> Option<Ending> {
        if !self.owns(position) {
            return None;
        }
        let pieces = self.pieces(position);
        let kind_of = |name: &str| self.rules.pieces.iter().position(|p| p.name == name);
        for (i, escape) in self.rules.outcome.escapes.iter().enumerate() {
            let (Some(kind), Some(region)) =
                (kind_of(&escape.piece), self.rules.region(&escape.region))
            else {
                continue;
            };
            if pieces
                .iter()
                .any(|(square, k)| *k == kind && region.squares.contains(square))
            {
                let reason = if self.rules.pieces[kind].role == crate::ir::Role::King {
                    EndReason::KingEscaped
                } else {
                    EndReason::PieceEscaped
                };
                return Some(Ending {
                    outcome: GameOutcome::Win(escape.winner),
                    reason,
                    rule: Some(RuleRef::Escape(i)),
                });
            }
        }
        let start = self.pieces(&self.start);
        for (i, capture) in self.rules.outcome.decisive_captures.iter().enumerate() {
            let Some(kind) = kind_of(&capture.piece) else {
                continue;
            };
            let present = |list: &[(Square, usize)]| list.iter().any(|(_, k)| *k == kind);
            if present(&start) && !present(&pieces) {
                let reason = if self.rules.pieces[kind].role == crate::ir::Role::King {
                    EndReason::KingCaptured
                } else {
                    EndReason::LeaderCaptured
                };
                return Some(Ending {
                    outcome: GameOutcome::Win(capture.winner),
                    reason,
                    rule: Some(RuleRef::DecisiveCapture(i)),
                });
            }
        }
        let board = match (&self.inner, &position.inner) {
            (Inner::Narrow(core), PosInner::Narrow(pos)) => core.board_ending(pos, None),
            (Inner::Wide(core), PosInner::Wide(pos)) => core.board_ending(pos, None),
            // `owns` above guarantees the position was made by this engine's width.
            _ => None,
        };
        if board.is_some() {
            return board;
        }
        (!self.has_moves(position)).then(|| self.no_moves_ending(position))
    }

    /// The square of the piece that has just captured and must move again (a berserk move),
    /// if one is due in `position`; its side is the side to move.
    pub fn berserker(&self, position: &Position) -> Option<Square> {
        let berserker = match &position.inner {
            PosInner::Narrow(pos) => pos.berserker,
            PosInner::Wide(pos) => pos.berserker,
        };
        (berserker != core::NONE && self.owns(position))
            .then(|| self.square(usize::from(berserker)))
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
        with_core!(self, position, |core, pos| core.full_hash(pos), else 0)
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
        with_core!(self, position, |core, pos| core.piece_on(pos, index), else None)
    }

    /// Every piece: its square and kind (index into `Rules::pieces`), by rank then file.
    pub fn pieces(&self, position: &Position) -> Vec<(Square, usize)> {
        let squares = usize::from(self.width()) * usize::from(self.height());
        with_core!(self, position, |core, pos| (0..squares)
            .filter_map(|sq| core.piece_on(pos, sq).map(|k| (self.square(sq), k)))
            .collect(), else Vec::new())
    }

    /// The legal moves of the side to move, sorted by from-square then to-square (file, rank).
    /// A position where the game has ended still has moves here: the game layer knows it ended.
    pub fn legal_moves(&self, position: &Position) -> Vec<Move> {
        let mut raw = Vec::new();
        with_core!(self, position, |core, pos| core.gen_moves(pos, &mut raw), else ());
        let mut moves: Vec<Move> = raw
            .iter()
            .map(|m| Move::new(self.square(m.from.into()), self.square(m.to.into())))
            .collect();
        moves.sort_by_key(|m| (m.from.file, m.from.rank, m.to.file, m.to.rank));
        moves
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

    /// Plays `mv`, which must be legal (check with [`Engine::is_legal`]), and returns the new
    /// position and what the move did: its captures and the ending the move itself makes. No
    /// history is given, so no repetition is judged, and "no legal move" is left to the next
    /// turn: [`Engine::step`] judges both.
    ///
    /// Never panics. A move with a square off the board, or without a piece of the side to move
    /// on its from-square, or a position of another engine, leaves the position unchanged with
    /// no effects; any other illegal move gives a position that may break the rules.
    pub fn play_unchecked(&self, position: &Position, mv: Move) -> (Position, MoveEffects) {
        self.ply(position, mv, &[], false)
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
        let history: Vec<u64> = earlier
            .iter()
            .chain(std::iter::once(position))
            .map(|p| self.hash(p))
            .collect();
        self.ply(position, mv, &history, true)
    }

    /// [`Core::step`] at this engine's width, with the checks that keep it panic-free; `history`
    /// ends with `position`'s hash, and `judge_next_turn` adds the no-moves ending.
    fn ply(
        &self,
        position: &Position,
        mv: Move,
        history: &[u64],
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
                self.judged(core, pos, raw, history, judge_next_turn)
            }
            (Inner::Wide(core), PosInner::Wide(pos)) => {
                self.judged(core, pos, raw, history, judge_next_turn)
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
        history: &[u64],
        judge_next_turn: bool,
    ) -> (Vec<Square>, Option<Ending>) {
        let step = core.step(pos, mv, history);
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
