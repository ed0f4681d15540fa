//! A model of people's moves: a player that picks each move from a probability over the legal
//! moves, fitted to the moves people played (`tafl fit-people`, [`fit`]).
//!
//! Each legal move is described by what it leaves behind ([`move_features`]): the terms of the
//! evaluation ([`super::eval::Terms`]: material, the king's open routes and his distance to
//! his goal, the ring round him, mobility, ...) of the position after the move, counted for the
//! side that moved, and a few things about the move itself (the pieces it captures, whether it
//! wins or draws the game at once, how far the piece travels). The probability of a move is a
//! softmax over a weighted sum of them, one set of weights for each side (people attack and
//! defend with different aims):
//!
//! P(move) = exp(s · w_side · f(move)) / Σ exp(s · w_side · f(other)),
//!
//! where the weights `w` are fitted by maximum likelihood to people's moves, and `s` (the
//! sharpness, 1 for the fit itself) is what the levels between people and the engine turn up
//! ([`Level`]): at `s` = 2 the model is its own temperature halved, so it picks its favourite
//! move more often. Nothing in it names a variant: the terms come from the compiled rules, so
//! the one model plays every variant, including the many it was never fitted to.
//!
//! The model's file (`variants/people/model.json`, [`Model::bundled`]) says what it was fitted
//! on, when, and how well it predicts the games it did not see (docs/people.md).

pub mod fit;
pub mod play;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::eval::{terms_of, TERMS, TERM_NAMES};
use crate::engine::{Engine, GameOutcome, Move, Rng};
use crate::game::Game;
use crate::ir::Side;

/// The features of a move beyond the evaluation's terms, in the order they follow them.
pub const EXTRA_NAMES: [&str; 6] = ["captures", "wins", "draws", "travelled", "search", "forced"];

/// The largest search score a move's `search` feature counts, in soldiers: beyond it a
/// position is as good as won, and a proven result is the `forced` feature's.
const SEARCH_CAP: f64 = 20.0;

/// How many numbers describe a move: the evaluation's terms, then [`EXTRA_NAMES`].
pub const FEATURES: usize = TERMS + EXTRA_NAMES.len();

/// The features' names, as the model's file lists them.
pub fn feature_names() -> Vec<String> {
    TERM_NAMES
        .iter()
        .chain(EXTRA_NAMES.iter())
        .map(|name| (*name).to_string())
        .collect()
}

/// One legal move and what describes it.
#[derive(Clone, Debug)]
pub struct Described {
    /// The move.
    pub mv: Move,
    /// Its features, for the side that plays it.
    pub features: [f64; FEATURES],
    /// The hand evaluation of the position it leaves, for the side that plays it (in
    /// hundredths of a soldier): what a people's game resigns by ([`play`]).
    pub score: i32,
}

/// Every legal move of `game`'s side to move, described (none when the game is over), the
/// position each leaves searched to `depth` plies (0: its hand evaluation).
pub fn move_features(game: &Game, depth: u32) -> Vec<Described> {
    if game.is_over() {
        return Vec::new();
    }
    let engine = game.engine();
    let mover = game.to_move();
    let sign = match mover {
        Side::Attackers => 1.0,
        Side::Defenders => -1.0,
    };
    let weights = super::weights_for(engine.rules());
    let width = f64::from(engine.width().max(engine.height()));
    game.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut described = describe(engine, game.position(), mv, mover, sign, &weights, width);
            let (search, forced) = searched(game, mv, depth, described.score);
            described.features[TERMS + 4] = search;
            described.features[TERMS + 5] = forced;
            described
        })
        .collect()
}

