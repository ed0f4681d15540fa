//! King capture: `ks`, the strong king taken between commanders or knights, and the capture that
//! wins.

use super::Exporter;
use crate::ir::{Hostile, KingCaptureMethod, KingSandwich, Place, Role, Side};

impl Exporter<'_> {
    /// The capture that wins: exactly the king's, for the attackers.
    pub(super) fn decisive_captures(&mut self) {
        let rules = self.rules;
        let outcome = &rules.outcome;
        let king_captured = outcome.decisive_captures.iter().any(|capture| {
            self.letter(&capture.piece) == Some('K') && capture.winner == Side::Attackers
        });
        if !king_captured || outcome.decisive_captures.len() != 1 {
            self.cannot(
                "decisive captures",
                "in OpenTafl exactly the king's capture wins, for the attackers",
            );
        }
    }

    /// OpenTafl takes a strong king between two of the attackers' commanders or knights (or one
    /// and a hostile corner), never on the throne: the variant must say exactly that.
    pub(super) fn sandwiches(&mut self) {
        let rules = self.rules;
        let captors: Vec<String> = rules
            .pieces
            .iter()
            .filter(|piece| matches!(self.letter(&piece.name), Some('c' | 'n')))
            .map(|piece| piece.name.clone())
            .collect();
        let strong = rules
            .king_capture
            .iter()
            .any(|rule| rule.method == KingCaptureMethod::Enclosed);
        let expected = strong && !captors.is_empty();
        // OpenTafl counts a corner hostile to the king, and spares him on and against the centre.
        let corners_count = !self.special_squares("corners").is_empty()
            && self.hostile_to_defenders_when_empty("corners");
        let counting: &[&str] = if corners_count { &["corners"] } else { &[] };
        let except_on: &[&str] = if self.special_squares("throne").is_empty() {
            &[]
        } else {
            &["throne"]
        };
        let kings: Vec<&str> = rules
            .pieces
            .iter()
            .filter(|piece| piece.role == Role::King)
            .map(|piece| piece.name.as_str())
            .collect();
        let matches = |sandwich: &KingSandwich| {
            sandwich.kings == kings
                && sandwich.captors == captors
                && sandwich.counting == counting
                && sandwich.except_on == except_on
        };
        match rules.king_sandwiches.as_slice() {
            [] if !expected => {}
            [sandwich] if expected && matches(sandwich) => {}
            [] => self.cannot(
                "a strong king with commanders or knights among the attackers",
                "OpenTafl then also takes him between two of them (say `the king is also \
                 captured between two commanders, counting corners, except on the throne`)",
            ),
            _ => self.cannot(
                "the king's capture between two pieces",
                "OpenTafl's only such rule: a strong king between two of the attackers' \
                 commanders or knights, or one and a corner, never on the throne",
            ),
        }
    }

    /// `ks`, from the king-capture rules.
    pub(super) fn king_strength(&mut self) -> Option<char> {
        let rules = self.rules;
        let strong_on_throne = |place: &Place| {
            rules.king_capture.iter().any(|rule| {
                rule.place == *place
                    && rule.method == KingCaptureMethod::Enclosed
                    && !rule.edge_counts
            })
        };
        let method = |place: &Place| {
            rules
                .king_capture
                .iter()
                .find(|rule| rule.place == *place)
                .map(|rule| (rule.method, rule.edge_counts))
        };
        for rule in &rules.king_capture {
            for region in &rule.counting {
                if !self.hostile_to_defenders_when_empty(region) {
                    self.cannot(
                        format!("the king's capture counting `{region}`"),
                        "OpenTafl counts a square against the king only when it is hostile to the defenders",
                    );
                }
            }
        }
        let together = rules
            .king_capture
            .iter()
            .any(|rule| rule.method == KingCaptureMethod::EnclosedTogether);
        if together {
            self.cannot(
                "the king's capture together with the empty square beside him",
                "OpenTafl encloses the king on his own four sides only; it never takes him with \
                 the empty throne beside him by enemies round both",
            );
        }
        let places: Vec<&Place> = rules.king_capture.iter().map(|rule| &rule.place).collect();
        let throne = Place::On("throne".into());
        let beside = Place::Beside("throne".into());
        let ks = match places.as_slice() {
            [Place::Elsewhere] => match method(&Place::Elsewhere) {
                Some((KingCaptureMethod::Custodial, false)) => Some('w'),
                Some((KingCaptureMethod::Enclosed, false)) => Some('s'),
                Some((KingCaptureMethod::Enclosed, true)) => Some('m'),
                Some((KingCaptureMethod::Custodial, true))
                | Some((KingCaptureMethod::EnclosedTogether, _))
                | None => None,
            },
            list if list.len() == 3
                && list.contains(&&throne)
                && list.contains(&&beside)
                && strong_on_throne(&throne)
                && strong_on_throne(&beside)
                && method(&Place::Elsewhere) == Some((KingCaptureMethod::Custodial, false)) =>
            {
                Some('c')
            }
            _ => None,
        };
        if ks.is_none() && !together && rules.pieces.iter().any(|piece| piece.role == Role::King) {
            self.cannot(
                "the king's capture",
                "OpenTafl's king is captured by four anywhere (ks:s), by all his on-board \
                 neighbours (m), by two (w), or by four on and beside the centre and two elsewhere (c)",
            );
        }
        ks
    }

    /// Whether the hostility rules make the empty `region` hostile to every defender.
    pub(super) fn hostile_to_defenders_when_empty(&self, region: &str) -> bool {
        let defenders: Vec<&str> = self
            .rules
            .pieces
            .iter()
            .filter(|piece| piece.side == Side::Defenders)
            .map(|piece| piece.name.as_str())
            .collect();
        self.rules.hostility.iter().any(|rule| {
            rule.region == region
                && matches!(rule.when, Hostile::Always | Hostile::WhenEmpty)
                && defenders
                    .iter()
                    .all(|name| rule.victims.iter().any(|victim| victim == name))
        })
    }
}
