//! Encirclement: a side wins by shutting the other away from the edge.

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;

/// `attackers win when no defender can reach the edge`
pub(super) fn encirclement(mut parts: Parts<'_>) -> ClauseKind {
    let side = parse_side(parts.required());
    let words = parts.required();
    let reading = match words.as_rule() {
        Rule::no_edge_access => EnclosureWords::NoEdgeAccess,
        Rule::every_surrounded => EnclosureWords::EverySurrounded,
        other => unreachable!("{other:?} as an encirclement"),
    };
    let enclosed = parse_side(first_child(words));
    ClauseKind::Encirclement {
        side,
        enclosed,
        reading,
    }
}
