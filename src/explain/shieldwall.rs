//! Shieldwall: a row along the edge taken at once.

use std::fmt::Write as _;

use super::words::Words;
use super::Section;
use crate::english::join_and;
use crate::ir::{RuleRef, Shieldwall, ShieldwallTrigger};

/// The shieldwall rule, if the variant has one.
pub(super) fn shieldwall(words: &Words, section: &mut Section, wall: Option<&Shieldwall>) {
    let Some(wall) = wall else { return };
    let mut brackets = "enemies".to_string();
    if !wall.counting.is_empty() {
        let regions: Vec<String> = wall.counting.iter().map(|r| words.region(r)).collect();
        // Writing into a String cannot fail.
        let _ = write!(brackets, " (or {})", join_and(&regions));
    }
    let trigger = match wall.trigger {
        ShieldwallTrigger::Flanking => {
            "The capturing move must be the one that brackets the row at one end"
        }
        ShieldwallTrigger::AnyMove => {
            "Any move of the capturing side that completes the wall takes it"
        }
    };
    section.push_for(
        format!(
            "Shieldwall: a row of two or more pieces along the board's edge, bracketed at both ends by {brackets} and with an enemy on the square in front of each of them, is captured at once; only {} in the row are taken. {trigger}.",
            words.pieces(&wall.victims)
        ),
        [RuleRef::Shieldwall],
    );
}
