//! A learned correction to the evaluation: where each kind of piece stands, relative to the
//! nearest corner, fitted to the results of games people played.
//!
//! The boundary is features → model → score:
//!
//! - **Features** ([`features`]): for every piece, its role (an attacker, a defender, a king) and
//!   its square folded onto one corner of the board: `near` = its distance to the nearer of the
//!   two edges, `far` = to the other one, each capped ([`NEAR`], [`FAR`]). The board's eight
//!   symmetries give the same features, and so do boards of any size: a Copenhagen attacker on
//!   c2 and a Brandubh attacker on c2 stand in the same cell, two files and one rank from a
//!   corner. That is where the corner games are decided (strong attackers close the corners
//!   early, docs/strength.md), and what the hand-written terms do not see.
//! - **Model** ([`Model`]): a logistic regression on those counts *and the hand-written
//!   evaluation's score*, so that what it learns is what the evaluation misses. Fitted by
//!   [`fit`] to positions of recorded games labelled by who won (`tafl learn`).
//! - **Score** ([`Model::table`]): each cell's weight over the evaluation's own weight, in the
//!   evaluation's unit (hundredths of a soldier), laid out per kind and square for the search:
//!   a lookup a piece.
//!
//! The search adds it where its rules' profile has a model (corner escape) and the `learned`
//! setting is on (`tafl match ... --a on=learned`); docs/strength.md, "A learned correction",
//! says how it was fitted and what it measured.

use crate::engine::Engine;
use crate::ir::{Role, Rules, Side, Square};

/// Distances to the nearer edge counted apart: 0 (on the edge) to `NEAR - 1` and beyond.
pub const NEAR: usize = 5;
/// Distances to the farther edge counted apart.
pub const FAR: usize = 7;
/// Cells a role has: every (near, far) with near ≤ far.
pub const CELLS: usize = NEAR * FAR;
/// The roles a piece is counted under.
pub const ROLES: usize = 3;
/// Features of a position: a count per role and cell.
pub const FEATURES: usize = ROLES * CELLS;
/// What a unit of the model's log-odds is worth in the search, in hundredths of a soldier.
pub const STRENGTH: f64 = 300.0;

/// The letters of the roles, in the order of [`role`]'s numbers: attacker, defender, king
/// (how `tafl learn --samples` writes them).
pub const ROLE_LETTERS: [char; ROLES] = ['a', 'd', 'k'];

/// A piece's role for the model: whose it is and whether it is a king (0, 1, 2).
pub fn role(rules: &Rules, kind: usize) -> Option<usize> {
    let piece = rules.pieces.get(kind)?;
    Some(match (piece.side, piece.role) {
        (Side::Attackers, Role::Soldier) => 0,
        (Side::Defenders, Role::Soldier) => 1,
        (_, Role::King) => 2,
    })
}

/// The cell of `square` on a `width` x `height` board: its distances to the nearest corner's
/// two edges, nearer first, each capped.
pub fn cell(square: Square, width: u8, height: u8) -> usize {
    let file = usize::from(square.file);
    let rank = usize::from(square.rank);
    let dx = file.min(usize::from(width) - 1 - file);
    let dy = rank.min(usize::from(height) - 1 - rank);
    let near = dx.min(dy).min(NEAR - 1);
    let far = dx.max(dy).min(FAR - 1);
    near * FAR + far
}

/// The index of the feature of a piece of `kind` on `square`, if the kind has a role.
pub fn feature(rules: &Rules, kind: usize, square: Square) -> Option<usize> {
    Some(role(rules, kind)? * CELLS + cell(square, rules.board.width, rules.board.height))
}

/// The features of a position: one index a piece (a count is an index repeated).
pub fn features(rules: &Rules, pieces: &[(Square, usize)]) -> Vec<usize> {
    pieces
        .iter()
        .filter_map(|&(square, kind)| feature(rules, kind, square))
        .collect()
}

/// A fitted model: the chance that the attackers win is `1 / (1 + e^-z)` with
/// `z = bias + hand · evaluation / 100 + Σ weights[feature]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// How the model was made: the command, the data and the fit's figures.
    pub fitted: String,
    /// The intercept.
    pub bias: f64,
    /// The weight of the hand-written evaluation, per soldier.
    pub hand: f64,
    /// One weight a feature, [`FEATURES`] of them.
    pub weights: Vec<f64>,
}

