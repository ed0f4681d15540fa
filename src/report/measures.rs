//! The measures of one game, each a small function of its [`Trace`] with a known answer on a
//! hand-made game (docs/report.md defines each and says what a good value looks like).

use super::trace::Trace;
use crate::ir::Side;

/// An evaluation this far from even (hundredths of a soldier, for either side) names a leader:
/// one soldier. Closer than that, the game is even and the last leader keeps the lead.
pub const LEAD_MARGIN: i32 = 100;

/// The eventual winner is sure of the game once its evaluation stays at two soldiers or more.
pub const DECISION_THRESHOLD: i32 = 200;

/// How often the side ahead changes over `evals` (each for the attackers): a position more than
/// `margin` from even names its leader, an even one keeps the last; each new leader after the
/// first is one change.
pub fn lead_changes(evals: &[i32], margin: i32) -> u32 {
    let mut leader: Option<Side> = None;
    let mut changes = 0;
    for &eval in evals {
        let now = if eval > margin {
            Some(Side::Attackers)
        } else if eval < -margin {
            Some(Side::Defenders)
        } else {
            None
        };
        if let Some(side) = now {
            if leader.is_some_and(|last| last != side) {
                changes += 1;
            }
            leader = Some(side);
        }
    }
    changes
}

/// Where `winner`'s evaluation (`evals` are the attackers') crosses `threshold` and stays over
/// it to the end: the index of the first of those positions, or `None` where the last position
/// is below it (the game was won from a position its winner did not see won).
pub fn decision_point(evals: &[i32], winner: Side, threshold: i32) -> Option<usize> {
    let own = |eval: i32| match winner {
        Side::Attackers => eval,
        Side::Defenders => -eval,
    };
    let below = evals.iter().rposition(|&eval| own(eval) < threshold);
    match below {
        None if evals.is_empty() => None,
        None => Some(0),
        Some(last) if last + 1 == evals.len() => None,
        Some(last) => Some(last + 1),
    }
}

/// The share of `evals` (the attackers') in which `winner` stood more than `margin` behind:
/// how much of the game its eventual winner spent losing.
pub fn drama(evals: &[i32], winner: Side, margin: i32) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let behind = evals
        .iter()
        .filter(|&&eval| match winner {
            Side::Attackers => eval < -margin,
            Side::Defenders => eval > margin,
        })
        .count();
    behind as f64 / evals.len() as f64
}

/// The mean change of the evaluation from one searched position to the next, in soldiers:
/// how much a move moves the game.
pub fn instability(evals: &[i32]) -> f64 {
    if evals.len() < 2 {
        return 0.0;
    }
    let total: i64 = evals
        .windows(2)
        .map(|pair| i64::from((pair[1] - pair[0]).abs()))
        .sum();
    total as f64 / (evals.len() - 1) as f64 / 100.0
}

/// The base-10 logarithm of the game tree's size along this game: the sum of the logarithms of
/// the moves each position offered (the number of games of this length and these choices).
pub fn log10_tree(branching: &[u32]) -> f64 {
    branching.iter().map(|&n| f64::from(n.max(1)).log10()).sum()
}

/// The share of positions that offered more than one move.
pub fn decision_moves(branching: &[u32]) -> f64 {
    if branching.is_empty() {
        return 0.0;
    }
    branching.iter().filter(|&&n| n > 1).count() as f64 / branching.len() as f64
}

/// The figures of one game that the report averages and compares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameMeasures {
    /// The attackers' points: a win 1, a draw or a capped game a half.
    pub attackers_points: f64,
    /// The first mover's points.
    pub first_mover_points: f64,
    /// Plies played.
    pub plies: f64,
    /// Lead changes.
    pub lead_changes: f64,
    /// Where the winner's evaluation crossed the threshold for good, as a share of the game
    /// (0: at once, 1: on the last move); `None` for a draw or a game won unseen.
    pub decision: Option<f64>,
    /// [`drama`], for decisive games.
    pub drama: Option<f64>,
    /// [`instability`].
    pub instability: f64,
    /// Mean legal moves a position.
    pub branching: f64,
    /// [`decision_moves`].
    pub decision_moves: f64,
    /// [`log10_tree`].
    pub log10_tree: f64,
    /// The share of the board's squares some piece stood on.
    pub coverage: f64,
}

