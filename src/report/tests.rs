//! The report's aggregation over hand-made games with known answers.

use super::*;
use crate::game::Status;

/// A hand-made game on a 3-square board: `plies` plies, the attackers' evaluations `evals`
/// after `opening` random plies, and its result.
fn game(status: Status, plies: usize, opening: usize, evals: &[i32]) -> Trace {
    Trace {
        status,
        reason: match status {
            Status::AttackersWin => "king_captured",
            Status::DefendersWin => "king_escaped",
            Status::Draw => "repetition",
            Status::Ongoing => "capped",
        },
        first_mover: Side::Attackers,
        opening_plies: opening,
        evals: evals.to_vec(),
        branching: vec![10; plies],
        pieces: vec![[4, 2]; plies + 1],
        king_distance: vec![Some(2); plies + 1],
        width: 3,
        occupied: vec![true, false, true],
        landed: vec![1, 0, 2],
        opening_hash: plies as u64,
    }
}

#[test]
fn outcome_and_endings_count_each_game_once() {
    let games = [
        game(Status::AttackersWin, 10, 0, &[0; 10]),
        game(Status::DefendersWin, 20, 0, &[0; 20]),
        game(Status::DefendersWin, 30, 0, &[0; 30]),
        game(Status::Ongoing, 40, 0, &[0; 40]),
    ];
    let m = Measures::of(&games, Some(20));
    assert_eq!(
        (
            m.outcome.attackers_win,
            m.outcome.defenders_win,
            m.outcome.draw,
            m.outcome.capped
        ),
        (1, 2, 1, 1)
    );
    assert_eq!(m.endings["king_escaped"], 2);
    assert_eq!(m.endings["capped"], 1);
    // The attackers move first: 1 + 0 + 0 + 0.5 points in four games.
    assert_eq!(m.outcome.first_mover_score.mean, 0.375);
    assert_eq!(m.duration.mean.mean, 25.0);
    assert_eq!(m.duration.median, 25.0);
    assert_eq!((m.duration.min, m.duration.max), (10, 40));
    // |10-20| + 0 + |30-20| + |40-20| over 20, over four games.
    assert_eq!(m.duration.ideal_distance, Some(0.5));
    // Every game began from a different position; each used two squares of three, together
    // the same two.
    assert_eq!(m.openings.diversity, 1.0);
    assert!((m.board_coverage.mean.mean - 2.0 / 3.0).abs() < 1e-12);
    assert!((m.board_coverage.all_games - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(m.board_coverage.landed, vec![vec![4, 0, 8]]);
    assert_eq!(m.board_coverage.king_distance_end, Some(2.0));
    assert_eq!(m.branching.mean.mean, 10.0);
}

#[test]
fn decisiveness_reads_where_the_winner_became_sure() {
    // Ten plies, two of them opening: the attackers cross two soldiers for good at searched
    // position 4, ply 6 of 10. The lead changes twice on the way.
    let evals = [0, 300, -300, 150, 250, 400, 900, 1000];
    let m = Measures::of(&[game(Status::AttackersWin, 10, 2, &evals)], None);
    assert_eq!(m.decisiveness.decided_games, 1);
    assert_eq!(m.decisiveness.decision.mean, 0.6);
    assert_eq!(m.lead_changes.mean.mean, 2.0);
    assert_eq!(m.lead_changes.games_with_a_change, 1);
    // One position of eight the winner spent more than a soldier behind.
    assert_eq!(m.decisiveness.drama.mean, 0.125);
    // A draw is decided by nobody.
    let m = Measures::of(&[game(Status::Draw, 10, 2, &evals)], None);
    assert_eq!(m.decisiveness.decided_games, 0);
}

#[test]
fn curves_stop_where_most_games_have_ended() {
    // Four games: three of 4 plies, one of 100. A quarter of four is one game, so the curve
    // follows the long game alone; of eight games, two must still be going.
    let mut games = vec![game(Status::DefendersWin, 4, 0, &[0; 4]); 3];
    games.push(game(Status::DefendersWin, 100, 0, &[-100; 100]));
    let m = Measures::of(&games, None);
    assert_eq!(m.curves.branching.len(), 100);
    assert_eq!(m.curves.eval[0], -0.25);
    assert_eq!(m.curves.eval[50], -1.0);
    games.extend(vec![game(Status::DefendersWin, 4, 0, &[0; 4]); 4]);
    assert_eq!(Measures::of(&games, None).curves.branching.len(), 4);
}

#[test]
fn differences_pair_the_same_openings() {
    let a = Measures::of(
        &[
            game(Status::AttackersWin, 10, 0, &[0; 10]),
            game(Status::DefendersWin, 20, 0, &[0; 20]),
        ],
        None,
    );
    let b = Measures::of(
        &[
            game(Status::AttackersWin, 14, 0, &[0; 14]),
            game(Status::AttackersWin, 24, 0, &[0; 24]),
        ],
        None,
    );
    let d = Differences::between(&a, &b);
    // Four plies longer in both openings: no spread, so the interval is the difference.
    assert_eq!(
        d.plies,
        Interval {
            mean: 4.0,
            low: 4.0,
            high: 4.0
        }
    );
    assert!(d.plies.excludes_zero());
    assert_eq!(d.attackers_score.mean, 0.5);
    assert!(!d.attackers_score.excludes_zero());
}

#[test]
fn an_interval_is_the_mean_give_or_take_two_standard_errors() {
    let i = Interval::of(&[1.0, 3.0]);
    // sd √2, standard error 1: 2 ± 1.96.
    assert_eq!(i.mean, 2.0);
    assert!((i.low - 0.04).abs() < 1e-12 && (i.high - 3.96).abs() < 1e-12);
    assert_eq!(Interval::of(&[]).mean, 0.0);
}
