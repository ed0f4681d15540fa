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
//! - **mobility**: [`Weights::mobility`] per empty square beside a side's pieces (where they
//!   can step), more than the other side has;
//! - **ring**: [`Weights::ring`] for each enemy of a runner within two squares of it (both
//!   ways), the net the attackers tighten round the king;
//! - **escort**: [`Weights::escort`] for each friend standing beside a runner;
//! - **seal**: [`Weights::seal`] for each enemy of a runner two orthogonal steps from a small
//!   escape region (in Copenhagen the diagonal a3, b2, c1 beside corner a1): three such pieces
//!   close a corner for good, since no capture can reach them from the closed side;
//! - **sealed**: [`Weights::sealed`] for each square of a small escape region the runner could
//!   not reach even if its friends stepped aside: its enemies wall it off (a closed corner);
//! - **walled**: [`Weights::walled`] for each square, not held by its enemies, that a runner
//!   could not reach that way: what its enemies' walls cut off from it (a closed corner, the
//!   outside of a closing ring). Counting the squares it *could* reach instead ties the term to
//!   material (every enemy taken frees a square) and the fit ran away with it;
//! - **distance**: [`Weights::distance`] for each rook move a runner needs to reach its region
//!   through empty squares, at most [`FAR`]: the king's distance in moves to his nearest
//!   escape, which the attackers lengthen move by move long before a corner is sealed (no
//!   shipped file weighs it yet: its matches are in docs/strength.md);
//! - **shut**: [`Weights::shut`] once a runner could reach no square of its small escape
//!   region at all (every corner closed to the king): the blockade's worth is in its last
//!   corner, since a king runs to whichever corner is still open;
//! - **minority**: [`Weights::minority`] for each piece the side that starts with fewer (the
//!   defenders, in most variants) has lost, on top of its material: material gives each side's
//!   start the same worth, so a defender of Copenhagen's 12 is two of the 24 attackers, and a
//!   negative weight says that a piece of the smaller side is worth less than that share.
//!   Counted from the start (0 there), so that it moves no score before a capture;
//! - **cordon**: [`Weights::cordon`] against a side that wins by encirclement for each way, no
//!   two through the same square, by which the other side's pieces could still reach the edge
//!   (at most [`CORDON_MAX`]), and [`CORDON_EDGE`] ways for each of those pieces already on
//!   the edge: the squares its ring still lacks, and the men it must still take. The ring is
//!   worth nothing to the other terms until its last piece is in place; this one pays for
//!   each gap closed and each man taken off the edge.
//! - **squeeze**: [`Weights::squeeze`] for each move short of [`SQUEEZE_ROOM`] that a side
//!   which loses when it cannot move has left, counted only once it is down to
//!   [`SQUEEZE_FEW`] pieces or fewer: the way to win against a king locked on the edge and a
//!   last soldier or two, which no other term sees (the king cannot be taken there, no ring
//!   can hold him, and material no longer moves). Counted from nothing, so that taking the
//!   piece that brings a side down to the few never costs the taker.
//! - **refuge**: [`Weights::refuge`] for each edge square (not an escape square) that a piece
//!   which wins by an edge fort stands on or reaches in one move with no enemy beside it, at
//!   most [`REFUGE_MAX`]: where a fort could be built. A fort is finished several moves after
//!   its king reaches such a stretch of edge, past the search's horizon at a second a move,
//!   and until it stands no other term sees it coming (no shipped file weighs it: at 1 s it
//!   did not keep forts away, docs/strength.md, "A fort in the making").
//!
//! The score is a weighted sum of these [`Terms`], so the weights can be fitted to game results
//! (`tafl tune`, [`super::tune`]). Scores are in hundredths of a soldier. The weights a variant
//! plays with are chosen from its rules (`super::profile::weights_for`): five files in
//! `variants/weights/`, each for a family of rules; docs/strength.md says how they were made.

use crate::engine::bitboard::Bits;
use crate::engine::core::{Core, Pos};
use crate::ir::MAX_KINDS;
use crate::ir::{KingCaptureMethod, Side};