impl Model {
    /// The correction for a piece of each kind on each square, in hundredths of a soldier for
    /// the attackers, `strength` hundredths a unit of the model's log-odds. Each role's weights
    /// are taken from their mean over the board first: the evaluation counts material already,
    /// and the correction says only where a piece stands better or worse. Indexed `kind *
    /// squares + square index` in the engine's order; 0 where the kind has no role.
    pub fn table(&self, engine: &Engine, strength: f64) -> Vec<i32> {
        let rules = engine.rules();
        let squares = usize::from(rules.board.width) * usize::from(rules.board.height);
        let weight = |f: usize| self.weights.get(f).copied().unwrap_or(0.0);
        let mut mean = [0.0; ROLES];
        for (role, slot) in mean.iter_mut().enumerate() {
            let total: f64 = (0..squares)
                .map(|index| {
                    weight(
                        role * CELLS
                            + cell(engine.square(index), rules.board.width, rules.board.height),
                    )
                })
                .sum();
            *slot = total / squares.max(1) as f64;
        }
        let mut table = vec![0; rules.pieces.len() * squares];
        for kind in 0..rules.pieces.len() {
            for index in 0..squares {
                if let Some(f) = feature(rules, kind, engine.square(index)) {
                    let centred = weight(f) - mean[f / CELLS];
                    table[kind * squares + index] = (strength * centred).round() as i32;
                }
            }
        }
        table
    }
}

/// One position for [`fit`]: its features, the hand-written evaluation for the attackers in
/// soldiers, and whether the attackers won the game.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's features ([`features`]).
    pub features: Vec<usize>,
    /// The evaluation, in soldiers, for the attackers.
    pub hand: f64,
    /// Whether the attackers won the game the position is from.
    pub attackers_won: bool,
}

/// How well a model predicts a set of positions: the mean log-loss (lower is better) and the
/// share whose winner it calls right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Mean negative log-likelihood, in nats.
    pub log_loss: f64,
    /// Positions whose winner has the chance above one half.
    pub accuracy: f64,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl Model {
    /// The model's `z` for a sample; `with_features` false leaves the cells out (the
    /// evaluation alone, for comparison).
    fn z(&self, sample: &Sample, with_features: bool) -> f64 {
        let mut z = self.bias + self.hand * sample.hand;
        if with_features {
            for &f in &sample.features {
                z += self.weights.get(f).copied().unwrap_or(0.0);
            }
        }
        z
    }

    /// How well it predicts `samples`.
    pub fn fit_on(&self, samples: &[Sample], with_features: bool) -> Fit {
        let mut loss = 0.0;
        let mut right = 0usize;
        for sample in samples {
            let p = sigmoid(self.z(sample, with_features)).clamp(1e-9, 1.0 - 1e-9);
            loss -= if sample.attackers_won {
                p.ln()
            } else {
                (1.0 - p).ln()
            };
            if (p > 0.5) == sample.attackers_won {
                right += 1;
            }
        }
        let n = samples.len().max(1) as f64;
        Fit {
            log_loss: loss / n,
            accuracy: right as f64 / n,
        }
    }
}

