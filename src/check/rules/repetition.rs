//! Repetition and draws: what happens when a side cannot move, when positions repeat, when a
//! piece shuttles, when no capture is made for long, and draws by agreement.

use super::{positive, set_once, Pass};
use crate::check::limits::MAX_COUNT;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{Claim, MoveLimit, NoMoves, Repetition, RepetitionResult, RuleRef, Side};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `a side that cannot move loses`
    pub(super) fn no_moves_loses(&mut self, span: Span) {
        for side in [Side::Attackers, Side::Defenders] {
            self.set_no_moves(side, NoMoves::Loses, span);
        }
    }

    /// `the defenders lose when they cannot move` / `... when a position occurs 3 times`
    pub(super) fn side_loses(
        &mut self,
        span: Span,
        side: &Spanned<Side>,
        condition: &ast::SideLossCondition,
    ) {
        match condition {
            ast::SideLossCondition::NoMoves(_) => {
                self.set_no_moves(side.value, NoMoves::Loses, span);
            }
            ast::SideLossCondition::Repetition(count) => {
                self.repetition(
                    span,
                    count,
                    RepetitionResult::Loses(side.value),
                    Claim::Automatic,
                );
            }
        }
    }

    /// `a side that makes a position occur 3 times loses` (or `wins`)
    pub(super) fn repetition_loses(&mut self, span: Span, count: &Spanned<u32>, mover_wins: bool) {
        let result = if mover_wins {
            RepetitionResult::MoverWins
        } else {
            RepetitionResult::MoverLoses
        };
        self.repetition(span, count, result, Claim::Automatic);
    }

    /// `the game is drawn when ...`, `, on claim`
    pub(super) fn draw(
        &mut self,
        span: Span,
        condition: &ast::DrawCondition,
        on_claim: &Option<Span>,
    ) {
        let claim = if on_claim.is_some() {
            Claim::Claimable
        } else {
            Claim::Automatic
        };
        match condition {
            ast::DrawCondition::Repetition(count) => {
                self.repetition(span, count, RepetitionResult::Draw, claim);
            }
            ast::DrawCondition::NoCapture(count) => {
                let Some(moves) =
                    positive(self.checker, count, (1, MAX_COUNT), "the number of moves")
                else {
                    return;
                };
                let value = MoveLimit { moves, claim };
                if set_once(
                    self.checker,
                    &mut self.no_capture,
                    value,
                    span,
                    "moves without capture",
                ) {
                    self.checker.source_map.insert(RuleRef::NoCaptureDraw, span);
                }
            }
            ast::DrawCondition::NoMoves(_) | ast::DrawCondition::Agreement(_) => {
                if let Some(claim_span) = on_claim {
                    self.checker.report(
                        Diagnostic::warning(Code::DeadRule, "`on claim` means nothing here")
                            .label(*claim_span, "ignored")
                            .help("only repetition and move-count draws can be claimed; delete `, on claim`"),
                    );
                }
                if let ast::DrawCondition::NoMoves(only) = condition {
                    let sides = match only {
                        Some(side) => vec![side.value],
                        None => vec![Side::Attackers, Side::Defenders],
                    };
                    for side in sides {
                        self.set_no_moves(side, NoMoves::Draw, span);
                    }
                } else {
                    self.checker
                        .source_map
                        .insert(RuleRef::DrawByAgreement, span);
                }
            }
        }
    }

    /// `a piece may move back and forth between two squares at most 3 times`
    pub(super) fn back_and_forth(&mut self, span: Span, count: &Spanned<u32>) {
        let Some(limit) = positive(self.checker, count, (1, MAX_COUNT), "the number of times")
        else {
            return;
        };
        if set_once(
            self.checker,
            &mut self.back_and_forth,
            limit,
            span,
            "moving back and forth",
        ) {
            self.checker.source_map.insert(RuleRef::BackAndForth, span);
        }
    }

    /// Records the repetition rule of the clause at `span`: `count` occurrences give `result`.
    fn repetition(
        &mut self,
        span: Span,
        count: &Spanned<u32>,
        result: RepetitionResult,
        claim: Claim,
    ) {
        let Some(occurrences) = positive(
            self.checker,
            count,
            (2, MAX_COUNT),
            "the number of occurrences",
        ) else {
            return;
        };
        let value = Repetition {
            occurrences,
            result,
            claim,
        };
        if set_once(
            self.checker,
            &mut self.repetition,
            value,
            span,
            "repeated positions",
        ) {
            self.checker.source_map.insert(RuleRef::Repetition, span);
        }
    }

    /// Records what `side` does when it cannot move, from the clause at `span`.
    fn set_no_moves(&mut self, side: Side, value: NoMoves, span: Span) {
        let slot = match side {
            Side::Attackers => &mut self.no_moves[0],
            Side::Defenders => &mut self.no_moves[1],
        };
        let what = format!(
            "what happens to the {} when they cannot move",
            side.as_str()
        );
        if set_once(self.checker, slot, value, span, &what) {
            self.checker.source_map.insert(RuleRef::NoMoves(side), span);
        }
    }
}