/// The weights of the terms, in hundredths of a soldier. As JSON (a weights file), every field
/// by name; `ring`, `escort`, `seal`, `sealed`, `walled`, `distance`, `shut`, `minority`,
/// `cordon`, `squeeze` and `refuge` may be left out (0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Each empty square beside the side's pieces, more than the other side has.
    pub mobility: i32,
    /// Each enemy of a runner within two squares of it (Chebyshev distance).
    #[serde(default)]
    pub ring: i32,
    /// Each friend of a runner on a square beside it.
    #[serde(default)]
    pub escort: i32,
    /// Each enemy of a runner two orthogonal steps from a small escape region.
    #[serde(default)]
    pub seal: i32,
    /// Each square of a small escape region walled off from a runner by its enemies.
    #[serde(default)]
    pub sealed: i32,
    /// Each square its enemies do not hold that a runner could not reach through such squares.
    #[serde(default)]
    pub walled: i32,
    /// Each rook move a runner needs to reach its region (at most [`FAR`]).
    #[serde(default)]
    pub distance: i32,
    /// A runner that could reach no square of its small escape region.
    #[serde(default)]
    pub shut: i32,
    /// Each piece the side that starts with fewer pieces has lost, on top of its material.
    #[serde(default)]
    pub minority: i32,
    /// Each way (up to [`CORDON_MAX`] apart) by which the enemies of a side that wins by
    /// encirclement could still reach the edge, [`CORDON_EDGE`] for each already on it.
    #[serde(default)]
    pub cordon: i32,
    /// Each move short of [`SQUEEZE_ROOM`] a side that loses when it cannot move has, once it
    /// has at most [`SQUEEZE_FEW`] pieces.
    #[serde(default)]
    pub squeeze: i32,
    /// Each edge square (up to [`REFUGE_MAX`]) with no enemy beside it that a piece which wins
    /// by an edge fort stands on or reaches in one move.
    #[serde(default)]
    pub refuge: i32,
}

/// How many terms [`Terms::values`] and [`Weights::values`] list.
pub const TERMS: usize = 20;

/// The terms' names, in the order of [`Weights::values`] (the fields of a weights file).
pub const TERM_NAMES: [&str; TERMS] = [
    "soldier",
    "escape_now",
    "escape_fork",
    "escape_threat",
    "route2",
    "runner_mobility",
    "hemmed",
    "blockade",
    "mobility",
    "ring",
    "escort",
    "seal",
    "sealed",
    "walled",
    "distance",
    "shut",
    "minority",
    "cordon",
    "squeeze",
    "refuge",
];

impl Weights {
    /// The weights in the order of [`TERM_NAMES`].
    pub fn values(&self) -> [i32; TERMS] {
        [
            self.soldier,
            self.escape_now,
            self.escape_fork,
            self.escape_threat,
            self.route2,
            self.runner_mobility,
            self.hemmed,
            self.blockade,
            self.mobility,
            self.ring,
            self.escort,
            self.seal,
            self.sealed,
            self.walled,
            self.distance,
            self.shut,
            self.minority,
            self.cordon,
            self.squeeze,
            self.refuge,
        ]
    }

    /// Weights from values in the order of [`TERM_NAMES`].
    pub fn from_values(v: [i32; TERMS]) -> Weights {
        Weights {
            soldier: v[0],
            escape_now: v[1],
            escape_fork: v[2],
            escape_threat: v[3],
            route2: v[4],
            runner_mobility: v[5],
            hemmed: v[6],
            blockade: v[7],
            mobility: v[8],
            ring: v[9],
            escort: v[10],
            seal: v[11],
            sealed: v[12],
            walled: v[13],
            distance: v[14],
            shut: v[15],
            minority: v[16],
            cordon: v[17],
            squeeze: v[18],
            refuge: v[19],
        }
    }
}

/// What a position is made of, counted from the attackers' side (a defenders' term counts
/// negative): the evaluation is the sum of these times the [`Weights`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Material in thousandths of a soldier of the larger side.
    pub material_milli: i32,
    /// The other terms, in the order of [`TERM_NAMES`] from `escape_now`.
    pub counts: [i32; TERMS - 1],
}

