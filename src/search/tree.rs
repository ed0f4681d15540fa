//! The tree search of one thread: negamax alpha-beta with principal-variation search, the
//! shared transposition table, and move ordering (table move, winning moves, captures, killers,
//! history); and, each behind its [`Settings`] switch, quiescence, null-move pruning with
//! verification, late-move reductions, escape-threat extensions, reverse futility pruning,
//! late-move pruning, and the fort watch, which lifts the null move, the reductions and both
//! prunings where an edge fort may go up.

use std::sync::atomic::{AtomicBool, Ordering};
// std::time::Instant panics on wasm32-unknown-unknown; web-time is std's on native.
use web_time::Instant;

use super::eval::{Evaluator, SMALL_REGION};
use super::tt::{Bound, Entry, Table};
use super::{Settings, DRAW, PROVEN, WIN};
use crate::engine::bitboard::Bits;
use crate::engine::core::{occurrences, Core, Pos, RawMove, Step, NONE};
use crate::engine::{EndReason, Ending, GameOutcome};
use crate::ir::Side;

/// The deepest line searched (plies from the root).
pub(crate) const MAX_PLY: usize = 128;
/// The most plies quiescence adds to a line: captures, escape threats and their answers.
const QUIESCENCE_PLIES: usize = 8;
/// King moves that open a route are followed only in the first plies of quiescence: with an
/// edge to escape to, a king has many, and following them all multiplied the tree by five
/// (Linnaeus, depth 5, measured).
const QUIESCENCE_RUNNER_PLIES: usize = 1;
/// A side with this many pieces or fewer may be in zugzwang: a null move's cutoff is verified.
const ZUGZWANG_PIECES: u32 = 4;
/// Reverse futility pruning applies this many plies from the horizon and closer.
const FUTILITY_DEPTH: i32 = 3;
/// How far above `beta` the evaluation must stand, a ply of depth left, for reverse futility
/// pruning to fail high: six tenths of a soldier (at 150 it cut almost no nodes).
const FUTILITY_MARGIN: i32 = 60;
/// Late-move pruning: at `depth` plies from the horizon (1 or 2), the quiet moves from this
/// index of the ordered list on are not searched, or from [`LATE_SHARE`] of the list where that
/// is later.
const LATE_MOVES: [usize; 3] = [usize::MAX, 12, 24];
/// Late-move pruning keeps at least this many fifths of the list at `depth` plies from the
/// horizon. The fixed index alone pruned four in five of an 11x11 side's 100-odd moves and
/// measured a loss in Copenhagen (−17 Elo at 200 ms); with a share it gains there (+13), and a
/// 9x9 side's 60-odd moves are pruned much as before (docs/strength.md).
const LATE_SHARE: [usize; 3] = [5, 1, 2];
/// Ordering keys below this are quiet moves ordered by history alone (late-move reductions
/// apply to them).
const QUIET: i32 = 1 << 26;
/// Fort watch: how many orthogonal steps from a fort builder on the edge a move must land to be
/// watched. The men that closed the fort of docs/data/match-1s/copenhagen-lmp-seed1.csv
/// (opening 5) landed one to four steps from the king; three keeps the watched zone to a score
/// of squares (a judgement, not measured against two or four).
const FORT_WATCH_STEPS: usize = 3;

/// Where a move stands in its node's ordered list: the reductions depend on it.
#[derive(Clone, Copy)]
struct Place {
    /// Its index in the list, 0 first.
    index: usize,
    /// The length of the list.
    of: usize,
    /// Its ordering key (below [`QUIET`] for a quiet move ordered by history alone).
    key: i32,
    /// Whether it lands where a fort may go up ([`Worker::fort_zone`]): never reduced.
    watched: bool,
}

