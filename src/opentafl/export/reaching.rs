//! Reaching (escape): `esc`; announcements, which OpenTafl does not have.

use super::Exporter;
use crate::ir::Side;

impl Exporter<'_> {
    /// `esc`: the king escapes to the corners or to the edge.
    pub(super) fn escapes(&mut self) {
        let rules = self.rules;
        let outcome = &rules.outcome;
        let mut esc = None;
        for escape in &outcome.escapes {
            let is_king = self.letter(&escape.piece) == Some('K');
            match (escape.region.as_str(), is_king, escape.winner) {
                ("edge", true, Side::Defenders) if esc.is_none() => esc = Some('e'),
                ("corners", true, Side::Defenders) if esc.is_none() => esc = Some('c'),
                (region, _, _) => self.cannot(
                    format!("escape of `{}` to `{region}`", escape.piece),
                    "OpenTafl's king escapes to the corners or to the edge, once",
                ),
            }
        }
        if esc == Some('e') {
            self.key("esc", 'e');
        }
    }

    /// Announcements: OpenTafl has none.
    pub(super) fn announcements(&mut self) {
        let rules = self.rules;
        for announcement in &rules.announcements {
            self.cannot(
                format!("announcement `{}`", announcement.word),
                "OpenTafl has no announcements",
            );
        }
    }
}
