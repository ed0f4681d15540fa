//! King capture: where and how each king is taken, kings taken between two captors, and the
//! captures that end the game.

use super::words::Words;
use super::Section;
use crate::english::side_verb;
use crate::english::{join_or, squares};
use crate::ir::{
    DecisiveCapture, KingCaptureMethod, KingCaptureRule, KingSandwich, Place, Role, RuleRef,
};

/// The "Capturing the King" section: one sentence a place, then the sandwiches.
pub(super) fn section(
    words: &Words,
    king_capture: &[KingCaptureRule],
    king_sandwiches: &[KingSandwich],
) -> Section {
    let kings: Vec<String> = words
        .rules
        .pieces
        .iter()
        .filter(|piece| piece.role == Role::King)
        .map(|piece| piece.name.clone())
        .collect();
    let mut king = Section::new("king", &format!("Capturing {}", words.pieces(&kings)));
    if kings.is_empty() {
        return king;
    }
    let only_rule = king_capture.len() == 1;
    for (index, rule) in king_capture.iter().enumerate() {
        king.push_for(
            place_sentence(words, rule, only_rule),
            [RuleRef::KingCapture(index)],
        );
    }
    for (index, rule) in king_sandwiches.iter().enumerate() {
        let captors = words.pieces_or(&rule.captors);
        let mut second = vec!["another such piece".to_string()];
        second.extend(rule.counting.iter().map(|region| words.destination(region)));
        let except = if rule.except_on.is_empty() {
            String::new()
        } else {
            let regions: Vec<String> = rule
                .except_on
                .iter()
                .map(|region| words.region(region))
                .collect();
            format!(", except on {}", join_or(&regions))
        };
        king.push_for(
            format!(
                "Also: {} is captured when {captors} moves next to him and {} stands on the opposite side{except}.",
                words.pieces_or(&rule.kings),
                join_or(&second)
            ),
            [RuleRef::KingSandwich(index)],
        );
    }
    king
}

/// How the king is captured on the squares of one rule.
fn place_sentence(words: &Words, rule: &KingCaptureRule, only_rule: bool) -> String {
    let place = match &rule.place {
        Place::On(region) => format!("On {}", words.region(region)),
        Place::Beside(region) => {
            format!("Beside the {region} ({})", squares(&rule.squares))
        }
        Place::Elsewhere if only_rule => "Anywhere".to_string(),
        Place::Elsewhere => "Elsewhere".to_string(),
    };
    let mut counting: Vec<String> = rule
        .counting
        .iter()
        .map(|region| words.region(region))
        .collect();
    if rule.edge_counts {
        counting.push("the board's edge".to_string());
    }
    let each = if counting.len() > 1 { " each" } else { "" };
    let method = match rule.method {
        KingCaptureMethod::Custodial => {
            "captured like any other piece, between two enemies".to_string()
        }
        KingCaptureMethod::Enclosed if counting.is_empty() => {
            "captured when enemies surround him on all four sides".to_string()
        }
        KingCaptureMethod::Enclosed => format!(
            "captured when surrounded on all four sides, {}{each} counting as a side",
            counting.join(" and ")
        ),
        KingCaptureMethod::EnclosedTogether => {
            let name = match &rule.place {
                Place::Beside(region) | Place::On(region) => region.as_str(),
                // The IR allows this method only beside a region.
                Place::Elsewhere => "square",
            };
            let counted = if counting.is_empty() {
                String::new()
            } else {
                format!(", {}{each} counting as a side", counting.join(" and "))
            };
            format!(
                "captured when enemies surround him and the empty {name} beside him together, on his three other sides and the {name}'s three other sides (six enemies on an open board){counted}; the {name} counts as a side by itself only when an enemy holds it or it is hostile to him"
            )
        }
    };
    let own_move = if rule.after_own_move {
        ", even when he moves into the enclosure himself"
    } else {
        ""
    };
    format!("{place}: {method}{own_move}.")
}

/// The captures that win the game.
pub(super) fn decisive(words: &Words, section: &mut Section, captures: &[DecisiveCapture]) {
    for (index, capture) in captures.iter().enumerate() {
        section.push_for(
            format!(
                "{} when {} is captured.",
                side_verb(words.rules, capture.winner, "win"),
                words.piece_plural(&capture.piece)
            ),
            [RuleRef::DecisiveCapture(index)],
        );
    }
}