impl Terms {
    /// The terms as numbers, in the order of [`TERM_NAMES`] (material in soldiers).
    pub fn values(&self) -> [f64; TERMS] {
        let mut out = [0.0; TERMS];
        out[0] = f64::from(self.material_milli) / 1000.0;
        for (slot, &count) in out[1..].iter_mut().zip(&self.counts) {
            *slot = f64::from(count);
        }
        out
    }

    /// The score for the attackers under `weights`.
    pub fn score(&self, weights: &Weights) -> i32 {
        let w = weights.values();
        let mut score = w[0] * self.material_milli / 1000;
        for (&weight, &count) in w[1..].iter().zip(&self.counts) {
            score += weight * count;
        }
        score
    }
}

/// The index of a term in [`Terms::counts`].
mod slot {
    pub const ESCAPE_NOW: usize = 0;
    pub const ESCAPE_FORK: usize = 1;
    pub const ESCAPE_THREAT: usize = 2;
    pub const ROUTE2: usize = 3;
    pub const RUNNER_MOBILITY: usize = 4;
    pub const HEMMED: usize = 5;
    pub const BLOCKADE: usize = 6;
    pub const MOBILITY: usize = 7;
    pub const RING: usize = 8;
    pub const ESCORT: usize = 9;
    pub const SEAL: usize = 10;
    pub const SEALED: usize = 11;
    pub const WALLED: usize = 12;
    pub const DISTANCE: usize = 13;
    pub const SHUT: usize = 14;
    pub const MINORITY: usize = 15;
    pub const CORDON: usize = 16;
    pub const SQUEEZE: usize = 17;
    pub const REFUGE: usize = 18;
}

/// An escape region of at most this many squares is small (corners): beside it blocking pays
/// (`blockade`, `seal`, `sealed`), and a king two moves from it is a threat the search's
/// pruning must not pass over. Beside the whole edge neither is so.
pub(crate) const SMALL_REGION: u32 = 8;

/// The most moves the `distance` term counts: a runner further from its region, or walled off
/// from it, counts this many.
pub const FAR: i32 = 5;

/// The most separate ways to the edge the `cordon` term counts from the pieces off the edge:
/// past this many the ring is not begun, and counting more would cost a flood each.
pub const CORDON_MAX: i32 = 12;

/// The ways the `cordon` term counts for each piece already on the edge: no ring holds it until
/// it is taken or leaves.
pub const CORDON_EDGE: i32 = 2;

/// A side with at most this many pieces (its king included) is counted by the `squeeze` term:
/// with more, one of them always has room.
pub const SQUEEZE_FEW: u32 = 4;

/// The moves the `squeeze` term deems room enough: a side with this many or more is not
/// squeezed. A lone soldier in the open has about twenty.
pub const SQUEEZE_ROOM: i32 = 24;

/// The most edge squares the `refuge` term counts for one piece: a king free on a long stretch
/// of empty edge is no surer of a fort than one with a few squares of it.
pub const REFUGE_MAX: i32 = 4;

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
    ring: 0,
    escort: 0,
    seal: 0,
    sealed: 0,
    walled: 0,
    distance: 0,
    shut: 0,
    minority: 0,
    cordon: 0,
    squeeze: 0,
    refuge: 0,
};

/// A weights file as `tafl tune` writes it: the variant it was fitted for, how, and the weights.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightsFile {
    /// The variant the weights were fitted or chosen on, as its file names it (or, for a
    /// profile's file chosen on several, those variants in words).
    pub variant: String,
    /// How the weights were fitted (the `tafl tune` command and its figures).
    pub fitted: String,
    /// The weights.
    pub weights: Weights,
}

/// A piece kind that wins for `winner` by reaching `region`.
struct Runner<B> {
    kind: usize,
    region: B,
    winner: Side,
    /// Whether the region is small (corners), so that its enemies can wall it off.
    small: bool,
}

