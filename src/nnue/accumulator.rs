//! The accumulator: the first layer's sums for each view, kept up to date as pieces come and go.
//!
//! Each view's sum is the first layer's bias plus the weight row of every input that is on
//! ([`super::features`]). A move turns off the mover's input on its old square and on its new
//! one, and turns off the inputs of the pieces it captures; taking it back does the opposite.
//! So a search updates the sums by a few rows a move instead of adding up every piece again,
//! and [`Accumulator::refresh`] (every piece again) is what the updates must always equal.

use crate::engine::bitboard::Bits;
use crate::engine::core::Pos;
use crate::ir::Side;

/// The most first-layer units a view may have: an accumulator's fixed size.
pub const MAX_ACCUMULATOR: usize = 256;

/// What the accumulator reads of a network: its first layer. The network implements it
/// ([`super::Network`]); the accumulator needs nothing else, so the layers above may read an
/// accumulator without the two depending on each other.
pub trait FirstLayer {
    /// Units a view (at most [`MAX_ACCUMULATOR`]).
    fn units(&self) -> usize;
    /// The layer's bias, one a unit.
    fn bias(&self) -> &[i16];
    /// The weights of the input for a piece of `kind` on `square` in `view`'s reading, one a
    /// unit.
    fn row(&self, view: Side, kind: usize, square: usize) -> &[i16];
}

/// The first layer's sums, in the network's integer units, for the attackers' view and the
/// defenders' (indexed by [`Side::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    views: [[i16; MAX_ACCUMULATOR]; 2],
    len: usize,
}

impl Accumulator {
    /// The sums of an empty board: the bias.
    pub fn empty(net: &impl FirstLayer) -> Accumulator {
        let len = net.units();
        let mut views = [[0i16; MAX_ACCUMULATOR]; 2];
        for view in &mut views {
            view[..len].copy_from_slice(net.bias());
        }
        Accumulator { views, len }
    }

    /// The sums of a board with `pieces` (kind, square), added up from nothing.
    pub fn refresh(
        net: &impl FirstLayer,
        pieces: impl IntoIterator<Item = (usize, usize)>,
    ) -> Accumulator {
        let mut acc = Accumulator::empty(net);
        for (kind, square) in pieces {
            acc.add(net, kind, square);
        }
        acc
    }

    /// The sums of `pos`, added up from nothing.
    pub(crate) fn of_pos<B: Bits>(
        net: &impl FirstLayer,
        pos: &Pos<B>,
        kinds: usize,
    ) -> Accumulator {
        let mut acc = Accumulator::empty(net);
        for (kind, squares) in pos.pieces.iter().enumerate().take(kinds) {
            for square in squares.iter() {
                acc.add(net, kind, square);
            }
        }
        acc
    }

    /// A piece of `kind` arrives on `square`.
    #[inline]
    pub fn add(&mut self, net: &impl FirstLayer, kind: usize, square: usize) {
        for side in Side::BOTH {
            let row = net.row(side, kind, square);
            for (sum, &w) in self.views[side.index()][..self.len].iter_mut().zip(row) {
                *sum = sum.wrapping_add(w);
            }
        }
    }

    /// A piece of `kind` leaves `square` (it moved, or was captured).
    #[inline]
    pub fn remove(&mut self, net: &impl FirstLayer, kind: usize, square: usize) {
        for side in Side::BOTH {
            let row = net.row(side, kind, square);
            for (sum, &w) in self.views[side.index()][..self.len].iter_mut().zip(row) {
                *sum = sum.wrapping_sub(w);
            }
        }
    }

    /// The sums after the ply from `before` to `after`: every piece that left a square is
    /// removed and every piece that arrived is added, kind by kind, so a move, its captures and
    /// any change of kind a rule makes are all followed. Taking a ply back is the same call with
    /// the positions swapped.
    pub(crate) fn follow<B: Bits>(
        &mut self,
        net: &impl FirstLayer,
        before: &Pos<B>,
        after: &Pos<B>,
        kinds: usize,
    ) {
        for kind in 0..kinds {
            let (was, is) = (before.pieces[kind], after.pieces[kind]);
            for square in (was & !is).iter() {
                self.remove(net, kind, square);
            }
            for square in (is & !was).iter() {
                self.add(net, kind, square);
            }
        }
    }

    /// The sums of `view`.
    pub fn view(&self, view: Side) -> &[i16] {
        &self.views[view.index()][..self.len]
    }
}
