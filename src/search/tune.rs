//! Fitting the evaluation's weights to game results (Texel's method): `tafl tune`.
//!
//! Games of the computer against itself (seeded random openings, then a low fixed depth) give
//! positions, each labelled with its game's result for the attackers (1 a win, ½ a draw or a
//! game stopped at the ply cap, 0 a loss). A logistic model predicts that result from the
//! evaluation: P(attackers win) = σ((c + Σ wᵢ tᵢ) / [`SCALE`]), the tᵢ being the position's
//! [`Terms`] and c a constant for the variant's own balance (fitted, then dropped: a constant
//! changes no choice of move). The fit minimises the mean cross-entropy plus a ridge
//! λ Σ ((wᵢ - wᵢ⁰)/SCALE)² towards the weights the games were played with, by Newton's method
//! (the problem is convex). `escape_now` and `escape_fork` are not fitted: they stand for a win
//! next move, which the search sees itself, and positions with them are all but decided. Then
//! the fitted weights are scaled so that a soldier is worth 100 again.
//!
//! Rounds repeat this: each plays new games with the last round's weights and refits on all
//! positions so far, so the games come from a player closer to the one being fitted.
//!
//! [`Label::Search`] labels each position instead with σ(s / [`SCALE`]), s the attackers' score
//! from a fixed-depth search of it (one thread, so deterministic; a proven win 1, a proven loss
//! 0): a soft target that varies where the games' results do not (Copenhagen at a low depth,
//! where the defenders win every game). The same cross-entropy fits it: with a target y in
//! [0, 1] its gradient is still (p − y) x, and its minimum is where the model gives y.

use std::sync::Arc;

use super::duel::{opening, play_out, Adjudication};
use super::eval::{terms_of, Terms, Weights, TERMS};
use super::{search, Limits, Score};
use crate::engine::Engine;
use crate::game::{Game, Status};
use crate::ir::Side;

/// The evaluation units per unit of log-odds: 4 soldiers' worth is e¹ to 1.
pub const SCALE: f64 = 400.0;
/// The ridge's strength (see the module's documentation).
pub const RIDGE: f64 = 0.01;
/// Terms not fitted: `escape_now` and `escape_fork`.
const FIXED: [usize; 2] = [1, 2];

/// A position's terms, its label and its game's result, both for the attackers.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// The terms, in the order of [`super::eval::TERM_NAMES`].
    pub terms: [f64; TERMS],
    /// What the fit predicts, in [0, 1]: the game's result ([`Label::Outcome`]) or the
    /// search's score squashed ([`Label::Search`]).
    pub result: f64,
    /// The game's result: 1 the attackers won, ½ a draw, 0 the defenders won.
    pub outcome: f64,
    /// The game it came from.
    pub game: u64,
}

/// How the games are played.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Games a round.
    pub games: u64,
    /// Random plies opening each game.
    pub openings: u32,
    /// The seed of the openings.
    pub seed: u64,
    /// The ply cap (a game still going is a draw) and the resignation rule, if any.
    pub adjudication: Adjudication,
    /// The players' search (one thread; a fixed depth is fast and deterministic).
    pub limits: Limits,
    /// What each position is labelled with.
    pub label: Label,
}

/// What a position is labelled with for the fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// Its game's result for the attackers (Texel's method).
    Outcome,
    /// σ(s / [`SCALE`]), s the attackers' score from a search of this many plies (see
    /// [`search_label`]).
    Search {
        /// The labelling search's depth.
        depth: u32,
    },
}

