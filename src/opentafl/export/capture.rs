//! Capture: whether the king is armed (`ka`), and how strong he is (`ks`, from the king-capture
//! rules).

use super::Exporter;
use crate::ir::{Armed, Role};

impl Exporter<'_> {
    /// `ka` and `ks`.
    pub(super) fn capture(&mut self) {
        let rules = self.rules;
        if let Some(king) = rules.pieces.iter().find(|piece| piece.role == Role::King) {
            match king.armed {
                Armed::Yes => {}
                Armed::No => self.key("ka", 'n'),
                Armed::Anvil => self.key("ka", 'a'),
                Armed::Hammer => self.key("ka", 'h'),
            }
        }
        let ks = self.king_strength();
        if let Some(ks) = ks.filter(|ks| *ks != 's') {
            self.key("ks", ks);
        }
    }
}
