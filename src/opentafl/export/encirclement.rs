//! Encirclement: `surf`, and the ending OpenTafl always has.

use super::Exporter;
use crate::ir::{EncirclementReading, Side};

impl Exporter<'_> {
    /// `surf`, and the always-on "every defender surrounded" ending.
    pub(super) fn encirclements(&mut self) {
        let rules = self.rules;
        let outcome = &rules.outcome;
        let mut every_surrounded = false;
        let mut surrounding_fatal = false;
        for encirclement in &outcome.encirclements {
            match (encirclement.winner, encirclement.reading) {
                (Side::Attackers, EncirclementReading::EverySurrounded) => every_surrounded = true,
                (Side::Attackers, EncirclementReading::NoEdgeAccess) => surrounding_fatal = true,
                (Side::Defenders, _) => self.cannot(
                    "encirclement by the defenders",
                    "in OpenTafl only the attackers win by encirclement",
                ),
            }
        }
        if !every_surrounded {
            self.cannot(
                "no 'every defender is surrounded' ending",
                "OpenTafl always ends the game when no defender has an empty neighbour \
                 (say `attackers win when every defender is surrounded`)",
            );
        }
        if !surrounding_fatal {
            self.key("surf", 'n');
        }
    }
}
