//! Capture: which pieces take part in a custodial capture.

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `the king is unarmed`
pub(super) fn armed(mut parts: Parts<'_>) -> ClauseKind {
    let pieces = parse_piece_set(parts.required());
    let armed = parts.required();
    let armedness = match armed.as_rule() {
        Rule::hammer => Armedness::Hammer,
        Rule::anvil => Armedness::Anvil,
        Rule::unarmed => Armedness::Unarmed,
        Rule::armed => Armedness::Armed,
        other => unreachable!("{other:?} as armedness"),
    };
    ClauseKind::Armed {
        pieces,
        armed: Spanned::new(armedness, span_of(&armed)),
    }
}