/// The `search` and `forced` features of `mv` in `game`: the score, for the mover, of a
/// `depth`-ply search of the position it leaves (in soldiers, capped at [`SEARCH_CAP`]), and
/// +1 or −1 where that search proves a win or a loss for the mover. `hand` is the hand
/// evaluation of that position, the score at depth 0.
fn searched(game: &Game, mv: Move, depth: u32, hand: i32) -> (f64, f64) {
    let soldiers = |score: i32| (f64::from(score) / 100.0).clamp(-SEARCH_CAP, SEARCH_CAP);
    if depth == 0 {
        return (soldiers(hand), 0.0);
    }
    let mut child = game.clone();
    if child.play(mv).is_err() || child.is_over() {
        // A move that ends the game is told by `wins` and `draws`.
        return (soldiers(hand), 0.0);
    }
    // No table: one small search a move, too small to pay for allocating one.
    let limits = super::Limits {
        table_mb: 0,
        ..super::Limits::depth(depth)
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    match super::search(&child, &limits, &stop, |_| {}).map(|r| r.score) {
        Ok(super::Score::Value(value)) => (soldiers(-value), 0.0),
        Ok(super::Score::Win(_)) => (-SEARCH_CAP, -1.0),
        Ok(super::Score::Loss(_)) => (SEARCH_CAP, 1.0),
        Err(_) => (soldiers(hand), 0.0),
    }
}

/// The features of `mv` played from `position` by `mover`.
fn describe(
    engine: &Arc<Engine>,
    position: &crate::engine::Position,
    mv: Move,
    mover: Side,
    sign: f64,
    weights: &super::Weights,
    width: f64,
) -> Described {
    let (child, effects) = engine.play_unchecked(position, mv);
    let mut features = [0.0; FEATURES];
    let mut score = 0;
    // A position of this engine always has terms; a foreign one (impossible here: the child
    // is made by this engine) would leave the terms at 0.
    if let Some(terms) = terms_of(engine, &child) {
        for (slot, value) in features.iter_mut().zip(terms.values()) {
            *slot = sign * value;
        }
        score = (sign as i32) * terms.score(weights);
    }
    let (wins, draws) = match effects.ending.map(|e| e.outcome) {
        Some(GameOutcome::Win(side)) => (f64::from(u8::from(side == mover)), 0.0),
        Some(GameOutcome::Draw) => (0.0, 1.0),
        None => (0.0, 0.0),
    };
    let travelled = mv.from.file.abs_diff(mv.to.file) + mv.from.rank.abs_diff(mv.to.rank);
    features[TERMS] = effects.captured.len() as f64;
    features[TERMS + 1] = wins;
    features[TERMS + 2] = draws;
    features[TERMS + 3] = f64::from(travelled) / width;
    Described {
        mv,
        features,
        score,
    }
}

/// How the figures of a fit were measured on the games it did not see.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The corpus: its file and the variant it was replayed with.
    pub corpus: String,
    /// The variant.
    pub variant: String,
    /// Games fitted on, and held out (every fifth).
    pub games_fitted: usize,
    /// Games held out.
    pub games_held_out: usize,
    /// Positions of the held-out games measured (each with the move people played).
    pub positions: usize,
    /// Share of those positions where the model's most probable move is people's.
    pub people_top1: f64,
    /// Mean log-likelihood of people's move under the model (natural log, per move).
    pub people_loglik: f64,
    /// The same for a uniform choice among the legal moves.
    pub uniform_loglik: f64,
    /// The engine's best move, on a sample of the same positions ([`fit::EngineFigures`]).
    pub engine: fit::EngineFigures,
}

/// A fitted model, as its file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// The file's format, [`FORMAT`].
    pub format: u32,
    /// What the file is, in words.
    pub about: String,
    /// The command that made it.
    pub command: String,
    /// The day it was fitted (UTC, YYYY-MM-DD).
    pub fitted: String,
    /// The corpora it was fitted on, each as `VARIANT=FILE`.
    pub fitted_on: Vec<String>,
    /// The depth each move's position is searched to for its `search` feature.
    pub depth: u32,
    /// The features' names, in the order of the weights.
    pub features: Vec<String>,
    /// The attackers' weights.
    pub attackers: Vec<f64>,
    /// The defenders' weights.
    pub defenders: Vec<f64>,
    /// How well it predicts the games it did not see, corpus by corpus.
    pub figures: Vec<Figures>,
}

/// The format of a model's file this build reads.
pub const FORMAT: u32 = 1;

/// The bundled model's text (`tafl fit-people` writes it).
const BUNDLED: &str = include_str!("../../../variants/people/model.json");

/// Why a model's file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Not JSON of a model.
    #[error("not a people model: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format.
    #[error("a people model of format {0}; this build reads format {FORMAT}")]
    Format(u32),
    /// Features other than this build's.
    #[error("the model's features are not this build's ({FEATURES} named in `features`, with as many weights a side)")]
    Features,
}