impl GameMeasures {
    /// The measures of `trace`.
    pub fn of(trace: &Trace) -> GameMeasures {
        let attackers_points = match trace.winner() {
            Some(Side::Attackers) => 1.0,
            Some(Side::Defenders) => 0.0,
            None => 0.5,
        };
        let first_mover_points = match trace.first_mover {
            Side::Attackers => attackers_points,
            Side::Defenders => 1.0 - attackers_points,
        };
        let decision = trace.winner().and_then(|winner| {
            decision_point(&trace.evals, winner, DECISION_THRESHOLD)
                .map(|k| (trace.opening_plies + k) as f64 / trace.plies().max(1) as f64)
        });
        let branching = if trace.branching.is_empty() {
            0.0
        } else {
            trace.branching.iter().map(|&n| f64::from(n)).sum::<f64>()
                / trace.branching.len() as f64
        };
        GameMeasures {
            attackers_points,
            first_mover_points,
            plies: trace.plies() as f64,
            lead_changes: f64::from(lead_changes(&trace.evals, LEAD_MARGIN)),
            decision,
            drama: trace
                .winner()
                .map(|winner| drama(&trace.evals, winner, LEAD_MARGIN)),
            instability: instability(&trace.evals),
            branching,
            decision_moves: decision_moves(&trace.branching),
            log10_tree: log10_tree(&trace.branching),
            coverage: trace.occupied.iter().filter(|&&b| b).count() as f64
                / trace.occupied.len().max(1) as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lead_changing_hands_twice_counts_two() {
        // Attackers ahead, then the defenders, an even stretch that keeps the defenders'
        // lead, then the attackers again.
        assert_eq!(lead_changes(&[0, 300, 250, -300, 50, -20, 400], 100), 2);
        // Even all game: no leader, no change.
        assert_eq!(lead_changes(&[0, 50, -50, 99, -100], 100), 0);
        // One side ahead all along.
        assert_eq!(lead_changes(&[150, 900, 101], 100), 0);
        assert_eq!(lead_changes(&[], 100), 0);
    }

    #[test]
    fn the_decision_is_where_the_winner_crosses_for_good() {
        // The attackers cross at index 2, drop back at 3, and cross for good at 4.
        let evals = [0, 100, 250, 150, 300, 1000];
        assert_eq!(decision_point(&evals, Side::Attackers, 200), Some(4));
        // The defenders' evaluation is the attackers' negated.
        let mirrored: Vec<i32> = evals.iter().map(|e| -e).collect();
        assert_eq!(decision_point(&mirrored, Side::Defenders, 200), Some(4));
        // Sure from the first position.
        assert_eq!(decision_point(&[500, 600], Side::Attackers, 200), Some(0));
        // Won from a position the winner did not see won.
        assert_eq!(decision_point(&[500, 100], Side::Attackers, 200), None);
        assert_eq!(decision_point(&[], Side::Attackers, 200), None);
    }

    #[test]
    fn drama_is_the_share_the_winner_spent_behind() {
        // The defenders win after standing behind (attackers over +1) in two of five.
        assert_eq!(drama(&[300, 150, 0, -200, -900], Side::Defenders, 100), 0.4);
        assert_eq!(drama(&[300, 150], Side::Attackers, 100), 0.0);
    }

    #[test]
    fn instability_is_the_mean_step_in_soldiers() {
        // Steps of 100, 300 and 200 hundredths: two soldiers on average.
        assert_eq!(instability(&[0, 100, -200, 0]), 2.0);
        assert_eq!(instability(&[7]), 0.0);
    }

    #[test]
    fn the_tree_size_multiplies_the_choices() {
        // 10 × 100 × 1 games: 10^3.
        assert!((log10_tree(&[10, 100, 1]) - 3.0).abs() < 1e-12);
        assert_eq!(decision_moves(&[10, 100, 1, 1]), 0.5);
    }
}
