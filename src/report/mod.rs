//! The designer's report (`tafl report`): is a variant a good game? From self-play games traced
//! position by position ([`trace`]), the measures a designer reads (after Ludii's evaluation
//! metrics): the outcome and how games end, their length, how early they are decided and how
//! often the lead changes, the choices they offer, and how much of the board they use. Each
//! measure is defined, with its formula and what a good value looks like, in docs/report.md.
//!
//! Two reports from the same openings compare measure by measure ([`Differences`]), each
//! difference with its paired 95% interval.

#[cfg(feature = "charts")]
pub mod charts;
pub mod measures;
pub mod trace;

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::ir::Side;
use crate::search::stats::{wilson, Rate};
pub use measures::{GameMeasures, DECISION_THRESHOLD, LEAD_MARGIN};
pub use trace::{play, play_from, Trace, EVAL_CAP};

/// A mean with its 95% interval (the mean ± 1.96 standard errors); with fewer than two values
/// the interval is the mean alone.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// The mean.
    pub mean: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Interval {
    /// The mean of `values` and its interval (all zero for none).
    pub fn of(values: &[f64]) -> Interval {
        let n = values.len() as f64;
        if values.is_empty() {
            return Interval {
                mean: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let mean = values.iter().sum::<f64>() / n;
        if values.len() < 2 {
            return Interval {
                mean,
                low: mean,
                high: mean,
            };
        }
        let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = 1.96 * (variance / n).sqrt();
        Interval {
            mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// Whether the interval leaves out zero: a difference beyond the noise.
    pub fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// Who won, how often, and how.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Games the attackers won.
    pub attackers_win: u64,
    /// Games the defenders won.
    pub defenders_win: u64,
    /// Games drawn, capped ones included.
    pub draw: u64,
    /// Games stopped by the ply cap.
    pub capped: u64,
    /// Each result's share with its Wilson interval.
    pub attackers: Rate,
    /// The defenders' share.
    pub defenders: Rate,
    /// The draws' share.
    pub draws: Rate,
    /// The side that moves first.
    pub first_mover: Side,
    /// Its points a game (a draw a half): above one half, moving first is an advantage.
    pub first_mover_score: Interval,
}

/// How long games last, in plies.
#[derive(Clone, Debug, Serialize)]
pub struct Duration {
    /// The mean length, with its interval.
    pub mean: Interval,
    /// The median length.
    pub median: f64,
    /// The standard deviation of the lengths.
    pub sd: f64,
    /// The shortest game.
    pub min: usize,
    /// The longest.
    pub max: usize,
    /// The ideal length the designer gave (`--ideal-plies`), if any.
    pub ideal: Option<u32>,
    /// The mean of |length − ideal| / ideal: 0 when every game has the ideal length.
    pub ideal_distance: Option<f64>,
}

/// How early games are decided, and how much they swing.
#[derive(Clone, Debug, Serialize)]
pub struct Decisiveness {
    /// The evaluation (hundredths of a soldier) the winner must hold to the end.
    pub threshold: i32,
    /// Decisive games whose winner crossed the threshold for good before the end.
    pub decided_games: u64,
    /// Where that happened, as a share of the game's length.
    pub decision: Interval,
    /// The share of positions the eventual winner spent more than a soldier behind.
    pub drama: Interval,
    /// The mean change of the evaluation from one searched position to the next, in soldiers.
    pub instability: Interval,
}

/// How often the side ahead changes.
#[derive(Clone, Debug, Serialize)]
pub struct LeadChanges {
    /// How far from even (hundredths of a soldier) a side must be to lead.
    pub margin: i32,
    /// Lead changes a game.
    pub mean: Interval,
    /// Games with at least one.
    pub games_with_a_change: u64,
    /// Lead changes per searched position, all games together.
    pub per_position: f64,
}

/// The choices a game offers.
#[derive(Clone, Debug, Serialize)]
pub struct Branching {
    /// Legal moves a position.
    pub mean: Interval,
    /// The share of positions with more than one legal move.
    pub decision_moves: Interval,
    /// log10 of the game tree's size along a game (the product of the choices).
    pub log10_tree_size: Interval,
}

/// A figure for each side.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct BySide {
    /// The attackers'.
    pub attackers: f64,
    /// The defenders'.
    pub defenders: f64,
}

/// How much of the board games use.
#[derive(Clone, Debug, Serialize)]
pub struct BoardCoverage {
    /// The share of squares some piece stood on in a game.
    pub mean: Interval,
    /// The share some piece stood on in some game.
    pub all_games: f64,
    /// Pieces at the start, each side.
    pub pieces_start: BySide,
    /// Pieces at the end, each side, averaged over games.
    pub pieces_end: BySide,
    /// The king's distance to his nearest escape square at the start and, averaged over games
    /// with a king standing, at the end; `None` where no king escapes.
    pub king_distance_start: Option<f64>,
    /// At the end.
    pub king_distance_end: Option<f64>,
    /// Moves that ended on each square, all games together, rank 1 first.
    pub landed: Vec<Vec<u32>>,
}

/// How different the games' beginnings are.
#[derive(Clone, Debug, Serialize)]
pub struct Openings {
    /// Different positions where the players took over.
    pub distinct: u64,
    /// `distinct` over the games: 1 when no two games began alike.
    pub diversity: f64,
}

/// Means over the games still going at each ply, for the charts: cut where fewer than a
/// quarter of the games are left, so that one long game does not draw the tail.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Curves {
    /// The attackers' evaluation, in soldiers (from the first searched ply; opening plies
    /// have none and read 0).
    pub eval: Vec<f64>,
    /// Legal moves.
    pub branching: Vec<f64>,
    /// The attackers' pieces.
    pub attackers: Vec<f64>,
    /// The defenders' pieces.
    pub defenders: Vec<f64>,
    /// The king's distance to escape, over the games with a king standing.
    pub king_distance: Vec<Option<f64>>,
}

/// The whole report of one variant's games.
#[derive(Clone, Debug, Serialize)]
pub struct Measures {
    /// Games played.
    pub games: u64,
    /// Who won.
    pub outcome: Outcome,
    /// How the games ended: `king_escaped`, `king_captured`, `repetition`, `capped` ...
    pub endings: BTreeMap<String, u64>,
    /// How long they lasted.
    pub duration: Duration,
    /// How early they were decided, and the drama.
    pub decisiveness: Decisiveness,
    /// How often the lead changed.
    pub lead_changes: LeadChanges,
    /// The choices they offered.
    pub branching: Branching,
    /// The board they used.
    pub board_coverage: BoardCoverage,
    /// How different they began.
    pub openings: Openings,
    /// The figures over the game, for the charts.
    pub curves: Curves,
    /// Each game's figures, for comparisons.
    #[serde(skip)]
    pub per_game: Vec<GameMeasures>,
}

impl Measures {
    /// The report of `traces` (all of one variant), the designer's ideal length `ideal` plies if
    /// given.
    pub fn of(traces: &[Trace], ideal: Option<u32>) -> Measures {
        let per_game: Vec<GameMeasures> = traces.iter().map(GameMeasures::of).collect();
        let pick = |f: fn(&GameMeasures) -> f64| -> Vec<f64> { per_game.iter().map(f).collect() };
        let games = traces.len() as u64;
        let count = |want: fn(&Trace) -> bool| traces.iter().filter(|t| want(t)).count() as u64;
        let attackers_win = count(|t| t.winner() == Some(Side::Attackers));
        let defenders_win = count(|t| t.winner() == Some(Side::Defenders));
        let capped = count(|t| t.status == crate::game::Status::Ongoing);
        let draw = games - attackers_win - defenders_win;
        let mut endings = BTreeMap::new();
        for trace in traces {
            *endings.entry(trace.reason.to_string()).or_insert(0) += 1;
        }
        let outcome = Outcome {
            attackers_win,
            defenders_win,
            draw,
            capped,
            attackers: wilson(attackers_win, games),
            defenders: wilson(defenders_win, games),
            draws: wilson(draw, games),
            first_mover: traces.first().map_or(Side::Attackers, |t| t.first_mover),
            first_mover_score: Interval::of(&pick(|g| g.first_mover_points)),
        };
        let decisions: Vec<f64> = per_game.iter().filter_map(|g| g.decision).collect();
        let dramas: Vec<f64> = per_game.iter().filter_map(|g| g.drama).collect();
        let changes = pick(|g| g.lead_changes);
        let positions: usize = traces.iter().map(|t| t.evals.len()).sum();
        Measures {
            games,
            outcome,
            endings,
            duration: duration(traces, ideal),
            decisiveness: Decisiveness {
                threshold: DECISION_THRESHOLD,
                decided_games: decisions.len() as u64,
                decision: Interval::of(&decisions),
                drama: Interval::of(&dramas),
                instability: Interval::of(&pick(|g| g.instability)),
            },
            lead_changes: LeadChanges {
                margin: LEAD_MARGIN,
                mean: Interval::of(&changes),
                games_with_a_change: changes.iter().filter(|&&c| c > 0.0).count() as u64,
                per_position: changes.iter().sum::<f64>() / positions.max(1) as f64,
            },
            branching: Branching {
                mean: Interval::of(&pick(|g| g.branching)),
                decision_moves: Interval::of(&pick(|g| g.decision_moves)),
                log10_tree_size: Interval::of(&pick(|g| g.log10_tree)),
            },
            board_coverage: coverage(traces, &pick(|g| g.coverage)),
            openings: {
                let distinct = traces
                    .iter()
                    .map(|t| t.opening_hash)
                    .collect::<HashSet<_>>()
                    .len() as u64;
                Openings {
                    distinct,
                    diversity: distinct as f64 / games.max(1) as f64,
                }
            },
            curves: curves(traces),
            per_game,
        }
    }
}

fn duration(traces: &[Trace], ideal: Option<u32>) -> Duration {
    let mut lengths: Vec<usize> = traces.iter().map(Trace::plies).collect();
    lengths.sort_unstable();
    let values: Vec<f64> = lengths.iter().map(|&n| n as f64).collect();
    let mean = Interval::of(&values);
    let median = match lengths.len() {
        0 => 0.0,
        n if n % 2 == 1 => lengths[n / 2] as f64,
        n => (lengths[n / 2 - 1] + lengths[n / 2]) as f64 / 2.0,
    };
    let sd = if values.len() < 2 {
        0.0
    } else {
        (values.iter().map(|v| (v - mean.mean).powi(2)).sum::<f64>() / (values.len() - 1) as f64)
            .sqrt()
    };
    Duration {
        mean,
        median,
        sd,
        min: lengths.first().copied().unwrap_or(0),
        max: lengths.last().copied().unwrap_or(0),
        ideal,
        ideal_distance: ideal.filter(|&i| i > 0).map(|i| {
            let i = f64::from(i);
            values.iter().map(|v| (v - i).abs() / i).sum::<f64>() / values.len().max(1) as f64
        }),
    }
}

fn coverage(traces: &[Trace], per_game: &[f64]) -> BoardCoverage {
    let squares = traces.first().map_or(0, |t| t.occupied.len());
    let ever = (0..squares)
        .filter(|&i| traces.iter().any(|t| t.occupied.get(i) == Some(&true)))
        .count();
    let mean_side = |at: fn(&Trace) -> Option<[u32; 2]>, side: usize| {
        let values: Vec<f64> = traces
            .iter()
            .filter_map(|t| at(t).map(|p| f64::from(p[side])))
            .collect();
        values.iter().sum::<f64>() / values.len().max(1) as f64
    };
    let first = |t: &Trace| t.pieces.first().copied();
    let last = |t: &Trace| t.pieces.last().copied();
    let kings = |at: fn(&Trace) -> Option<u32>| {
        let values: Vec<f64> = traces.iter().filter_map(|t| at(t).map(f64::from)).collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    };
    let width = width_of(traces);
    let mut landed = vec![vec![0u32; width]; squares.checked_div(width).unwrap_or(0)];
    for trace in traces {
        for (i, &n) in trace.landed.iter().enumerate() {
            if let Some(cell) = landed
                .get_mut(i / width)
                .and_then(|row| row.get_mut(i % width))
            {
                *cell += n;
            }
        }
    }
    BoardCoverage {
        mean: Interval::of(per_game),
        all_games: ever as f64 / squares.max(1) as f64,
        pieces_start: BySide {
            attackers: mean_side(first, 0),
            defenders: mean_side(first, 1),
        },
        pieces_end: BySide {
            attackers: mean_side(last, 0),
            defenders: mean_side(last, 1),
        },
        king_distance_start: kings(|t| t.king_distance.first().copied().flatten()),
        king_distance_end: kings(|t| t.king_distance.last().copied().flatten()),
        landed,
    }
}

/// The board's width (every trace of a report is of one variant).
fn width_of(traces: &[Trace]) -> usize {
    traces.first().map_or(1, |t| t.width.max(1))
}

fn curves(traces: &[Trace]) -> Curves {
    let keep = traces.len().div_ceil(4).max(1);
    let mut curves = Curves::default();
    let mut ply = 0;
    loop {
        let going: Vec<&Trace> = traces.iter().filter(|t| t.plies() > ply).collect();
        if going.len() < keep {
            break;
        }
        let mean = |f: &dyn Fn(&Trace) -> Option<f64>| {
            let values: Vec<f64> = going.iter().filter_map(|t| f(t)).collect();
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        };
        curves.eval.push(
            mean(&|t| {
                ply.checked_sub(t.opening_plies)
                    .and_then(|k| t.evals.get(k))
                    .map(|&e| f64::from(e) / 100.0)
            })
            .unwrap_or(0.0),
        );
        curves
            .branching
            .push(mean(&|t| t.branching.get(ply).map(|&n| f64::from(n))).unwrap_or(0.0));
        curves
            .attackers
            .push(mean(&|t| t.pieces.get(ply).map(|p| f64::from(p[0]))).unwrap_or(0.0));
        curves
            .defenders
            .push(mean(&|t| t.pieces.get(ply).map(|p| f64::from(p[1]))).unwrap_or(0.0));
        curves.king_distance.push(mean(&|t| {
            t.king_distance.get(ply).copied().flatten().map(f64::from)
        }));
        ply += 1;
    }
    curves
}

/// Two reports from the same openings, measure by measure: B's figure minus A's, per opening,
/// with its paired 95% interval.
#[derive(Clone, Debug, Serialize)]
pub struct Differences {
    /// The attackers' points a game.
    pub attackers_score: Interval,
    /// Plies.
    pub plies: Interval,
    /// Lead changes a game.
    pub lead_changes: Interval,
    /// Where the winner became sure, as a share of the game (openings decisive in both only).
    pub decision: Interval,
    /// The share of the game the winner spent behind (openings decisive in both only).
    pub drama: Interval,
    /// Legal moves a position.
    pub branching: Interval,
    /// log10 of the tree's size along a game.
    pub log10_tree_size: Interval,
    /// The share of the board used.
    pub board_coverage: Interval,
}

impl Differences {
    /// B − A for each measure, over the openings both reports played (game `i` of each).
    pub fn between(a: &Measures, b: &Measures) -> Differences {
        let paired = |f: fn(&GameMeasures) -> Option<f64>| -> Interval {
            let values: Vec<f64> = a
                .per_game
                .iter()
                .zip(&b.per_game)
                .filter_map(|(ga, gb)| Some(f(gb)? - f(ga)?))
                .collect();
            Interval::of(&values)
        };
        Differences {
            attackers_score: paired(|g| Some(g.attackers_points)),
            plies: paired(|g| Some(g.plies)),
            lead_changes: paired(|g| Some(g.lead_changes)),
            decision: paired(|g| g.decision),
            drama: paired(|g| g.drama),
            branching: paired(|g| Some(g.branching)),
            log10_tree_size: paired(|g| Some(g.log10_tree)),
            board_coverage: paired(|g| Some(g.coverage)),
        }
    }
}

#[cfg(test)]
mod tests;