/// The label [`Label::Search`] gives the position of `game`: σ(s / [`SCALE`]), s the score for
/// the attackers of a search of `depth` plies (one thread, default techniques, `weights`), 1 or 0
/// for a proven win or loss; for an ended game its result (1, ½ or 0).
pub fn search_label(game: &Game, depth: u32, weights: Weights) -> f64 {
    // A small table: the labelling search is shallow, and a fresh table for each position keeps
    // the label independent of what was labelled before (and so of the order across threads).
    let limits = Limits {
        table_mb: 4,
        ..Limits::depth(depth).with_weights(weights)
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let Ok(report) = search(game, &limits, &stop, |_| {}) else {
        return result_for_attackers(game.status());
    };
    let mover = match report.score {
        Score::Win(_) => 1.0,
        Score::Loss(_) => 0.0,
        Score::Value(value) => sigmoid(f64::from(value) / SCALE),
    };
    match game.to_move() {
        Side::Attackers => mover,
        Side::Defenders => 1.0 - mover,
    }
}

/// 1 the attackers won, ½ a draw or a game still going, 0 the defenders won.
pub fn result_for_attackers(status: Status) -> f64 {
    match status {
        Status::AttackersWin => 1.0,
        Status::DefendersWin => 0.0,
        Status::Draw | Status::Ongoing => 0.5,
    }
}

/// Plays `plan.games` games numbered from `first` with `weights` on both sides and returns their
/// positions (after the opening), labelled. `on_game` is called after each game.
pub fn self_play(
    engine: &Arc<Engine>,
    plan: &Plan,
    weights: Weights,
    first: u64,
    on_game: impl Fn() + Sync,
) -> Vec<Sample> {
    use rayon::prelude::*;
    let limits = plan.limits.with_weights(weights);
    (first..first + plan.games)
        .into_par_iter()
        .flat_map_iter(|index| {
            let start = opening(engine, plan.seed, index, plan.openings);
            // Each position's terms and, when labelled by a search, its label.
            let mut seen: Vec<(Terms, Option<f64>)> = Vec::new();
            let game = play_out(start, &limits, &limits, plan.adjudication, |game, _| {
                if let Some(terms) = terms_of(engine, game.position()) {
                    let label = match plan.label {
                        Label::Outcome => None,
                        Label::Search { depth } => Some(search_label(game, depth, weights)),
                    };
                    seen.push((terms, label));
                }
            });
            on_game();
            let outcome = result_for_attackers(game.status());
            seen.into_iter().map(move |(terms, label)| Sample {
                terms: terms.values(),
                result: label.unwrap_or(outcome),
                outcome,
                game: index,
            })
        })
        .collect()
}

/// The positions of a game already played (a record's, replayed: `tafl tune --records`),
/// each before its move, from the variant's start on, labelled as [`self_play`] labels its own:
/// with `outcome` (the game's result for the attackers: 1, ½ or 0) or a search of the position.
/// `index` numbers the game, for holding games out of the fit.
pub fn recorded(
    game: &Game,
    outcome: f64,
    index: u64,
    label: Label,
    weights: Weights,
) -> Vec<Sample> {
    let engine = game.engine().clone();
    let mut replayed = Game::new(engine.clone());
    let mut samples = Vec::with_capacity(game.plies().len());
    for ply in game.plies() {
        if let Some(terms) = terms_of(&engine, replayed.position()) {
            let result = match label {
                Label::Outcome => outcome,
                Label::Search { depth } => search_label(&replayed, depth, weights),
            };
            samples.push(Sample {
                terms: terms.values(),
                result,
                outcome,
                game: index,
            });
        }
        // The moves were played through the same rules once already.
        if replayed.play(ply.mv).is_err() {
            break;
        }
    }
    samples
}

/// The result of a fit.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// The fitted weights, a soldier scaled back to 100.
    pub weights: Weights,
    /// The fitted constant (the variant's balance at this level of play), in evaluation units
    /// before scaling; positive favours the attackers.
    pub constant: f64,
}

