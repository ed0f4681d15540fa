//! Movement: piece letters, speeds, who moves first; pieces OpenTafl cannot have.

use super::Exporter;
use crate::ir::{Armed, MoveStyle, Role, Side};

impl Exporter<'_> {
    /// Piece letters, `spd`, `atkf`.
    pub(super) fn pieces(&mut self) {
        let rules = self.rules;
        let mut seen = Vec::new();
        for piece in &rules.pieces {
            match self.letter(&piece.name) {
                None => self.cannot(
                    format!("piece `{}`", piece.name),
                    "OpenTafl has no attacking king",
                ),
                Some(letter) if seen.contains(&letter) => self.cannot(
                    format!("piece `{}`", piece.name),
                    "OpenTafl has one kind of man per side and one king",
                ),
                Some(letter) => seen.push(letter),
            }
            if piece.role == Role::Soldier && piece.armed != Armed::Yes {
                self.cannot(
                    format!("piece `{}` is not fully armed", piece.name),
                    "OpenTafl's men always capture",
                );
            }
            if piece.movement.style != MoveStyle::Rook {
                self.cannot(
                    format!("piece `{}` moves to any empty square", piece.name),
                    "OpenTafl pieces move like rooks",
                );
            }
        }
        let speed = |letter: char| {
            rules
                .pieces
                .iter()
                .find(|piece| self.letter(&piece.name) == Some(letter))
                .and_then(|piece| piece.movement.max_distance)
        };
        let (t, defender, king) = (speed('t'), speed('T'), speed('K'));
        let write =
            |speed: Option<u8>| speed.map_or("-1".to_string(), |squares| squares.to_string());
        if t.is_some() || defender.is_some() || king.is_some() {
            let value = if t == defender && defender == king {
                write(t)
            } else {
                // One entry per type, `tcnkmgTCNKMG`; absent types take the side's men's limit.
                let attackers = [t, t, t, t, t, t];
                let defenders = [defender, defender, defender, king, defender, defender];
                attackers
                    .iter()
                    .chain(defenders.iter())
                    .map(|speed| write(*speed) + ",")
                    .collect()
            };
            self.key("spd", value);
        }
        self.key(
            "atkf",
            if rules.first_to_move == Side::Attackers {
                'y'
            } else {
                'n'
            },
        );
    }
}
