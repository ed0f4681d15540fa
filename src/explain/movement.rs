//! Movement and access: how each kind moves, and where pieces may not go.

use super::words::Words;
use super::{movement_words, Section};
use crate::english::capitalise;
use crate::ir::{AccessCondition, AccessRule, Action, JumpRule, PieceKind, RuleRef};

/// How each kind moves ("Every piece moves ..." when they all move alike), and whether any
/// piece goes over another.
pub(super) fn movement(
    words: &Words,
    section: &mut Section,
    pieces: &[PieceKind],
    jumps: &[JumpRule],
) {
    let same_movement = pieces
        .windows(2)
        .all(|pair| pair[0].movement == pair[1].movement);
    for (index, piece) in pieces.iter().enumerate() {
        let how = movement_words(piece.movement);
        if same_movement {
            let all = (0..pieces.len()).map(RuleRef::Movement);
            section.push_for(format!("Every piece moves {how}."), all);
            break;
        }
        section.push_for(
            format!("{} moves {how}.", words.piece_plural(&piece.name)),
            [RuleRef::Movement(index)],
        );
    }
    if jumps.is_empty() {
        section.push("No piece jumps over another or lands on an occupied square.".to_string());
    } else {
        section.push(
            "No piece lands on an occupied square, and only the jumps below go over a piece."
                .to_string(),
        );
    }
}

/// Who may not land on or pass over which squares.
pub(super) fn access(words: &Words, section: &mut Section, access: &[AccessRule]) {
    for (index, rule) in access.iter().enumerate() {
        let what = match rule.action {
            Action::Land => "land on",
            Action::Pass => "pass over",
            Action::Enter => "land on or pass over",
        };
        let when = match rule.condition {
            AccessCondition::Always => String::new(),
            AccessCondition::OnceLeft => {
                " once they have left them (or if they never stood there)".to_string()
            }
            AccessCondition::WhileGroupEmpty => {
                " while no piece stands in that group of squares".to_string()
            }
        };
        let who = words.pieces(&rule.pieces);
        let region = words.region(&rule.region);
        let sentence = if who == "every piece" {
            format!("No piece may {what} {region}{when}.")
        } else {
            let allowed = words.complement(&rule.pieces);
            // A conditional ban leaves the others free only while the condition lasts: say nothing.
            let others = if allowed.is_empty() || rule.condition != AccessCondition::Always {
                String::new()
            } else {
                format!(" (only {allowed} may)")
            };
            format!(
                "{} may not {what} {region}{when}{others}.",
                capitalise(&who)
            )
        };
        section.push_for(sentence, [RuleRef::Access(index)]);
    }
}
