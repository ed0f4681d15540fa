//! Movement and access: how each kind moves, and who may land on, pass or enter which squares.

use super::{contradiction, positive, set_once, Pass};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::RuleRef;
use crate::ir::{AccessCondition, AccessRule, Action, MoveStyle, Movement};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `the king moves like a rook, at most 3 squares`
    pub(super) fn movement(
        &mut self,
        span: Span,
        pieces: &ast::PieceSet,
        spec: &Spanned<ast::MovementSpec>,
    ) {
        let pieces = self.checker.piece_set(pieces);
        let value = match &spec.value {
            ast::MovementSpec::Rook { max: None } => Movement {
                style: MoveStyle::Rook,
                max_distance: None,
            },
            ast::MovementSpec::Rook { max: Some(max) } => {
                let Some(max) = positive(
                    self.checker,
                    max,
                    (1, u32::from(u8::MAX)),
                    "a move's length",
                ) else {
                    return;
                };
                Movement {
                    style: MoveStyle::Rook,
                    // `positive` kept it within u8.
                    max_distance: u8::try_from(max).ok(),
                }
            }
            ast::MovementSpec::AnyEmptySquare => Movement {
                style: MoveStyle::AnyEmptySquare,
                max_distance: None,
            },
        };
        for piece in pieces {
            let what = format!("how `{}` moves", self.checker.pieces[piece].name);
            if set_once(self.checker, &mut self.movement[piece], value, span, &what) {
                self.checker.pieces[piece].movement = value;
                self.checker
                    .source_map
                    .insert(RuleRef::Movement(piece), span);
            }
        }
    }

    /// `nobody may land on the throne`, `attackers may not enter camps once they have left them`
    pub(super) fn access(
        &mut self,
        span: Span,
        who: &ast::Who,
        allowed: bool,
        action: &Spanned<ast::AccessAction>,
        region: &ast::RegionRef,
        condition: &Option<Spanned<ast::AccessWhen>>,
    ) {
        let Some(region) = self.checker.region(region) else {
            return;
        };
        self.warn_dead_access(who, allowed, condition);
        let (barred, permitted) = self.barred_and_permitted(who, allowed);
        let action = match action.value {
            ast::AccessAction::Land => Action::Land,
            ast::AccessAction::Pass => Action::Pass,
            ast::AccessAction::Enter => Action::Enter,
        };
        let condition_value = match condition.as_ref().map(|condition| condition.value) {
            None => AccessCondition::Always,
            Some(ast::AccessWhen::OnceLeft) => AccessCondition::OnceLeft,
            Some(ast::AccessWhen::WhileGroupEmpty) => AccessCondition::WhileGroupEmpty,
        };
        if condition_value == AccessCondition::Always {
            self.record_verdicts(span, region, action, &barred, &permitted);
        }
        if !barred.is_empty() {
            let checker = &mut *self.checker;
            checker
                .source_map
                .insert(RuleRef::Access(self.rules.access.len()), span);
            self.rules.access.push(AccessRule {
                pieces: checker.names(&barred),
                action,
                region: checker.regions[region].name.clone(),
                condition: condition_value,
            });
        }
    }

    /// Warns of an access clause that cannot bar anyone.
    fn warn_dead_access(
        &mut self,
        who: &ast::Who,
        allowed: bool,
        condition: &Option<Spanned<ast::AccessWhen>>,
    ) {
        // A permission bars nobody, so a condition on it has nothing to limit.
        if let (true, ast::Who::Pieces(_), Some(condition)) = (allowed, who, condition) {
            self.checker.report(
                Diagnostic::warning(Code::DeadRule, "a condition on a clause that bars no piece has no effect")
                    .label(condition.span, "ignored")
                    .help("conditions say when pieces are barred: write the clause with `may not`, e.g. `attackers may not enter camps once they have left them`"),
            );
        }
        if let (ast::Who::Nobody(nobody), false) = (who, allowed) {
            self.checker.report(
                Diagnostic::warning(Code::DeadRule, "`nobody may not ...` bars no piece")
                    .label(*nobody, "this clause has no effect")
                    .help("to bar every piece write `nobody may ...`; to let every piece, delete the clause"),
            );
        }
    }

    /// The piece kinds the clause bars and those it lets through.
    fn barred_and_permitted(&mut self, who: &ast::Who, allowed: bool) -> (Vec<usize>, Vec<usize>) {
        let piece_count = self.checker.pieces.len();
        match who {
            // `nobody may not ...` says nothing; the grammar allows it, the rules ignore it.
            ast::Who::Nobody(_) if !allowed => (Vec::new(), Vec::new()),
            ast::Who::Nobody(_) => ((0..piece_count).collect(), Vec::new()),
            ast::Who::Only(set) => {
                let only = self.checker.piece_set(set);
                let others = (0..piece_count)
                    .filter(|piece| !only.contains(piece))
                    .collect();
                if allowed {
                    (others, only)
                } else {
                    (only, others)
                }
            }
            ast::Who::Pieces(set) => {
                let pieces = self.checker.piece_set(set);
                if allowed {
                    (Vec::new(), pieces)
                } else {
                    (pieces, Vec::new())
                }
            }
        }
    }

    /// Remembers an unconditional clause's verdict on each (piece, square, landing or passing),
    /// reporting the first that an earlier clause decided the other way.
    fn record_verdicts(
        &mut self,
        span: Span,
        region: usize,
        action: Action,
        barred: &[usize],
        permitted: &[usize],
    ) {
        let checker = &mut *self.checker;
        let squares = checker.regions[region].squares.clone();
        let parts: Vec<bool> = match action {
            Action::Land => vec![true],
            Action::Pass => vec![false],
            Action::Enter => vec![true, false],
        };
        for (pieces, verdict) in [(barred, false), (permitted, true)] {
            for &piece in pieces {
                for &square in &squares {
                    for &landing in &parts {
                        match self.verdicts.get(&(piece, square, landing)) {
                            Some(&(existing, first)) if existing != verdict => {
                                let what = format!(
                                    "whether `{}` may {} {square}",
                                    checker.pieces[piece].name,
                                    if landing { "land on" } else { "pass through" }
                                );
                                checker.report(contradiction(span, first, &what));
                                return;
                            }
                            Some(_) => {}
                            None => {
                                self.verdicts
                                    .insert((piece, square, landing), (verdict, span));
                            }
                        }
                    }
                }
            }
        }
    }
}
