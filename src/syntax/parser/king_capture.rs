//! King capture: where and how a king is taken, and kings taken between two captors.

use pest::iterators::Pair;

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `the king is captured on the throne when surrounded on four sides`
pub(super) fn king_capture(mut parts: Parts<'_>) -> ClauseKind {
    let pieces = parse_piece_set(parts.required());
    let place_pair = parts.required();
    let place_span = span_of(&place_pair);
    let place = match place_pair.as_rule() {
        Rule::place_on => PlaceSpec::On(parse_region_ref(first_child(place_pair))),
        Rule::place_beside => PlaceSpec::Beside(parse_region_ref(first_child(place_pair))),
        Rule::place_anywhere => PlaceSpec::Anywhere,
        Rule::place_elsewhere => PlaceSpec::Elsewhere,
        other => unreachable!("{other:?} as a place of capture"),
    };
    let method_pair = parts.required();
    let method_span = span_of(&method_pair);
    let counting_of = |pair: Pair<'_, Rule>| -> Vec<RegionRef> {
        pair.into_inner()
            .filter(|child| child.as_rule() == Rule::counting)
            .flat_map(|counting| counting.into_inner().map(parse_region_ref))
            .collect()
    };
    let (method, counting) = match method_pair.as_rule() {
        Rule::enclosed => (CaptureSpec::Enclosed, counting_of(method_pair)),
        Rule::together => {
            let region = parse_region_ref(first_child(method_pair.clone()));
            (CaptureSpec::Together(region), counting_of(method_pair))
        }
        Rule::custodial => (CaptureSpec::Custodial, Vec::new()),
        other => unreachable!("{other:?} as a capture method"),
    };
    let own_move = parts.optional().map(|part| span_of(&part));
    ClauseKind::KingCapture {
        pieces,
        place: Spanned::new(place, place_span),
        method: Spanned::new(method, method_span),
        counting,
        own_move,
    }
}

/// `the king is also captured between two commanders`
pub(super) fn sandwich(mut parts: Parts<'_>) -> ClauseKind {
    let kings = parse_piece_set(parts.required());
    let captors = parse_piece_set(parts.required());
    let mut counting = Vec::new();
    let mut except_on = Vec::new();
    for part in parts.rest() {
        match part.as_rule() {
            Rule::counting => counting.extend(part.into_inner().map(parse_region_ref)),
            Rule::except_on => except_on.extend(part.into_inner().map(parse_region_ref)),
            other => unreachable!("{other:?} in a sandwich clause"),
        }
    }
    ClauseKind::Sandwich {
        kings,
        captors,
        counting,
        except_on,
    }
}
