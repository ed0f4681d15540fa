//! Where each rule of the IR was written: [`RuleRef`] names one rule of [`super::Rules`], and a
//! [`SourceMap`] gives the span of the clause it came from. They live with the IR, not with the
//! loader, because every stage after the checker cites rules (the engine's endings, the game's
//! refusals, the explanations and the language server) without needing the loader.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Side;
use crate::span::Span;

/// A rule of the IR, for looking up the clause it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "rule", content = "index", rename_all = "snake_case")]
pub enum RuleRef {
    /// The `board` clause.
    Board,
    /// The clause saying who moves first.
    FirstToMove,
    /// The setup diagram.
    Setup,
    /// The declaration of `Rules::pieces[i]`.
    Piece(usize),
    /// The clause that set `Rules::pieces[i].armed`.
    Armed(usize),
    /// The clause that set `Rules::pieces[i].movement`.
    Movement(usize),
    /// `Rules::regions[i]`'s definition.
    Region(usize),
    /// `Rules::access[i]`.
    Access(usize),
    /// `Rules::hostility[i]`.
    Hostility(usize),
    /// `Rules::king_capture[i]`.
    KingCapture(usize),
    /// `Rules::outcome.escapes[i]`.
    Escape(usize),
    /// `Rules::outcome.decisive_captures[i]`.
    DecisiveCapture(usize),
    /// `Rules::outcome.no_moves` for this side.
    NoMoves(Side),
    /// `Rules::outcome.edge_forts[i]`.
    EdgeFort(usize),
    /// `Rules::outcome.encirclements[i]`.
    Encirclement(usize),
    /// `Rules::shieldwall`.
    Shieldwall,
    /// `Rules::king_sandwiches[i]`.
    KingSandwich(usize),
    /// `Rules::jumps[i]`.
    Jump(usize),
    /// `Rules::berserk`.
    Berserk,
    /// `Rules::outcome.repetition`.
    Repetition,
    /// `Rules::outcome.back_and_forth_limit`.
    BackAndForth,
    /// `Rules::outcome.no_capture_draw`.
    NoCaptureDraw,
    /// `Rules::outcome.draw_by_agreement`.
    DrawByAgreement,
    /// `Rules::announcements[i]`.
    Announcement(usize),
}

/// Where each rule of the IR was written. A rule absent from the map is a default of the
/// language, written nowhere.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    spans: BTreeMap<RuleRef, Span>,
}

impl SourceMap {
    /// Records that `rule` was written at `span`.
    pub fn insert(&mut self, rule: RuleRef, span: Span) {
        self.spans.insert(rule, span);
    }

    /// The span of the clause `rule` came from, if it was written.
    pub fn span(&self, rule: RuleRef) -> Option<Span> {
        self.spans.get(&rule).copied()
    }

    /// Every written rule and the span of its clause, in the order of [`RuleRef`].
    pub fn iter(&self) -> impl Iterator<Item = (RuleRef, Span)> + '_ {
        self.spans.iter().map(|(rule, span)| (*rule, *span))
    }
}
