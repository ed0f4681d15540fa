//! A game's positions that its next position may repeat, counted by hash as the game goes:
//! a repetition rule then costs a lookup a ply, where passing over every position since the
//! last capture at each ply made a long game without captures cost quadratic time.

use std::collections::HashMap;

use super::bitboard::Bits;
use super::core::Pos;

/// The positions since the last capture, the current one included, counted by Zobrist hash.
/// A capture changes the material for good, so no position before it can occur again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    counts: HashMap<u64, u32>,
}

impl Repetitions {
    /// Nothing counted.
    pub fn new() -> Repetitions {
        Repetitions::default()
    }

    /// How many of the counted positions have `hash`.
    pub fn count(&self, hash: u64) -> u32 {
        self.counts.get(&hash).copied().unwrap_or(0)
    }

    /// A position with `hash` reached; `after_capture` when the move that reached it captured
    /// (then nothing before it can recur, and the count starts again from it).
    pub fn enter(&mut self, hash: u64, after_capture: bool) {
        if after_capture {
            self.counts.clear();
        }
        *self.counts.entry(hash).or_insert(0) += 1;
    }

    /// A position with `hash` taken back (the last one entered, by a move that captured
    /// nothing).
    pub fn leave(&mut self, hash: u64) {
        if let Some(count) = self.counts.get_mut(&hash) {
            *count -= 1;
            if *count == 0 {
                self.counts.remove(&hash);
            }
        }
    }

    /// Counts exactly `hashes`, forgetting the rest: after taking back a capture, the
    /// positions since the capture before it.
    pub fn recount(&mut self, hashes: impl IntoIterator<Item = u64>) {
        self.counts.clear();
        for hash in hashes {
            *self.counts.entry(hash).or_insert(0) += 1;
        }
    }

    /// How many times `child`, reached from the last counted position, has occurred, this
    /// time included: as [`super::core::occurrences`] finds it from the history.
    pub(super) fn occurrences<B: Bits>(&self, child: &Pos<B>) -> u32 {
        if child.quiet_plies == 0 {
            1
        } else {
            1 + self.count(child.hash)
        }
    }
}
