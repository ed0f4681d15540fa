//! Move ordering: the keys that decide which of a node's moves is searched first (the
//! table's move, winning moves, captures, killers, the history heuristic), what a cutoff
//! teaches them, and picking the moves one at a time. Apart from the search loop, which only
//! takes the moves in the order given: the keys are judgements weighed on their own, and the
//! picking must give the order of one stable sort, so that the search stays deterministic
//! (the test below checks it).

use super::Worker;
use crate::engine::bitboard::Bits;
use crate::engine::core::{Pos, RawMove};

/// Ordering keys below this are quiet moves ordered by history alone (late-move reductions
/// apply to them).
pub(super) const QUIET: i32 = 1 << 26;
/// How many of a node's moves are picked one at a time before the rest is sorted.
const PICKED_FIRST: usize = 6;

impl<B: Bits> Worker<'_, B> {
    /// Puts the move searched `index`-th in its place in `pos`'s `moves`, the earlier ones
    /// being placed already, and fetches its table slot ahead of the probe. Most nodes that
    /// cut off do so on one of their first moves: those are picked one at a time
    /// ([`bring_best_first`]), and the rest sorted only when the search gets to them.
    pub(super) fn put_in_place(&self, pos: &Pos<B>, moves: &mut [(i32, RawMove)], index: usize) {
        if index == PICKED_FIRST {
            moves[index..].sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        } else if index < PICKED_FIRST && index < moves.len() {
            bring_best_first(&mut moves[index..]);
        }
        if let Some(&(_, mv)) = moves.get(index) {
            // Guessed as if the move captured nothing; where the table's key holds more than
            // the hash (`Worker::key`), no guess is made.
            if !self.extra_state {
                self.table.prefetch(self.core.quiet_hash(pos, mv));
            }
        }
    }

    /// Gives each of `moves` its ordering key, the higher searched first: the table's move,
    /// moves that win at once, captures (more first), the killers of this ply, then by the
    /// history heuristic.
    pub(super) fn order_keys(
        &self,
        pos: &Pos<B>,
        moves: &mut [(i32, RawMove)],
        table_move: Option<RawMove>,
        ply: usize,
    ) {
        let killers = self.killers[ply];
        let landings = self.core.capture_landings(pos);
        for (key, mv) in moves.iter_mut() {
            let from = usize::from(mv.from);
            let to = usize::from(mv.to);
            *key = if Some(*mv) == table_move {
                1 << 30
            } else if self
                .core
                .kind_on(pos, from, pos.to_move)
                .is_some_and(|k| self.core.wins_on_landing(k, to))
            {
                1 << 29
            } else {
                let captures = self.captures(pos, *mv, landings);
                if captures > 0 {
                    (1 << 28) + captures as i32
                } else if killers[0] == Some(*mv) {
                    1 << 27
                } else if killers[1] == Some(*mv) {
                    1 << 26
                } else {
                    self.quiet_history[from * self.squares + to].min(QUIET - 1)
                }
            };
        }
    }

    /// A quiet move that caused a cutoff: the killer of this ply, and its history weighted by
    /// the depth, so that it is tried early elsewhere.
    pub(super) fn remember_quiet_cutoff(&mut self, mv: RawMove, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = usize::from(mv.from) * self.squares + usize::from(mv.to);
        self.quiet_history[slot] = self.quiet_history[slot].saturating_add(depth * depth);
    }

    /// How many pieces `mv` captures (for ordering); `landings` are the position's
    /// [`Core::capture_landings`](crate::engine::core::Core::capture_landings), outside which no move captures.
    pub(super) fn captures(&self, pos: &Pos<B>, mv: RawMove, landings: B) -> u32 {
        if landings.has(usize::from(mv.to)) {
            self.core.capture_count(pos, mv)
        } else {
            0
        }
    }
}

/// Brings the move of the highest key in `moves` (the first of equals) to the front, the
/// others keeping their order: a step of the stable sort by key, highest first, which keeps
/// generation order among equal keys, so that the search stays deterministic.
fn bring_best_first(moves: &mut [(i32, RawMove)]) {
    if let Some(best) = (0..moves.len()).min_by_key(|&i| (std::cmp::Reverse(moves[i].0), i)) {
        moves[..=best].rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Picking the best move one at a time, then sorting the rest, gives the order of one
        /// stable sort: the search's trees do not depend on how many moves are picked.
        #[test]
        fn picking_then_sorting_is_the_stable_sort(
            keys in prop::collection::vec(0i32..5, 0..60),
            picked in 0usize..62,
        ) {
            let moves: Vec<(i32, RawMove)> = keys
                .iter()
                .enumerate()
                .map(|(i, &key)| (key, RawMove { from: i as u16, to: 0 }))
                .collect();
            let mut stable = moves.clone();
            stable.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
            let mut picked_list = moves;
            // Past the end too: picking from an empty list leaves it empty.
            for i in 0..picked.min(picked_list.len() + 1) {
                bring_best_first(&mut picked_list[i..]);
            }
            let rest = picked.min(picked_list.len());
            picked_list[rest..].sort_by_key(|(key, _)| std::cmp::Reverse(*key));
            prop_assert_eq!(picked_list, stable);
        }
    }
}
