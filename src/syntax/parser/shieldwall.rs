//! Shieldwall: a row along the edge taken at once.

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;

/// `soldiers are captured in a shieldwall, counting corners`
pub(super) fn shieldwall(mut parts: Parts<'_>) -> ClauseKind {
    let victims = parse_piece_set(parts.required());
    let mut counting = Vec::new();
    let mut after_any_move = None;
    for part in parts.rest() {
        match part.as_rule() {
            Rule::counting => counting.extend(part.into_inner().map(parse_region_ref)),
            Rule::after_any_move => after_any_move = Some(span_of(&part)),
            other => unreachable!("{other:?} in a shieldwall clause"),
        }
    }
    ClauseKind::Shieldwall {
        victims,
        counting,
        after_any_move,
    }
}
