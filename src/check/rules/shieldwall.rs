//! Shieldwall: a row of pieces along the edge taken all at once.

use super::{region_names, set_once, Pass};
use crate::ir::{RuleRef, Shieldwall, ShieldwallTrigger};
use crate::span::Span;
use crate::syntax::ast;

impl Pass<'_> {
    /// `soldiers are captured in a shieldwall, counting corners`
    pub(super) fn shieldwall(
        &mut self,
        span: Span,
        victims: &ast::PieceSet,
        counting: &[ast::RegionRef],
        after_any_move: bool,
    ) {
        let victims = self.checker.piece_set(victims);
        let value = Shieldwall {
            victims: self.checker.names(&victims),
            counting: region_names(self.checker, counting),
            trigger: if after_any_move {
                ShieldwallTrigger::AnyMove
            } else {
                ShieldwallTrigger::Flanking
            },
        };
        if set_once(
            self.checker,
            &mut self.shieldwall,
            value,
            span,
            "the shieldwall",
        ) {
            self.checker.source_map.insert(RuleRef::Shieldwall, span);
        }
    }
}
