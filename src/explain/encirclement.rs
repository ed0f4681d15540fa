//! Encirclement: a side wins by shutting the other away from the edge.

use super::words::Words;
use super::Section;
use crate::english::{side_noun, side_verb};
use crate::ir::{Encirclement, EncirclementReading, RuleRef};

/// One sentence an encirclement rule.
pub(super) fn encirclements(words: &Words, section: &mut Section, encirclements: &[Encirclement]) {
    for (index, encirclement) in encirclements.iter().enumerate() {
        let enclosed = side_noun(words.rules, encirclement.winner.opponent());
        let how = match encirclement.reading {
            EncirclementReading::NoEdgeAccess => format!(
                "they enclose {enclosed}: none of them stands on the edge of the board or can reach it, an unbroken ring holding them all"
            ),
            EncirclementReading::EverySurrounded => format!(
                "no piece of {enclosed}, king included, has an empty square beside it"
            ),
        };
        section.push_for(
            format!(
                "{} when {how}.",
                side_verb(words.rules, encirclement.winner, "win")
            ),
            [RuleRef::Encirclement(index)],
        );
    }
}
