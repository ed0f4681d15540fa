//! Repetition and draws: a side that cannot move, repeated positions, shuttling, long play
//! without a capture, and draws by agreement.

use super::words::Words;
use super::Section;
use crate::english::count;
use crate::english::{side_noun, side_verb};
use crate::ir::{BySide, Claim, MoveLimit, NoMoves, Repetition, RepetitionResult, RuleRef, Side};

/// The limit on moving back and forth, said under "where pieces may go".
pub(super) fn back_and_forth(section: &mut Section, limit: Option<u32>) {
    if let Some(limit) = limit {
        section.push_for(format!(
            "A piece may move back and forth between the same two squares at most {} in a row; a further such move is not allowed.",
            count(limit as usize, "time")
        ), [RuleRef::BackAndForth]);
    }
}

/// What happens to a side that cannot move: one sentence when both sides share the rule.
pub(super) fn no_moves(words: &Words, section: &mut Section, no_moves: BySide<NoMoves>) {
    if no_moves.attackers == no_moves.defenders {
        section.push_for(
            match no_moves.attackers {
                NoMoves::Loses => "A side that cannot move on its turn loses.",
                NoMoves::Draw => "If a side cannot move on its turn, the game is drawn.",
            }
            .to_string(),
            [
                RuleRef::NoMoves(Side::Attackers),
                RuleRef::NoMoves(Side::Defenders),
            ],
        );
        return;
    }
    for side in Side::BOTH {
        section.push_for(
            match no_moves.get(side) {
                NoMoves::Loses => format!(
                    "If {} cannot move on their turn, they lose.",
                    side_noun(words.rules, side)
                ),
                NoMoves::Draw => format!(
                    "If {} cannot move on their turn, the game is drawn.",
                    side_noun(words.rules, side)
                ),
            },
            [RuleRef::NoMoves(side)],
        );
    }
}

/// The repetition rule, if any.
pub(super) fn repetition(words: &Words, section: &mut Section, repetition: Option<Repetition>) {
    let Some(repetition) = repetition else { return };
    // The count is always said, also for `when a position repeats` (its second time), so that
    // a player need not guess whether "repeats" means two times or three.
    let when = format!(
        "the same position (the same pieces on the same squares, the same side to move) occurs {} times",
        repetition.occurrences
    );
    let what = match (repetition.result, repetition.claim) {
        (RepetitionResult::Draw, Claim::Automatic) => format!("The game is drawn when {when}."),
        (RepetitionResult::Draw, Claim::Claimable) => {
            format!("A player may claim a draw when {when}.")
        }
        (RepetitionResult::MoverLoses, _) => {
            format!("When {when}, the side that made it happen loses.")
        }
        (RepetitionResult::MoverWins, _) => {
            format!("When {when}, the side that made it happen wins.")
        }
        (RepetitionResult::Loses(loser), _) => {
            format!(
                "When {when}, {}, whoever made it happen.",
                side_verb(words.rules, loser, "lose")
            )
        }
    };
    section.push_for(what, [RuleRef::Repetition]);
}

/// The draw after long play without a capture, if any.
pub(super) fn no_capture_draw(section: &mut Section, limit: Option<MoveLimit>) {
    let Some(limit) = limit else { return };
    let what = match limit.claim {
        Claim::Automatic => format!(
            "The game is drawn after {} by each side without a capture.",
            count(limit.moves as usize, "move")
        ),
        Claim::Claimable => format!(
            "A player may claim a draw after {} by each side without a capture.",
            count(limit.moves as usize, "move")
        ),
    };
    section.push_for(what, [RuleRef::NoCaptureDraw]);
}

/// Draws by agreement, when allowed.
pub(super) fn agreement(section: &mut Section, allowed: bool) {
    if allowed {
        section.push_for(
            "The players may agree a draw.".to_string(),
            [RuleRef::DrawByAgreement],
        );
    }
}
