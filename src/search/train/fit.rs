//! The fit: a network's float weights fitted to a generation's positions, with the noru crate
//! (a game-agnostic NNUE trainer in pure Rust, no dependencies: backpropagation and Adam over
//! sparse inputs) doing the gradient steps.
//!
//! Each position's target is the side to move's result (1 won, ½ drawn, 0 lost), blended
//! with its search score's winning chance when `blend` is above 0; the loss is the cross
//! entropy of the network's `sigmoid(logit)` against it. An epoch takes every attackers' win
//! and every defenders' win, the smaller of the two drawn again at random until both count as
//! many, and every draw, shuffled: so a variant whose games one side mostly wins still teaches
//! the other side's wins as much.

use noru::config::{Activation, NnueConfig};
use noru::trainer::{AdamState, Gradients, SimpleRng, TrainableWeights, TrainingSample};
use rayon::prelude::*;

use super::data::Sample;
use crate::engine::Rng;
use crate::nnue::features::{inputs, Layout};
use crate::nnue::network::{FloatNetwork, OUTPUT_SCALE};

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct FitSettings {
    /// First-layer units per view.
    pub accumulator: usize,
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the (balanced) positions.
    pub epochs: usize,
    /// Positions a gradient step.
    pub batch: usize,
    /// Adam's learning rate.
    pub rate: f32,
    /// How much of the target is the search score's winning chance (0: the result alone).
    pub blend: f32,
    /// The seed of the first weights and of the order.
    pub seed: u64,
}

impl FitSettings {
    /// The settings for a board of `squares` squares: 64 units per view up to 9x9, 128 above;
    /// 16 hidden units.
    pub fn for_board(squares: usize) -> FitSettings {
        FitSettings {
            accumulator: if squares <= 81 { 64 } else { 128 },
            hidden: 16,
            epochs: 6,
            batch: 512,
            rate: 0.002,
            blend: 0.0,
            seed: 1,
        }
    }
}

/// What a fit made.
pub struct Fitted {
    /// The weights: those of the epoch with the lowest held-out loss (the last epoch's without
    /// held-out positions).
    pub weights: TrainableWeights,
    /// The mean cross entropy over the fitted positions before the first step.
    pub loss_before: f64,
    /// The same with the weights kept.
    pub loss_after: f64,
    /// The mean cross entropy over the held-out positions before the first step (0 without).
    pub held_before: f64,
    /// The same with the weights kept.
    pub held_after: f64,
    /// The epoch whose weights were kept (0: none beat the start).
    pub epoch: usize,
}

/// Whether a position of game `game` is held out of the fit to judge it: every tenth game,
/// whole, since a game's positions share its result and a fit learns a game it has seen.
pub fn held_out(game: u32) -> bool {
    game % 10 == 9
}

/// noru's settings for a network of `layout` with these sizes.
fn config(layout: &Layout, settings: &FitSettings) -> NnueConfig {
    NnueConfig::new_owned(
        layout.inputs(),
        settings.accumulator,
        vec![settings.hidden],
        Activation::CReLU,
    )
}

/// Fresh weights for `layout`.
pub fn fresh(layout: &Layout, settings: &FitSettings) -> TrainableWeights {
    let mut rng = SimpleRng::new(settings.seed.max(1));
    TrainableWeights::init_random(config(layout, settings), &mut rng)
}

/// The training sample of a position.
fn sample(layout: &Layout, s: &Sample, blend: f32) -> TrainingSample {
    let (us, them) = inputs(layout, &s.pieces(), s.to_move);
    let searched = 1.0 / (1.0 + (-(s.score as f32) / OUTPUT_SCALE as f32).exp());
    TrainingSample {
        stm_features: us,
        nstm_features: them,
        target: (1.0 - blend) * s.mover_result() + blend * searched,
        dense_input: Vec::new(),
    }
}

