//! Hostility of OpenTafl's special squares: `*h`, `cenhe` and Linnaeus' `linc`.

use super::{Exporter, KINDS};
use crate::ir::{Hostile, Square};

/// How one kind of special square is hostile, in OpenTafl's terms.
pub(super) struct SquareHostility {
    /// The sides (`t`, `T`) it is hostile to while occupied.
    pub(super) occupied: Vec<char>,
    /// The sides it is hostile to while empty.
    pub(super) empty: Vec<char>,
    /// Linnaeus' rule: the throned king helps capture a defender beside him (`linc:y`).
    pub(super) linnaean: bool,
}

impl Exporter<'_> {
    /// Hostility rules on squares OpenTafl does not have.
    pub(super) fn hostile_regions(&mut self) {
        let rules = self.rules;
        let known = |region: &str| KINDS.iter().any(|(name, _)| *name == region);
        for rule in &rules.hostility {
            if !known(&rule.region) {
                self.cannot(
                    format!("hostility of `{}`", rule.region),
                    "OpenTafl's hostile squares are the centre, the corners and forts",
                );
            }
        }
    }

    /// The hostility of `region`, OpenTafl's square kind `prefix`.
    pub(super) fn hostility_of(&mut self, region: &str, prefix: &str) -> SquareHostility {
        let rules = self.rules;
        let (mut occupied, mut empty) = (Vec::new(), Vec::new());
        let mut linnaean = false;
        for rule in rules.hostility.iter().filter(|rule| rule.region == region) {
            let sides = self.hostile_sides(region, &rule.victims);
            let all_pieces: Vec<&str> = rules
                .pieces
                .iter()
                .map(|piece| piece.name.as_str())
                .collect();
            match &rule.when {
                Hostile::Always => {
                    occupied.extend(&sides);
                    empty.extend(&sides);
                }
                Hostile::WhenEmpty if prefix == "cen" => empty.extend(&sides),
                Hostile::WhenOccupied { by, enemies_beside: 0 }
                    if prefix == "cen" && by.iter().map(String::as_str).eq(all_pieces.iter().copied()) =>
                {
                    occupied.extend(&sides)
                }
                Hostile::WhenOccupied { by, enemies_beside: 3 }
                    if prefix == "cen"
                        && sides == ['T']
                        && self.letters(by) == ['K']
                        && rules.region(region).is_some_and(|r| {
                            r.squares == [Square::new(rules.board.width / 2, rules.board.width / 2)]
                        }) =>
                {
                    linnaean = true;
                }
                Hostile::WhenEmpty | Hostile::WhenOccupied { .. } => self.cannot(
                    format!("conditional hostility of `{region}`"),
                    "OpenTafl's special squares are hostile always, or (the centre) when empty or \
                     occupied; its one conditional rule is Linnaeus' capture beside the throned king",
                ),
            }
        }
        if prefix != "cen" && occupied != empty {
            self.cannot(
                format!("hostility of `{region}` when empty or occupied"),
                "only OpenTafl's centre tells empty from occupied",
            );
        }
        SquareHostility {
            occupied,
            empty,
            linnaean,
        }
    }

    /// The sides (`t` attackers, `T` defenders) all of whose pieces are among `victims`;
    /// a side only some of whose pieces are is recorded as something OpenTafl cannot say.
    fn hostile_sides(&mut self, region: &str, victims: &[String]) -> Vec<char> {
        let rules = self.rules;
        let victims = self.letters(victims);
        let side_letters = |side: char| -> Vec<char> {
            if side == 't' {
                vec!['t']
            } else {
                vec!['T', 'K']
            }
        };
        let mut sides = Vec::new();
        for side in ['t', 'T'] {
            let wanted = side_letters(side);
            let present: Vec<char> = wanted
                .iter()
                .copied()
                .filter(|letter| {
                    rules
                        .pieces
                        .iter()
                        .any(|piece| self.letter(&piece.name) == Some(*letter))
                })
                .collect();
            let hit = present
                .iter()
                .filter(|letter| victims.contains(letter))
                .count();
            if hit == present.len() && hit > 0 {
                sides.push(side);
            } else if hit > 0 {
                self.cannot(
                    format!(
                        "hostility of `{region}` to some {} only",
                        if side == 't' {
                            "attackers"
                        } else {
                            "defenders"
                        }
                    ),
                    "OpenTafl's hostility is per side",
                );
            }
        }
        sides
    }
}
