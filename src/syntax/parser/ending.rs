//! Reaching (escape), forts and decisive captures, which share the win clause, and the
//! announcements of open routes.

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;

/// `defenders win when the king reaches a corner` (reaching), `... holds an edge fort`
/// (forts), `attackers win when the king is captured` (king capture).
pub(super) fn win(mut parts: Parts<'_>) -> ClauseKind {
    let side = parse_side(parts.required());
    let pieces = parse_piece_set(parts.required());
    let event = parts.required();
    let event = match event.as_rule() {
        Rule::reaches => WinEvent::Reaches(parse_region_ref(first_child(event))),
        Rule::holds_fort => WinEvent::HoldsFort(span_of(&event)),
        Rule::is_captured => WinEvent::Captured(span_of(&event)),
        other => unreachable!("{other:?} as a winning event"),
    };
    ClauseKind::Win {
        side,
        pieces,
        event,
    }
}

/// `announce "raichi" when the king has 1 clear route to corners`
pub(super) fn announce(mut parts: Parts<'_>) -> ClauseKind {
    let word = parse_string(parts.required());
    let piece = spanned_str(&first_child(parts.required()));
    let routes = parse_number(parts.required());
    let region = parse_region_ref(parts.required());
    ClauseKind::Announce {
        word,
        piece,
        routes,
        region,
    }
}
