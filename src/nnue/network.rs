//! The layers: the accumulator's two views, clipped, then one hidden layer, then the score.
//!
//! In floats ([`FloatNetwork`], what training fits): each view's sum `a` (bias plus the rows
//! of its inputs) is clipped to `[0, 1]`; the side to move's view then the other's, `2H`
//! values, feed a hidden layer of `L` units, also clipped to `[0, 1]`; one output unit gives
//! the side to move's winning chance as a logit, which the search reads in hundredths of a
//! soldier as `logit × 400` (the scale `tafl tune` reads the hand evaluation with,
//! `search::tune::SCALE`).
//!
//! In integers ([`Network`], what plays): the first layer's weights and the sums are `i16`
//! in units of 1/[`QA`] (so the clip is to `[0, QA]`); the hidden layer's and the output's
//! weights are `i16` in units of 1/[`QB`], their sums `i32` in units of 1/(`QA`·`QB`), and a
//! hidden unit goes back to 1/`QA` units by dividing by `QB`. [`FloatNetwork::quantise`]
//! rounds each weight to these units.

use super::accumulator::{Accumulator, FirstLayer, MAX_ACCUMULATOR};
use super::features::Layout;
use crate::ir::Side;

/// The first layer's unit: a float weight `w` is stored as `round(w × QA)`.
pub const QA: i32 = 127;
/// The hidden and output layers' unit: a float weight `w` is stored as `round(w × QB)`.
pub const QB: i32 = 64;
/// Hundredths of a soldier per unit of the output logit.
pub const OUTPUT_SCALE: i32 = 400;
/// A network file's header `format`.
pub const FORMAT: &str = "tafl-network";
/// A network file's header `version`: the layout of the weights after it.
pub const VERSION: u32 = 1;
/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 64;
/// A network's score never leaves ±this (300 soldiers), far inside the search's proven wins.
pub const SCORE_LIMIT: i32 = 30_000;

/// What a network file's header says: the format, the board and pieces it reads, the rules it
/// was trained under, its sizes, its units and how it was trained.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The file format's version, [`VERSION`].
    pub version: u32,
    /// The board and the piece kinds.
    pub layout: Layout,
    /// The rule key of the variant it was trained on ([`super::rule_key`]).
    pub rule_key: String,
    /// First-layer units per view.
    pub accumulator: usize,
    /// Hidden units.
    pub hidden: usize,
    /// The integer units: `{"qa": 127, "qb": 64, "output": 400}`.
    pub scales: Scales,
    /// How it was trained.
    pub training: Training,
}

/// The integer units of a network file ([`QA`], [`QB`], [`OUTPUT_SCALE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scales {
    /// [`QA`].
    pub qa: i32,
    /// [`QB`].
    pub qb: i32,
    /// [`OUTPUT_SCALE`].
    pub output: i32,
}

impl Scales {
    /// The units this build reads.
    pub const CURRENT: Scales = Scales {
        qa: QA,
        qb: QB,
        output: OUTPUT_SCALE,
    };
}

/// The training run a network came from.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Training {
    /// The variant's name as the run was given it.
    pub variant: String,
    /// The generation (1 for the first network, fitted to the hand evaluation's games).
    pub generation: u32,
    /// Self-play games of its data.
    pub games: u64,
    /// Positions of its data.
    pub positions: u64,
    /// The run's seed.
    pub seed: u64,
    /// The search depth of the self-play games.
    pub depth: u32,
    /// When it was made (UTC, `YYYY-MM-DD`).
    pub date: String,
}

/// A network in floats, as training fits it (weights laid out as [`Network`]'s).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// The inputs.
    pub layout: Layout,
    /// First-layer units per view (`H`).
    pub accumulator: usize,
    /// Hidden units (`L`).
    pub hidden: usize,
    /// `inputs × H`, one row an input.
    pub first: Vec<f32>,
    /// `H`.
    pub first_bias: Vec<f32>,
    /// `L × 2H`, one row a hidden unit: the side to move's view, then the other's.
    pub second: Vec<f32>,
    /// `L`.
    pub second_bias: Vec<f32>,
    /// `L`.
    pub out: Vec<f32>,
    /// The output's bias.
    pub out_bias: f32,
}

