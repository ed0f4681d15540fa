//! A game: an engine, the positions so far and how the game stands.
//!
//! [`Game`] adds what needs the history to the engine: repetition (counted from the game's first
//! position), the no-move rule, claimable draws, undo, and refusals that name the rule.
//!
//! ```
//! # use std::sync::Arc;
//! # use tafl::engine::Engine;
//! # use tafl::game::{Game, Status};
//! let rules = tafl::Variant::bundled("linnaeus").unwrap().rules;
//! let engine = Arc::new(Engine::new(&rules).unwrap());
//! let mut game = Game::new(engine);
//! game.play("e2-c2".parse().unwrap()).unwrap();
//! assert!(game.play("e5-e4".parse().unwrap()).is_err()); // e4 is occupied
//! assert_eq!(game.status(), Status::Ongoing);
//! ```

pub mod announce;
pub mod notation;

use std::fmt;
use std::sync::Arc;

use crate::engine::{EndReason, Ending, Engine, GameOutcome, IllegalReason, Move, Position};
use crate::ir::{Side, Square};
use crate::variant::RuleRef;

/// A refused move. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is illegal: {reason}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it is refused.
    pub reason: IllegalReason,
    /// The rule of the variant that forbids it, when a rule does (cite it with
    /// [`crate::Variant::line_of`] and [`crate::Variant::clause_text`]).
    pub rule: Option<RuleRef>,
}

/// One ply played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// The squares of the pieces it captured, sorted by file then rank.
    pub captured: Vec<Square>,
    /// How the game ended on this ply, if it did.
    pub ending: Option<Ending>,
}

/// How the game stands, in the words of the CLI contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Still being played.
    Ongoing,
    /// The attackers won.
    AttackersWin,
    /// The defenders won.
    DefendersWin,
    /// Drawn.
    Draw,
}

impl Status {
    /// `ongoing`, `attackers_win`, `defenders_win` or `draw`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::AttackersWin => "attackers_win",
            Status::DefendersWin => "defenders_win",
            Status::Draw => "draw",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a draw cannot be claimed or agreed now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// No claimable rule holds in this position.
    #[error("no draw can be claimed in this position")]
    NothingToClaim,
    /// The variant does not allow draws by agreement.
    #[error("this variant does not allow a draw by agreement")]
    NoAgreement,
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
}

/// A game in progress: the engine, every position since the start, and the plies played.
#[derive(Clone, Debug)]
pub struct Game {
    engine: Arc<Engine>,
    /// `positions[i]` is the position before ply `i`; the last one is the current position.
    positions: Vec<Position>,
    plies: Vec<Ply>,
    /// Set when the game ended other than by a ply (no move at the start, claim, agreement).
    ending: Option<Ending>,
}

impl Game {
    /// A game from the variant's start position.
    pub fn new(engine: Arc<Engine>) -> Game {
        let start = engine.start();
        Game::from_position(engine, start)
    }

    /// A game from `position`; repetitions count from it.
    pub fn from_position(engine: Arc<Engine>, position: Position) -> Game {
        let ending = (!engine.has_moves(&position)).then(|| engine.no_moves_ending(&position));
        Game {
            engine,
            positions: vec![position],
            plies: Vec::new(),
            ending,
        }
    }

    /// The engine.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // `positions` starts with one entry and `undo` never removes the first.
        self.positions.last().expect("a game always has a position")
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.engine.to_move(self.position())
    }

    /// The plies played, in order.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
            .or_else(|| self.plies.last().and_then(|ply| ply.ending))
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        match self.ending().map(|e| e.outcome) {
            None => Status::Ongoing,
            Some(GameOutcome::Win(Side::Attackers)) => Status::AttackersWin,
            Some(GameOutcome::Win(Side::Defenders)) => Status::DefendersWin,
            Some(GameOutcome::Draw) => Status::Draw,
        }
    }

    /// Why the game ended, if it has.
    pub fn reason(&self) -> Option<EndReason> {
        self.ending().map(|e| e.reason)
    }

    /// The legal moves of the side to move, sorted; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        self.engine.legal_moves(self.position())
    }

    /// How many times the current position has occurred since the game's first position.
    pub fn occurrences(&self) -> u32 {
        let current = self.position();
        let hash = self.engine.hash(current);
        // The hash finds candidates; comparing the pieces rules out a hash collision.
        self.positions
            .iter()
            .filter(|p| self.engine.hash(p) == hash && same_pieces(&self.engine, p, current))
            .count() as u32
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// [`IllegalMove`] when the move breaks a rule or the game is over; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<&Ply, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove {
                mv,
                reason: IllegalReason::GameOver,
                rule: None,
            });
        }
        if let Some((reason, rule)) = self.engine.why_illegal(self.position(), mv) {
            return Err(IllegalMove { mv, reason, rule });
        }
        let (next, effects) = self.engine.play_unchecked(self.position(), mv);
        self.positions.push(next);
        let mut ending = effects.ending;
        if ending.is_none() {
            ending = self.engine.repetition_ending(&next, self.occurrences());
        }
        if ending.is_none() && !self.engine.has_moves(&next) {
            ending = Some(self.engine.no_moves_ending(&next));
        }
        self.plies.push(Ply {
            mv,
            captured: effects.captured,
            ending,
        });
        // Just pushed.
        Ok(self.plies.last().expect("a ply was just pushed"))
    }

    /// Takes back the last ply (and any claimed or agreed ending). `None` at the first position.
    pub fn undo(&mut self) -> Option<Ply> {
        if self.ending.is_some() && !self.plies.is_empty() {
            self.ending = None;
        }
        let ply = self.plies.pop()?;
        self.positions.pop();
        Some(ply)
    }

    /// Whether the side to move may claim a draw now (a claimable repetition or move limit).
    pub fn can_claim_draw(&self) -> bool {
        !self.is_over()
            && (self.engine.repetition_claimable(self.occurrences())
                || self.engine.move_limit_claimable(self.position()))
    }

    /// Claims a draw.
    ///
    /// # Errors
    /// [`DrawError`] when no claimable rule holds or the game is over.
    pub fn claim_draw(&mut self) -> Result<Ending, DrawError> {
        if self.is_over() {
            return Err(DrawError::GameOver);
        }
        let reason = if self.engine.repetition_claimable(self.occurrences()) {
            EndReason::Repetition
        } else if self.engine.move_limit_claimable(self.position()) {
            EndReason::MoveLimit
        } else {
            return Err(DrawError::NothingToClaim);
        };
        let ending = Ending {
            outcome: GameOutcome::Draw,
            reason,
        };
        self.ending = Some(ending);
        Ok(ending)
    }

    /// Ends the game as a draw by agreement.
    ///
    /// # Errors
    /// [`DrawError`] when the variant has no draw by agreement or the game is over.
    pub fn agree_draw(&mut self) -> Result<Ending, DrawError> {
        if self.is_over() {
            return Err(DrawError::GameOver);
        }
        if !self.engine.rules().outcome.draw_by_agreement {
            return Err(DrawError::NoAgreement);
        }
        let ending = Ending {
            outcome: GameOutcome::Draw,
            reason: EndReason::Agreement,
        };
        self.ending = Some(ending);
        Ok(ending)
    }
}

/// Whether two positions have the same pieces on the same squares and the same side to move
/// (what repetition compares; the positions' bookkeeping may differ).
fn same_pieces(engine: &Engine, a: &Position, b: &Position) -> bool {
    engine.to_move(a) == engine.to_move(b) && engine.pieces(a) == engine.pieces(b)
}
