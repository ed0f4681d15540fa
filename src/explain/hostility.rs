//! Hostility: squares that stand in for a captor.

use std::fmt::Write as _;

use super::words::Words;
use super::Section;
use crate::english::count;
use crate::ir::{Hostile, HostilityRule, RuleRef};

/// One sentence a hostility rule.
pub(super) fn hostility(words: &Words, section: &mut Section, hostility: &[HostilityRule]) {
    for (index, rule) in hostility.iter().enumerate() {
        let when = match &rule.when {
            Hostile::Always => String::new(),
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
        section.push_for(
            format!(
                "{}{when} {} hostile to {}: it can stand in for one of the two captors.",
                words.region(&rule.region),
                if words
                    .rules
                    .region(&rule.region)
                    .is_some_and(|region| region.squares.len() > 1)
                {
                    "are"
                } else {
                    "is"
                },
                words.pieces(&rule.victims)
            ),
            [RuleRef::Hostility(index)],
        );
    }
}
