//! Quiescence: past the horizon, captures, escapes, king moves that open a route, and the
//! answers to such a route, until the position is quiet. Apart from the main search because
//! it has its own rules (standing on the evaluation, no repetitions, no table) and its own
//! bounds on depth.

use super::threats::Threat;
use super::{Worker, MAX_PLY};
use crate::engine::bitboard::Bits;
use crate::engine::core::{Pos, RawMove, Step};
use crate::search::WIN;

/// The most plies quiescence adds to a line: captures, escape threats and their answers.
const QUIESCENCE_PLIES: usize = 8;
/// King moves that open a route are followed only in the first plies of quiescence: with an
/// edge to escape to, a king has many, and following them all multiplied the tree by five
/// (Linnaeus, depth 5, measured).
const QUIESCENCE_RUNNER_PLIES: usize = 1;
/// With the corner chase on, a runner that escapes to a small region (corners) has its
/// route-opening moves followed this many plies: its threat, the forced block, its next threat.
const QUIESCENCE_CORNER_PLIES: usize = 3;

impl<B: Bits> Worker<'_, B> {
    /// Quiescence: the side to move may stand on the evaluation or play a capture, an escape,
    /// or a king move that opens a route to an escape square; facing such a route, it may not
    /// stand, and only the moves that close the route (or win at once) are searched. At most
    /// [`QUIESCENCE_PLIES`] deep.
    pub(super) fn quiesce(
        &mut self,
        pos: &Pos<B>,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        depth: usize,
    ) -> i32 {
        if self.enter(pos, ply) {
            return 0;
        }
        let stand = self.evaluate(pos, ply);
        if ply >= MAX_PLY - 1 || depth >= QUIESCENCE_PLIES {
            return stand;
        }
        let mover = pos.to_move;
        // Facing a runner's open route, or (with the corner chase) its move to a fork (two open
        // routes, as good as one open now, a move later), only the moves that stop it are
        // searched: unless one does or wins first, the runner escapes.
        let threat = self.threat(pos, mover.opponent(), true);
        // With `king-threat`, a king the other side could take next move is the same: the
        // mover may not stand, every move is searched, and one that leaves him to be taken is
        // not followed.
        let check = !threat.any() && self.settings.king_threat && self.king_threatened(pos, mover);
        let mut best = match threat {
            Threat::Open { .. } => -(WIN - (ply as i32 + 2)),
            Threat::Fork { .. } => -(WIN - (ply as i32 + 4)),
            Threat::Quiet if check => -(WIN - (ply as i32 + 2)),
            Threat::Quiet => {
                if stand >= beta {
                    return stand;
                }
                alpha = alpha.max(stand);
                stand
            }
        };
        let facing = threat.any() || check;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        self.raw.clear();
        // Only the moves this node may follow: those that may capture; the mover's own
        // runners' in the first plies and facing a route; and facing a route, those that land
        // where the enemy runner could move, since only there can a move close its route (the
        // route's squares are among them). Stepping every move facing a route cost more than
        // the rest of the node (measured: 238 K nodes/s where a king stood two moves from an
        // open corner, against 1.8 M elsewhere).
        let landings = self.core.capture_landings(pos);
        let runner_plies = if self.settings.corner_chase && self.corner_runner(mover) {
            QUIESCENCE_CORNER_PLIES
        } else {
            QUIESCENCE_RUNNER_PLIES
        };
        let runners = if facing || depth < runner_plies {
            self.runners[mover.index()]
                .iter()
                .fold(B::EMPTY, |all, &(kind, _)| all | pos.pieces[kind])
        } else {
            B::EMPTY
        };
        let closing = match threat {
            Threat::Open { reach } => reach,
            Threat::Fork { stops } => stops,
            Threat::Quiet if check => self.core.all_squares(),
            Threat::Quiet => B::EMPTY,
        };
        let mut can_move = false;
        let raw = &mut self.raw;
        self.core.for_each_targets(pos, |from, targets| {
            can_move |= targets.any();
            let wanted = if runners.has(from) {
                targets
            } else {
                targets & (closing | landings)
            };
            raw.extend(wanted.iter().map(|to| RawMove {
                from: from as u16,
                to: to as u16,
            }));
        });
        if !can_move {
            self.moves[ply] = moves;
            let ending = self.core.no_moves_ending(mover);
            return -Self::ending_score(ending, mover.opponent(), ply);
        }
        for &mv in &self.raw {
            let captures = self.captures(pos, mv, landings);
            if facing || captures > 0 || runners.has(usize::from(mv.from)) {
                moves.push((captures as i32, mv));
            }
        }
        moves.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        for &(captures, mv) in moves.iter() {
            // Each move stepped is a step of the clock: a node here may step thousands, most
            // of them pointless and never entered (every piece moving anywhere), and the clock
            // read only on entering nodes let the first iteration run for a minute.
            if self.out_of_time() {
                break;
            }
            // Quiescence judges no repetition (an empty history): its lines are short and
            // forcing, and the line's history is for the main search.
            let mut child = *pos;
            let Step { ending, .. } = self.core.step(&mut child, mv, &[]);
            let score = match ending {
                Some(ending) => Self::ending_score(ending, mover, ply + 1),
                None => {
                    // Facing a route, a move that leaves it open loses; otherwise a quiet king
                    // move is only worth following when it opens a route.
                    let pointless = match threat {
                        Threat::Open { .. } => self.open_route(&child, mover.opponent()),
                        Threat::Fork { .. } => self.threat(&child, mover.opponent(), true).any(),
                        Threat::Quiet if check => self.king_threatened(&child, mover),
                        Threat::Quiet => captures == 0 && !self.open_route(&child, mover),
                    };
                    if pointless {
                        continue;
                    }
                    if child.to_move == mover {
                        self.quiesce(&child, ply + 1, alpha, beta, depth + 1)
                    } else {
                        -self.quiesce(&child, ply + 1, -beta, -alpha, depth + 1)
                    }
                }
            };
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }
}