/// The evaluation of one variant, precomputed from its compiled rules.
pub(crate) struct Evaluator<B: Bits> {
    weights: Weights,
    /// Per kind, a piece's material in thousandths of a soldier of the larger side.
    milli: [i32; MAX_KINDS],
    runners: Vec<Runner<B>>,
    /// Decisive kinds: their capture wins for the side given.
    hunted: Vec<(usize, Side)>,
    /// Per side, the squares beside small escape regions that side wants to hold.
    guards: [B; 2],
    /// Per square, the squares within two orthogonal steps of it.
    near: Vec<B>,
    /// Per side, the squares two orthogonal steps from small escape regions that side wants
    /// to hold.
    seals: [B; 2],
    /// The costly terms the weights ask for; [`Self::evaluate`] leaves the others at 0.
    costly: Costly,
    /// The side that starts with fewer pieces whose capture does not decide the game, and how
    /// many it starts with, if the sides differ.
    minority: Option<(Side, i32)>,
    /// The sides that win by walling every enemy off from the edge.
    encirclers: Vec<Side>,
    /// The sides that lose when they cannot move: the `squeeze` term's prey.
    stuck_lose: Vec<Side>,
    /// The kinds that win by an edge fort, each once, with the side they win for: the `refuge`
    /// term's pieces.
    fort_builders: Vec<(usize, Side)>,
    /// The learned correction ([`super::learned`]) for a piece of each kind on each square,
    /// `kind * squares + square`, in hundredths of a soldier for the attackers; empty when off.
    placed: Vec<i32>,
    /// The network that scores positions instead of the terms, if one plays.
    network: Option<&'static crate::nnue::Network>,
}

/// The terms that cost a flood or a search of moves at every leaf: counted only where they
/// weigh something (the walls' flood costs about a tenth of the search's speed on 11x11).
#[derive(Clone, Copy)]
struct Costly {
    /// `sealed`, `walled` and `shut`.
    walls: bool,
    /// `distance`.
    distance: bool,
    /// `cordon`.
    cordon: bool,
    /// `squeeze` (a move generation a piece, where a side is down to a few).
    squeeze: bool,
    /// `refuge` (a fort builder's moves).
    refuge: bool,
}

impl Costly {
    const ALL: Costly = Costly {
        walls: true,
        distance: true,
        cordon: true,
        squeeze: true,
        refuge: true,
    };

    fn of(weights: &Weights) -> Costly {
        Costly {
            walls: weights.sealed != 0 || weights.walled != 0 || weights.shut != 0,
            distance: weights.distance != 0,
            cordon: weights.cordon != 0,
            squeeze: weights.squeeze != 0,
            refuge: weights.refuge != 0,
        }
    }
}

impl<B: Bits> Evaluator<B> {
    /// The evaluator for `core`; `start` lists the kinds of the pieces the game starts with.
    pub fn new(core: &Core<B>, weights: Weights, start: &[usize]) -> Evaluator<B> {
        // Each side's full material is worth the same: in tafl the sides are unequal by design
        // (16 attackers against 8 defenders), so a piece is worth more on the smaller side.
        let mut counts = [0i32; 2];
        for &k in start {
            if core.decides_for(k).is_none() {
                counts[core.side_of(k).index()] += 1;
            }
        }
        let most = counts[0].max(counts[1]).max(1);
        let minority = Side::BOTH
            .into_iter()
            .find(|side| counts[side.index()] < counts[side.opponent().index()])
            .map(|side| (side, counts[side.index()]));
        let mut milli = [0; MAX_KINDS];
        let mut hunted = Vec::new();
        for (k, slot) in milli.iter_mut().enumerate().take(core.kind_count()) {
            match core.decides_for(k) {
                Some(winner) => hunted.push((k, winner)),
                None => *slot = 1000 * most / counts[core.side_of(k).index()].max(1),
            }
        }
        let mut runners = Vec::new();
        let mut guards = [B::EMPTY; 2];
        let mut seals = [B::EMPTY; 2];
        for escape in core.goals() {
            let small = escape.region.count() <= SMALL_REGION;
            runners.push(Runner {
                kind: escape.kind,
                region: escape.region,
                winner: escape.winner,
                small,
            });
            if small {
                let beside = core.beside(escape.region) & !escape.region;
                let two_away = core.beside(beside) & !beside & !escape.region;
                guards[escape.winner.opponent().index()] |= beside;
                seals[escape.winner.opponent().index()] |= two_away;
            }
        }
        let near = (0..core.square_count())
            .map(|sq| {
                let one = core.around(sq);
                one | core.beside(one)
            })
            .collect();
        Evaluator {
            weights,
            milli,
            runners,
            hunted,
            guards,
            near,
            seals,
            costly: Costly::of(&weights),
            minority,
            encirclers: core.encirclers().collect(),
            stuck_lose: Side::BOTH
                .into_iter()
                .filter(|&side| core.loses_without_moves(side))
                .collect(),
            fort_builders: core.fort_builders().collect(),
            placed: Vec::new(),
            network: None,
        }
    }

