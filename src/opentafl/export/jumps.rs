//! Jumps and berserk: `kj nj cj` and `ber`.

use super::Exporter;
use crate::ir::{Berserk, JumpRule};

impl Exporter<'_> {
    /// `kj nj cj` and `ber`. OpenTafl jumps go over the enemy's plain men only; a restricted jump
    /// (`r`) starts or lands on any special square and takes nothing. Both sides' pieces of a
    /// type share one jump, `n` for none.
    pub(super) fn jumps(&mut self) {
        let rules = self.rules;
        let mut keys: Vec<(char, char)> = Vec::new();
        for piece in &rules.pieces {
            let Some(letter) = self.letter(&piece.name) else {
                continue;
            };
            let jump = rules
                .jumps
                .iter()
                .find(|jump| jump.pieces.contains(&piece.name));
            let value = match jump {
                None => 'n',
                Some(jump) => match self.jump_value(letter, jump) {
                    Some(value) => value,
                    None => continue,
                },
            };
            let type_letter = letter.to_ascii_lowercase();
            match keys.iter().find(|(known, _)| *known == type_letter) {
                Some((_, other)) if *other != value => self.cannot(
                    format!("two jumps for `{type_letter}` pieces"),
                    "OpenTafl gives both sides' pieces of a type one jump",
                ),
                Some(_) => {}
                None => keys.push((type_letter, value)),
            }
        }
        // OpenTafl's defaults, for the types no piece has: `kj:n nj:c cj:j`.
        for (type_letter, default) in [('k', 'n'), ('n', 'c'), ('c', 'j')] {
            let value = keys
                .iter()
                .find(|(known, _)| *known == type_letter)
                .map_or(default, |(_, value)| *value);
            if value != default {
                self.key(&format!("{type_letter}j"), value);
            }
        }
    }

    /// The `kj nj cj` value of `jump` for a piece of OpenTafl letter `letter`, or `None` (and
    /// the reason recorded) when OpenTafl cannot play it.
    pub(super) fn jump_value(&mut self, letter: char, jump: &JumpRule) -> Option<char> {
        let plain_enemy = if letter.is_ascii_lowercase() {
            'T'
        } else {
            't'
        };
        if self.letters(&jump.over) != [plain_enemy] {
            self.cannot(
                format!("the jump over `{}`", jump.over.join("`, `")),
                "OpenTafl's pieces jump over the enemy's plain men only",
            );
        }
        // OpenTafl's restricted jump starts or lands on any special square: the centre, a
        // corner or one of the jumper's own side's forts.
        let own_forts = if letter.is_ascii_lowercase() {
            "attacker-forts"
        } else {
            "defender-forts"
        };
        let mut restricted: Vec<&str> = ["throne", "corners", own_forts]
            .into_iter()
            .filter(|region| !self.special_squares(region).is_empty())
            .collect();
        restricted.sort_unstable();
        let mut only: Vec<&str> = jump.only_from_or_to.iter().map(String::as_str).collect();
        only.sort_unstable();
        match (only.is_empty(), jump.captures) {
            (true, false) => Some('j'),
            (true, true) => Some('c'),
            (false, false) if only == restricted => Some('r'),
            (false, _) => {
                self.cannot(
                    format!(
                        "the jump only from or to `{}`",
                        jump.only_from_or_to.join("`, `")
                    ),
                    "OpenTafl's restricted jump starts or lands on any special square (the \
                     centre, a corner, the side's own forts) and takes nothing",
                );
                None
            }
        }
    }

    /// `ber`.
    pub(super) fn berserk(&mut self) {
        let rules = self.rules;
        match rules.berserk {
            None => {}
            Some(Berserk::MoveWhileItCanCapture) => self.key("ber", 'c'),
            Some(Berserk::MoveAgain) => self.key("ber", 'm'),
            Some(Berserk::CaptureAgain) => self.cannot(
                "berserk moves that must capture",
                "OpenTafl's `ber:c` accepts any move of the berserker while it can capture",
            ),
        }
    }
}
