//! Reading the small parts every clause is built from: strings, numbers, sides, piece sets,
//! region names, and the children of a clause in grammar order.

use pest::iterators::Pair;

use super::super::ast::{PieceSet, PieceSetItem, RoleWord, Who};
use super::super::grammar::Rule;
use crate::ir::Side;
use crate::span::{Span, Spanned};

/// The children of a clause, in grammar order, without the articles read for fluency.
pub(super) struct Parts<'i>(std::vec::IntoIter<Pair<'i, Rule>>);

impl<'i> Parts<'i> {
    pub(super) fn of(pair: Pair<'i, Rule>) -> Parts<'i> {
        Parts(inner(pair).collect::<Vec<_>>().into_iter())
    }

    /// The next child, one the grammar rule guarantees.
    pub(super) fn required(&mut self) -> Pair<'i, Rule> {
        self.0.next().expect("the grammar guarantees this child")
    }

    /// The next child, where the grammar makes it optional.
    pub(super) fn optional(&mut self) -> Option<Pair<'i, Rule>> {
        self.0.next()
    }

    /// The children not read yet: the optional parts after a clause's fixed ones.
    pub(super) fn rest(self) -> impl Iterator<Item = Pair<'i, Rule>> {
        self.0
    }
}

pub(super) fn span_of(pair: &Pair<'_, Rule>) -> Span {
    pair.as_span().into()
}

pub(super) fn spanned_str(pair: &Pair<'_, Rule>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), span_of(pair))
}

/// The pairs inside `pair`, without the articles the grammar reads for fluency.
pub(super) fn inner(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner()
        .filter(|child| child.as_rule() != Rule::article)
}

pub(super) fn first_child(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    // Called only on rules whose grammar has a mandatory first child.
    inner(pair).next().expect("the grammar guarantees a child")
}

/// The text between the quotes, a character that would act on a terminal (ESC, BEL, C1) kept
/// as its escape (`\u{1b}`): the name, notes and piece names reach every face (the terminal,
/// SVG, records, JSON), and none of them can show such a character, so the rules hold it in the
/// one visible form; the checker warns (`tafl::check::control_character`).
pub(super) fn parse_string(pair: Pair<'_, Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let text = pair.into_inner().next().map_or(String::new(), |text| {
        crate::printable::shown(text.as_str()).into_owned()
    });
    Spanned::new(text, span)
}

pub(super) fn parse_number(pair: Pair<'_, Rule>) -> Spanned<u32> {
    let text = pair.as_str();
    let value = match super::super::grammar::NUMBER_WORDS
        .iter()
        .find(|(word, _)| *word == text)
    {
        Some((_, value)) => *value,
        // A number too large for u32 is saturated: every check rejects it as out of range.
        None => text.parse().unwrap_or(u32::MAX),
    };
    Spanned::new(value, span_of(&pair))
}

pub(super) fn parse_side(pair: Pair<'_, Rule>) -> Spanned<Side> {
    let side = if pair.as_str().starts_with("attacker") {
        Side::Attackers
    } else {
        Side::Defenders
    };
    Spanned::new(side, span_of(&pair))
}

pub(super) fn parse_piece_set(pair: Pair<'_, Rule>) -> PieceSet {
    let span = span_of(&pair);
    let items = inner(pair)
        .map(|item| {
            let value = match item.as_rule() {
                Rule::everyone => PieceSetItem::Everyone,
                Rule::side => PieceSetItem::Side(parse_side(item.clone()).value),
                Rule::role_set => PieceSetItem::Role(if item.as_str() == "kings" {
                    RoleWord::King
                } else {
                    RoleWord::Soldier
                }),
                Rule::side_role => {
                    let text = item.as_str();
                    let side = if text.starts_with("attack") {
                        Side::Attackers
                    } else {
                        Side::Defenders
                    };
                    let role = if text.ends_with("kings") {
                        RoleWord::King
                    } else {
                        RoleWord::Soldier
                    };
                    PieceSetItem::SideRole(side, role)
                }
                Rule::piece_ref => PieceSetItem::Named(item.as_str().to_string()),
                other => unreachable!("{other:?} in a piece set"),
            };
            Spanned::new(value, span_of(&item))
        })
        .collect();
    PieceSet { items, span }
}

pub(super) fn parse_who(pair: Pair<'_, Rule>) -> Who {
    let span = span_of(&pair);
    let mut parts = inner(pair);
    // `who` always has a first child: `nobody`, `only` or a piece set.
    let first = parts.next().expect("who has a child");
    match first.as_rule() {
        Rule::nobody => Who::Nobody(span),
        Rule::only => Who::Only(parse_piece_set(
            parts.next().expect("only is followed by a set"),
        )),
        Rule::piece_set => Who::Pieces(parse_piece_set(first)),
        other => unreachable!("{other:?} as who"),
    }
}

pub(super) fn parse_region_ref(pair: Pair<'_, Rule>) -> Spanned<String> {
    let identifier = first_child(pair);
    spanned_str(&identifier)
}