    /// The same evaluator with the learned correction `placed` added to every score
    /// ([`super::learned::Model::table`]).
    pub fn with_placed(self, placed: Vec<i32>) -> Evaluator<B> {
        Evaluator { placed, ..self }
    }

    /// The same evaluator scoring with `network` instead of the terms.
    pub fn with_network(self, network: &'static crate::nnue::Network) -> Evaluator<B> {
        Evaluator {
            network: Some(network),
            ..self
        }
    }

    /// The network that scores instead of the terms, if one plays.
    pub fn network(&self) -> Option<&'static crate::nnue::Network> {
        self.network
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, core: &Core<B>, pos: &Pos<B>) -> i32 {
        if let Some(net) = self.network {
            let acc = crate::nnue::Accumulator::of_pos(net, pos, core.kind_count());
            return net.score(&acc, pos.to_move);
        }
        let mut score = self.count(core, pos, self.costly).score(&self.weights);
        if !self.placed.is_empty() {
            let squares = core.square_count();
            for k in 0..core.kind_count() {
                for sq in pos.pieces[k].iter() {
                    score += self.placed.get(k * squares + sq).copied().unwrap_or(0);
                }
            }
        }
        sign(pos.to_move) * score
    }

    /// The terms of `pos`, from the attackers' side.
    pub fn terms(&self, core: &Core<B>, pos: &Pos<B>) -> Terms {
        self.count(core, pos, Costly::ALL)
    }

    /// The terms of `pos`; the costly ones stay 0 unless `costly` asks for them.
    fn count(&self, core: &Core<B>, pos: &Pos<B>, costly: Costly) -> Terms {
        let mut terms = Terms::default();
        let empty = core.all_squares() & !pos.occupied();
        let mut minority_left = 0;
        for (k, &milli) in self.milli.iter().enumerate().take(core.kind_count()) {
            if milli != 0 {
                let side = core.side_of(k);
                let count = pos.pieces[k].count() as i32;
                terms.material_milli += sign(side) * milli * count;
                if self.minority.is_some_and(|(smaller, _)| smaller == side) {
                    minority_left += count;
                }
            }
        }
        if let Some((side, start)) = self.minority {
            // Lost pieces count for the other side, as material does.
            terms.counts[slot::MINORITY] += sign(side.opponent()) * (start - minority_left);
        }
        for runner in &self.runners {
            let side = core.side_of(runner.kind);
            let asking = core.asking_for(pos, side);
            let s = sign(runner.winner);
            for sq in pos.pieces[runner.kind].iter() {
                self.runner(core, &asking, pos.to_move, runner, sq, s, &mut terms);
                let enemies = pos.sides[side.opponent().index()];
                terms.counts[slot::RING] -= s * (self.near[sq] & enemies).count() as i32;
                let friends = pos.sides[side.index()];
                terms.counts[slot::ESCORT] += s * (core.around(sq) & friends).count() as i32;
                if costly.distance {
                    let moves = moves_to(core, sq, runner.region, empty);
                    terms.counts[slot::DISTANCE] -= s * moves;
                }
                if costly.walls {
                    let open = core.all_squares() & !enemies;
                    let reached = core.flood(B::single(sq), open);
                    terms.counts[slot::WALLED] -= s * (open & !reached).count() as i32;
                    if runner.small {
                        let sealed = (runner.region & !reached).count() as i32;
                        terms.counts[slot::SEALED] -= s * sealed;
                        if (runner.region & reached).is_empty() {
                            terms.counts[slot::SHUT] -= s;
                        }
                    }
                }
            }
        }
        if costly.cordon {
            for &winner in &self.encirclers {
                let enclosed = pos.sides[winner.opponent().index()];
                terms.counts[slot::CORDON] -= sign(winner) * open_ways(core, enclosed, empty);
            }
        }
        if costly.squeeze {
            for &prey in &self.stuck_lose {
                if let Some(moves) = squeezed_moves(core, pos, prey) {
                    let short = (SQUEEZE_ROOM - moves).max(0);
                    terms.counts[slot::SQUEEZE] += sign(prey.opponent()) * short;
                }
            }
        }
        if costly.refuge {
            for &(kind, winner) in &self.fort_builders {
                let asking = core.asking_for(pos, core.side_of(kind));
                let enemies = pos.sides[winner.opponent().index()];
                for sq in pos.pieces[kind].iter() {
                    let spots = (core.targets_from(&asking, sq) | B::single(sq)) & core.edge();
                    let free = spots
                        .iter()
                        .filter(|&spot| {
                            !core.wins_on_landing(kind, spot)
                                && (core.around(spot) & enemies).is_empty()
                        })
                        .count() as i32;
                    terms.counts[slot::REFUGE] += sign(winner) * free.min(REFUGE_MAX);
                }
            }
        }
        for &(kind, captors) in &self.hunted {
            for sq in pos.pieces[kind].iter() {
                let held = self.held_sides(core, pos, kind, sq, captors);
                terms.counts[slot::HEMMED] += sign(captors) * held * held;
            }
        }
        for side in Side::BOTH {
            let held = pos.sides[side.index()];
            let guards = self.guards[side.index()];
            if guards.any() {
                terms.counts[slot::BLOCKADE] += sign(side) * (guards & held).count() as i32;
            }
            let seals = self.seals[side.index()];
            if seals.any() {
                terms.counts[slot::SEAL] += sign(side) * (seals & held).count() as i32;
            }
        }
        {
            // Mobility, measured cheaply: the empty squares beside each side's pieces, where
            // its pieces can step. Counting every legal move of both sides at every leaf
            // halved the search's speed (measured) for little gain in play.
            for side in Side::BOTH {
                let beside = core.beside(pos.sides[side.index()]);
                terms.counts[slot::MOBILITY] += sign(side) * (beside & empty).count() as i32;
            }
        }
        terms
    }

    /// Adds the terms of a runner on `sq` to `terms`, signed `s` (its winner's sign).
    #[allow(clippy::too_many_arguments)] // the runner's context, all read-only but `terms`
    fn runner(
        &self,
        core: &Core<B>,
        asking: &Pos<B>,
        to_move: Side,
        runner: &Runner<B>,
        sq: usize,
        s: i32,
        terms: &mut Terms,
    ) {
        let side = core.side_of(runner.kind);
        let reach = core.targets_from(asking, sq);
        let open = (reach & runner.region).count() as i32;
        terms.counts[slot::RUNNER_MOBILITY] += s * reach.count() as i32;
        if open > 0 {
            let term = if to_move == side {
                slot::ESCAPE_NOW
            } else if open >= 2 {
                slot::ESCAPE_FORK
            } else {
                slot::ESCAPE_THREAT
            };
            terms.counts[term] += s;
            return;
        }
        let second = core.reach_in_two(asking, runner.kind, sq, reach);
        terms.counts[slot::ROUTE2] += s * ((second & runner.region).count() as i32).min(4);
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
        let (held, method) = core.sides_held(pos, kind, sq, captors);
        let held = held as i32;
        match method {
            KingCaptureMethod::Enclosed | KingCaptureMethod::EnclosedTogether => held,
            // Two sides take a custodial king: each side held is worth more.
            KingCaptureMethod::Custodial => (held * 2).min(4),
        }
    }
}

