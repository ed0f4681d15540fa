//! Shieldwall: `sw swf`.

use super::Exporter;
use crate::ir::{Role, ShieldwallTrigger};

impl Exporter<'_> {
    /// `sw swf`.
    pub(super) fn shieldwall(&mut self) {
        let rules = self.rules;
        if let Some(wall) = &rules.shieldwall {
            let soldiers: Vec<&str> = rules
                .pieces
                .iter()
                .filter(|piece| piece.role == Role::Soldier)
                .map(|piece| piece.name.as_str())
                .collect();
            if wall
                .victims
                .iter()
                .map(String::as_str)
                .ne(soldiers.iter().copied())
            {
                self.cannot(
                    "shieldwall victims",
                    "OpenTafl's shieldwall takes every man, never the king",
                );
            }
            match wall.counting.as_slice() {
                [] => self.key("sw", 'w'),
                [corners] if corners == "corners" => self.key("sw", 's'),
                _ => self.cannot(
                    "shieldwall counting",
                    "OpenTafl's shieldwall counts the corners or nothing",
                ),
            }
            if wall.trigger == ShieldwallTrigger::AnyMove {
                self.key("swf", 'n');
            }
        }
    }
}
