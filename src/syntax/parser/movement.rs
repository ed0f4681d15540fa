//! Movement and access: how pieces move, and who may land on, pass or enter which squares.

use pest::iterators::Pair;

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `the king moves like a rook, at most 3 squares`
pub(super) fn movement(mut parts: Parts<'_>) -> ClauseKind {
    let pieces = parse_piece_set(parts.required());
    let movement = parse_movement(parts.required());
    ClauseKind::Movement { pieces, movement }
}

/// `nobody may land on the throne`
pub(super) fn access(mut parts: Parts<'_>) -> ClauseKind {
    let who = parse_who(parts.required());
    let mut action = parts.required();
    let allowed = action.as_rule() != Rule::negation;
    if !allowed {
        action = parts.required();
    }
    let action = Spanned::new(
        match action.as_rule() {
            Rule::land => AccessAction::Land,
            Rule::pass => AccessAction::Pass,
            Rule::enter => AccessAction::Enter,
            other => unreachable!("{other:?} as an access action"),
        },
        span_of(&action),
    );
    let region = parse_region_ref(parts.required());
    let condition = parts.optional().map(|condition| {
        let when = match condition.as_rule() {
            Rule::once_left => AccessWhen::OnceLeft,
            Rule::while_group_empty => AccessWhen::WhileGroupEmpty,
            other => unreachable!("{other:?} as an access condition"),
        };
        Spanned::new(when, span_of(&condition))
    });
    ClauseKind::Access {
        who,
        allowed,
        action,
        region,
        condition,
    }
}

fn parse_movement(pair: Pair<'_, Rule>) -> Spanned<MovementSpec> {
    let span = span_of(&pair);
    let movement = match pair.as_rule() {
        Rule::rook_move => MovementSpec::Rook {
            max: pair.into_inner().next().map(parse_number),
        },
        Rule::any_empty_move => MovementSpec::AnyEmptySquare,
        other => unreachable!("{other:?} as a movement"),
    };
    Spanned::new(movement, span)
}