/// Fits weights to `samples`, starting from (and drawn towards) `prior`.
pub fn fit(samples: &[Sample], prior: Weights) -> Fit {
    let prior_values = prior.values();
    let free: Vec<usize> = (0..TERMS).filter(|i| !FIXED.contains(i)).collect();
    // Parameters: the constant, then the free weights, all divided by SCALE.
    let k = free.len() + 1;
    let mut beta = vec![0.0; k];
    let mut start = vec![0.0; k];
    for (j, &term) in free.iter().enumerate() {
        start[j + 1] = f64::from(prior_values[term]) / SCALE;
        beta[j + 1] = start[j + 1];
    }
    let n = samples.len().max(1) as f64;
    // Per sample, the free terms (after a 1 for the constant) and what the fixed terms add:
    // the same every step, so built once.
    let rows: Vec<(Vec<f64>, f64)> = samples
        .iter()
        .map(|s| {
            let mut x = Vec::with_capacity(k);
            x.push(1.0);
            x.extend(free.iter().map(|&t| s.terms[t]));
            let offset = FIXED
                .iter()
                .map(|&t| f64::from(prior_values[t]) * s.terms[t])
                .sum::<f64>()
                / SCALE;
            (x, offset)
        })
        .collect();
    let eta = |(x, offset): &(Vec<f64>, f64), beta: &[f64]| -> f64 {
        offset + x.iter().zip(beta).map(|(a, b)| a * b).sum::<f64>()
    };
    // What the fit minimises: the mean cross-entropy plus the ridge.
    let objective = |beta: &[f64]| -> f64 {
        let cross = (rows.iter().zip(samples))
            .map(|(row, s)| cross_entropy(eta(row, beta), s.result))
            .sum::<f64>()
            / n;
        let ridge: f64 = (1..k).map(|i| (beta[i] - start[i]).powi(2)).sum();
        cross + RIDGE * ridge
    };
    let mut current = objective(&beta);
    for _ in 0..30 {
        let mut gradient = vec![0.0; k];
        let mut hessian = vec![vec![0.0; k]; k];
        for (row, s) in rows.iter().zip(samples) {
            let x = &row.0;
            let p = sigmoid(eta(row, &beta));
            let w = (p * (1.0 - p)).max(1e-9);
            for (i, &xi) in x.iter().enumerate() {
                gradient[i] += (p - s.result) * xi / n;
                for (cell, &xj) in hessian[i].iter_mut().zip(x) {
                    *cell += w * xi * xj / n;
                }
            }
        }
        // The ridge, on the weights only (not the constant).
        for i in 1..k {
            gradient[i] += 2.0 * RIDGE * (beta[i] - start[i]);
            hessian[i][i] += 2.0 * RIDGE;
        }
        hessian[0][0] += 1e-9;
        let Some(step) = solve(hessian, gradient) else {
            break;
        };
        // A full Newton step can overshoot where terms are nearly collinear (the fit then ran
        // to weights in the tens of thousands): halve it until the objective does not rise.
        let mut accepted = None;
        let mut t = 1.0;
        for _ in 0..20 {
            let trial: Vec<f64> = beta.iter().zip(&step).map(|(b, d)| b - t * d).collect();
            let value = objective(&trial);
            if value <= current {
                accepted = Some((trial, value, t));
                break;
            }
            t /= 2.0;
        }
        let Some((trial, value, t)) = accepted else {
            break;
        };
        let largest = step.iter().fold(0.0f64, |m, d| m.max((t * d).abs()));
        beta = trial;
        current = value;
        if largest < 1e-7 {
            break;
        }
    }
    let mut values = prior_values;
    for (j, &term) in free.iter().enumerate() {
        values[term] = (beta[j + 1] * SCALE).round() as i32;
    }
    // A soldier back to 100: the scale of the soft terms against the fixed ones and the
    // search's margins (aspiration windows) stays as it was.
    if values[0] > 10 {
        let factor = 100.0 / f64::from(values[0]);
        for &term in &free {
            values[term] = (f64::from(values[term]) * factor).round() as i32;
        }
    }
    Fit {
        weights: Weights::from_values(values),
        constant: beta[0] * SCALE,
    }
}

