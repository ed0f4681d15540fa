//! Hostility: squares that stand in for a captor.

use std::fmt::Write as _;

use super::words::Words;
use super::Section;
use crate::english::count;
use crate::ir::{Hostile, HostilityRule, RuleRef};

/// One sentence a hostility rule.
pub(super) fn hostility(words: &Words, section: &mut Section, hostility: &[HostilityRule]) {
    for (index, rule) in hostility.iter().enumerate() {
        let several = words
            .rules
            .region(&rule.region)
            .is_some_and(|region| region.squares.len() > 1);
        let when = match &rule.when {
            // A player asks whether the throne stays hostile with the king on it: say so.
            Hostile::Always => {
                ", empty or occupied (even by a piece of the captured piece's own side),"
                    .to_string()
            }
            Hostile::WhenEmpty => ", while empty,".to_string(),
            Hostile::WhenOccupied { by, enemies_beside } => {
                let who = match words.pieces(by) {
                    every if every == "every piece" => "any piece".to_string(),
                    who => who,
                };
                let mut text = format!(", while {who} stands on it");
                if *enemies_beside > 0 {
                    // Writing into a String cannot fail.
                    let _ = write!(
                        text,
                        " with {} of the captured piece beside it",
                        count(usize::from(*enemies_beside), "enemy")
                    );
                }
                text.push(',');
                text
            }
        };
        let (verb, stands_in) = if several {
            ("are", "each of them can stand in")
        } else {
            ("is", "it can stand in")
        };
        section.push_for(
            format!(
                "{}{when} {verb} hostile to {}: {stands_in} for one of the two captors.",
                words.region(&rule.region),
                words.pieces(&rule.victims)
            ),
            [RuleRef::Hostility(index)],
        );
    }
}
