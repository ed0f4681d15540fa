//! Movement and access on OpenTafl's special squares: `cor cen afor dfor`, and who may pass
//! (`*p`), stop (`*s`) and re-enter (`*re`) there. Each square's hostility is `hostility.rs`'s.

use super::{Exporter, KINDS};
use crate::ir::{AccessCondition, Square};

impl Exporter<'_> {
    /// The special squares: `cor cen afor dfor` and their properties.
    pub(super) fn spaces(&mut self) {
        let rules = self.rules;
        let known = |region: &str| KINDS.iter().any(|(name, _)| *name == region);
        for rule in &rules.access {
            if !known(&rule.region) {
                self.cannot(
                    format!("access to `{}`", rule.region),
                    "OpenTafl's special squares are the centre, the corners and forts",
                );
            }
            if rule.condition == AccessCondition::WhileGroupEmpty {
                self.cannot(
                    format!("access to `{}` while its group is empty", rule.region),
                    "OpenTafl has no such condition",
                );
            }
        }
        self.hostile_regions();
        let dim = rules.board.width;
        let (top, middle) = (dim.saturating_sub(1), dim.saturating_sub(1) / 2);
        let mut default_corners = vec![
            Square::new(0, 0),
            Square::new(top, 0),
            Square::new(0, top),
            Square::new(top, top),
        ];
        default_corners.sort_by_key(|square| (square.rank, square.file));
        for (region, prefix) in KINDS {
            let squares = self.special_squares(region);
            let default: Vec<Square> = match prefix {
                "cen" => vec![Square::new(middle, middle)],
                "cor" => default_corners.clone(),
                _ => Vec::new(),
            };
            if squares != default {
                let list: String = squares.iter().map(|square| format!("{square},")).collect();
                self.key(prefix, list);
            }
            if !squares.is_empty() {
                self.space_properties(region, prefix);
            }
        }
    }

    /// `<prefix>p <prefix>s <prefix>h [cenhe] <prefix>re [linc]` for one kind of square, each
    /// only where it differs from OpenTafl's default.
    fn space_properties(&mut self, region: &str, prefix: &str) {
        let (pass, stop, reenter) = self.access_letters(region);
        let hostile = self.hostility_of(region, prefix);
        let set = |list: &[char]| -> String {
            // OpenTafl's lists hold every type of a side; write all of them, in its order.
            let mut text = String::new();
            if list.contains(&'t') {
                text += "tcnkm";
            }
            if list.contains(&'T') {
                text += "TCNKM";
            }
            text
        };
        let pieces_set = |list: &[char]| -> String {
            ['t', 'T', 'K']
                .iter()
                .filter(|letter| list.contains(letter))
                .collect()
        };
        let (pass_default, stop_default, hostile_default): (&str, &str, &str) = match prefix {
            "cen" => ("tTK", "K", "tcnkm"),
            "cor" => ("K", "K", "tcnkmTCNKM"),
            "afor" => ("tTK", "tTK", "TCNKM"),
            _ => ("tTK", "TK", "tcnkm"),
        };
        let pass = pieces_set(&pass);
        let stop = pieces_set(&stop);
        if pass != pass_default {
            self.key(&format!("{prefix}p"), pass);
        }
        if stop != stop_default {
            self.key(&format!("{prefix}s"), stop);
        }
        let occupied = set(&hostile.occupied);
        if occupied != hostile_default {
            self.key(&format!("{prefix}h"), occupied);
        }
        if prefix == "cen" {
            let empty = set(&hostile.empty);
            if empty != "tcnkmTCNKM" {
                self.key("cenhe", empty);
            }
        }
        let reenter = pieces_set(&reenter);
        if reenter != "tTK" {
            self.key(&format!("{prefix}re"), reenter);
        }
        if hostile.linnaean {
            self.key("linc", 'y');
        }
    }

    /// The letters (`t`, `T`, `K`) that may pass over, stop on and re-enter `region`.
    fn access_letters(&mut self, region: &str) -> (Vec<char>, Vec<char>, Vec<char>) {
        let rules = self.rules;
        let letters = ['t', 'T', 'K'];
        let mut pass = letters.to_vec();
        let mut stop = letters.to_vec();
        let mut reenter = letters.to_vec();
        for rule in rules.access.iter().filter(|rule| rule.region == region) {
            let barred = self.letters(&rule.pieces);
            let keep = |list: &mut Vec<char>| list.retain(|letter| !barred.contains(letter));
            match rule.condition {
                AccessCondition::Always => {
                    if rule.action.includes_passing() {
                        keep(&mut pass);
                    }
                    if rule.action.includes_landing() {
                        keep(&mut stop);
                    }
                }
                AccessCondition::OnceLeft
                    if rule.action.includes_passing() && rule.action.includes_landing() =>
                {
                    keep(&mut reenter)
                }
                AccessCondition::OnceLeft => self.cannot(
                    format!("`{region}`: a ban on only landing or only passing once left"),
                    "OpenTafl's re-entry rule bars both",
                ),
                AccessCondition::WhileGroupEmpty => {}
            }
        }
        // A piece that may neither pass nor stop needs no re-entry entry.
        for letter in letters {
            if !pass.contains(&letter) && !stop.contains(&letter) && !reenter.contains(&letter) {
                reenter.push(letter);
            }
        }
        (pass, stop, reenter)
    }
}
