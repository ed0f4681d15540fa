//! Endings judged on the board: reaching an escape square, encirclement, and the rules that
//! end a game by repetition or for want of a move.

use super::{Core, Pos};
use crate::engine::bitboard::Bits;
use crate::engine::{EndReason, Ending, GameOutcome};
use crate::ir::{Claim, EncirclementReading, NoMoves, RepetitionResult, RuleRef, Side};

impl<B: Bits> Core<B> {
    /// Whether some piece of `loser` can ever reach the board's edge, stepping through `passable`
    /// squares and, for the kinds that jump, jumping the enemies they may jump (a knight can jump
    /// out of a ring of men).
    pub(super) fn reaches_edge(&self, pos: &Pos<B>, loser: Side, passable: B) -> bool {
        let seeds = pos.sides[loser.index()];
        let jumpers: Vec<usize> = self.side_kinds[loser.index()]
            .iter()
            .copied()
            .filter(|&k| self.jumps[k].is_some() && pos.pieces[k].any())
            .collect();
        if jumpers.is_empty() {
            return self.steps.reaches(seeds, passable, self.edge);
        }
        // Per jumping kind, the squares one of its pieces can get to; they grow with each jump.
        let mut reach: Vec<B> = jumpers
            .iter()
            .map(|&k| self.flood(pos.pieces[k], passable))
            .collect();
        let mut region = self.flood(seeds, passable);
        loop {
            for &r in &reach {
                region |= r;
            }
            if (region & self.edge).any() {
                return true;
            }
            let mut grew = false;
            for (i, &k) in jumpers.iter().enumerate() {
                let Some(jump) = &self.jumps[k] else { continue };
                let jumpable = self.jumpable(pos, jump);
                // A landing square the winner holds or the jumper may never land on blocks.
                let blocked = !passable | self.land_always[k];
                let mut landed = B::EMPTY;
                for from in reach[i].iter() {
                    landed |= self.jump_landings(jump, jumpable, from, blocked);
                }
                if (landed & !reach[i]).any() {
                    reach[i] = self.flood(reach[i] | landed, passable);
                    grew = true;
                }
            }
            if !grew {
                return false;
            }
        }
    }

    /// The ending that stands in `pos` by a fort or an encirclement, if any. `mover` is the side
    /// whose move led to `pos`, when known: the enclosed side's own rook moves and captures can
    /// only widen its way to the edge, so the no-edge-access reading is not checked after them
    /// (unless one of its pieces flies, and could fly into an enclosure).
    pub fn board_ending(&self, pos: &Pos<B>, mover: Option<Side>) -> Option<Ending> {
        for fort in &self.forts {
            for king in pos.pieces[fort.kind].iter() {
                if self.holds_fort(pos, fort.kind, king) {
                    return Some(Ending {
                        outcome: GameOutcome::Win(fort.winner),
                        reason: EndReason::EdgeFort,
                        rule: Some(RuleRef::EdgeFort(fort.rule)),
                    });
                }
            }
        }
        for (rule, &(winner, reading)) in self.encirclements.iter().enumerate() {
            let enclosed = pos.sides[winner.opponent().index()];
            if enclosed.is_empty() {
                continue;
            }
            let holds = match reading {
                EncirclementReading::NoEdgeAccess => {
                    let loser = winner.opponent();
                    (mover != Some(loser) || self.flies[loser.index()])
                        && !self.reaches_edge(pos, loser, self.board & !pos.sides[winner.index()])
                }
                EncirclementReading::EverySurrounded => {
                    let empty = self.board & !pos.occupied();
                    (self.beside(enclosed) & empty).is_empty()
                }
            };
            if holds {
                return Some(Ending {
                    outcome: GameOutcome::Win(winner),
                    reason: EndReason::Encircled,
                    rule: Some(RuleRef::Encirclement(rule)),
                });
            }
        }
        None
    }

    /// The ending when `stuck`, the side to move, has no legal move.
    pub fn no_moves_ending(&self, stuck: Side) -> Ending {
        let outcome = match self.no_moves.get(stuck) {
            NoMoves::Loses => GameOutcome::Win(stuck.opponent()),
            NoMoves::Draw => GameOutcome::Draw,
        };
        Ending {
            outcome,
            reason: EndReason::NoMoves,
            rule: Some(RuleRef::NoMoves(stuck)),
        }
    }

    /// The ending a repetition causes, for the position just reached by a move of
    /// `to_move.opponent()`, when it occurred `occurrences` times (this time included).
    pub fn repetition_ending(&self, to_move: Side, occurrences: u32) -> Option<Ending> {
        let (needed, result, claim) = self.repetition?;
        if claim != Claim::Automatic || occurrences < needed {
            return None;
        }
        let outcome = match result {
            RepetitionResult::Draw => GameOutcome::Draw,
            RepetitionResult::MoverLoses => GameOutcome::Win(to_move),
            RepetitionResult::MoverWins => GameOutcome::Win(to_move.opponent()),
            RepetitionResult::Loses(loser) => GameOutcome::Win(loser.opponent()),
        };
        Some(Ending {
            outcome,
            reason: EndReason::Repetition,
            rule: Some(RuleRef::Repetition),
        })
    }

    /// Whether an automatic repetition rule exists (so callers need to keep hashes).
    pub fn tracks_repetition(&self) -> bool {
        matches!(self.repetition, Some((_, _, Claim::Automatic)))
    }
}
