//! Encirclement: a side wins when the other can no longer reach the edge.

use super::Pass;
use crate::diagnostic::{Code, Diagnostic};
use crate::english::side_singular;
use crate::ir::{Encirclement, EncirclementReading, RuleRef, Side};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `attackers win when no defender can reach the edge`
    pub(super) fn encirclement(
        &mut self,
        span: Span,
        side: &Spanned<Side>,
        enclosed: &Spanned<Side>,
        reading: &ast::EnclosureWords,
    ) {
        if enclosed.value == side.value {
            self.checker.report(
                Diagnostic::error(
                    Code::Contradiction,
                    "a side cannot win by enclosing its own pieces",
                )
                .label(enclosed.span, "this names the winner's own side")
                .help(format!(
                    "name the other side: `{} win when no {} can reach the edge`",
                    side.value.as_str(),
                    side_singular(side.value.opponent())
                )),
            );
            return;
        }
        let value = Encirclement {
            winner: side.value,
            reading: match reading {
                ast::EnclosureWords::NoEdgeAccess => EncirclementReading::NoEdgeAccess,
                ast::EnclosureWords::EverySurrounded => EncirclementReading::EverySurrounded,
            },
        };
        if let Some((_, first)) = self.encirclements.iter().find(|(seen, _)| *seen == value) {
            self.checker.report(
                Diagnostic::error(
                    Code::DuplicateClause,
                    "the same encirclement clause is given twice",
                )
                .label(span, "given again here")
                .label(*first, "first given here")
                .help("delete one of the two"),
            );
            return;
        }
        self.checker
            .source_map
            .insert(RuleRef::Encirclement(self.encirclements.len()), span);
        self.encirclements.push((value, span));
    }
}
