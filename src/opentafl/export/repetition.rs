//! Repetition and draws: `tfr`; the draws OpenTafl does not have.

use super::Exporter;
use crate::ir::{Claim, NoMoves, RepetitionResult, Side};

impl Exporter<'_> {
    /// `tfr`, and every draw rule OpenTafl cannot say.
    pub(super) fn draws(&mut self) {
        let rules = self.rules;
        let outcome = &rules.outcome;
        for (side, result) in [
            (Side::Attackers, outcome.no_moves.attackers),
            (Side::Defenders, outcome.no_moves.defenders),
        ] {
            if result == NoMoves::Draw {
                self.cannot(
                    format!("a draw when the {side} cannot move"),
                    "OpenTafl has no rule for a side that cannot move",
                );
            }
        }
        match outcome.repetition {
            Some(repetition) if repetition.occurrences == 3 && repetition.claim == Claim::Automatic => {
                match repetition.result {
                    RepetitionResult::Draw => {}
                    RepetitionResult::MoverLoses => self.key("tfr", 'w'),
                    RepetitionResult::MoverWins => self.key("tfr", 'l'),
                    RepetitionResult::Loses(side) => self.cannot_but_nearly(
                        format!("the {side} lose on a threefold repetition"),
                        "OpenTafl's threefold rule is a draw, or a loss or win for the side that repeats",
                        "tfr",
                        'w',
                    ),
                }
            }
            Some(repetition) => self.cannot(
                format!(
                    "repetition at {} occurrences{}",
                    repetition.occurrences,
                    if repetition.claim == Claim::Claimable { ", on claim" } else { "" }
                ),
                "OpenTafl's repetition rule acts, by itself, at the third occurrence",
            ),
            None => self.cannot(
                "no repetition rule",
                "OpenTafl always acts on a threefold repetition",
            ),
        }
        if let Some(limit) = outcome.back_and_forth_limit {
            self.cannot(
                format!("back-and-forth limit of {limit}"),
                "OpenTafl has no such limit",
            );
        }
        if let Some(limit) = outcome.no_capture_draw {
            self.cannot(
                format!("draw after {} moves without capture", limit.moves),
                "OpenTafl has no move-count draw",
            );
        }
    }
}