impl FloatNetwork {
    /// The side to move's winning chance as a logit, for a position whose inputs are `us` (the
    /// side to move's view) and `them`.
    pub fn logit(&self, us: &[usize], them: &[usize]) -> f32 {
        let h = self.accumulator;
        let mut clipped = vec![0.0f32; 2 * h];
        for (half, inputs) in [us, them].into_iter().enumerate() {
            let sums = &mut clipped[half * h..(half + 1) * h];
            sums.copy_from_slice(&self.first_bias);
            for &input in inputs {
                for (s, w) in sums.iter_mut().zip(&self.first[input * h..(input + 1) * h]) {
                    *s += w;
                }
            }
            for s in sums.iter_mut() {
                *s = s.clamp(0.0, 1.0);
            }
        }
        let mut out = self.out_bias;
        for j in 0..self.hidden {
            let row = &self.second[j * 2 * h..(j + 1) * 2 * h];
            let sum: f32 =
                self.second_bias[j] + row.iter().zip(&clipped).map(|(w, x)| w * x).sum::<f32>();
            out += self.out[j] * sum.clamp(0.0, 1.0);
        }
        out
    }

    /// The same network in integers, with `header`'s training record, for a variant whose
    /// rule key is `rule_key`.
    ///
    /// # Errors
    /// Sizes beyond [`MAX_ACCUMULATOR`] or [`MAX_HIDDEN`], or weights too large for their
    /// integer units.
    pub fn quantise(&self, rule_key: &str, training: Training) -> Result<Network, String> {
        let round = |w: f32, unit: i32| -> Result<i16, String> {
            let q = (w * unit as f32).round();
            if q.abs() > f32::from(i16::MAX) {
                return Err(format!(
                    "a weight of {w} does not fit the network's integer units"
                ));
            }
            Ok(q as i16)
        };
        let round_all = |ws: &[f32], unit: i32| {
            ws.iter()
                .map(|&w| round(w, unit))
                .collect::<Result<Vec<_>, _>>()
        };
        let header = Header {
            format: FORMAT.to_string(),
            version: VERSION,
            layout: self.layout.clone(),
            rule_key: rule_key.to_string(),
            accumulator: self.accumulator,
            hidden: self.hidden,
            scales: Scales::CURRENT,
            training,
        };
        Network::new(
            header,
            Weights {
                first: round_all(&self.first, QA)?,
                first_bias: round_all(&self.first_bias, QA)?,
                second: round_all(&self.second, QB)?,
                second_bias: self
                    .second_bias
                    .iter()
                    .map(|&b| (b * (QA * QB) as f32).round() as i32)
                    .collect(),
                out: round_all(&self.out, QB)?,
                out_bias: (self.out_bias * (QA * QB) as f32).round() as i32,
            },
        )
    }
}

/// A network's integer weights, laid out as [`FloatNetwork`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// `inputs × H`, in 1/[`QA`].
    pub first: Vec<i16>,
    /// `H`, in 1/[`QA`].
    pub first_bias: Vec<i16>,
    /// `L × 2H`, in 1/[`QB`].
    pub second: Vec<i16>,
    /// `L`, in 1/(`QA`·`QB`).
    pub second_bias: Vec<i32>,
    /// `L`, in 1/[`QB`].
    pub out: Vec<i16>,
    /// In 1/(`QA`·`QB`).
    pub out_bias: i32,
}

/// A network as it plays: integer weights and the header that says what it reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    header: Header,
    weights: Weights,
}

