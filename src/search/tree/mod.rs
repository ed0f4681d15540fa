//! The tree search of one thread: negamax alpha-beta with principal-variation search, the
//! shared transposition table, and move ordering (table move, winning moves, captures, killers,
//! history); and, each behind its [`Settings`] switch, quiescence, null-move pruning with
//! verification, late-move reductions, escape-threat extensions, reverse futility pruning,
//! late-move pruning, and the fort watch, which lifts the null move, the reductions and both
//! prunings where an edge fort may go up.
//!
//! This file holds a thread's state, the [`Worker`]; the search is spread over one file a
//! concern, each an `impl` block of the worker:
//!
//! - `negamax`: a node of the main search, its loop over the moves, principal-variation
//!   search with reductions and extensions, and repetitions;
//! - `ordering`: the order the moves are searched in (ordering keys, killers, history) and
//!   picking them one at a time;
//! - `pruning`: what is cut unsearched or searched shallower (reverse futility, the null move,
//!   late-move pruning, the depth of reductions);
//! - `threats`: the escape routes and edge forts the evaluation cannot see coming, which guard
//!   the pruning and drive quiescence and extensions;
//! - `quiescence`: the search past the horizon;
//! - `table`: the transposition table as the tree uses it (keys, what a node stores, which
//!   entry decides a node, scores counted from the stored node).

mod negamax;
mod network;
mod ordering;
mod pruning;
mod quiescence;
mod table;
mod threats;

use std::sync::atomic::{AtomicBool, Ordering};
// std::time::Instant panics on wasm32-unknown-unknown; web-time is std's on native.
use web_time::Instant;

use super::eval::{Evaluator, SMALL_REGION};
use super::tt::Table;
use super::{Settings, DRAW, WIN};
use crate::engine::bitboard::Bits;
use crate::engine::core::{Core, Pos, RawMove};
use crate::engine::{Ending, GameOutcome};
use crate::ir::Side;

/// The deepest line searched (plies from the root).
pub(crate) const MAX_PLY: usize = 128;

/// The clock and the stop flags are read once every this many steps (a power of two): nodes
/// entered, and moves stepped in quiescence, where a node of a variant whose pieces move to
/// any empty square may step thousands. Reading the clock costs tens of nanoseconds, a node
/// hundreds of nanoseconds at the least, so this costs under a percent; once every 1,024
/// nodes, as before, let a 100 ms budget run over by a third of a second where quiescence's
/// nodes cost 300 µs each (13x13, every piece moving anywhere, measured).
const POLL_EVERY: u64 = 64;

/// Where a move stands in its node's ordered list: the reductions depend on it.
#[derive(Clone, Copy)]
struct Place {
    /// Its index in the list, 0 first.
    index: usize,
    /// The length of the list.
    of: usize,
    /// Its ordering key (below [`QUIET`](ordering::QUIET) for a quiet move ordered by history alone).
    key: i32,
    /// Whether it lands where a fort may go up ([`Worker::fort_zone`]): never reduced.
    watched: bool,
}

/// The main thread's word each time the root starts on a move, once `from` has passed (UCI's
/// `currmove`): the move, its number in the root's order (from 1), and the iteration's depth.
pub(crate) struct Announce<'a> {
    pub from: Instant,
    pub call: &'a mut dyn FnMut(RawMove, usize, i32),
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
    /// Steps taken since the search began (nodes, and moves stepped in quiescence), for
    /// [`POLL_EVERY`].
    steps: u64,
    /// The deepest ply a node was visited at, quiescence included (UCI's `seldepth`).
    pub seldepth: usize,
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
    /// Per side, whether a runner of that side escapes to a small region (a king to corners).
    corner_runners: [bool; 2],
    /// Per side, the kinds of that side whose capture decides the game for the other (kings).
    decisive: [Vec<usize>; 2],
    /// Per side, the kinds that win that side the game by an edge fort.
    fort_builders: [Vec<usize>; 2],
    /// The only moves searched at the root; empty: every legal move.
    pub root_only: Vec<RawMove>,
    /// Who hears of each root move as it is started (the main thread's, when a host listens);
    /// none: the tree never looks at the clock for it.
    pub announce: Option<Announce<'a>>,
    /// With a network evaluation, the line's positions and accumulators.
    net_line: Option<network::NetLine<B>>,
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
        let corner_runners: [bool; 2] = std::array::from_fn(|side| {
            runners[side]
                .iter()
                .any(|&(_, region)| region.count() <= SMALL_REGION)
        });
        let mut decisive: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for kind in 0..core.kind_count() {
            let side = core.side_of(kind);
            if core.decides_for(kind) == Some(side.opponent()) {
                decisive[side.index()].push(kind);
            }
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
            steps: 0,
            seldepth: 0,
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
            corner_runners,
            decisive,
            fort_builders,
            root_only: Vec::new(),
            announce: None,
            net_line: eval
                .network()
                .map(|net| network::NetLine::new(net, core.kind_count(), &Core::<B>::empty_pos())),
        }
    }

    /// The principal variation found by the last search from the root.
    pub fn root_pv(&self) -> &[RawMove] {
        &self.pv[0]
    }

    /// A move to play from `root` when the search was stopped before any root move's search
    /// finished: the first of the root's ordered moves where the root got as far as ordering
    /// them, otherwise the first legal one (of those the root may play); none where there is
    /// none.
    pub fn first_root_move(&mut self, root: &Pos<B>) -> Option<RawMove> {
        if let Some(&(_, mv)) = self.moves[0].first() {
            return Some(mv);
        }
        self.raw.clear();
        self.core.gen_moves(root, &mut self.raw);
        self.raw
            .iter()
            .copied()
            .find(|mv| self.root_only.is_empty() || self.root_only.contains(mv))
    }

    /// The evaluation of `pos`, the node at `ply`: the network's where one plays (its
    /// accumulator brought up to date along the line), else the terms'.
    #[inline]
    fn evaluate(&mut self, pos: &Pos<B>, ply: usize) -> i32 {
        match &mut self.net_line {
            Some(line) => line.score(ply),
            None => self.eval.evaluate(self.core, pos),
        }
    }

    /// A node at `ply` is entered: counted, its depth noted for `seldepth`, its line cleared
    /// (and, with a network, its position noted for its accumulator).
    /// Whether the search must stop now (the clock, or a stop), as [`Self::out_of_time`].
    #[inline]
    fn enter(&mut self, pos: &Pos<B>, ply: usize) -> bool {
        if let Some(line) = &mut self.net_line {
            line.enter(pos, ply);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.pv[ply].clear();
        self.out_of_time()
    }

    /// Another step (a node, or a move stepped in quiescence): whether the search must stop
    /// now. The clock and the stop flags are read every [`POLL_EVERY`] steps.
    #[inline]
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.steps += 1;
        if self.steps.is_multiple_of(POLL_EVERY) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stops.iter().any(|stop| stop.load(Ordering::Relaxed)) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The root starts on `mv`, the `number`th of its order: told to the listener, if there is
    /// one and its time has come. Called once a root move, never below the root.
    #[cold]
    #[inline(never)]
    fn announce_root_move(&mut self, mv: RawMove, number: usize) {
        if let Some(announce) = &mut self.announce {
            if Instant::now() >= announce.from {
                (announce.call)(mv, number, self.root_depth);
            }
        }
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
}
