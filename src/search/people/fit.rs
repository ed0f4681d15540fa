//! Fitting the model of people's moves by maximum likelihood, and measuring it on games it did
//! not see.
//!
//! Each position of a game people played gives a sample: the features of every legal move
//! ([`super::move_features`]) and the one people chose. The log-likelihood of the weights is
//! Σ (w · f_chosen − log Σ_moves exp(w · f)), a conditional logit, concave in `w`; it is
//! maximised by Newton's method with a step halved until the likelihood rises, separately for
//! each side (the two sides' weights share no sample). A small ridge on the weights, each
//! scaled by its feature's spread, keeps a feature that always goes with people's move (taking
//! a win at once) from running to infinity.
//!
//! The engine's best move is measured beside it as a policy too: it plays the search's best
//! move with probability 1 − ε and each other legal move with ε / (n − 1). The ε that gives
//! the held-out moves the highest likelihood is the share of them that are not the engine's
//! best move, so the engine's log-likelihood is computed at that ε: the most generous reading
//! of "the engine plays like people" that one number allows.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{move_features, softmax, Model, FEATURES};
use crate::game::Game;
use crate::ir::Side;
use crate::search::{search, Limits};

/// One position of a people's game: its moves' features and the move people chose.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The side that moved.
    pub side: Side,
    /// Each legal move's features (single precision: a fit holds millions of them).
    pub moves: Vec<[f32; FEATURES]>,
    /// Which of them people played.
    pub chosen: usize,
}

/// The sample of position `index` of `game` (people's move being its ply `index`), or `None`
/// where the game has no such ply or the move is not among the legal ones listed from the
/// position alone (a rule that reads the game's history refused it).
pub fn sample(game: &Game, index: usize, depth: u32) -> Option<Sample> {
    let played = game.plies().get(index)?.mv;
    let position = *game.positions().get(index)?;
    let at = Game::from_position(game.engine().clone(), position);
    let described = move_features(&at, depth);
    let chosen = described.iter().position(|d| d.mv == played)?;
    Some(Sample {
        side: at.to_move(),
        moves: described
            .iter()
            .map(|d| d.features.map(|x| x as f32))
            .collect(),
        chosen,
    })
}

/// The samples of `games`, every `every`-th position (1: all), counted through the games one
/// after the other (so that a stride of 2 does not keep one side's moves only).
pub fn samples(games: &[Game], every: usize, depth: u32) -> Vec<Sample> {
    let every = every.max(1);
    let jobs: Vec<(usize, usize)> = games
        .iter()
        .enumerate()
        .flat_map(|(g, game)| (0..game.plies().len()).map(move |i| (g, i)))
        .enumerate()
        .filter(|(n, _)| n % every == 0)
        .map(|(_, job)| job)
        .collect();
    jobs.par_iter()
        .filter_map(|&(g, i)| sample(&games[g], i, depth))
        .collect()
}

/// The ridge's weight, per sample-free unit of a standardised weight.
pub const RIDGE: f64 = 1.0;

/// Newton iterations at most; the fit usually converges in under ten.
const ITERATIONS: usize = 40;

/// The weights of one side fitted to `samples` (those of other sides are skipped), starting
/// from zero (a uniform choice).
pub fn fit_side(samples: &[Sample], side: Side) -> Vec<f64> {
    let mine: Vec<&Sample> = samples.iter().filter(|s| s.side == side).collect();
    let spread = spreads(&mine);
    let mut w = vec![0.0; FEATURES];
    let mut current = penalised(&mine, &w, &spread);
    for _ in 0..ITERATIONS {
        let (gradient, hessian) = derivatives(&mine, &w, &spread);
        // Newton's step solves (−H) Δ = g; −H is positive definite with the ridge.
        let minus_h: Vec<Vec<f64>> = hessian
            .iter()
            .map(|row| row.iter().map(|x| -x).collect())
            .collect();
        let Some(step) = crate::search::tune::solve(minus_h, gradient.clone()) else {
            break;
        };

        let mut scale = 1.0;
        let mut improved = false;
        while scale > 1e-4 {
            let trial: Vec<f64> = w.iter().zip(&step).map(|(a, d)| a + scale * d).collect();
            let value = penalised(&mine, &trial, &spread);
            if value > current {
                improved = value - current > 1e-9 * current.abs().max(1.0);
                w = trial;
                current = value;
                break;
            }
            scale /= 2.0;
        }
        if !improved {
            break;
        }
    }
    w
}

