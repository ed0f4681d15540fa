//! The network's accumulators along the line searched: each node's position is noted as it
//! is entered, and its accumulator is brought up to date only when the node is evaluated, from
//! the nearest ancestor whose accumulator is, by the pieces each ply moved and took
//! ([`Accumulator::follow`]). Going back up the tree costs nothing: an ancestor's accumulator
//! is still its own.

use super::MAX_PLY;
use crate::engine::bitboard::Bits;
use crate::engine::core::Pos;
use crate::nnue::{Accumulator, Network};

/// The line from the root: per ply, the position entered there and its accumulator.
pub(super) struct NetLine<B: Bits> {
    net: &'static Network,
    kinds: usize,
    positions: Vec<Pos<B>>,
    accs: Vec<Accumulator>,
    /// Whether `accs[ply]` is that of `positions[ply]`.
    fresh: Vec<bool>,
}

impl<B: Bits> NetLine<B> {
    pub fn new(net: &'static Network, kinds: usize, root: &Pos<B>) -> NetLine<B> {
        NetLine {
            net,
            kinds,
            positions: vec![*root; MAX_PLY + 1],
            accs: vec![Accumulator::empty(net); MAX_PLY + 1],
            fresh: vec![false; MAX_PLY + 1],
        }
    }

    /// The node at `ply` is `pos`, a child of the node at `ply - 1`.
    #[inline]
    pub fn enter(&mut self, pos: &Pos<B>, ply: usize) {
        self.positions[ply] = *pos;
        self.fresh[ply] = false;
    }

    /// The network's score of the node at `ply`, for its side to move.
    pub fn score(&mut self, ply: usize) -> i32 {
        // The nodes below `ply` are its ancestors, each still the one entered there.
        let mut from = ply;
        while from > 0 && !self.fresh[from] {
            from -= 1;
        }
        if !self.fresh[from] {
            self.accs[from] = Accumulator::of_pos(self.net, &self.positions[from], self.kinds);
            self.fresh[from] = true;
        }
        for q in from + 1..=ply {
            let mut acc = self.accs[q - 1];
            acc.follow(
                self.net,
                &self.positions[q - 1],
                &self.positions[q],
                self.kinds,
            );
            self.accs[q] = acc;
            self.fresh[q] = true;
        }
        // The tests search with networks in debug builds: every update is checked there.
        debug_assert_eq!(
            self.accs[ply],
            Accumulator::of_pos(self.net, &self.positions[ply], self.kinds)
        );
        self.net.score(&self.accs[ply], self.positions[ply].to_move)
    }
}
