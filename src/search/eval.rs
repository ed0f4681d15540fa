//! The evaluation: how good a position is for the side to move, derived from the rules alone.
//!
//! Nothing here knows a variant's name. The terms come from the compiled rules:
//!
//! - **material**: every piece whose capture does not end the game counts, scaled so that each
//!   side's starting material is worth the same (a defender of Linnaeus' 8 is worth two of the
//!   16 attackers, [`Weights::soldier`] being the value on the larger side); a piece whose
//!   capture decides (a king, Thrones and Bones' Jarl) has no material value, its safety is the
//!   `hemmed` term instead;
//! - **runners**: a piece that wins by reaching a region (a king and his escape squares) scores
//!   by its routes: a route open now ([`Weights::escape_now`] when its side is to move, else
//!   [`Weights::escape_fork`] for two routes, which one move cannot both block, or
//!   [`Weights::escape_threat`] for one), or the escape squares it could reach in two moves
//!   ([`Weights::route2`] each, at most four), and its freedom ([`Weights::runner_mobility`] a
//!   square);
//! - **hemmed**: a decisive piece loses [`Weights::hemmed`] × n² for the n of its four sides
//!   held by enemies or by squares that count against it under its king-capture rule (the
//!   throne, hostile squares, the board's edge where it counts);
//! - **blockade**: each enemy of a runner on a square next to a small escape region (corners)
//!   earns [`Weights::blockade`];
//! - **mobility**: [`Weights::mobility`] per legal move more than the other side has.
//!
//! Scores are in hundredths of a soldier. How the weights were chosen is in docs/balance.md.

use crate::engine::bitboard::Bits;
use crate::engine::core::{Core, Pos, NONE};
use crate::engine::MAX_KINDS;
use crate::ir::{KingCaptureMethod, Side};

/// The weights of the terms, in hundredths of a soldier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A piece whose capture does not decide the game.
    pub soldier: i32,
    /// A runner with an open route while its side is to move: it escapes next move.
    pub escape_now: i32,
    /// A runner with two or more open routes while the other side is to move.
    pub escape_fork: i32,
    /// A runner with one open route while the other side is to move.
    pub escape_threat: i32,
    /// Each escape square a runner reaches in two moves (up to four).
    pub route2: i32,
    /// Each square a runner may move to.
    pub runner_mobility: i32,
    /// Times the square of the number of a decisive piece's sides held against it.
    pub hemmed: i32,
    /// Each enemy of a runner beside a small escape region.
    pub blockade: i32,
    /// Each legal move more than the other side.
    pub mobility: i32,
}

/// The weights the search uses.
pub const WEIGHTS: Weights = Weights {
    soldier: 100,
    escape_now: 5_000,
    escape_fork: 2_500,
    escape_threat: 300,
    route2: 40,
    runner_mobility: 3,
    hemmed: 30,
    blockade: 25,
    mobility: 2,
};

/// A piece kind that wins for `winner` by reaching `region`.
struct Runner<B> {
    kind: usize,
    region: B,
    winner: Side,
}

/// The evaluation of one variant, precomputed from its compiled rules.
pub(crate) struct Evaluator<B: Bits> {
    weights: Weights,
    value: [i32; MAX_KINDS],
    runners: Vec<Runner<B>>,
    /// Decisive kinds: their capture wins for the side given.
    hunted: Vec<(usize, Side)>,
    /// Per side, the squares beside small escape regions that side wants to hold.
    guards: [B; 2],
}

