//! The statistics of a match: score, Elo difference with its 95% interval, and the sequential
//! probability ratio test (SPRT) that `tafl match --sprt` stops on.
//!
//! A match is played in pairs: each opening once with each player on each side. A pair's
//! result, from player A's side, is 0, ½, 1, 1½ or 2 points: the *pentanomial* counts. The
//! pairs, not the games, are the independent observations (the two games of a pair share an
//! opening, so their results are correlated), so the interval and the SPRT use the variance of
//! the pair scores. The *trinomial* forms (wins, draws, losses, each game an observation) are
//! here too, for unpaired games. The formulas (docs/strength.md repeats them):
//!
//! - score `s`: the mean points per game; Elo difference `-400 log10(1/s - 1)` (the logistic
//!   model: a player 400 Elo stronger scores 10 to 1);
//! - 95% interval: `s ± 1.96 sqrt(var / n)`, `var` the variance of one observation's score
//!   (per game for the trinomial, per pair halved to a 0..1 score for the pentanomial), `n` the
//!   number of observations, each end turned into Elo the same way;
//! - SPRT (the generalised SPRT with the normal approximation, as in Stockfish's fishtest):
//!   with `s0`, `s1` the expected scores at `elo0`, `elo1`, the log-likelihood ratio is
//!   `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)`; H1 (gain ≥ elo1) is accepted when it
//!   reaches `ln((1-β)/α)`, H0 (gain ≤ elo0) when it falls to `ln(β/(1-α))`, α = β = 5%.

use serde::Serialize;

/// The z of a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The Elo difference that makes a player score `score` (0 < score < 1) in the logistic model.
pub fn elo(score: f64) -> f64 {
    // `+ 0.0` turns the -0 of an even score into 0, so that it prints without a sign.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of a player `elo` stronger, in the logistic model.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A score and the Elo difference it means, with 95% intervals.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Points per game, 0 to 1.
    pub score: f64,
    /// The interval of the score.
    pub score_low: f64,
    /// The interval of the score.
    pub score_high: f64,
    /// The Elo difference; `None` at a score of 0 or 1 (infinite).
    pub elo: Option<f64>,
    /// The interval's lower end; `None` where it is infinite.
    pub elo_low: Option<f64>,
    /// The interval's upper end; `None` where it is infinite.
    pub elo_high: Option<f64>,
}

impl Estimate {
    /// From observations' mean score (0..1), the variance of one observation, and their number.
    fn from_moments(mean: f64, variance: f64, n: f64) -> Estimate {
        let half = Z95 * (variance / n).sqrt();
        let finite = |s: f64| (s > 0.0 && s < 1.0).then(|| elo(s));
        let (low, high) = ((mean - half).max(0.0), (mean + half).min(1.0));
        Estimate {
            score: mean,
            score_low: low,
            score_high: high,
            elo: finite(mean),
            elo_low: finite(low),
            elo_high: finite(high),
        }
    }
}

/// Wins, draws and losses of a player (each game one observation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean and variance of one game's score; `None` without games.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (self.wins as f64, self.draws as f64, self.losses as f64);
        let mean = (w + 0.5 * d) / n;
        let variance = (w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)) / n;
        Some((mean, variance))
    }

    /// The score and Elo difference; `None` without games.
    pub fn estimate(&self) -> Option<Estimate> {
        let (mean, variance) = self.moments()?;
        Some(Estimate::from_moments(mean, variance, self.games() as f64))
    }
}

/// Pairs of games by their result, from 0 to 2 points (index = half-points won in the pair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Pairs played.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Counts a pair in which the player won `half_points` half-points (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Mean and variance of one pair's score, halved to 0..1; `None` without pairs.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let value = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| self.0[i] as f64 * value(i)).sum::<f64>() / n;
        let variance = (0..5)
            .map(|i| self.0[i] as f64 * (value(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, variance))
    }

    /// The score and Elo difference; `None` without pairs.
    pub fn estimate(&self) -> Option<Estimate> {
        let (mean, variance) = self.moments()?;
        Some(Estimate::from_moments(mean, variance, self.pairs() as f64))
    }
}

/// What an SPRT decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// H0 accepted: the gain is at most `elo0`.
    H0,
    /// H1 accepted: the gain is at least `elo1`.
    H1,
    /// Neither yet: play on.
    Continue,
}

/// A sequential probability ratio test of H0 "gain ≤ elo0" against H1 "gain ≥ elo1".
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// The test of `elo0` against `elo1` at α = β = 5%.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The bounds of the log-likelihood ratio: H0 is accepted at or below the first, H1 at or
    /// above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs so far (0 without pairs, or when every pair scored
    /// the same, which leaves no variance to judge by).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        match pairs.moments() {
            Some((mean, variance)) if variance > 0.0 => {
                let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
                pairs.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
            }
            _ => 0.0,
        }
    }

    /// The verdict on the pairs so far.
    pub fn verdict(&self, pairs: &Pentanomial) -> Verdict {
        let llr = self.llr(pairs);
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::H1
        } else if llr <= low {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// A rate with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Rate {
    /// The observed proportion.
    pub rate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// The Wilson score interval (95%, z = 1.96) of `wins` in `games`.
pub fn wilson(wins: u64, games: u64) -> Rate {
    if games == 0 {
        return Rate {
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let (n, p, z) = (games as f64, wins as f64 / games as f64, 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    Rate {
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_intervals_match_published_values() {
        // 8 of 10: the Wilson 95% interval is 0.490 to 0.943 (Newcombe 1998, table I method 3).
        let r = wilson(8, 10);
        assert!(
            (r.low - 0.490).abs() < 0.001 && (r.high - 0.943).abs() < 0.001,
            "{r:?}"
        );
        let none = wilson(0, 20);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.161).abs() < 0.001, "{none:?}");
    }
}
