//! Names of pieces, sides and regions as a player reads them, shared by every family's
//! sentences.

use crate::english::{join_and, join_or, side_noun, side_possessive, squares};
use crate::ir::{PieceKind, Role, Rules, Side};

/// Names of pieces, sides and regions as a player reads them.
pub(super) struct Words<'a> {
    pub(super) rules: &'a Rules,
}

impl Words<'_> {
    pub(super) fn side(&self, side: Side) -> &str {
        &self.rules.sides.get(side).name
    }

    /// The side whose soldiers `piece` is, when its name is only the generic `attacker` or
    /// `defender` and the side has a name of its own: then `Attackers` would read as the side,
    /// next to sentences that call the side `Black`. `None` for a piece with its own name.
    pub(super) fn generic_soldier(&self, piece: &PieceKind) -> Option<Side> {
        let generic = matches!(
            piece.display.to_lowercase().as_str(),
            "attacker" | "defender"
        );
        let side_word = piece.side.to_string();
        let renamed = !self.side(piece.side).to_lowercase().contains(&side_word);
        (piece.role == Role::Soldier && generic && renamed).then_some(piece.side)
    }

    /// `the King`, `a Swede`, `a soldier of Black`: one piece kind, for sentences about each
    /// piece.
    pub(super) fn piece_plural(&self, name: &str) -> String {
        match self.rules.piece(name) {
            Some(piece) if piece.role == Role::King => format!("the {}", piece.display),
            Some(piece) => match self.generic_soldier(piece) {
                Some(side) => format!("a soldier of {}", side_noun(self.rules, side)),
                // `an Attacker`, not `a Attacker`.
                None => crate::english::with_article(&piece.display),
            },
            None => name.to_string(),
        }
    }

    /// A set of piece kinds: `every piece`, `the Swedes` (a whole side), or names joined by `and`.
    pub(super) fn pieces(&self, names: &[String]) -> String {
        let all = &self.rules.pieces;
        if names.len() == all.len() {
            return "every piece".to_string();
        }
        for side in Side::BOTH {
            let of_side: Vec<&str> = all
                .iter()
                .filter(|piece| piece.side == side)
                .map(|piece| piece.name.as_str())
                .collect();
            if names.len() == of_side.len()
                && names.iter().all(|name| of_side.contains(&name.as_str()))
            {
                return side_noun(self.rules, side);
            }
        }
        let soldiers: Vec<&str> = all
            .iter()
            .filter(|piece| piece.role == Role::Soldier)
            .map(|piece| piece.name.as_str())
            .collect();
        let sides_with_soldiers = Side::BOTH
            .iter()
            .filter(|&&side| {
                all.iter()
                    .any(|piece| piece.side == side && piece.role == Role::Soldier)
            })
            .count();
        // Said so only where a kind's own name would read as a side (`Attackers and
        // Defenders` next to `Black`); `Muscovites and Swedes` says more.
        let generic = all
            .iter()
            .any(|piece| self.generic_soldier(piece).is_some());
        if generic
            && sides_with_soldiers == 2
            && names.len() == soldiers.len()
            && names.iter().all(|name| soldiers.contains(&name.as_str()))
        {
            return "the soldiers of both sides".to_string();
        }
        let displays: Vec<String> = names
            .iter()
            .map(|name| match self.rules.piece(name) {
                Some(piece) if piece.role == Role::King => format!("the {}", piece.display),
                Some(piece) => match self.generic_soldier(piece) {
                    Some(side) => format!("{} soldiers", side_possessive(self.rules, side)),
                    None => crate::english::piece_plural(piece),
                },
                None => name.clone(),
            })
            .collect();
        if displays.is_empty() {
            "no piece".to_string()
        } else {
            join_and(&displays)
        }
    }

    /// A set of piece kinds as alternatives: `Attacker` or `Attackers and Commanders` read as
    /// `an Attacker or a Commander`, for "jump over one ...".
    pub(super) fn pieces_or(&self, names: &[String]) -> String {
        let each: Vec<String> = names
            .iter()
            .map(|name| match self.rules.piece(name) {
                Some(piece) if piece.role == Role::King => format!("the {}", piece.display),
                Some(piece) => match self.generic_soldier(piece) {
                    Some(side) => format!("a soldier of {}", side_noun(self.rules, side)),
                    None => crate::english::with_article(&piece.display),
                },
                None => name.clone(),
            })
            .collect();
        join_or(&each)
    }

    /// The pieces not in `names`.
    pub(super) fn complement(&self, names: &[String]) -> String {
        let rest: Vec<String> = self
            .rules
            .pieces
            .iter()
            .filter(|piece| !names.contains(&piece.name))
            .map(|piece| piece.name.clone())
            .collect();
        if rest.is_empty() {
            String::new()
        } else {
            self.pieces(&rest)
        }
    }

    /// Where a piece goes: `the edge of the board`, `one of the corners (a1, ...)`.
    pub(super) fn destination(&self, name: &str) -> String {
        match self.rules.region(name) {
            Some(region) if name != "edge" && region.squares.len() > 1 => {
                format!("one of {}", self.region(name))
            }
            _ => self.region(name),
        }
    }

    /// `the throne (e5)`, `the corners (a1, i1, a9, i9)`, `the edge`.
    pub(super) fn region(&self, name: &str) -> String {
        match self.rules.region(name) {
            Some(_) if name == "edge" => "the edge of the board".to_string(),
            Some(region) if region.squares.len() <= 8 => {
                format!("the {name} ({})", squares(&region.squares))
            }
            Some(_) | None => format!("the {name}"),
        }
    }
}
