//! Forts: `efe`.

use super::Exporter;
use crate::ir::Side;

impl Exporter<'_> {
    /// `efe`: the king's edge fort.
    pub(super) fn edge_forts(&mut self) {
        let rules = self.rules;
        let outcome = &rules.outcome;
        match outcome.edge_forts.as_slice() {
            [] => {}
            [fort] if self.letter(&fort.piece) == Some('K') && fort.winner == Side::Defenders => {
                self.key("efe", 'y');
            }
            _ => self.cannot("edge forts", "in OpenTafl only the king's edge fort wins"),
        }
    }
}
