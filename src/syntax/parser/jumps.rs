//! Jumps and berserk: pieces that jump over enemies, and moves that go on after a capture.

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `the knight may jump over an attacker, capturing it`
pub(super) fn jump(mut parts: Parts<'_>) -> ClauseKind {
    let pieces = parse_piece_set(parts.required());
    let over = parse_piece_set(parts.required());
    let mut only_from_or_to = Vec::new();
    let mut captures = None;
    for part in parts.rest() {
        match part.as_rule() {
            Rule::jump_only => only_from_or_to.extend(part.into_inner().map(parse_region_ref)),
            Rule::jump_captures => captures = Some(span_of(&part)),
            other => unreachable!("{other:?} in a jump clause"),
        }
    }
    ClauseKind::Jump {
        pieces,
        over,
        only_from_or_to,
        captures,
    }
}

/// `after a capture, the capturing piece may capture again`
pub(super) fn berserk(mut parts: Parts<'_>) -> ClauseKind {
    let words = parts.required();
    let span = span_of(&words);
    let words = match words.as_rule() {
        Rule::capture_again => BerserkWords::CaptureAgain,
        Rule::move_while_capture => BerserkWords::MoveWhileItCanCapture,
        Rule::move_again => BerserkWords::MoveAgain,
        other => unreachable!("{other:?} as a berserk reading"),
    };
    ClauseKind::Berserk(Spanned::new(words, span))
}
