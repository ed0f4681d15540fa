//! Capture: which pieces take part in a custodial capture (armed, unarmed, hammer, anvil).

use super::{set_once, Pass};
use crate::ir::{Armed, RuleRef};
use crate::span::{Span, Spanned};
use crate::syntax::ast;

impl Pass<'_> {
    /// `the king is unarmed`
    pub(super) fn armed(
        &mut self,
        span: Span,
        pieces: &ast::PieceSet,
        spec: &Spanned<ast::Armedness>,
    ) {
        let pieces = self.checker.piece_set(pieces);
        let value = match spec.value {
            ast::Armedness::Armed => Armed::Yes,
            ast::Armedness::Unarmed => Armed::No,
            ast::Armedness::Hammer => Armed::Hammer,
            ast::Armedness::Anvil => Armed::Anvil,
        };
        for piece in pieces {
            let what = format!("whether `{}` is armed", self.checker.pieces[piece].name);
            if set_once(self.checker, &mut self.armed[piece], value, span, &what) {
                self.checker.pieces[piece].armed = value;
                self.checker.source_map.insert(RuleRef::Armed(piece), span);
            }
        }
    }
}