impl Model {
    /// Reads a model's file.
    ///
    /// # Errors
    /// [`ModelError`] when the text is not a model this build can use.
    pub fn from_json(text: &str) -> Result<Model, ModelError> {
        let model: Model = serde_json::from_str(text)?;
        if model.format != FORMAT {
            return Err(ModelError::Format(model.format));
        }
        if model.features != feature_names()
            || model.attackers.len() != FEATURES
            || model.defenders.len() != FEATURES
        {
            return Err(ModelError::Features);
        }
        Ok(model)
    }

    /// The model bundled with tafl (`variants/people/model.json`).
    pub fn bundled() -> &'static Model {
        static MODEL: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| {
            // The bundled file is checked by a test (`the_bundled_model_reads`), so it reads.
            Model::from_json(BUNDLED).expect("the bundled people model reads")
        })
    }

    /// A side's weights.
    pub fn weights(&self, side: Side) -> &[f64] {
        match side {
            Side::Attackers => &self.attackers,
            Side::Defenders => &self.defenders,
        }
    }

    /// The probability of each of `moves` (described for `side`), at sharpness `sharpness`.
    pub fn policy(&self, side: Side, moves: &[Described], sharpness: f64) -> Vec<f64> {
        softmax(
            moves
                .iter()
                .map(|m| sharpness * dot(self.weights(side), &m.features)),
        )
    }
}

/// The dot product of weights and features.
pub(crate) fn dot(weights: &[f64], features: &[f64]) -> f64 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// exp(x) / Σ exp over `logits`, computed from the largest so that none overflows.
pub(crate) fn softmax(logits: impl Iterator<Item = f64>) -> Vec<f64> {
    let logits: Vec<f64> = logits.collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logits.iter().map(|x| (x - top).exp()).collect();
    let total: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / total).collect()
}

/// Draws an index from `probabilities` (summing to 1) with `rng`.
pub fn draw(probabilities: &[f64], rng: &mut Rng) -> usize {
    // 53 random bits give a uniform number in [0, 1).
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut sum = 0.0;
    for (i, p) in probabilities.iter().enumerate() {
        sum += p;
        if u < sum {
            return i;
        }
    }
    // Rounding can leave the sum a hair under u: the last move then.
    probabilities.len().saturating_sub(1)
}

/// How well a player plays: the level `--level` names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// The fitted model of people's moves, its logits times `sharpness` (1: the fit itself;
    /// more: a keener player that picks its favourite move more often).
    People {
        /// The factor on the logits: 1 over the temperature.
        sharpness: f64,
    },
    /// The engine's search to this depth, its best move every time.
    Depth(u32),
    /// The engine's full player at a time budget (the ladder's rungs).
    Engine,
}

impl Level {
    /// The fitted model as it is.
    pub const PEOPLE: Level = Level::People { sharpness: 1.0 };

    /// Whether this level searches with a time budget (so that a ladder of budgets applies).
    pub fn is_engine(self) -> bool {
        matches!(self, Level::Engine)
    }
}

impl std::fmt::Display for Level {
    /// `people`, `people:2`, `depth:2`, `engine`: as `--level` takes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Level::People { sharpness } if *sharpness == 1.0 => write!(f, "people"),
            Level::People { sharpness } => write!(f, "people:{sharpness}"),
            Level::Depth(depth) => write!(f, "depth:{depth}"),
            Level::Engine => write!(f, "engine"),
        }
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    /// `people`, `people:S` (S from 0.1 to 100, the factor on the fit's logits), `depth:N`
    /// (N from 1 to 12) or `engine`.
    fn from_str(text: &str) -> Result<Level, String> {
        let usage = || {
            format!(
                "expected a level: `people`, `people:S` (S a sharpness from 0.1 to 100), \
                 `depth:N` (N from 1 to 12) or `engine`, not `{text}`"
            )
        };
        let (name, value) = match text.split_once(':') {
            Some((name, value)) => (name, Some(value)),
            None => (text, None),
        };
        match (name, value) {
            ("people", None) => Ok(Level::PEOPLE),
            ("people", Some(value)) => match value.parse::<f64>() {
                Ok(s) if (0.1..=100.0).contains(&s) => Ok(Level::People { sharpness: s }),
                _ => Err(usage()),
            },
            ("depth", Some(value)) => match value.parse::<u32>() {
                Ok(d) if (1..=12).contains(&d) => Ok(Level::Depth(d)),
                _ => Err(usage()),
            },
            ("engine", None) => Ok(Level::Engine),
            _ => Err(usage()),
        }
    }
}

#[cfg(test)]
mod tests;
