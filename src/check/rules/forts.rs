//! Forts: the king wins by holding an unbreakable fort on the edge.

use super::Pass;
use crate::ir::{EdgeFort, RuleRef, Side};
use crate::span::Span;

impl Pass<'_> {
    /// `defenders win when the king holds an edge fort`
    pub(super) fn edge_fort(&mut self, span: Span, winner: Side, pieces: Vec<usize>) {
        for piece in pieces {
            let forts = &mut self.rules.outcome.edge_forts;
            self.checker
                .source_map
                .insert(RuleRef::EdgeFort(forts.len()), span);
            forts.push(EdgeFort {
                piece: self.checker.pieces[piece].name.clone(),
                winner,
            });
        }
    }
}