impl Network {
    /// A network from its header and weights.
    ///
    /// # Errors
    /// A header whose format, version, units or sizes this build does not read, or weights
    /// whose lengths do not match its sizes, in words.
    pub fn new(header: Header, weights: Weights) -> Result<Network, String> {
        if header.format != FORMAT {
            return Err(format!(
                "the format is `{}`, not `{}`",
                header.format, FORMAT
            ));
        }
        if header.version != VERSION {
            return Err(format!(
                "format version {} (this build reads version {})",
                header.version, VERSION
            ));
        }
        if header.scales != Scales::CURRENT {
            return Err(format!(
                "units qa={}, qb={}, output={} (this build reads qa={QA}, qb={QB}, output={OUTPUT_SCALE})",
                header.scales.qa, header.scales.qb, header.scales.output
            ));
        }
        let (h, l) = (header.accumulator, header.hidden);
        if !(1..=MAX_ACCUMULATOR).contains(&h) || !(1..=MAX_HIDDEN).contains(&l) {
            return Err(format!(
                "{h} first-layer and {l} hidden units (at most {MAX_ACCUMULATOR} and {MAX_HIDDEN}, at least 1)"
            ));
        }
        if header.layout.pieces.is_empty() || header.layout.squares() == 0 {
            return Err("no board or no pieces".to_string());
        }
        let expected = [
            (
                "first layer",
                weights.first.len(),
                header.layout.inputs() * h,
            ),
            ("first bias", weights.first_bias.len(), h),
            ("hidden layer", weights.second.len(), l * 2 * h),
            ("hidden bias", weights.second_bias.len(), l),
            ("output layer", weights.out.len(), l),
        ];
        for (what, got, want) in expected {
            if got != want {
                return Err(format!("the {what} has {got} weights, not {want}"));
            }
        }
        // A hidden unit's sum is at most 2·H·QA·|i16| (under 2^31 for H up to 256) plus its
        // bias: a bias kept under 2^24 keeps the sum an i32.
        if weights.second_bias.iter().any(|b| b.abs() >= 1 << 24) {
            return Err("a hidden bias is too large for the integer units".to_string());
        }
        Ok(Network { header, weights })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The inputs it reads.
    pub fn layout(&self) -> &Layout {
        &self.header.layout
    }

    /// First-layer units per view.
    pub fn accumulator(&self) -> usize {
        self.header.accumulator
    }

    /// The score of the position whose sums are `acc`, for `to_move`, in hundredths of a
    /// soldier (within ±[`SCORE_LIMIT`]).
    pub fn score(&self, acc: &Accumulator, to_move: Side) -> i32 {
        let h = self.header.accumulator;
        let mut clipped = [0i32; 2 * MAX_ACCUMULATOR];
        for (half, view) in [to_move, to_move.opponent()].into_iter().enumerate() {
            for (x, &sum) in clipped[half * h..(half + 1) * h]
                .iter_mut()
                .zip(acc.view(view))
            {
                *x = i32::from(sum).clamp(0, QA);
            }
        }
        let clipped = &clipped[..2 * h];
        let mut out = i64::from(self.weights.out_bias);
        for (j, &bias) in self.weights.second_bias.iter().enumerate() {
            let row = &self.weights.second[j * 2 * h..(j + 1) * 2 * h];
            let sum: i32 = bias
                + row
                    .iter()
                    .zip(clipped)
                    .map(|(&w, &x)| i32::from(w) * x)
                    .sum::<i32>();
            let unit = (sum / QB).clamp(0, QA);
            out += i64::from(unit) * i64::from(self.weights.out[j]);
        }
        let score = out * i64::from(OUTPUT_SCALE) / i64::from(QA * QB);
        score.clamp(-i64::from(SCORE_LIMIT), i64::from(SCORE_LIMIT)) as i32
    }

    /// The score of a position with `pieces` (kind, square) and `to_move`, added up from
    /// nothing.
    pub fn score_pieces(&self, pieces: &[(usize, usize)], to_move: Side) -> i32 {
        self.score(&Accumulator::refresh(self, pieces.iter().copied()), to_move)
    }
}

impl FirstLayer for Network {
    fn units(&self) -> usize {
        self.header.accumulator
    }

    fn bias(&self) -> &[i16] {
        &self.weights.first_bias
    }

    #[inline]
    fn row(&self, view: Side, kind: usize, square: usize) -> &[i16] {
        let h = self.header.accumulator;
        let input = self.layout().input(view, kind, square);
        &self.weights.first[input * h..(input + 1) * h]
    }
}