/// Whether a node may fail high without its moves searched (reverse futility, the null move):
/// a node of a null window below the root, where no berserk move is due (it cannot be passed
/// or skipped) and no proven score is at stake (a bound from the evaluation proves no win).
fn cuttable<B: Bits>(pos: &Pos<B>, ply: usize, (alpha, beta): (i32, i32)) -> bool {
    ply > 0 && beta - alpha == 1 && pos.berserker == NONE && beta.abs() < PROVEN
}

/// Whether `score` is a loss by force for the side it belongs to (a win for the other side a
/// known number of plies away), not an evaluation.
fn proven_loss(score: i32) -> bool {
    score < -PROVEN
}

/// The score a table entry decides for a node `depth` plies from the horizon, `ply` from the
/// root, searched with the window `(alpha, beta)`; `None` where the node must be searched.
/// Only an entry of exactly this depth may decide, unless `deeper` (the `deeper-entries`
/// switch) lets a deeper one decide too: that changes the score of a fixed-depth search, so
/// without it the table never changes a result. The root is always searched.
fn table_score(
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

/// One thread's search state over a shared table.
pub(crate) struct Worker<'a, B: Bits> {
    pub core: &'a Core<B>,
    pub eval: &'a Evaluator<B>,
    pub table: &'a Table,
    /// Set by the caller (Ctrl-C) or when the main thread has finished.
    pub stops: [&'a AtomicBool; 2],
    pub deadline: Option<Instant>,
    pub nodes: u64,
    /// The hashes of the positions before the current one: the game's, then the line's.
    pub history: Vec<u64>,
    /// Per ply, the move list (kept to avoid allocating in the tree).
    moves: Vec<Vec<(i32, RawMove)>>,
    /// Generation's output, reused.
    raw: Vec<RawMove>,
    /// Per ply, the principal variation from there.
    pv: Vec<Vec<RawMove>>,
    killers: Vec<[Option<RawMove>; 2]>,
    /// History heuristic: how often a move (from, to) caused a cutoff, weighted by depth.
    quiet_history: Vec<i32>,
    squares: usize,
    /// Set when a score below depended on the line taken (a repetition, a move count), so it
    /// must not be stored for other lines to reuse.
    path_dependent: bool,
    /// Whether the variant keeps state the Zobrist key leaves out (once-left sets, shuttles,
    /// an automatic move limit); then the table key includes it.
    extra_state: bool,
    pub aborted: bool,
    /// Which techniques are on.
    pub settings: Settings,
    /// The depth of the current iteration (extensions stop at twice it).
    pub root_depth: i32,
    /// Per side, the escape rules whose runner is that side's: (kind, region).
    runners: [Vec<(usize, B)>; 2],
    /// Per side, the kinds that win that side the game by an edge fort.
    fort_builders: [Vec<usize>; 2],
}

impl<'a, B: Bits> Worker<'a, B> {
    pub fn new(
        core: &'a Core<B>,
        eval: &'a Evaluator<B>,
        table: &'a Table,
        stops: [&'a AtomicBool; 2],
        deadline: Option<Instant>,
        history: Vec<u64>,
    ) -> Self {
        let squares = core.square_count();
        let mut runners: [Vec<(usize, B)>; 2] = [Vec::new(), Vec::new()];
        for goal in core.goals() {
            runners[goal.side.index()].push((goal.kind, goal.region));
        }
        let mut fort_builders: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for (kind, side) in core.fort_builders() {
            fort_builders[side.index()].push(kind);
        }
        Worker {
            core,
            eval,
            table,
            stops,
            deadline,
            nodes: 0,
            history,
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            raw: Vec::with_capacity(512),
            pv: vec![Vec::new(); MAX_PLY + 1],
            killers: vec![[None; 2]; MAX_PLY + 1],
            quiet_history: vec![0; squares * squares],
            squares,
            path_dependent: false,
            extra_state: core.has_unhashed_state(),
            aborted: false,
            settings: Settings::NONE,
            root_depth: 0,
            runners,
            fort_builders,
        }
    }

    /// The principal variation found by the last search from the root.
    pub fn root_pv(&self) -> &[RawMove] {
        &self.pv[0]
    }

    /// The table key of `pos`: its Zobrist hash, and the state the hash leaves out where the
    /// rules use it, so that the table never mixes positions with different legal moves.
    fn key(&self, pos: &Pos<B>) -> u64 {
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

    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stops.iter().any(|stop| stop.load(Ordering::Relaxed)) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The score of an ending for `mover`, the side that made the move which ended the game at
    /// `ply` plies from the root: wins sooner and losses later score better.
    fn ending_score(ending: Ending, mover: Side, ply: usize) -> i32 {
        match ending.outcome {
            GameOutcome::Draw => DRAW,
            GameOutcome::Win(side) if side == mover => WIN - ply as i32,
            GameOutcome::Win(_) => -(WIN - ply as i32),
        }
    }

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
        self.nodes += 1;
        self.pv[ply].clear();
        if self.out_of_time() {
            return 0;
        }
        if ply > 0 {
            if let Some(score) = self.repetition(pos, ply) {
                return score;
            }
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(self.core, pos);
        }
        let key = self.key(pos);
        let entry = self.table.probe(key);
        if let Some(score) = entry.and_then(|entry| {
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
                self.eval.evaluate(self.core, pos)
            };
        }
        // Where a fort may go up (with the fort watch on), the moves that build or stop it are
        // searched in full, and the side that must stop one is not cut unsearched.
        let forts = Side::BOTH.map(|side| self.fort_zone(pos, side));
        let watched = forts[0] | forts[1];
        let fort_ahead = forts[pos.to_move.opponent().index()].any();
        if let Some(score) =
            self.cut_unsearched(pos, depth, ply, (alpha, beta), null_ok, fort_ahead)
        {
            return score;
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        self.raw.clear();
        self.core.gen_moves(pos, &mut self.raw);
        moves.extend(self.raw.iter().map(|&mv| (0, mv)));
        if moves.is_empty() {
            self.moves[ply] = moves;
            let ending = self.core.no_moves_ending(pos.to_move);
            // The side to move is stuck: score the ending for it, as if the other side moved.
            return -Self::ending_score(ending, pos.to_move.opponent(), ply);
        }
        let table_move = entry.map(|e| RawMove {
            from: e.from,
            to: e.to,
        });
        self.order_keys(pos, &mut moves, table_move, ply);

        let mover = pos.to_move;
        let alpha_in = alpha;
        let mut best = -WIN - 1;
        self.put_in_place(pos, &mut moves, 0);
        let mut best_move = moves[0].1;
        let outer_dependent = std::mem::replace(&mut self.path_dependent, false);
        let prune_from = self.late_moves_from(pos, depth, ply, (alpha, beta), moves.len());
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
            let score = match ending {
                Some(ending) => {
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
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
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
        if !self.aborted && !dependent {
            self.store(key, (best, best_move), depth, ply, (alpha_in, beta));
        }
        best
    }

    /// Stores a node's result under `key`: its best score and move, searched `depth` plies
    /// deep with the window `(alpha, beta)` it was entered with, which says what the score
    /// bounds.
    fn store(
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

    /// Null-move pruning at a node of a null window: the side to move passes; if the other
    /// side, searched `R` plies shallower, still cannot reach `beta`, the node fails high.
    /// Where the side to move has few pieces (zugzwang is possible: passing may be better than
    /// any move) the cutoff is verified by a search of the node itself, `R` plies shallower and
    /// without null moves. Only `depth` 3 or more from the horizon, and not right after a null
    /// move (`null_ok` false). `None`: no cutoff, search the node.
    fn null_move(
        &mut self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        null_ok: bool,
        static_eval: &mut Option<i32>,
    ) -> Option<i32> {
        if !self.settings.null_move || !null_ok || depth < 3 || !cuttable(pos, ply, (alpha, beta)) {
            return None;
        }
        if self.static_eval(pos, static_eval) < beta {
            return None;
        }
        let reduction = if depth >= 6 { 3 } else { 2 };
        let mut passed = *pos;
        self.core.set_to_move(&mut passed, pos.to_move.opponent());
        self.history.push(pos.hash);
        let score = -self.search(
            &passed,
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
            false,
        );
        self.history.pop();
        if self.aborted || score < beta {
            return None;
        }
        if pos.sides[pos.to_move.index()].count() > ZUGZWANG_PIECES {
            return Some(beta);
        }
        let verified = self.search(pos, depth - reduction, ply, alpha, beta, false);
        (!self.aborted && verified >= beta).then_some(verified)
    }

    /// Late-move pruning: near the horizon, at a node of a null window where the other side
    /// threatens no escape, the index in the ordered list of `moves` moves from which quiet
    /// moves are not searched; `None` where nothing is pruned. The search loop prunes from there
    /// only while some move searched so far escapes a forced loss.
    fn late_moves_from(
        &self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        moves: usize,
    ) -> Option<usize> {
        (self.settings.late_move_pruning
            && ply > 0
            && beta - alpha == 1
            && depth < LATE_MOVES.len() as i32
            && !self.open_route(pos, pos.to_move.opponent()))
        .then(|| {
            let depth = depth as usize;
            LATE_MOVES[depth].max(moves * LATE_SHARE[depth] / 5)
        })
    }

    /// A quiet move that caused a cutoff: the killer of this ply, and its history weighted by
    /// the depth, so that it is tried early elsewhere.
    fn remember_quiet_cutoff(&mut self, mv: RawMove, depth: i32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = usize::from(mv.from) * self.squares + usize::from(mv.to);
        self.quiet_history[slot] = self.quiet_history[slot].saturating_add(depth * depth);
    }

    /// The score of a node that fails high without its moves searched: reverse futility, then
    /// the null move, both standing on the evaluation (at depth 3, the same one). Neither where
    /// the other side may be building a fort (`fort_ahead`, [`Self::fort_zone`]): there the
    /// evaluation weighs a standing that a few quiet moves will overturn. `None`: search it.
    fn cut_unsearched(
        &mut self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        window: (i32, i32),
        null_ok: bool,
        fort_ahead: bool,
    ) -> Option<i32> {
        if fort_ahead {
            return None;
        }
        let mut static_eval = None;
        self.futile(pos, depth, ply, window, &mut static_eval)
            .or_else(|| self.null_move(pos, depth, ply, window, null_ok, &mut static_eval))
    }

    /// Reverse futility pruning at a node of a null window `depth` plies from the horizon:
    /// when the side to move stands [`FUTILITY_MARGIN`] a ply above `beta`, the node fails high
    /// unsearched, since the other side is not expected to win that much back in so few plies.
    /// Not where the other side's runner has an open route, or that side could open one to a
    /// corner with its next move ([`Self::route_within_two`]: the evaluation of such a position
    /// is a threat, not a standing), nor for proven scores. `None`: search the node.
    fn futile(
        &self,
        pos: &Pos<B>,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        static_eval: &mut Option<i32>,
    ) -> Option<i32> {
        if !self.settings.futility || depth > FUTILITY_DEPTH || !cuttable(pos, ply, (alpha, beta)) {
            return None;
        }
        if self.route_within_two(pos, pos.to_move.opponent()) {
            return None;
        }
        let margin = FUTILITY_MARGIN * depth;
        (self.static_eval(pos, static_eval) - margin >= beta).then_some(beta)
    }

    /// The evaluation of `pos`, computed at most once a node: `cached` holds it once known.
    fn static_eval(&self, pos: &Pos<B>, cached: &mut Option<i32>) -> i32 {
        *cached.get_or_insert_with(|| self.eval.evaluate(self.core, pos))
    }

    /// Quiescence: the side to move may stand on the evaluation or play a capture, an escape,
    /// or a king move that opens a route to an escape square; facing such a route, it may not
    /// stand, and only the moves that close the route (or win at once) are searched. At most
    /// [`QUIESCENCE_PLIES`] deep.
    fn quiesce(
        &mut self,
        pos: &Pos<B>,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        depth: usize,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.out_of_time() {
            return 0;
        }
        let stand = self.eval.evaluate(self.core, pos);
        if ply >= MAX_PLY - 1 || depth >= QUIESCENCE_PLIES {
            return stand;
        }
        let mover = pos.to_move;
        let (their_reach, threatened) = self.runner_reach(pos, mover.opponent());
        let mut best = if threatened {
            // Unless a move below closes the route or wins first, the runner escapes next.
            -(WIN - (ply as i32 + 2))
        } else {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            stand
        };
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
        let runners = if threatened || depth < QUIESCENCE_RUNNER_PLIES {
            self.runners[mover.index()]
                .iter()
                .fold(B::EMPTY, |all, &(kind, _)| all | pos.pieces[kind])
        } else {
            B::EMPTY
        };
        let closing = if threatened { their_reach } else { B::EMPTY };
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
            if threatened || captures > 0 || runners.has(usize::from(mv.from)) {
                moves.push((captures as i32, mv));
            }
        }
        moves.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        for &(captures, mv) in moves.iter() {
            // Quiescence judges no repetition (an empty history): its lines are short and
            // forcing, and the line's history is for the main search.
            let mut child = *pos;
            let Step { ending, .. } = self.core.step(&mut child, mv, &[]);
            let score = match ending {
                Some(ending) => Self::ending_score(ending, mover, ply + 1),
                None => {
                    // Facing a route, a move that leaves it open loses; otherwise a quiet king
                    // move is only worth following when it opens a route.
                    let pointless = if threatened {
                        self.open_route(&child, mover.opponent())
                    } else {
                        captures == 0 && !self.open_route(&child, mover)
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

    /// Whether a runner (a king) of `side` has an open route to its escape region in `pos`:
    /// with `side` to move, it would escape.
    fn open_route(&self, pos: &Pos<B>, side: Side) -> bool {
        self.runner_reach(pos, side).1
    }

    /// Whether a runner (a king) of `side` has an open route in `pos`, or its side could open
    /// one to a small escape region (corners) with its next move: a square the king could move
    /// to lies on a clear line to the region, or the king stands on a line to it that only his
    /// own men block (one stepping aside opens it). A king two moves from an open corner is a
    /// threat the evaluation cannot weigh (it scored a lost Copenhagen position +8 soldiers,
    /// and reverse futility cut the attackers' node there: docs/strength.md), and so is a king
    /// whose own man stands between him and the corner ("A route the king's men open").
    /// Not for a region as large as the edge, from which a king is nearly always two moves
    /// away: there the guard would turn pruning off (Linnaeus, depth 8: 4.68 M nodes instead of
    /// 2.80 M). The lines are a rook's, not asked of the variant's bans, and a line blocked by
    /// two men counts as one: this may say yes where no move opens a route. It guards pruning,
    /// where a yes only costs a search.
    fn route_within_two(&self, pos: &Pos<B>, side: Side) -> bool {
        let empty = self.core.all_squares() & !pos.occupied();
        let own = pos.sides[side.index()];
        self.runners[side.index()].iter().any(|&(kind, region)| {
            let small = region.count() <= SMALL_REGION;
            // The king's own men count as open: one of them may step off the line.
            if small && (pos.pieces[kind] & self.core.rook_reach(region, empty | own)).any() {
                return true;
            }
            let lines = if small {
                region | self.core.rook_reach(region, empty)
            } else {
                region
            };
            pos.pieces[kind]
                .iter()
                .any(|sq| (self.core.targets_as(pos, side, kind, sq) & lines).any())
        })
    }

    /// The squares within [`FORT_WATCH_STEPS`] orthogonal steps of a piece of `side` that wins
    /// by an edge fort and stands on the edge beside an empty square (where the rules' fort
    /// begins: docs/language.md, "Winning by an edge fort"): where that side's wall may go up,
    /// and where the other side's men must go to stop it. Empty where `fort-watch` is off and
    /// where no fort is watched, as in every variant without the rule.
    fn fort_zone(&self, pos: &Pos<B>, side: Side) -> B {
        if !self.settings.fort_watch {
            return B::EMPTY;
        }
        let builders = self.fort_builders[side.index()]
            .iter()
            .fold(B::EMPTY, |all, &kind| all | pos.pieces[kind]);
        let empty = self.core.all_squares() & !pos.occupied();
        let mut zone = builders & self.core.edge() & self.core.beside(empty);
        for _ in 0..FORT_WATCH_STEPS {
            if zone.is_empty() {
                break;
            }
            zone = zone | self.core.beside(zone);
        }
        zone
    }

    /// Every square a runner (a king) of `side` could move to in `pos`, and whether one of
    /// them is in its escape region (an open route, as [`Self::open_route`]).
    fn runner_reach(&self, pos: &Pos<B>, side: Side) -> (B, bool) {
        let mut reach = B::EMPTY;
        let mut open = false;
        for &(kind, region) in &self.runners[side.index()] {
            for sq in pos.pieces[kind].iter() {
                let targets = self.core.targets_as(pos, side, kind, sq);
                open |= (targets & region).any();
                reach |= targets;
            }
        }
        (reach, open)
    }

    /// How many pieces `mv` captures (for ordering); `landings` are the position's
    /// [`Core::capture_landings`], outside which no move captures.
    fn captures(&self, pos: &Pos<B>, mv: RawMove, landings: B) -> u32 {
        if landings.has(usize::from(mv.to)) {
            self.core.capture_count(pos, mv)
        } else {
            0
        }
    }

    /// Whether `mv` moves a runner (a king) of the side to move.
    fn is_runner(&self, pos: &Pos<B>, mv: RawMove) -> bool {
        let from = usize::from(mv.from);
        self.runners[pos.to_move.index()]
            .iter()
            .any(|&(kind, _)| pos.pieces[kind].has(from))
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

    /// Puts the move searched `index`-th in its place in `pos`'s `moves`, the earlier ones
    /// being placed already, and fetches its table slot ahead of the probe. Most nodes that
    /// cut off do so on one of their first moves: those are picked one at a time
    /// ([`bring_best_first`]), and the rest sorted only when the search gets to them.
    fn put_in_place(&self, pos: &Pos<B>, moves: &mut [(i32, RawMove)], index: usize) {
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
    fn order_keys(
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
}

/// How many of a node's moves are picked one at a time before the rest is sorted.
const PICKED_FIRST: usize = 6;

/// Brings the move of the highest key in `moves` (the first of equals) to the front, the
/// others keeping their order: a step of the stable sort by key, highest first, which keeps
/// generation order among equal keys, so that the search stays deterministic.
fn bring_best_first(moves: &mut [(i32, RawMove)]) {
    if let Some(best) = (0..moves.len()).min_by_key(|&i| (std::cmp::Reverse(moves[i].0), i)) {
        moves[..=best].rotate_right(1);
    }
}

/// How many plies deep reductions take off the late quiet move at `place` of a node `depth`
/// plies from the horizon: two where the node is 6 plies or more from the horizon and the
/// move comes in the last two thirds of the list, else one. By the share of the list, as
/// late-move pruning keeps a share of it: a side with a hundred moves and one with twenty
/// keep the same part of their lists at full depth (docs/strength.md, "Deeper reductions").
fn deep_reduction(depth: i32, place: Place) -> i32 {
    if depth >= 6 && 3 * place.index >= place.of {
        2
    } else {
        1
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
