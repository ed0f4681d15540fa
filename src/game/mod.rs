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
pub mod describe;
pub mod notation;

use std::fmt;
use std::sync::Arc;

use crate::engine::{
    EndReason, Ending, Engine, GameOutcome, IllegalReason, Move, Position, Repetitions,
};
use crate::ir::RuleRef;
use crate::ir::{Side, Square};

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
    /// The side that made it. Sides alternate, except that a berserk move gives the side that
    /// just captured the next move too.
    pub mover: Side,
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

impl Status {
    /// The status a game with this ending (or none) has.
    pub const fn of(ending: Option<Ending>) -> Status {
        match ending {
            None => Status::Ongoing,
            Some(Ending {
                outcome: GameOutcome::Win(Side::Attackers),
                ..
            }) => Status::AttackersWin,
            Some(Ending {
                outcome: GameOutcome::Win(Side::Defenders),
                ..
            }) => Status::DefendersWin,
            Some(Ending {
                outcome: GameOutcome::Draw,
                ..
            }) => Status::Draw,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a draw cannot be claimed, offered or agreed now, or a side cannot resign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// No claimable rule holds in this position.
    #[error("no draw can be claimed in this position")]
    NothingToClaim,
    /// The variant does not allow draws by agreement.
    #[error("this variant does not allow a draw by agreement")]
    NoAgreement,
    /// The side to move has already offered a draw, which still stands.
    #[error("a draw has already been offered; the other side may accept it on their turn")]
    AlreadyOffered,
    /// There is no offer from the other side to accept.
    #[error("no draw has been offered")]
    NoOffer,
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
}

/// What [`Game::undo`] took back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undone {
    /// An ending the players declared (a claim, an agreed draw, a resignation); the plies stay.
    Declared(Ending),
    /// The last ply.
    Ply(Ply),
}

/// A game in progress: the engine, every position since the start, the plies played, and what
/// the players said (a standing draw offer, a claim, an agreement, a resignation).
#[derive(Clone, Debug)]
pub struct Game {
    engine: Arc<Engine>,
    /// `positions[i]` is the position before ply `i`; the last one is the current position.
    positions: Vec<Position>,
    /// The positions since the last capture, counted by hash, where the variant has an
    /// automatic repetition rule (empty otherwise): a lookup a ply judges repetition, so a
    /// long game without captures costs linear time.
    repetitions: Repetitions,
    plies: Vec<Ply>,
    /// How the first position already stands decided (no move for the side to move, the king
    /// already on an escape square): the game is over before any ply.
    decided_at_start: Option<Ending>,
    /// An ending the players declared: a claimed or agreed draw, or a resignation.
    declared: Option<Ending>,
    /// The side whose draw offer stands, and the ply count when it was made.
    draw_offer: Option<(Side, usize)>,
}

impl Game {
    /// A game from the variant's start position.
    pub fn new(engine: Arc<Engine>) -> Game {
        let start = engine.start();
        Game::from_position(engine, start)
    }

    /// A game from `position`; repetitions count from it. A position that is already decided
    /// (see [`Engine::standing_ending`]) gives a game that is already over.
    pub fn from_position(engine: Arc<Engine>, position: Position) -> Game {
        let decided_at_start = engine.standing_ending(&position);
        let mut repetitions = Repetitions::new();
        if engine.tracks_repetition() {
            repetitions.enter(engine.hash(&position), true);
        }
        Game {
            engine,
            positions: vec![position],
            repetitions,
            plies: Vec::new(),
            decided_at_start,
            declared: None,
            draw_offer: None,
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

    /// The number of the move being played, counting from 1 and a move of each side as one
    /// (chess style); a berserk turn of several plies is one move.
    pub fn move_number(&self) -> usize {
        let mut turns = 0;
        let mut last = None;
        for ply in &self.plies {
            if last != Some(ply.mover) {
                turns += 1;
            }
            last = Some(ply.mover);
        }
        // A turn still going on (a berserk move due) is not complete.
        if last == Some(self.to_move()) {
            turns -= 1;
        }
        turns / 2 + 1
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.engine.to_move(self.position())
    }

    /// Every position since the game's first, the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The plies played, in order.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// How the game ended, if it has: by a declaration, by the last ply, or at the start.
    pub fn ending(&self) -> Option<Ending> {
        self.declared
            .or_else(|| self.plies.last().and_then(|ply| ply.ending))
            .or(self.decided_at_start)
    }

    /// The ending the players declared (claim, agreement, resignation), if any.
    pub fn declared(&self) -> Option<Ending> {
        self.declared
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        Status::of(self.ending())
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

    /// Whether `mv` is legal now, and if not, why: move generation decides (the one legality),
    /// [`Engine::why_illegal`] only explains a refusal.
    ///
    /// # Errors
    /// [`IllegalMove`] when the move breaks a rule or the game is over.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove {
                mv,
                reason: IllegalReason::GameOver,
                rule: None,
            });
        }
        self.engine
            .check_move(self.position(), mv)
            .map_err(|(reason, rule)| IllegalMove { mv, reason, rule })
    }

