//! Declarations: the name, source and notes, the board, the sides, pieces, regions and the
//! setup diagram.

use pest::iterators::Pair;

use super::super::ast::*;
use super::super::grammar::Rule;
use super::read::*;
use crate::span::Spanned;

/// `piece K king: defender king, called "King"`
pub(super) fn piece(mut parts: Parts<'_>) -> ClauseKind {
    let symbol = parts.required();
    let symbol = Spanned::new(
        symbol.as_str().chars().next().unwrap_or('?'),
        span_of(&symbol),
    );
    let name = spanned_str(&parts.required());
    let side = parse_side(parts.required());
    let role = parts.required();
    let role_word = if role.as_str() == "king" {
        RoleWord::King
    } else {
        RoleWord::Soldier
    };
    let role = Spanned::new(role_word, span_of(&role));
    let mut display = None;
    let mut plural = None;
    for part in parts.rest() {
        let text = parse_string(first_child(part.clone()));
        match part.as_rule() {
            Rule::piece_called => display = Some(text),
            Rule::piece_plural => plural = Some(text),
            other => unreachable!("{other:?} in a piece clause"),
        }
    }
    ClauseKind::Piece(PieceDecl {
        symbol,
        name,
        side,
        role,
        display,
        plural,
    })
}

/// `region camps = d1 e1 f1 e2`, `square throne = e5`
pub(super) fn region(mut parts: Parts<'_>) -> ClauseKind {
    let _keyword = parts.required();
    let name = spanned_str(&parts.required());
    let squares = parts
        .required()
        .into_inner()
        .map(parse_square_item)
        .collect();
    ClauseKind::Region { name, squares }
}

/// `setup` ... `end`
pub(super) fn setup(parts: Parts<'_>) -> ClauseKind {
    ClauseKind::Setup(
        parts
            .rest()
            .filter(|row| row.as_rule() == Rule::setup_row)
            .map(parse_setup_row)
            .collect(),
    )
}

fn parse_square_item(pair: Pair<'_, Rule>) -> SquareItem {
    match pair.as_rule() {
        Rule::square_range => {
            let mut ends = pair.into_inner();
            // A range has exactly two squares.
            let from = spanned_str(&ends.next().expect("range start"));
            let to = spanned_str(&ends.next().expect("range end"));
            SquareItem::Range(from, to)
        }
        Rule::square => SquareItem::Single(spanned_str(&pair)),
        other => unreachable!("{other:?} as a square item"),
    }
}

fn parse_setup_row(pair: Pair<'_, Rule>) -> SetupRow {
    let span = span_of(&pair);
    let cells = pair
        .into_inner()
        .map(|cell| Spanned::new(cell.as_str().chars().next().unwrap_or(' '), span_of(&cell)))
        .collect();
    SetupRow { cells, span }
}