/// Each feature's standard deviation over every legal move of `samples` (its floor keeps the
/// ridge positive where a feature never varies).
#[allow(clippy::needless_range_loop)] // sums indexed by feature, as the formula is written
fn spreads(samples: &[&Sample]) -> Vec<f64> {
    let (mut sum, mut square, mut n) = ([0.0; FEATURES], [0.0; FEATURES], 0.0);
    for s in samples {
        for m in &s.moves {
            for k in 0..FEATURES {
                let x = f64::from(m[k]);
                sum[k] += x;
                square[k] += x * x;
            }
            n += 1.0;
        }
    }
    (0..FEATURES)
        .map(|k| {
            let mean = sum[k] / f64::max(n, 1.0);
            (square[k] / f64::max(n, 1.0) - mean * mean)
                .max(1e-4)
                .sqrt()
        })
        .collect()
}

/// The log-likelihood of `samples` under `w`, less the ridge.
fn penalised(samples: &[&Sample], w: &[f64], spread: &[f64]) -> f64 {
    let ll: f64 = samples.par_iter().map(|s| log_likelihood(s, w, 1.0)).sum();
    ll - ridge(w, spread)
}

fn ridge(w: &[f64], spread: &[f64]) -> f64 {
    RIDGE
        * w.iter()
            .zip(spread)
            .map(|(w, s)| (w * s).powi(2))
            .sum::<f64>()
}

/// log P(people's move) under `w` at `sharpness`.
pub fn log_likelihood(sample: &Sample, w: &[f64], sharpness: f64) -> f64 {
    let logits: Vec<f64> = sample
        .moves
        .iter()
        .map(|m| sharpness * logit(w, m))
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = logits.iter().map(|x| (x - top).exp()).sum();
    logits[sample.chosen] - top - total.ln()
}

fn logit(w: &[f64], m: &[f32; FEATURES]) -> f64 {
    w.iter().zip(m).map(|(w, &x)| w * f64::from(x)).sum()
}

/// The penalised log-likelihood's gradient and Hessian at `w`.
#[allow(clippy::needless_range_loop)] // vectors and matrices indexed by feature, as the formulas are
fn derivatives(samples: &[&Sample], w: &[f64], spread: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let zero = || (vec![0.0; FEATURES], vec![vec![0.0; FEATURES]; FEATURES]);
    let (mut g, mut h) = samples
        .par_iter()
        .fold(zero, |(mut g, mut h), s| {
            let p = softmax(s.moves.iter().map(|m| logit(w, m)));
            let mut mean = [0.0; FEATURES];
            for (m, &pm) in s.moves.iter().zip(&p) {
                for k in 0..FEATURES {
                    mean[k] += pm * f64::from(m[k]);
                }
            }
            let chosen = &s.moves[s.chosen];
            for k in 0..FEATURES {
                g[k] += f64::from(chosen[k]) - mean[k];
            }
            for (m, &pm) in s.moves.iter().zip(&p) {
                for a in 0..FEATURES {
                    let da = f64::from(m[a]) - mean[a];
                    if da == 0.0 {
                        continue;
                    }
                    for b in 0..FEATURES {
                        h[a][b] -= pm * da * (f64::from(m[b]) - mean[b]);
                    }
                }
            }
            (g, h)
        })
        .reduce(zero, |(mut g1, mut h1), (g2, h2)| {
            for k in 0..FEATURES {
                g1[k] += g2[k];
                for j in 0..FEATURES {
                    h1[k][j] += h2[k][j];
                }
            }
            (g1, h1)
        });
    for k in 0..FEATURES {
        let s2 = spread[k] * spread[k];
        g[k] -= 2.0 * RIDGE * s2 * w[k];
        h[k][k] -= 2.0 * RIDGE * s2;
    }
    (g, h)
}