/// The legal moves of `side` in `pos`, if it has at most [`SQUEEZE_FEW`] pieces (and `None`
/// else: counting them is the cost of a move generation a piece, paid only where few).
fn squeezed_moves<B: Bits>(core: &Core<B>, pos: &Pos<B>, side: Side) -> Option<i32> {
    if pos.sides[side.index()].count() > SQUEEZE_FEW {
        return None;
    }
    // At most a few pieces' moves: the count fits.
    Some(core.count_moves(&core.asking_for(pos, side)) as i32)
}

/// How many rook moves through `empty` squares take a piece on `sq` to `region`, at most
/// [`FAR`] (also where the region cannot be reached). The variant's bans are not asked (a
/// square only the king may cross counts as open): a measure of how far the escape is, not a
/// move generator.
fn moves_to<B: Bits>(core: &Core<B>, sq: usize, region: B, empty: B) -> i32 {
    let mut reached = B::single(sq);
    // The squares first reached by the last move: only they can lead anywhere new.
    let mut frontier = reached;
    for moves in 1..FAR {
        frontier = core.rook_reach(frontier, empty) & !reached;
        if (frontier & region).any() {
            return moves;
        }
        if frontier.is_empty() {
            break;
        }
        reached |= frontier;
    }
    FAR
}

