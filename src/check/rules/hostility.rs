//! Hostility: squares that take part in captures as if an enemy stood on them.

use super::Pass;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{Hostile, HostilityRule, RuleRef};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `the throne is hostile to everyone when empty`
    pub(super) fn hostility(
        &mut self,
        span: Span,
        region: &ast::RegionRef,
        victims: &ast::PieceSet,
        when: &Option<Spanned<ast::HostileWhen>>,
    ) {
        let region = self.checker.region(region);
        let victims = self.checker.piece_set(victims);
        let when = match when.as_ref().map(|when| &when.value) {
            None => Some(Hostile::Always),
            Some(ast::HostileWhen::Empty) => Some(Hostile::WhenEmpty),
            Some(ast::HostileWhen::Occupied { by, enemies_beside }) => {
                self.when_occupied(by, enemies_beside)
            }
        };
        if let (Some(region), Some(when)) = (region, when) {
            let checker = &mut *self.checker;
            checker
                .source_map
                .insert(RuleRef::Hostility(self.rules.hostility.len()), span);
            self.rules.hostility.push(HostilityRule {
                region: checker.regions[region].name.clone(),
                victims: checker.names(&victims),
                when,
            });
        }
    }

    /// `when occupied by ...`, `... with N enemies beside it`; `None` after a reported problem.
    fn when_occupied(
        &mut self,
        by: &Option<ast::PieceSet>,
        enemies_beside: &Option<Spanned<u32>>,
    ) -> Option<Hostile> {
        let checker = &mut *self.checker;
        let by = match by {
            Some(set) => checker.piece_set(set),
            None => (0..checker.pieces.len()).collect(),
        };
        let enemies = match enemies_beside {
            Some(number) if number.value > 4 => {
                checker.report(
                    Diagnostic::error(Code::BadNumber, "a square has at most 4 neighbours")
                        .label(
                            number.span,
                            format!("{} enemies cannot stand beside one square", number.value),
                        )
                        .help("write a number from 1 to 4"),
                );
                None
            }
            Some(number) => Some(number.value as u8),
            None => Some(0),
        };
        enemies.map(|enemies_beside| Hostile::WhenOccupied {
            by: checker.names(&by),
            enemies_beside,
        })
    }
}