    /// Plays `mv`. A move by the side that did not offer a standing draw declines the offer.
    ///
    /// # Errors
    /// [`IllegalMove`] when the move breaks a rule or the game is over; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<&Ply, IllegalMove> {
        self.check(mv)?;
        let mover = self.to_move();
        // `positions` starts with one entry and `undo` never removes the first.
        let current = self.position();
        let (next, effects) = self.engine.step_counted(current, mv, &self.repetitions);
        if self.engine.tracks_repetition() {
            let after_capture = self.engine.quiet_plies(&next) == 0;
            self.repetitions
                .enter(self.engine.hash(&next), after_capture);
        }
        self.positions.push(next);
        let ending = effects.ending;
        if matches!(self.draw_offer, Some((offerer, _)) if offerer != mover) {
            self.draw_offer = None;
        }
        self.plies.push(Ply {
            mv,
            mover,
            captured: effects.captured,
            ending,
        });
        // Just pushed.
        Ok(self.plies.last().expect("a ply was just pushed"))
    }

    /// Takes back the declared ending if there is one (the plies stay), otherwise the last ply.
    /// A standing draw offer lapses. `None` when there is nothing to take back.
    pub fn undo(&mut self) -> Option<Undone> {
        let undone = if let Some(ending) = self.declared.take() {
            Undone::Declared(ending)
        } else {
            let ply = self.plies.pop()?;
            // A ply was played, so a position beside the first is there to take back.
            let left = self.positions.pop().expect("a ply leaves a position");
            if self.engine.tracks_repetition() {
                self.uncount(&left);
            }
            Undone::Ply(ply)
        };
        self.draw_offer = None;
        Some(undone)
    }

    /// Takes `left`, the position just taken back, out of the repetition count: one fewer of
    /// it, or, where the move to it captured, the positions since the capture before counted
    /// again (the only pass over them, and only when a capture is taken back).
    fn uncount(&mut self, left: &Position) {
        if self.engine.quiet_plies(left) > 0 {
            self.repetitions.leave(self.engine.hash(left));
            return;
        }
        let current = self.position();
        let back = (self.engine.quiet_plies(current) as usize).min(self.positions.len() - 1);
        let since = &self.positions[self.positions.len() - 1 - back..];
        self.repetitions
            .recount(since.iter().map(|p| self.engine.hash(p)));
    }

    /// Whether the side to move may claim a draw now (a claimable repetition or move limit).
    pub fn can_claim_draw(&self) -> bool {
        self.claimable().is_some()
    }

    /// The claimable draw that holds now, if any.
    fn claimable(&self) -> Option<Ending> {
        if self.is_over() {
            return None;
        }
        let (reason, rule) = if self.engine.repetition_claimable(self.occurrences()) {
            (EndReason::Repetition, RuleRef::Repetition)
        } else if self.engine.move_limit_claimable(self.position()) {
            (EndReason::MoveLimit, RuleRef::NoCaptureDraw)
        } else {
            return None;
        };
        Some(Ending {
            outcome: GameOutcome::Draw,
            reason,
            rule: Some(rule),
        })
    }

    /// Claims a draw.
    ///
    /// # Errors
    /// [`DrawError`] when no claimable rule holds or the game is over.
    pub fn claim_draw(&mut self) -> Result<Ending, DrawError> {
        if self.is_over() {
            return Err(DrawError::GameOver);
        }
        let ending = self.claimable().ok_or(DrawError::NothingToClaim)?;
        self.declared = Some(ending);
        Ok(ending)
    }

    /// The side whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer.map(|(side, _)| side)
    }

    /// The side to move offers a draw. The offer stands through the offerer's next move; the
    /// other side accepts it with [`Game::accept_draw`] on their turn, or declines by moving.
    ///
    /// # Errors
    /// [`DrawError`] when the variant has no draw by agreement, this side's offer already
    /// stands, or the game is over.
    pub fn offer_draw(&mut self) -> Result<(), DrawError> {
        self.agreement_allowed()?;
        let side = self.to_move();
        if self.draw_offer() == Some(side) {
            return Err(DrawError::AlreadyOffered);
        }
        self.draw_offer = Some((side, self.plies.len()));
        Ok(())
    }

    /// The side to move accepts the other side's standing draw offer: the game is drawn.
    ///
    /// # Errors
    /// [`DrawError`] when no offer by the other side stands, or the game is over.
    pub fn accept_draw(&mut self) -> Result<Ending, DrawError> {
        self.agreement_allowed()?;
        if self.draw_offer() != Some(self.to_move().opponent()) {
            return Err(DrawError::NoOffer);
        }
        self.agree_draw()
    }

    /// Both players agree a draw at once, as at a board (no offer needed).
    ///
    /// # Errors
    /// [`DrawError`] when the variant has no draw by agreement or the game is over.
    pub fn agree_draw(&mut self) -> Result<Ending, DrawError> {
        self.agreement_allowed()?;
        let ending = Ending {
            outcome: GameOutcome::Draw,
            reason: EndReason::Agreement,
            rule: Some(RuleRef::DrawByAgreement),
        };
        self.draw_offer = None;
        self.declared = Some(ending);
        Ok(ending)
    }

    fn agreement_allowed(&self) -> Result<(), DrawError> {
        if self.is_over() {
            Err(DrawError::GameOver)
        } else if !self.engine.rules().outcome.draw_by_agreement {
            Err(DrawError::NoAgreement)
        } else {
            Ok(())
        }
    }

    /// `side` resigns (on its turn or not): the other side wins.
    ///
    /// # Errors
    /// [`DrawError::GameOver`] when the game is already over.
    pub fn resign(&mut self, side: Side) -> Result<Ending, DrawError> {
        if self.is_over() {
            return Err(DrawError::GameOver);
        }
        let ending = Ending {
            outcome: GameOutcome::Win(side.opponent()),
            reason: EndReason::Resignation,
            rule: None,
        };
        self.draw_offer = None;
        self.declared = Some(ending);
        Ok(ending)
    }

    /// Ends the game as a record declares it (a resignation, a claimed or an agreed draw),
    /// checked like the players' own declarations.
    ///
    /// # Errors
    /// [`DrawError`] when the declaration is not allowed now.
    pub fn declare(&mut self, ending: Ending) -> Result<Ending, DrawError> {
        match (ending.reason, ending.outcome) {
            (EndReason::Resignation, GameOutcome::Win(winner)) => self.resign(winner.opponent()),
            (EndReason::Agreement, GameOutcome::Draw) => self.agree_draw(),
            (EndReason::Repetition | EndReason::MoveLimit, GameOutcome::Draw) => {
                let claimed = self.claimable().ok_or(DrawError::NothingToClaim)?;
                if claimed.reason != ending.reason {
                    return Err(DrawError::NothingToClaim);
                }
                self.claim_draw()
            }
            _ => Err(DrawError::NothingToClaim),
        }
    }
}

/// Whether two positions have the same pieces on the same squares and the same side to move
/// (what repetition compares; the positions' bookkeeping may differ).
fn same_pieces(engine: &Engine, a: &Position, b: &Position) -> bool {
    engine.to_move(a) == engine.to_move(b) && engine.pieces(a) == engine.pieces(b)
}