/// The `cordon` count of `enclosed`: [`CORDON_EDGE`] for each of its pieces already on the edge
/// (no ring holds one until it is taken or steps off) beside the [`ways_to_edge`] of the others,
/// so that a ring round the rest still pays. (A first reading counted [`CORDON_MAX`] for any
/// piece on the edge; a huddle of defenders with a man or two on the edge then gave the term
/// nothing to work with: docs/strength.md, "A huddle held to the cap".)
fn open_ways<B: Bits>(core: &Core<B>, enclosed: B, empty: B) -> i32 {
    let edge = core.edge();
    (enclosed & edge).count() as i32 * CORDON_EDGE + ways_to_edge(core, enclosed & !edge, empty)
}

/// How many ways, no two through the same square, lead from `enclosed` (off the edge) to the
/// board's edge through `empty` squares, at most [`CORDON_MAX`]: the squares a side that wins by
/// encircling `enclosed` must still fill, or about (each way is the shortest left when it is
/// found, so the count can fall short of the true minimum cut, never exceed it).
fn ways_to_edge<B: Bits>(core: &Core<B>, enclosed: B, empty: B) -> i32 {
    /// The longest way followed; a longer one ends the count.
    const LONGEST: usize = 48;
    let edge = core.edge();
    let mut free = empty;
    let mut layers = [B::EMPTY; LONGEST];
    for ways in 0..CORDON_MAX {
        // Breadth first from every enclosed piece at once, a layer a step, until a layer
        // touches the edge.
        let mut reached = enclosed;
        let mut frontier = enclosed;
        let mut depth = 0;
        let end = loop {
            frontier = core.beside(frontier) & free & !reached;
            if frontier.is_empty() || depth == LONGEST {
                return ways;
            }
            layers[depth] = frontier;
            depth += 1;
            let out = frontier & edge;
            if out.any() {
                break out.lowest();
            }
            reached |= frontier;
        };
        // Walk back from the edge square reached, a layer a step, and close the way behind.
        let mut at = end;
        free.clear(at);
        for layer in layers[..depth - 1].iter().rev() {
            at = (core.around(at) & *layer).lowest();
            free.clear(at);
        }
    }
    CORDON_MAX
}

/// +1 for the attackers, -1 for the defenders.
fn sign(side: Side) -> i32 {
    match side {
        Side::Attackers => 1,
        Side::Defenders => -1,
    }
}

/// The terms of `position` (from the attackers' side), as the search's evaluation sees them;
/// `None` for a position of another engine.
pub fn terms_of(
    engine: &crate::engine::Engine,
    position: &crate::engine::Position,
) -> Option<Terms> {
    use crate::engine::Compiled;
    let start: Vec<usize> = engine
        .pieces(&engine.start())
        .into_iter()
        .map(|(_, kind)| kind)
        .collect();
    Some(match engine.compiled(position)? {
        Compiled::Narrow(core, pos) => Evaluator::new(core, WEIGHTS, &start).terms(core, &pos),
        Compiled::Wide(core, pos) => Evaluator::new(core, WEIGHTS, &start).terms(core, &pos),
    })
}
