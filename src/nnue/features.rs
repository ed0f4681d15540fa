//! The network's inputs: each piece kind on each square, seen from each side.
//!
//! A position is read twice, once from the attackers' view and once from the defenders', each
//! view with weights of its own: input `view × kinds × squares + kind × squares + square` is on
//! when a piece of `kind` stands on `square`. The layers then read the side to move's view
//! first ([`super::Network::score`]), which is how the side to move enters: the same pieces
//! weigh differently when the other side is to move.

use crate::ir::{Rules, Side};

/// What a network's inputs are made of: the board and the piece kinds, in the rules' order.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// The kinds, in the order of the rules' `pieces`.
    pub pieces: Vec<PieceName>,
}

/// A piece kind as a network names it: its name and its side.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceName {
    /// The kind's name in the rules (`attacker`, `defender`, `king`, ...).
    pub name: String,
    /// The side it plays for.
    pub side: Side,
}

impl Layout {
    /// The layout of a variant with `rules`.
    pub fn of(rules: &Rules) -> Layout {
        Layout {
            width: rules.board.width,
            height: rules.board.height,
            pieces: rules
                .pieces
                .iter()
                .map(|p| PieceName {
                    name: p.name.clone(),
                    side: p.side,
                })
                .collect(),
        }
    }

    /// Squares on the board.
    pub fn squares(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Inputs of one view: a kind on a square.
    pub fn per_view(&self) -> usize {
        self.pieces.len() * self.squares()
    }

    /// Inputs of both views together (the rows of the first layer).
    pub fn inputs(&self) -> usize {
        2 * self.per_view()
    }

    /// The input that a piece of `kind` on `square` turns on in `view`'s half.
    #[inline]
    pub fn input(&self, view: Side, kind: usize, square: usize) -> usize {
        view.index() * self.per_view() + kind * self.squares() + square
    }

    /// The board and pieces in words, for an error that names them.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.pieces.iter().map(|p| p.name.as_str()).collect();
        format!(
            "{}x{}, pieces {}",
            self.width,
            self.height,
            names.join(", ")
        )
    }
}

/// The inputs of a position with `pieces` (kind, square) and `to_move`: the side to move's view
/// first, then the other's, as the layers read them (and as training samples list them).
pub fn inputs(
    layout: &Layout,
    pieces: &[(usize, usize)],
    to_move: Side,
) -> (Vec<usize>, Vec<usize>) {
    let view = |side: Side| {
        pieces
            .iter()
            .map(|&(kind, square)| layout.input(side, kind, square))
            .collect()
    };
    (view(to_move), view(to_move.opponent()))
}