/// Fits a model to `samples` by full-batch gradient descent on the log-loss, with an L2
/// penalty `ridge` on the feature weights (not on the bias or the evaluation's weight), for
/// `rounds` rounds. `features_on` false fits the bias and the evaluation's weight alone.
pub fn fit(samples: &[Sample], ridge: f64, rounds: usize, features_on: bool) -> Model {
    let mut model = Model {
        fitted: String::new(),
        bias: 0.0,
        hand: 0.0,
        weights: vec![0.0; FEATURES],
    };
    let n = samples.len().max(1) as f64;
    // Adam: the features' counts differ by orders of magnitude between cells.
    let (beta1, beta2, rate) = (0.9, 0.999, 0.05);
    let params = FEATURES + 2;
    let mut m = vec![0.0; params];
    let mut v = vec![0.0; params];
    for round in 1..=rounds {
        let mut grad = vec![0.0; params];
        for sample in samples {
            let p = sigmoid(model.z(sample, features_on));
            let error = p - if sample.attackers_won { 1.0 } else { 0.0 };
            grad[0] += error;
            grad[1] += error * sample.hand;
            if features_on {
                for &f in &sample.features {
                    grad[2 + f] += error;
                }
            }
        }
        for g in &mut grad {
            *g /= n;
        }
        for (f, g) in grad[2..].iter_mut().enumerate() {
            *g += ridge * model.weights[f];
        }
        let t = round as i32;
        for i in 0..params {
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
            let step = rate * (m[i] / (1.0 - beta1.powi(t)))
                / ((v[i] / (1.0 - beta2.powi(t))).sqrt() + 1e-8);
            match i {
                0 => model.bias -= step,
                1 => model.hand -= step,
                _ => model.weights[i - 2] -= step,
            }
        }
    }
    model
}

/// The model of the corner-escape profiles, built in: `variants/learned/corners.json`.
pub fn corners() -> Model {
    const TEXT: &str = include_str!("../../variants/learned/corners.json");
    // Built in and read by a unit test (`the_built_in_model_reads`): it cannot fail here.
    serde_json::from_str(TEXT).expect("variants/learned/corners.json is a model")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    #[test]
    fn a_cell_is_the_same_from_every_corner_and_on_every_board() {
        // c2 on 11x11, its seven mirror images, and c2 on 7x7.
        let c2 = cell(sq(2, 1), 11, 11);
        for (f, r) in [(1, 2), (8, 1), (9, 2), (2, 9), (1, 8), (8, 9), (9, 8)] {
            assert_eq!(cell(sq(f, r), 11, 11), c2, "{f},{r}");
        }
        assert_eq!(cell(sq(2, 1), 7, 7), c2);
        // The corner, the edge's middle and the centre differ.
        let corner = cell(sq(0, 0), 11, 11);
        let edge = cell(sq(5, 0), 11, 11);
        let centre = cell(sq(5, 5), 11, 11);
        assert!(corner != edge && edge != centre && corner != c2);
    }

    #[test]
    fn a_fit_learns_a_cell_that_decides_games() {
        // Positions where an attacker on the cell beside the corner goes with the attackers'
        // wins, and the evaluation says nothing.
        let guard = cell(sq(1, 1), 11, 11);
        let samples: Vec<Sample> = (0..400)
            .map(|i| Sample {
                features: if i % 2 == 0 { vec![guard] } else { vec![] },
                hand: 0.0,
                attackers_won: i % 2 == 0 || i % 7 == 0,
            })
            .collect();
        let model = fit(&samples, 0.0001, 300, true);
        assert!(model.weights[guard] > 1.0, "{}", model.weights[guard]);
        let alone = fit(&samples, 0.0001, 300, false);
        assert!(model.fit_on(&samples, true).log_loss < alone.fit_on(&samples, false).log_loss);
    }

    /// The correction plays where the king escapes to a corner on a board larger than 7x7,
    /// and nowhere else.
    #[test]
    fn the_search_adds_it_only_where_the_profile_is_copenhagens() {
        use crate::search::{search, Limits, Settings};
        use std::sync::atomic::AtomicBool;
        let score = |name: &str, learned: bool| {
            let variant = crate::Variant::bundled(name).expect("bundled");
            let engine = std::sync::Arc::new(Engine::new(&variant.rules).expect("compiles"));
            let game = crate::Game::new(engine);
            let settings = Settings {
                learned,
                ..Settings::DEFAULT
            };
            let limits = Limits::depth(1).with_settings(settings);
            search(&game, &limits, &AtomicBool::new(false), |_| {})
                .expect("the game goes on")
                .score
        };
        assert_ne!(score("copenhagen", true), score("copenhagen", false));
        assert_eq!(score("linnaeus", true), score("linnaeus", false));
        assert_eq!(score("brandubh", true), score("brandubh", false));
    }

    #[test]
    fn the_built_in_model_reads() {
        let model = corners();
        assert_eq!(model.weights.len(), FEATURES);
        assert!(model.hand > 0.0, "the evaluation predicts the winner");
    }
}
