//! Hostility: squares that stand in for a captor.

use pest::iterators::Pair;

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `the throne is hostile to everyone when empty`
pub(super) fn hostility(mut parts: Parts<'_>) -> ClauseKind {
    let region = parse_region_ref(parts.required());
    let victims = parse_piece_set(parts.required());
    let when = parts.optional().map(parse_hostile_when);
    ClauseKind::Hostility {
        region,
        victims,
        when,
    }
}

fn parse_hostile_when(pair: Pair<'_, Rule>) -> Spanned<HostileWhen> {
    let span = span_of(&pair);
    let when = match pair.as_rule() {
        Rule::when_empty => HostileWhen::Empty,
        Rule::when_occupied => {
            let mut by = None;
            let mut enemies_beside = None;
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::piece_set => by = Some(parse_piece_set(part)),
                    Rule::enemies_beside => enemies_beside = Some(parse_number(first_child(part))),
                    other => unreachable!("{other:?} in `when occupied`"),
                }
            }
            HostileWhen::Occupied { by, enemies_beside }
        }
        other => unreachable!("{other:?} as a hostility condition"),
    };
    Spanned::new(when, span)
}
