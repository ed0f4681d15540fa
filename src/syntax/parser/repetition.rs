//! Repetition and draws: a side that cannot move, repeated positions, shuttling, long play
//! without a capture, and draws by agreement.

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `the defenders lose when they cannot move`, `... when a position occurs 3 times`
pub(super) fn side_loses(mut parts: Parts<'_>) -> ClauseKind {
    let side = parse_side(parts.required());
    let condition = parts.required();
    let condition_span = span_of(&condition);
    let condition = match condition.as_rule() {
        Rule::they_cannot_move => SideLossCondition::NoMoves(condition_span),
        Rule::position_repeats => SideLossCondition::Repetition(Spanned::new(2, condition_span)),
        Rule::position_occurs => {
            SideLossCondition::Repetition(parse_number(first_child(condition)))
        }
        other => unreachable!("{other:?} as a losing condition"),
    };
    ClauseKind::SideLoses { side, condition }
}

/// `a side that makes a position occur 3 times loses`
pub(super) fn repetition_loss(mut parts: Parts<'_>) -> ClauseKind {
    let count = parse_number(parts.required());
    let mover_wins = parts.required().as_rule() == Rule::wins;
    ClauseKind::RepetitionLoses { count, mover_wins }
}

/// `the game is drawn when ...`
pub(super) fn draw(mut parts: Parts<'_>) -> ClauseKind {
    let condition = parts.required();
    let condition_span = span_of(&condition);
    let condition = match condition.as_rule() {
        Rule::position_repeats => DrawCondition::Repetition(Spanned::new(2, condition_span)),
        Rule::position_occurs => DrawCondition::Repetition(parse_number(first_child(condition))),
        Rule::side_cannot_move => {
            let side = condition
                .into_inner()
                .find(|part| part.as_rule() == Rule::side);
            DrawCondition::NoMoves(side.map(parse_side))
        }
        Rule::no_capture_moves => DrawCondition::NoCapture(parse_number(first_child(condition))),
        Rule::by_agreement => DrawCondition::Agreement(condition_span),
        other => unreachable!("{other:?} as a draw condition"),
    };
    let on_claim = parts.optional().map(|claim| span_of(&claim));
    ClauseKind::Draw {
        condition,
        on_claim,
    }
}
