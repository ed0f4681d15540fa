//! A node of the main search: the loop over its moves (negamax alpha-beta), each move's
//! score by principal-variation search with late-move reductions and escape-threat
//! extensions, and positions repeated on the line. Apart from the worker's state in `mod.rs`
//! because it is the search itself, which the other files' techniques serve.

use super::ordering::QUIET;
use super::pruning::deep_reduction;
use super::table::table_score;
use super::{Place, Worker, MAX_PLY};
use crate::engine::bitboard::Bits;
use crate::engine::core::{occurrences, Pos, RawMove, Step};
use crate::engine::{EndReason, Ending};
use crate::ir::Side;
use crate::search::{DRAW, PROVEN, WIN};

/// Whether `score` is a loss by force for the side it belongs to (a win for the other side a
/// known number of plies away), not an evaluation.
fn proven_loss(score: i32) -> bool {
    score < -PROVEN
}

impl<B: Bits> Worker<'_, B> {
    /// Negamax with alpha-beta; the score is for the side to move in `pos`. `null_ok` is false
    /// right after a null move (two in a row prove nothing) and in a verification search.
    pub fn search(
        &mut self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        if self.enter(pos, ply) {
            return 0;
        }
        if ply > 0 {
            if let Some(score) = self.repetition(pos, ply) {
                return score;
            }
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        // A root restricted to some moves is searched in full: a table score or a cut made
        // without them would speak for moves that may not be played.
        let restricted = ply == 0 && !self.root_only.is_empty();
        let key = self.key(pos);
        let entry = self.table.probe(key);
        if let Some(score) = entry.filter(|_| !restricted).and_then(|entry| {
            table_score(
                entry,
                (depth, self.settings.deeper_entries),
                ply,
                (alpha, beta),
            )
        }) {
            return score;
        }
        if depth <= 0 {
            return if self.settings.quiescence {
                self.quiesce(pos, ply, alpha, beta, 0)
            } else {
                self.evaluate(pos, ply)
            };
        }
        // Where a fort may go up (with the fort watch on), the moves that build or stop it are
        // searched in full, and the side that must stop one is not cut unsearched.
        let forts = Side::BOTH.map(|side| self.fort_zone(pos, side));
        let watched = forts[0] | forts[1];
        let fort_ahead = forts[pos.to_move.opponent().index()].any();
        if let Some(score) = (!restricted)
            .then(|| self.cut_unsearched(pos, depth, ply, (alpha, beta), null_ok, fort_ahead))
            .flatten()
        {
            return score;
        }

        let table_move = entry.map(|e| RawMove {
            from: e.from,
            to: e.to,
        });
        let mut moves = self.node_moves(pos, ply, restricted, table_move);
        if moves.is_empty() {
            self.moves[ply] = moves;
            let ending = self.core.no_moves_ending(pos.to_move);
            // The side to move is stuck: score the ending for it, as if the other side moved.
            return -Self::ending_score(ending, pos.to_move.opponent(), ply);
        }

        let mover = pos.to_move;
        let alpha_in = alpha;
        let mut best = -WIN - 1;
        self.put_in_place(pos, &mut moves, 0);
        let mut best_move = moves[0].1;
        let outer_dependent = std::mem::replace(&mut self.path_dependent, false);
        let prune_from = self.late_moves_from(pos, depth, ply, (alpha, beta), moves.len());
        // Only the root, and only where a host listens, says which move it is on.
        let announcing = ply == 0 && self.announce.is_some();
        self.history.push(pos.hash);
        for i in 0..moves.len() {
            // The next move's table slot is fetched from memory while this one is searched.
            self.put_in_place(pos, &mut moves, i + 1);
            let (order_key, mv) = moves[i];
            let watched_move = watched.has(usize::from(mv.to));
            // Once every move searched so far loses by force, the rest are searched too: a
            // node that skipped moves must not prove a loss that one of them might have saved.
            let late = prune_from.is_some_and(|from| i >= from)
                && !proven_loss(best)
                && order_key < QUIET
                && !watched_move
                && !self.is_runner(pos, mv);
            let mut child = *pos;
            let Step { captured, ending } = self.core.step(&mut child, mv, &self.history);
            if late && ending.is_none() && captured.is_empty() && !self.open_route(&child, mover) {
                continue;
            }
            if announcing {
                self.announce_root_move(mv, i + 1);
            }
            let score = match ending {
                Some(ending) => self.ended_score(ending, mover, ply),
                None => {
                    let place = Place {
                        index: i,
                        of: moves.len(),
                        key: order_key,
                        watched: watched_move,
                    };
                    self.move_score(pos, &child, (place, mv), depth, ply, (alpha, beta))
                }
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.lead_line_with(mv, ply);
                }
            }
            if alpha >= beta {
                if captured.is_empty() && ending.is_none() {
                    self.remember_quiet_cutoff(mv, depth, ply);
                }
                break;
            }
        }
        self.history.pop();
        self.moves[ply] = moves;
        let dependent = self.path_dependent;
        self.path_dependent = outer_dependent || dependent;
        // A restricted root's score is not the position's: it is not kept for later searches.
        if !self.aborted && !dependent && !restricted {
            self.store(key, (best, best_move), depth, ply, (alpha_in, beta));
        }
        best
    }

    /// The legal moves of `pos` (only the root's allowed ones where the root is `restricted`),
    /// with their ordering keys, in the buffer of `ply`; empty where the side to move is stuck.
    fn node_moves(
        &mut self,
        pos: &Pos<B>,
        ply: usize,
        restricted: bool,
        table_move: Option<RawMove>,
    ) -> Vec<(i32, RawMove)> {
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        self.raw.clear();
        self.core.gen_moves(pos, &mut self.raw);
        moves.extend(self.raw.iter().map(|&mv| (0, mv)));
        if restricted {
            moves.retain(|(_, mv)| self.root_only.contains(mv));
        }
        if !moves.is_empty() {
            self.order_keys(pos, &mut moves, table_move, ply);
        }
        moves
    }

    /// The score for `mover` of a move at `ply` that ended the game with `ending`.
    fn ended_score(&mut self, ending: Ending, mover: Side, ply: usize) -> i32 {
        if matches!(ending.reason, EndReason::MoveLimit | EndReason::Repetition) {
            // The score depends on the line that led here.
            self.path_dependent = true;
        }
        if ending.reason == EndReason::Repetition {
            // As the child's own search would have: the line ends here.
            self.nodes += 1;
            self.pv[ply + 1].clear();
        }
        Self::ending_score(ending, mover, ply + 1)
    }

    /// Makes `mv`, followed by the line found below it, the best line from `ply`.
    fn lead_line_with(&mut self, mv: RawMove, ply: usize) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// The score for the side to move in `pos` of the move `mv` at `place` in its ordered list,
    /// which led to `child`: the first move with the full window, the others with a null
    /// window first (principal-variation search), late quiet ones reduced where reductions
    /// are on, a move opening an escape route extended where extensions are on.
    fn move_score(
        &mut self,
        pos: &Pos<B>,
        child: &Pos<B>,
        (place, mv): (Place, RawMove),
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        let mover = pos.to_move;
        let threat =
            (self.settings.extensions || self.settings.reductions) && self.open_route(child, mover);
        let extend =
            self.settings.extensions && threat && ply < 2 * self.root_depth.max(1) as usize;
        let next = depth - 1 + i32::from(extend);
        if place.index == 0 {
            return self.child_score(child, mover, next, ply, alpha, beta);
        }
        // Late quiet moves (no capture, not a killer, no escape threat, not the king's) are
        // tried shallower first.
        let reducible = self.settings.reductions
            && depth >= 4
            && place.index >= 6
            && place.key < QUIET
            && !place.watched
            && !threat
            && !self.is_runner(pos, mv);
        let reduce = match (reducible, self.settings.deep_reductions) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => deep_reduction(depth, place),
        };
        let mut probe = self.child_score(child, mover, next - reduce, ply, alpha, alpha + 1);
        if reduce > 0 && probe > alpha && !self.aborted {
            probe = self.child_score(child, mover, next, ply, alpha, alpha + 1);
        }
        if probe > alpha && probe < beta && !self.aborted {
            self.child_score(child, mover, next, ply, alpha, beta)
        } else {
            probe
        }
    }

    /// The score of a position seen before on this line, or `None` when it is new.
    fn repetition(&mut self, pos: &Pos<B>, ply: usize) -> Option<i32> {
        let seen = occurrences(pos, &self.history);
        if seen <= 1 {
            return None;
        }
        self.path_dependent = true;
        if self.core.tracks_repetition() {
            self.core
                .repetition_ending(pos.to_move, seen)
                .map(|ending| {
                    Self::ending_score(ending, pos.to_move.opponent(), ply).saturating_neg()
                })
        } else {
            // Without an automatic rule, a line that repeats gains nothing: a draw.
            Some(DRAW)
        }
    }

    /// The score for `mover` of `child`, searched to `depth` within (`alpha`, `beta`) for
    /// `mover`: negated when the other side moves next, as is when a berserk move gives
    /// `mover` the next move too.
    fn child_score(
        &mut self,
        child: &Pos<B>,
        mover: Side,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if child.to_move == mover {
            self.search(child, depth, ply + 1, alpha, beta, true)
        } else {
            -self.search(child, depth, ply + 1, -beta, -alpha, true)
        }
    }
}