/// The mean cross-entropy of `weights` on `samples`, with the constant that fits them best
/// (a measure of how well the weights predict results; lower is better). The weights' scale
/// is refitted too, so that weights scaled to a soldier of 100 are judged fairly.
pub fn loss(samples: &[Sample], weights: Weights) -> f64 {
    let w = weights.values();
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| {
            let e: f64 = s.terms.iter().zip(&w).map(|(t, &w)| t * f64::from(w)).sum();
            (e / SCALE, s.result)
        })
        .collect();
    let cross = |a: f64, c: f64| -> f64 {
        evals
            .iter()
            .map(|&(e, y)| cross_entropy(c + a * e, y))
            .sum::<f64>()
            / evals.len().max(1) as f64
    };
    // A coarse search over scale (0.001 to 10, in tenths of a decade) and constant: two
    // numbers, a smooth function.
    let mut best = f64::INFINITY;
    for a in (-30..=10).map(|i| 10f64.powf(f64::from(i) / 10.0)) {
        for c in (-20..=20).map(|i| f64::from(i) * 0.1) {
            best = best.min(cross(a, c));
        }
    }
    best
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of predicting σ(`eta`) for the result `y` (clamped so that a saturated,
/// wrong prediction costs much but not infinity).
fn cross_entropy(eta: f64, y: f64) -> f64 {
    let p = sigmoid(eta).clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
pub(crate) fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-15 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, bottom) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (offset, row) in bottom.iter_mut().enumerate() {
            let factor = row[col] / pivot_row[col];
            for (cell, &above) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *cell -= factor * above;
            }
            b[col + 1 + offset] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let sum: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - sum) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solver_solves() {
        let a = vec![vec![2.0, 1.0], vec![1.0, 3.0]];
        let x = solve(a, vec![3.0, 5.0]).unwrap();
        assert!(
            (x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12,
            "{x:?}"
        );
    }

    #[test]
    fn a_fit_recovers_the_weight_that_made_the_results() {
        // Results drawn (deterministically, by thresholds) from σ(material · 0.5): the fit must
        // give material the larger weight and the others (noise) about their prior.
        let mut samples = Vec::new();
        let mut rng = crate::engine::Rng::new(12345);
        for game in 0..8000 {
            let material = rng.below(9) as f64 - 4.0;
            let noise = rng.below(7) as f64 - 3.0;
            let u = rng.below(1 << 20) as f64 / f64::from(1 << 20);
            let mut terms = [0.0; TERMS];
            terms[0] = material;
            terms[8] = noise;
            let result = if u < sigmoid(material * 0.5) {
                1.0
            } else {
                0.0
            };
            samples.push(Sample {
                terms,
                result,
                outcome: result,
                game,
            });
        }
        let prior = crate::search::WEIGHTS;
        let fit = fit(&samples, prior);
        // Material at 0.5 log-odds is 200 units; scaled to a soldier of 100 everything halves:
        // mobility (noise) stays near its prior's half.
        assert_eq!(fit.weights.soldier, 100);
        assert!(fit.weights.mobility.abs() <= 5, "{:?}", fit.weights);
        assert!(fit.constant.abs() < 40.0, "{}", fit.constant);
        let blind = Weights {
            soldier: 0,
            ..prior
        };
        assert!(loss(&samples, fit.weights) < loss(&samples, blind));
    }

    #[test]
    fn a_fit_recovers_the_weights_behind_soft_targets() {
        // Targets σ((100 material + 40 ring) / SCALE), as a search's labels would be if the
        // evaluation were exactly that: the fit must find ring ≈ 40 from a prior of 0, and give
        // mobility (unrelated to the targets) about nothing.
        let mut rng = crate::engine::Rng::new(777);
        let samples: Vec<Sample> = (0..6000)
            .map(|game| {
                let mut terms = [0.0; TERMS];
                terms[0] = rng.below(9) as f64 - 4.0;
                terms[8] = rng.below(21) as f64 - 10.0;
                terms[9] = rng.below(9) as f64 - 4.0;
                let result = sigmoid((100.0 * terms[0] + 40.0 * terms[9]) / SCALE);
                Sample {
                    terms,
                    result,
                    outcome: 0.5,
                    game,
                }
            })
            .collect();
        let prior = crate::search::WEIGHTS;
        let fit = fit(&samples, prior);
        assert_eq!(fit.weights.soldier, 100);
        assert!((fit.weights.ring - 40).abs() <= 3, "{:?}", fit.weights);
        assert!(fit.weights.mobility.abs() <= 1, "{:?}", fit.weights);
        assert!(fit.constant.abs() < 5.0, "{}", fit.constant);
    }

    #[test]
    fn a_fit_that_starts_far_off_does_not_run_away() {
        // Mobility counts in the thousands, and the results say the opposite of what the prior
        // weight says, so the prior's predictions are saturated and wrong: a full Newton step
        // from there overshoots by orders of magnitude. The fit must end at finite weights
        // that predict the results better than the prior does.
        let mut rng = crate::engine::Rng::new(99);
        let samples: Vec<Sample> = (0..4000)
            .map(|game| {
                let mut terms = [0.0; TERMS];
                terms[0] = rng.below(9) as f64 - 4.0;
                terms[8] = (rng.below(2001) as f64 - 1000.0) * 2.0;
                let result = if terms[8] < 0.0 { 1.0 } else { 0.0 };
                Sample {
                    terms,
                    result,
                    outcome: result,
                    game,
                }
            })
            .collect();
        let prior = crate::search::WEIGHTS;
        let fit = fit(&samples, prior);
        for (name, value) in super::super::eval::TERM_NAMES
            .iter()
            .zip(fit.weights.values())
        {
            assert!(value.abs() < 100_000, "{name} {value}: {:?}", fit.weights);
        }
        assert!(fit.weights.mobility < 0, "{:?}", fit.weights);
        assert!(loss(&samples, fit.weights) < loss(&samples, prior));
    }

    /// Brandubh's engine and the games of depth-1 players from seeded openings.
    fn games(count: u64) -> Vec<Game> {
        let rules = crate::Variant::bundled("brandubh").unwrap().rules;
        let engine = Arc::new(Engine::new(&rules).unwrap());
        (0..count)
            .map(|index| {
                let start = opening(&engine, 5, index, 6);
                play_out(
                    start,
                    &Limits::depth(1),
                    &Limits::depth(1),
                    Adjudication::cap(200),
                    |_, _| {},
                )
            })
            .collect()
    }

    /// The game's position after its first `plies` plies.
    fn replay(game: &Game, plies: usize) -> Game {
        let mut replayed = Game::new(game.engine().clone());
        for ply in &game.plies()[..plies] {
            replayed.play(ply.mv).unwrap();
        }
        replayed
    }

    #[test]
    fn a_recorded_game_gives_the_samples_its_self_play_gave() {
        // The games played here are self-play's games of this plan: reading them back as
        // records must give self-play's samples, after the opening's plies (which self-play
        // does not observe), each labelled with the game's result.
        let rules = crate::Variant::bundled("brandubh").unwrap().rules;
        let engine = Arc::new(Engine::new(&rules).unwrap());
        let weights = super::super::WEIGHTS;
        let plan = Plan {
            games: 6,
            openings: 6,
            seed: 5,
            adjudication: Adjudication::cap(200),
            limits: Limits::depth(1),
            label: Label::Outcome,
        };
        let played = self_play(&engine, &plan, weights, 0, || {});
        let mut compared = 0;
        let limits = plan.limits.with_weights(weights);
        for index in 0..plan.games {
            let start = opening(&engine, plan.seed, index, plan.openings);
            let game = play_out(start, &limits, &limits, plan.adjudication, |_, _| {});
            let outcome = result_for_attackers(game.status());
            let read = recorded(&game, outcome, index, Label::Outcome, weights);
            assert_eq!(read.len(), game.plies().len());
            assert!(read.iter().all(|s| s.result == outcome && s.game == index));
            let mine: Vec<&Sample> = played.iter().filter(|s| s.game == index).collect();
            assert_eq!(mine.len(), read.len() - 6);
            for (a, b) in mine.iter().zip(&read[6..]) {
                assert_eq!(a.terms, b.terms);
                assert_eq!(a.result, b.result);
                compared += 1;
            }
        }
        assert!(compared > 30, "{compared}");
    }

    #[test]
    fn a_search_label_is_the_attackers_chance_from_the_search() {
        let weights = super::super::WEIGHTS;
        let (mut attackers_won, mut defenders_won, mut quiet) = (0, 0, 0);
        for game in games(16) {
            let plies = game.plies().len();
            // Ended: the result itself.
            let label = search_label(&game, 2, weights);
            assert_eq!(label, result_for_attackers(game.status()));
            // One move from the end of a won game the winner to move sees the win: the label is
            // the winner's, whichever side is to move.
            let before = replay(&game, plies - 1);
            match game.status() {
                Status::AttackersWin => {
                    attackers_won += 1;
                    assert_eq!(search_label(&before, 1, weights), 1.0);
                }
                Status::DefendersWin => {
                    defenders_won += 1;
                    assert_eq!(search_label(&before, 1, weights), 0.0);
                }
                Status::Draw | Status::Ongoing => {}
            }
            // Early on, a quiet score: σ of the attackers' score, the mover's negated for the
            // defenders.
            let early = replay(&game, 3.min(plies - 1));
            let stop = std::sync::atomic::AtomicBool::new(false);
            let limits = Limits {
                table_mb: 4,
                ..Limits::depth(2).with_weights(weights)
            };
            if let Ok(report) = search(&early, &limits, &stop, |_| {}) {
                if let Score::Value(value) = report.score {
                    quiet += 1;
                    let attackers = match early.to_move() {
                        Side::Attackers => value,
                        Side::Defenders => -value,
                    };
                    let label = search_label(&early, 2, weights);
                    assert!((label - sigmoid(f64::from(attackers) / SCALE)).abs() < 1e-12);
                }
            }
        }
        assert!(attackers_won > 0 && defenders_won > 0 && quiet > 0);
    }
}