/// How often a player's most probable move is people's, and their mean log-likelihood.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Predicted {
    /// Share of positions where the player's first choice is people's move.
    pub top1: f64,
    /// Mean log-likelihood of people's move, per move.
    pub loglik: f64,
}

/// How the model predicts `samples` at `sharpness`, and a uniform choice's log-likelihood.
pub fn predict(model: &Model, samples: &[Sample], sharpness: f64) -> (Predicted, f64) {
    let n = samples.len().max(1) as f64;
    let (hits, ll, uniform) = samples
        .par_iter()
        .map(|s| {
            let w = model.weights(s.side);
            let logits: Vec<f64> = s.moves.iter().map(|m| logit(w, m)).collect();
            let best = argmax(&logits);
            (
                f64::from(u8::from(best == s.chosen)),
                log_likelihood(s, w, sharpness),
                -(s.moves.len() as f64).ln(),
            )
        })
        .reduce(|| (0.0, 0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    (
        Predicted {
            top1: hits / n,
            loglik: ll / n,
        },
        uniform / n,
    )
}

fn argmax(values: &[f64]) -> usize {
    values
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map_or(0, |(i, _)| i)
}

/// The engine's best move against people's, on a sample of held-out positions, beside the
/// model on the same positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineFigures {
    /// The engine's search depth (one thread, so the same best move on every machine).
    pub depth: u32,
    /// Positions searched.
    pub positions: usize,
    /// The engine's best move as a policy of 1 − ε on it: its top-1 share and log-likelihood.
    pub engine: Predicted,
    /// The ε fitted (the share of people's moves that are not the engine's best).
    pub epsilon: f64,
    /// The model on the same positions.
    pub people: Predicted,
}

/// The engine at `depth` against people's moves at position `index` of each of `positions`
/// (game, ply), with the model beside it.
pub fn engine_figures(
    model: &Model,
    games: &[Game],
    positions: &[(usize, usize)],
    depth: u32,
) -> EngineFigures {
    // One thread and no table: the best move depends on the position alone.
    let limits = Limits {
        table_mb: 0,
        ..Limits::depth(depth)
    };
    let found: Vec<(bool, usize, Sample)> = positions
        .par_iter()
        .filter_map(|&(g, i)| {
            let sample = sample(&games[g], i, model.depth)?;
            let position = games[g].positions()[i];
            let at = Game::from_position(games[g].engine().clone(), position);
            let stop = AtomicBool::new(false);
            let best = search(&at, &limits, &stop, |_| {}).ok()?.best?;
            let played = games[g].plies()[i].mv;
            Some((best == played, sample.moves.len(), sample))
        })
        .collect();
    let n = found.len();
    let hits = found.iter().filter(|(hit, _, _)| *hit).count();
    let epsilon = (1.0 - hits as f64 / n.max(1) as f64).clamp(1e-6, 1.0 - 1e-6);
    let ll: f64 = found
        .iter()
        .map(|&(hit, moves, _)| {
            if hit {
                (1.0 - epsilon).ln()
            } else {
                (epsilon / (moves.max(2) - 1) as f64).ln()
            }
        })
        .sum();
    let samples: Vec<Sample> = found.into_iter().map(|(_, _, s)| s).collect();
    let (people, _) = predict(model, &samples, 1.0);
    EngineFigures {
        depth,
        positions: n,
        engine: Predicted {
            top1: hits as f64 / n.max(1) as f64,
            loglik: ll / n.max(1) as f64,
        },
        epsilon,
        people,
    }
}
