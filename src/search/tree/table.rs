//! The transposition table as the tree uses it: a position's key, what a node stores, which
//! entry decides a node, and wins and losses counted from the stored position rather than
//! the root. Apart from the search loop because these rules are what keeps the table from
//! changing a fixed-depth result (unless `deeper-entries` is on): they are checked together.

use super::Worker;
use crate::engine::bitboard::Bits;
use crate::engine::core::{Pos, RawMove};
use crate::search::tt::{Bound, Entry};
use crate::search::PROVEN;

/// The score a table entry decides for a node `depth` plies from the horizon, `ply` from the
/// root, searched with the window `(alpha, beta)`; `None` where the node must be searched.
/// Only an entry of exactly this depth may decide, unless `deeper` (the `deeper-entries`
/// switch) lets a deeper one decide too: that changes the score of a fixed-depth search, so
/// without it the table never changes a result. The root is always searched.
pub(super) fn table_score(
    entry: Entry,
    (depth, deeper): (i32, bool),
    ply: usize,
    (alpha, beta): (i32, i32),
) -> Option<i32> {
    let stored = i32::from(entry.depth);
    let deep_enough = if deeper {
        stored >= depth.max(0)
    } else {
        stored == depth.max(0)
    };
    if ply == 0 || !deep_enough {
        return None;
    }
    let score = from_table(entry.score, ply);
    let usable = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    usable.then_some(score)
}

impl<B: Bits> Worker<'_, B> {
    /// The table key of `pos`: its Zobrist hash, and the state the hash leaves out where the
    /// rules use it, so that the table never mixes positions with different legal moves.
    pub(super) fn key(&self, pos: &Pos<B>) -> u64 {
        if !self.extra_state {
            return pos.hash;
        }
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        pos.stayed.hash(&mut hasher);
        pos.shuttle.hash(&mut hasher);
        if self.core.counts_quiet_plies() {
            pos.quiet_plies.hash(&mut hasher);
        }
        pos.hash ^ hasher.finish().rotate_left(17)
    }

    /// Stores a node's result under `key`: its best score and move, searched `depth` plies
    /// deep with the window `(alpha, beta)` it was entered with, which says what the score
    /// bounds.
    pub(super) fn store(
        &self,
        key: u64,
        (best, best_move): (i32, RawMove),
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            Entry {
                from: best_move.from,
                to: best_move.to,
                depth: depth.clamp(0, 255) as u8,
                bound,
                score: to_table(best, ply),
            },
        );
    }
}

/// A score as stored: wins and losses counted from the stored position, not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score + ply as i32
    } else if score < -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back at `ply` plies from the root.
fn from_table(score: i32, ply: usize) -> i32 {
    if score > PROVEN {
        score - ply as i32
    } else if score < -PROVEN {
        score + ply as i32
    } else {
        score
    }
}