/// The mean cross entropy of `weights` over `samples`.
fn loss(weights: &TrainableWeights, samples: &[TrainingSample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_iter()
        .map(|s| {
            let p = f64::from(
                weights
                    .forward(&s.stm_features, &s.nstm_features, &[])
                    .sigmoid,
            )
            .clamp(1e-7, 1.0 - 1e-7);
            let t = f64::from(s.target);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// One epoch's order: both sides' wins as many times each, and the draws, shuffled.
fn balanced_order(samples: &[Sample], rng: &mut Rng) -> Vec<usize> {
    let by = |r: i8| -> Vec<usize> {
        (0..samples.len())
            .filter(|&i| samples[i].result == r)
            .collect()
    };
    let (attackers, defenders, draws) = (by(1), by(-1), by(0));
    let most = attackers.len().max(defenders.len());
    let mut order = draws;
    for wins in [attackers, defenders] {
        if wins.is_empty() {
            continue;
        }
        order.extend_from_slice(&wins);
        for _ in wins.len()..most {
            order.push(wins[rng.below(wins.len())]);
        }
    }
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// Adds `from`'s gradients to `into`'s.
fn add(into: &mut Gradients, from: &Gradients) {
    for (a, b) in into.ft_weight.iter_mut().zip(&from.ft_weight) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
    for (x, y) in into.ft_bias.iter_mut().zip(&from.ft_bias) {
        *x += y;
    }
    for (layer, other) in into.hidden_weights.iter_mut().zip(&from.hidden_weights) {
        for (a, b) in layer.iter_mut().zip(other) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
    for (a, b) in into.hidden_biases.iter_mut().zip(&from.hidden_biases) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
    for (x, y) in into.output_weight.iter_mut().zip(&from.output_weight) {
        *x += y;
    }
    into.output_bias += from.output_bias;
}

/// Fits `start` (or fresh weights) to `samples`, judged on `held` (positions of games it is
/// not fitted to: the weights of the epoch that predicts them best are kept, so a fit that
/// learns its games by heart stops where that begins), on the current rayon pool, calling
/// `epoch_done` with each epoch's number (from 1) and the held-out loss after it.
pub fn fit(
    layout: &Layout,
    start: Option<TrainableWeights>,
    samples: &[Sample],
    held: &[Sample],
    settings: &FitSettings,
    epoch_done: &(dyn Fn(usize, f64) + Sync),
) -> Fitted {
    let mut weights = start.unwrap_or_else(|| fresh(layout, settings));
    let config = weights.config.clone();
    let prepare = |set: &[Sample]| -> Vec<TrainingSample> {
        set.par_iter()
            .map(|s| sample(layout, s, settings.blend))
            .collect()
    };
    let (prepared, judged) = (prepare(samples), prepare(held));
    let loss_before = loss(&weights, &prepared);
    let held_before = loss(&weights, &judged);
    let mut kept = (held_before, 0, weights.clone());
    let mut adam = AdamState::new(config.clone());
    let mut rng = Rng::for_game(settings.seed, 0xF17);
    let chunk = settings
        .batch
        .div_ceil(rayon::current_num_threads().max(1))
        .max(16);
    for epoch in 1..=settings.epochs {
        let order = balanced_order(samples, &mut rng);
        for batch in order.chunks(settings.batch.max(1)) {
            let grads = batch
                .par_chunks(chunk)
                .map(|part| {
                    let mut grad = Gradients::new(config.clone());
                    for &i in part {
                        let s = &prepared[i];
                        let fwd = weights.forward(&s.stm_features, &s.nstm_features, &[]);
                        weights.backward_bce(s, &fwd, &mut grad);
                    }
                    grad
                })
                .reduce_with(|mut a, b| {
                    add(&mut a, &b);
                    a
                });
            if let Some(grad) = grads {
                weights.adam_update(&grad, &mut adam, settings.rate, batch.len() as f32);
            }
        }
        let held_now = loss(&weights, &judged);
        if judged.is_empty() || held_now < kept.0 {
            kept = (held_now, epoch, weights.clone());
        }
        epoch_done(epoch, held_now);
    }
    let (held_after, epoch, weights) = kept;
    let loss_after = loss(&weights, &prepared);
    Fitted {
        weights,
        loss_before,
        loss_after,
        held_before,
        held_after,
        epoch,
    }
}

/// The float network of noru's `weights` for `layout`.
pub fn to_float(layout: &Layout, weights: &TrainableWeights) -> FloatNetwork {
    let h = weights.config.accumulator_size;
    let l = weights.config.hidden_sizes[0];
    let mut second = vec![0.0f32; l * 2 * h];
    // noru keeps the hidden layer input-major ([input][unit]); ours is one row a unit.
    for (i, row) in weights.hidden_weights[0].iter().enumerate() {
        for (j, &w) in row.iter().enumerate() {
            second[j * 2 * h + i] = w;
        }
    }
    FloatNetwork {
        layout: layout.clone(),
        accumulator: h,
        hidden: l,
        first: weights.ft_weight.iter().flatten().copied().collect(),
        first_bias: weights.ft_bias.clone(),
        second,
        second_bias: weights.hidden_biases[0].clone(),
        out: weights.output_weight.clone(),
        out_bias: weights.output_bias,
    }
}
