//! Forts: the king wins by holding an unbreakable fort on the edge.

use super::words::Words;
use super::Section;
use crate::english::side_verb;
use crate::ir::{EdgeFort, RuleRef};

/// One sentence an edge fort.
pub(super) fn edge_forts(words: &Words, section: &mut Section, forts: &[EdgeFort]) {
    for (index, fort) in forts.iter().enumerate() {
        section.push_for(
            format!(
                "{} when {} stands on the edge of the board in a fort: he can move, and the enemy can neither capture a piece of the wall around him nor get in.",
                side_verb(words.rules, fort.winner, "win"),
                words.piece_plural(&fort.piece)
            ),
            [RuleRef::EdgeFort(index)],
        );
    }
}