impl<B: Bits> Evaluator<B> {
    /// The evaluator for `core`; `start` lists the kinds of the pieces the game starts with.
    pub fn new(core: &Core<B>, weights: Weights, start: &[usize]) -> Evaluator<B> {
        // Each side's full material is worth the same: in tafl the sides are unequal by design
        // (16 attackers against 8 defenders), so a piece is worth more on the smaller side.
        let mut counts = [0i32; 2];
        for &k in start {
            if core.decisive[k].is_none() {
                counts[core.kinds[k].side.index()] += 1;
            }
        }
        let most = counts[0].max(counts[1]).max(1);
        let mut value = [0; MAX_KINDS];
        let mut hunted = Vec::new();
        for (k, slot) in value.iter_mut().enumerate().take(core.kinds.len()) {
            match core.decisive[k] {
                Some((winner, _)) => hunted.push((k, winner)),
                None => *slot = weights.soldier * most / counts[core.kinds[k].side.index()].max(1),
            }
        }
        let mut runners = Vec::new();
        let mut guards = [B::EMPTY; 2];
        for escape in &core.escapes {
            runners.push(Runner {
                kind: escape.kind,
                region: escape.region,
                winner: escape.winner,
            });
            // Beside a few escape squares (corners), blocking pays; beside the whole edge it
            // is no plan.
            if escape.region.count() <= 8 {
                let mut beside = B::EMPTY;
                for sq in escape.region.iter() {
                    beside |= core.neighbour_sets[sq];
                }
                guards[escape.winner.opponent().index()] |= beside & !escape.region;
            }
        }
        Evaluator {
            weights,
            value,
            runners,
            hunted,
            guards,
        }
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, core: &Core<B>, pos: &Pos<B>) -> i32 {
        let w = &self.weights;
        // From the attackers' point of view first.
        let mut score = 0;
        for (k, &value) in self.value.iter().enumerate().take(core.kinds.len()) {
            if value != 0 {
                score += sign(core.kinds[k].side) * value * pos.pieces[k].count() as i32;
            }
        }
        for runner in &self.runners {
            let side = core.kinds[runner.kind].side;
            let asking = with_to_move(pos, side, core);
            for sq in pos.pieces[runner.kind].iter() {
                score += sign(runner.winner) * self.runner(core, &asking, pos.to_move, runner, sq);
            }
        }
        for &(kind, captors) in &self.hunted {
            for sq in pos.pieces[kind].iter() {
                let held = self.held_sides(core, pos, kind, sq, captors);
                score += sign(captors) * w.hemmed * held * held;
            }
        }
        for side in Side::BOTH {
            let guards = self.guards[side.index()];
            if guards.any() {
                score +=
                    sign(side) * w.blockade * (guards & pos.sides[side.index()]).count() as i32;
            }
        }
        if w.mobility != 0 {
            let other = with_to_move(pos, pos.to_move.opponent(), core);
            let mine = core.count_moves(pos) as i32;
            let theirs = core.count_moves(&other) as i32;
            score += sign(pos.to_move) * w.mobility * (mine - theirs);
        }
        sign(pos.to_move) * score
    }

    /// What a runner on `sq` is worth to its winner.
    fn runner(
        &self,
        core: &Core<B>,
        asking: &Pos<B>,
        to_move: Side,
        runner: &Runner<B>,
        sq: usize,
    ) -> i32 {
        let w = &self.weights;
        let side = core.kinds[runner.kind].side;
        let reach = core.targets_from(asking, sq);
        let open = (reach & runner.region).count() as i32;
        let mut value = w.runner_mobility * reach.count() as i32;
        if open > 0 {
            value += if to_move == side {
                w.escape_now
            } else if open >= 2 {
                w.escape_fork
            } else {
                w.escape_threat
            };
            return value;
        }
        let mut second = B::EMPTY;
        let bits = B::single(sq);
        for to in reach.iter() {
            let mut moved = *asking;
            let step = bits | B::single(to);
            moved.pieces[runner.kind] ^= step;
            moved.sides[side.index()] ^= step;
            second |= core.targets_from(&moved, to);
        }
        value + w.route2 * ((second & runner.region).count() as i32).min(4)
    }

    /// How many of the four sides of the decisive piece on `sq` are held against it.
    fn held_sides(
        &self,
        core: &Core<B>,
        pos: &Pos<B>,
        kind: usize,
        sq: usize,
        captors: Side,
    ) -> i32 {
        let rule = &core.king_rules[usize::from(core.king_rule_of[sq])];
        let occupied = pos.occupied();
        let against = |n: u16| {
            if n == NONE {
                return rule.edge_counts;
            }
            let n = usize::from(n);
            pos.sides[captors.index()].has(n)
                || rule.counting.has(n)
                || core.hostile_always[kind].has(n)
                || (core.hostile_empty[kind].has(n) && !occupied.has(n))
        };
        let held = core.neighbours[sq].iter().filter(|&&n| against(n)).count() as i32;
        match rule.method {
            KingCaptureMethod::Enclosed => held,
            // Two sides take a custodial king: each side held is worth more.
            KingCaptureMethod::Custodial => (held * 2).min(4),
        }
    }
}

/// +1 for the attackers, -1 for the defenders.
fn sign(side: Side) -> i32 {
    match side {
        Side::Attackers => 1,
        Side::Defenders => -1,
    }
}

/// `pos` with `side` to move (for asking what that side's pieces could do).
fn with_to_move<B: Bits>(pos: &Pos<B>, side: Side, core: &Core<B>) -> Pos<B> {
    let mut asking = *pos;
    if asking.to_move != side {
        asking.to_move = side;
        asking.hash ^= core.side_key;
    }
    asking
}
