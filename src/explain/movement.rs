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
    passing(words, section, access);
}

/// For each region some pieces may not land on but may pass over: that they may cross it
/// while it is empty (a player asks this of the throne at the table). A region whose squares are
/// all corners of the board is left out: no line crosses a corner.
fn passing(words: &Words, section: &mut Section, access: &[AccessRule]) {
    let board = &words.rules.board;
    let mut regions: Vec<&str> = Vec::new();
    for rule in access {
        if !regions.contains(&rule.region.as_str()) {
            regions.push(&rule.region);
        }
    }
    for region in regions {
        let crossable = words.rules.region(region).is_some_and(|found| {
            found.squares.iter().any(|square| {
                let edge_file = square.file == 0 || square.file + 1 == board.width;
                let edge_rank = square.rank == 0 || square.rank + 1 == board.height;
                !(edge_file && edge_rank)
            })
        });
        if !crossable {
            continue;
        }
        let barred = |actions: &[Action]| -> Vec<usize> {
            access
                .iter()
                .enumerate()
                .filter(|(_, rule)| {
                    rule.region == region
                        && rule.condition == AccessCondition::Always
                        && actions.contains(&rule.action)
                })
                .map(|(index, _)| index)
                .collect()
        };
        let landing = barred(&[Action::Land, Action::Enter]);
        let passing = barred(&[Action::Pass, Action::Enter]);
        let names = |rules: &[usize]| -> Vec<String> {
            let mut names: Vec<String> = Vec::new();
            for rule in rules {
                for piece in &access[*rule].pieces {
                    if !names.contains(piece) {
                        names.push(piece.clone());
                    }
                }
            }
            names
        };
        let no_passing = names(&passing);
        let passers: Vec<String> = (words.rules.pieces.iter())
            .map(|piece| piece.name.clone())
            .filter(|name| names(&landing).contains(name) && !no_passing.contains(name))
            .collect();
        if passers.is_empty() {
            continue;
        }
        let several = words
            .rules
            .region(region)
            .is_some_and(|found| found.squares.len() > 1);
        section.push_for(
            format!(
                "{} may pass over {} while {}, without stopping there.",
                capitalise(&words.pieces(&passers)),
                words.region(region),
                if several {
                    "they are empty"
                } else {
                    "it is empty"
                }
            ),
            landing.into_iter().map(RuleRef::Access),
        );
    }
}
