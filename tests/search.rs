//! The computer player: puzzles found at a fixed depth, strength against a random player, and
//! the invariants of the search (the table and threads never change a fixed-depth score; one
//! thread is deterministic). All seeded; no test measures time.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use tafl::engine::{Engine, Rng};
use tafl::game::notation::parse_position;
use tafl::search::{
    search, search_lines, Limits, Progress, Report, Score, SearchError, Settings, Table,
};
use tafl::{EndReason, Game, GameOutcome, Side, Status, Variant};

fn engine(name: &str) -> Arc<Engine> {
    Arc::new(Engine::new(&Variant::bundled(name).unwrap().rules).unwrap())
}

fn puzzle(variant: &str, position: &str, side: Side) -> Game {
    let engine = engine(variant);
    let position = parse_position(&engine, position, side).unwrap();
    Game::from_position(engine, position)
}

fn best(game: &Game, depth: u32) -> Report {
    best_with(game, depth, Settings::DEFAULT)
}

fn best_with(game: &Game, depth: u32, settings: Settings) -> Report {
    let limits = Limits::depth(depth).with_settings(settings);
    search(game, &limits, &AtomicBool::new(false), |_| {}).unwrap()
}

/// Asserts what a quiescence technique adds: with the technique named `technique` turned on
/// (on top of the defaults) the search of `game` proves `score` at depth 1, where with it
/// turned off it does not; both prove it at depth 3. Returns the depth-1 report with it, for
/// its move.
fn proved_past_the_horizon(game: &Game, technique: &str, score: Score) -> Report {
    let none: [&str; 0] = [];
    // Every caller names a technique of Settings::NAMES.
    let with = Settings::DEFAULT.turned(&none, &[technique]).unwrap();
    let without = Settings::DEFAULT.turned(&[technique], &none).unwrap();
    let plain = best_with(game, 1, without);
    assert!(!matches!(plain.score, Score::Win(_)), "{plain:?}");
    let seen = best_with(game, 1, with);
    assert_eq!(seen.score, score, "{seen:?}");
    assert_eq!(best_with(game, 3, without).score, score);
    assert_eq!(best_with(game, 3, with).score, score);
    seen
}

/// Asserts that the default search of `game` plays `mv` and scores `score` at each of `depths`.
fn assert_finds(game: &Game, depths: std::ops::RangeInclusive<u32>, mv: &str, score: Score) {
    for depth in depths {
        let report = best(game, depth);
        assert_eq!(
            report.best.unwrap().to_string(),
            mv,
            "depth {depth}: {report:?}"
        );
        assert_eq!(report.score, score, "depth {depth}: {report:?}");
    }
}

#[test]
fn the_king_escapes_in_one() {
    // Linnaeus: the king on e3 has the rank open to i3 (the edge wins).
    let game = puzzle("linnaeus", "/4t4/9/9/9/9/9/t3K4/9/9/", Side::Defenders);
    let report = best(&game, 3);
    assert_eq!(report.score, Score::Win(1), "{report:?}");
    let mv = report.best.unwrap();
    assert_eq!(mv.from.to_string(), "e3");
    assert!(
        mv.to.to_string() == "i3" || mv.to.rank == 0 || mv.to.file == 8,
        "{mv}"
    );
}

#[test]
fn the_king_escapes_in_two_by_a_double_threat() {
    // brettspielnetz (corner escape): from c5 the king reaches the first rank (or the a file),
    // whence two corners are open; one attacker cannot block both.
    let game = puzzle("brettspielnetz", "/4t4/9/9/9/2K6/9/9/9/9/", Side::Defenders);
    let report = best(&game, 3);
    assert_eq!(report.score, Score::Win(3), "{report:?}");
    // Nothing shorter exists: no corner in one.
    assert_ne!(best(&game, 1).score, Score::Win(1));
}

#[test]
fn the_corner_chase_sees_a_fork_past_the_horizon() {
    // brettspielnetz (corner escape): the attackers guard the ninth rank (e9) and the first
    // (g1), and flank the king on g6 (f6, h6), so no move of his reaches two corners' lines.
    // But g6-g3 (or g2, g4, g5, g7, g8) puts him a move from a3 and i3, each on a file open
    // to two corners: one attacker's move cannot stop both, and he escapes at ply 5.
    let game = puzzle(
        "brettspielnetz",
        "/4t4/9/9/5tKt1/9/9/9/9/6t2/",
        Side::Defenders,
    );
    // With the attackers to move at the horizon, quiescence without the chase stands on the
    // evaluation; the chase searches only the moves that might stop the fork,
    // finds none, and proves the win a ply after the king's quiet move. The full search
    // agrees two plies deeper, with or without the chase.
    proved_past_the_horizon(&game, "corner-chase", Score::Win(5));
}

#[test]
fn the_king_threat_sees_a_net_past_the_horizon() {
    // Copenhagen: the king on h8 is held on g8 and i8, and g7, i7 and h6 wait below him.
    // c9-h9 holds a third side: the attackers threaten g7-h7 (or i7-h7), which takes him on
    // all four sides; his only move, h8-h7, walks into h9-h8. The defender on c3 keeps the
    // attackers from winning by encirclement at once, and can do nothing.
    let game = puzzle(
        "copenhagen",
        "/11/11/2t8/6tKt2/6t1t2/7t3/11/11/2T8/11/11/",
        Side::Attackers,
    );
    // At depth 1, with the defenders to move at the horizon, quiescence without the king
    // threat stands on the evaluation; with it, they may not, every move leaves the king to
    // be taken, and the win is proved a ply after the attackers' quiet move. The full search
    // agrees two plies deeper, with or without it.
    let seen = proved_past_the_horizon(&game, "king-threat", Score::Win(3));
    assert_eq!(seen.best.unwrap().to_string(), "c9-h9");
}

#[test]
fn the_attackers_capture_the_king_in_one() {
    // Linnaeus, away from the castle the king is taken by two: d1-d3 closes c3.
    let game = puzzle("linnaeus", "/9/9/9/9/9/9/1tK6/9/3t5/", Side::Attackers);
    let report = best(&game, 2);
    assert_eq!(report.best.unwrap().to_string(), "d1-d3");
    assert_eq!(report.score, Score::Win(1));
}

#[test]
fn only_one_move_stops_an_escape() {
    // Brandubh (corner escape): the king on a3 goes to a1 next unless an attacker stands on a2.
    let game = puzzle("brandubh", "/7/T6/7/7/K6/2t4/7/", Side::Attackers);
    let plain = best_with(&game, 2, Settings::NONE);
    assert_eq!(plain.best.unwrap().to_string(), "c2-a2", "{plain:?}");
    assert!(!matches!(plain.score, Score::Loss(_)), "{plain:?}");
    // With escape-threat extensions (off by default) the same depth sees past the block:
    // a6-b6 then opens the a file to the a7 corner, which the lone attacker cannot close.
    // Every other move loses in 2 (a3-a1), so c2-a2, losing in 4, is still the move.
    let extensions = Settings {
        extensions: true,
        ..Settings::DEFAULT
    };
    let extended = best_with(&game, 2, extensions);
    assert_eq!(extended.best.unwrap().to_string(), "c2-a2", "{extended:?}");
    assert_eq!(extended.score, Score::Loss(4), "{extended:?}");
}

#[test]
fn pruning_does_not_pass_over_a_king_two_moves_from_an_open_corner() {
    // Copenhagen, ply 19 of a game our attackers lost at 1 s a move (docs/strength.md, "A king
    // two moves from a corner"): three corners are sealed and the attackers stand eight
    // soldiers up by the evaluation, but h2-j2 wins: the block on j1 is taken (i6-i1, against
    // the corner) and the king walks j1 and k1. After h2-j2 the king has no open route yet, so
    // reverse futility once cut the attackers' nodes there on their standing, and no depth
    // up to 5 found the win.
    let game = puzzle(
        "copenhagen",
        "/3ttt3t1/2t7t/1t9/t4TT4/t3TT4t/t2TT3Ttt/t3TTT3t/5T5/t10/1t5K2t/1t2ttt4/",
        Side::Defenders,
    );
    assert_finds(&game, 4..=4, "h2-j2", Score::Win(7));
}

#[test]
fn pruning_does_not_pass_over_a_route_the_kings_man_opens() {
    // Copenhagen, ply 27 of a game our attackers lost at 1 s a move in 32 plies
    // (docs/data/match-1s/copenhagen-lmp-seed2.csv, opening 7; docs/strength.md, "A route the
    // king's men open"): the king on k8 has the k file to the k11 corner but for his own man
    // on k10. f8-j8 wins in 5: j10-j9 is met by k10-j10, which takes j9 and opens the file.
    // Reverse futility once cut the attackers' nodes after f8-j8 on their standing (+12
    // soldiers), since the king himself could not open a route with one move; the search
    // scored -13 and found no win up to depth 6.
    let game = puzzle(
        "copenhagen",
        "/2t1tttt3/1t7tT/t7T2/5T4K/t3TT4T/t2TT4t1/t3TT5/t4T4t/1t4T2t1/2t5t2/3t1ttt3/",
        Side::Defenders,
    );
    assert_finds(&game, 4..=5, "f8-j8", Score::Win(5));
}

#[test]
fn late_move_pruning_proves_no_loss_it_did_not_search() {
    // Copenhagen, ply 18 of a game our attackers lost at 1 s a move in 24 plies
    // (docs/strength.md, "A loss the search proved wrongly"): the king on f6 threatens f9,
    // whence a9 and k9 each lead to a corner. f11-f9 (or a8-a9) holds, but every move late
    // pruning searched near the horizon lost to the threat, so the node once returned a
    // proven loss and the depth-4 search called the whole position lost in 6 and played
    // h11-h7, which is. Depth 5 disagreed, and at 1 s the search never reached it.
    let game = puzzle(
        "copenhagen",
        "/4tttt3/4T1T4/11/t1TT6t/t2t2T1T1t/ttt1TK4t/3tTTT3t/4t3T2/4t5t/5t3t1/5tt1t2/",
        Side::Attackers,
    );
    for depth in 3..=5 {
        let report = best(&game, depth);
        assert!(
            !matches!(report.score, Score::Loss(_)),
            "depth {depth}: {report:?}"
        );
        assert_ne!(report.best.unwrap().to_string(), "h11-h7", "{report:?}");
    }
}

#[test]
fn the_fort_watch_sees_a_fort_the_pruning_hides() {
    // Copenhagen, ply 172 of a game our attackers lost at 1 s a move to an edge fort at ply
    // 176 (docs/data/match-1s/copenhagen-lmp-seed2.csv, opening 1; docs/strength.md, "A fort
    // in the search"). The king on g6 walks to k6 and e6-i6 closes the wall behind him: a
    // fort built by quiet moves, which the search's cuts near the horizon pass over. With
    // the fort watch, depth 4 proves it; without it, the same depth scores the attackers
    // ahead, and only depth 6 finds the loss.
    let game = puzzle(
        "copenhagen",
        "/2t5t2/1t7t1/t9t/11/t1T5TTT/1t1TT1K4/2tTTtt1T2/3tt4TT/10t/9t1/11/",
        Side::Attackers,
    );
    let watched = Settings {
        fort_watch: true,
        ..Settings::DEFAULT
    };
    let report = best_with(&game, 4, watched);
    assert_eq!(report.score, Score::Loss(4), "{report:?}");
    let mut line = game.clone();
    for &mv in &report.pv {
        line.play(mv).unwrap();
    }
    assert_eq!(line.reason(), Some(EndReason::EdgeFort), "{report:?}");
    let unwatched = best_with(&game, 4, Settings::DEFAULT);
    assert!(
        !matches!(unwatched.score, Score::Loss(_)),
        "the pruning no longer hides this fort: {unwatched:?}"
    );
}

#[test]
fn a_leader_is_captured_in_one() {
    // Thrones and Bones: the Jarl on c3 is taken on four sides; c7-c4 closes the last one.
    let game = puzzle(
        "thrones-and-bones",
        "/d8/9/2t6/9/9/9/1tKt5/2t6/9/",
        Side::Attackers,
    );
    let report = best(&game, 2);
    assert_eq!(report.best.unwrap().to_string(), "c7-c4", "{report:?}");
    assert_eq!(report.score, Score::Win(1));
}

#[test]
fn a_decided_game_has_no_move() {
    let game = puzzle("linnaeus", "/K8/9/9/9/9/9/9/9/t8/", Side::Attackers);
    let result = search(&game, &Limits::depth(3), &AtomicBool::new(false), |_| {});
    assert!(
        matches!(result, Err(SearchError::GameOver(e)) if e.outcome == GameOutcome::Win(Side::Defenders))
    );
}

/// Random positions reached by seeded random play.
fn random_games(variant: &str, count: u64) -> Vec<Game> {
    let engine = engine(variant);
    (0..count)
        .filter_map(|seed| {
            let mut rng = Rng::new(seed * 7919 + 3);
            let mut game = Game::new(engine.clone());
            for _ in 0..(6 + rng.below(30)) {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    return None;
                }
                game.play(moves[rng.below(moves.len())]).unwrap();
            }
            (!game.is_over()).then_some(game)
        })
        .collect()
}

#[test]
fn the_table_and_threads_never_change_a_fixed_depth_score() {
    // Pinned to the plain search: reductions and null moves follow the move order, which the
    // table's moves change, so with them on the table may change a score (as in any engine).
    let plain = Limits::depth(3).with_settings(Settings::NONE);
    for variant in ["brandubh", "linnaeus", "ashton", "brettspielnetz"] {
        for game in random_games(variant, 6) {
            let without = search(
                &game,
                &Limits {
                    table_mb: 0,
                    ..plain
                },
                &AtomicBool::new(false),
                |_| {},
            )
            .unwrap();
            let with_table = search(&game, &plain, &AtomicBool::new(false), |_| {}).unwrap();
            let threaded = search(
                &game,
                &plain.with_threads(3),
                &AtomicBool::new(false),
                |_| {},
            )
            .unwrap();
            assert_eq!(
                with_table.score, without.score,
                "{variant}: the table changed the score"
            );
            assert_eq!(
                threaded.score, without.score,
                "{variant}: threads changed the score"
            );
        }
    }
}

#[test]
fn one_thread_at_a_fixed_depth_is_deterministic() {
    // Every technique on (the default): none of them depends on the clock at a fixed depth.
    for game in random_games("fetlar", 3) {
        let a = best(&game, 3);
        let b = best(&game, 3);
        assert_eq!(
            (a.best, a.score, a.nodes, a.pv),
            (b.best, b.score, b.nodes, b.pv)
        );
    }
}

/// The report of a search stopped (as by Ctrl-C or the clock) once depth `cut` has finished,
/// during the next iteration, as its root starts on its third move: the stop is seen at the
/// next reading of the flags, after a count of steps that one thread makes the same every run,
/// and the root's first moves have finished. `None` where that iteration finished first.
fn stopped_after(game: &Game, cut: u32, settings: Settings) -> Option<Report> {
    let stop = AtomicBool::new(false);
    let limits = Limits::depth(cut + 3).with_settings(settings);
    let table = Table::new(limits.table_mb);
    let report = search_lines(
        game,
        &[],
        1,
        &limits,
        &table,
        &stop,
        Some(Duration::ZERO),
        |said| {
            if let Progress::Current(current) = said {
                if current.depth == cut + 1 && current.number == 3 {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        },
    )
    .unwrap();
    (report.depth == cut).then_some(report)
}

#[test]
fn a_search_cut_short_plays_what_the_cut_iteration_found() {
    let cut = 3;
    let partial_off = Settings {
        partial_iterations: false,
        ..Settings::DEFAULT
    };
    let (mut cut_short, mut used) = (0, 0);
    for variant in ["brandubh", "linnaeus", "copenhagen"] {
        for game in random_games(variant, 12) {
            let (Some(on), Some(off)) = (
                stopped_after(&game, cut, Settings::DEFAULT),
                stopped_after(&game, cut, partial_off),
            ) else {
                continue;
            };
            cut_short += 1;
            // Off, the last finished depth's move, score and line, as a search to that depth
            // gives them.
            let finished = best(&game, cut);
            assert_eq!(
                (off.best, off.score, &off.pv),
                (finished.best, finished.score, &finished.pv)
            );
            // On, the same where the cut iteration finished no root move; else that move with
            // its line, which the rules allow.
            assert_eq!(on.depth, cut);
            assert_eq!(on.pv.first(), on.best.as_ref());
            if on.pv != off.pv {
                used += 1;
                let mut line = game.clone();
                for &mv in &on.pv {
                    line.play(mv).unwrap();
                }
            } else {
                assert_eq!((on.best, on.score), (off.best, off.score));
            }
        }
    }
    assert!(cut_short >= 12, "{cut_short}");
    assert!(used > 0, "no cut iteration was used in {cut_short}");
}

/// Plays `games` seeded games between the search at `depth` and a uniformly random player, the
/// search taking `side`; returns the search's wins.
fn against_random(variant: &str, side: Side, depth: u32, games: u64) -> u64 {
    let engine = engine(variant);
    let mut wins = 0;
    for seed in 0..games {
        let mut rng = Rng::new(seed + 1000 * depth as u64);
        let mut game = Game::new(engine.clone());
        while !game.is_over() && game.plies().len() < 300 {
            let mv = if game.to_move() == side {
                best(&game, depth).best.unwrap()
            } else {
                let moves = game.legal_moves();
                moves[rng.below(moves.len())]
            };
            game.play(mv).unwrap();
        }
        let won = matches!(
            (game.status(), side),
            (Status::AttackersWin, Side::Attackers) | (Status::DefendersWin, Side::Defenders)
        );
        wins += u64::from(won);
    }
    wins
}

#[test]
fn the_search_beats_a_random_player() {
    // 40 seeded games per side and variant, at depth 1 (the debug build runs these tests).
    for variant in ["linnaeus", "brandubh", "fetlar", "thrones-and-bones"] {
        for side in Side::BOTH {
            let wins = against_random(variant, side, 1, 40);
            assert!(wins >= 36, "{variant}, {side}: {wins} of 40 won");
        }
    }
}

/// Plays `games` seeded games (two random opening plies each) between the search at `deep` and
/// at `shallow` plies, the deeper player taking each side in turn; returns the deeper player's
/// score (a win 1, a draw ½) as a fraction.
fn depth_match(variant: &str, deep: u32, shallow: u32, games: u64) -> f64 {
    let engine = engine(variant);
    let mut points = 0.0;
    for seed in 0..games {
        let deep_side = if seed % 2 == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        let mut rng = Rng::new(seed + 77);
        let mut game = Game::new(engine.clone());
        for _ in 0..2 {
            let moves = game.legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        while !game.is_over() && game.plies().len() < 200 {
            let depth = if game.to_move() == deep_side {
                deep
            } else {
                shallow
            };
            game.play(best(&game, depth).best.unwrap()).unwrap();
        }
        points += match (game.status(), deep_side) {
            (Status::AttackersWin, Side::Attackers) | (Status::DefendersWin, Side::Defenders) => {
                1.0
            }
            (Status::Draw | Status::Ongoing, _) => 0.5,
            _ => 0.0,
        };
    }
    points / games as f64
}

#[test]
fn a_deeper_search_plays_better() {
    // A loose bound on a small seeded match (docs/balance.md reports a larger one).
    let score = depth_match("brandubh", 3, 1, 16);
    assert!(score >= 0.6, "depth 3 scored {score} against depth 1");
}

/// The figure docs/balance.md reports: `cargo test --release --test search -- --ignored`.
#[test]
#[ignore]
fn depth_matches_for_the_docs() {
    for variant in ["brandubh", "linnaeus"] {
        for (deep, shallow) in [(2, 1), (3, 2)] {
            let score = depth_match(variant, deep, shallow, 40);
            println!(
                "{variant}: depth {deep} against depth {shallow}: {:.1}%",
                100.0 * score
            );
        }
    }
}

#[test]
fn every_technique_alone_and_all_together_still_find_the_forced_wins() {
    let puzzles = [
        (
            "linnaeus",
            "/4t4/9/9/9/9/9/t3K4/9/9/",
            Side::Defenders,
            3,
            1,
        ),
        (
            "brettspielnetz",
            "/4t4/9/9/9/2K6/9/9/9/9/",
            Side::Defenders,
            3,
            3,
        ),
        (
            "linnaeus",
            "/9/9/9/9/9/9/1tK6/9/3t5/",
            Side::Attackers,
            2,
            1,
        ),
        (
            "thrones-and-bones",
            "/d8/9/2t6/9/9/9/1tKt5/2t6/9/",
            Side::Attackers,
            2,
            1,
        ),
    ];
    let mut variants: Vec<Settings> = Settings::NAMES
        .iter()
        .map(|name| {
            let mut settings = Settings::NONE;
            *settings.switch(name).unwrap() = true;
            settings
        })
        .collect();
    variants.push(Settings::ALL);
    for settings in variants {
        for (variant, position, side, depth, plies) in puzzles {
            let game = puzzle(variant, position, side);
            let report = best_with(&game, depth, settings);
            assert_eq!(report.score, Score::Win(plies), "{variant} {settings:?}");
        }
    }
}

/// The nodes one thread searches to `depth` from `game`'s position with `settings`.
fn nodes_to_depth(game: &Game, depth: u32, settings: Settings) -> u64 {
    best_with(game, depth, settings).nodes
}

#[test]
fn pruning_near_the_horizon_searches_fewer_nodes_to_the_same_depth() {
    // Reverse futility and late-move pruning cut nodes a ply or two from the horizon: with them
    // on, the same depth costs fewer nodes, from the start and from random middle games.
    for variant in ["linnaeus", "brandubh", "copenhagen"] {
        let engine = engine(variant);
        let games = std::iter::once(Game::new(engine)).chain(random_games(variant, 2));
        for game in games {
            let nodes = |settings: Settings| nodes_to_depth(&game, 4, settings);
            let without = nodes(Settings {
                futility: false,
                late_move_pruning: false,
                ..Settings::DEFAULT
            });
            let with = nodes(Settings {
                futility: true,
                late_move_pruning: true,
                ..Settings::DEFAULT
            });
            assert!(
                with < without,
                "{variant}: {with} nodes with pruning, {without} without"
            );
        }
    }
}

/// Asserts that turning on the switch called `name` searches fewer nodes to `depth` from the
/// start of each of `variants`, the other switches as by default but the corner chase (on by
/// default), which came after these figures: with it, Brandubh's depth-8 tree is 1.78 M nodes
/// with deep reductions and 1.22 M without, and depth 7 336 K with deeper entries and 331 K
/// without (2026-11-28). Both switches were kept on for their matches before the chase; with
/// it they are a trade-off not yet measured in matches, so not asserted here.
fn fewer_nodes_with(name: &str, depth: u32, variants: &[&str]) {
    for &variant in variants {
        let game = Game::new(engine(variant));
        let nodes = |on: bool| {
            let mut settings = Settings {
                corner_chase: false,
                ..Settings::DEFAULT
            };
            *settings.switch(name).unwrap() = on;
            nodes_to_depth(&game, depth, settings)
        };
        let (with, without) = (nodes(true), nodes(false));
        assert!(
            with < without,
            "{variant}: {with} nodes to depth {depth} with {name}, {without} without"
        );
    }
}

#[test]
fn deep_reductions_search_fewer_nodes_to_the_same_depth() {
    // Reducing the last two thirds of the quiet moves by two plies, 6 plies or more from the
    // horizon, cuts the tree at depth 8, the 9x9 goal: from the start of Linnaeus 5.68 M nodes
    // against 2.80 M, Brandubh 1.09 M against 0.77 M, Copenhagen 485 K against 387 K (with its
    // weights of `walled` 40; 417 K against 395 K before). Not at depth 7, where only the two
    // plies nearest the root reduce more and a reduced move that fails high is searched again
    // (Linnaeus 1.35 M nodes plain against 1.51 M).
    fewer_nodes_with(
        "deep-reductions",
        8,
        &["linnaeus", "brandubh", "copenhagen"],
    );
}

#[test]
fn deeper_entries_search_fewer_nodes_to_the_same_depth() {
    // A position reached again closer to the horizon (a piece that gets somewhere in one move
    // instead of two, a reduced line) is decided by the deeper entry instead of searched again:
    // from the start of Copenhagen and Brandubh at depth 7, 357 K nodes against 314 K and
    // 336 K against 274 K (extensions off, as by default since 2026-11-27). Not everywhere: a
    // deeper score is a different score, and the tree after it can grow. With extensions on it
    // saved half of Linnaeus' depth-7 tree (2.97 M against 1.51 M); without them it costs
    // there (0.59 M against 1.42 M; at depth 8 1.98 M against 2.42 M), so Linnaeus is not
    // asked (docs/strength.md, "Deeper table entries").
    fewer_nodes_with("deeper-entries", 7, &["copenhagen", "brandubh"]);
}

#[test]
fn techniques_are_turned_off_then_on_by_name() {
    // `--off all --on quiescence`: everything off, then quiescence alone back on.
    let plain = Settings::DEFAULT.turned(&["all"], &["quiescence"]).unwrap();
    assert_eq!(
        plain,
        Settings {
            quiescence: true,
            ..Settings::NONE
        }
    );
    // Each name reaches its own switch and no other; a trailing comma's empty name is nothing.
    for name in Settings::NAMES {
        let mut alone = Settings::NONE;
        alone.turn(name, true).unwrap();
        let mut expected = Settings::NONE;
        *expected.switch(name).unwrap() = true;
        assert_eq!(alone, expected, "{name}");
        assert_ne!(alone, Settings::NONE, "{name}");
    }
    assert_eq!(
        Settings::DEFAULT
            .turned(&["corner-chase", ""], &[])
            .unwrap(),
        Settings {
            corner_chase: false,
            ..Settings::DEFAULT
        }
    );
    // An unknown name is refused with the names that are known, and names the culprit.
    let refused = Settings::DEFAULT
        .turned(&["futility", "fast"], &[])
        .unwrap_err();
    assert_eq!(refused.0, "fast");
    let message = refused.to_string();
    assert!(message.starts_with("unknown search technique `fast`: expected all, quiescence"));
    assert!(message.contains("corner-chase"), "{message}");
}

/// The hostile variants of issue 62, every piece moving to any empty square, whose first
/// iteration once ran for a minute past any budget (its quiescence never read the clock).
fn hostile(file: &str) -> Game {
    let path = format!("{}/tests/hostile/{file}", env!("CARGO_MANIFEST_DIR"));
    let rules = Variant::load(&path).unwrap().rules;
    Game::new(Arc::new(Engine::new(&rules).unwrap()))
}

/// The most nodes a search may enter once its clock has run out or its stop flag is set: the
/// clock is read every 64 steps (a node, or a move stepped in quiescence).
const STEPS_TO_NOTICE: u64 = 64;

/// Asserts that `report`, from a search stopped before its first iteration finished, still
/// names a legal move and took no more than a poll's worth of nodes.
fn assert_cut_at_once(game: &Game, report: &Report) {
    let best = report.best.expect("a cut search still has a move");
    assert!(game.legal_moves().contains(&best), "{report:?}");
    assert_eq!(report.pv.first(), Some(&best), "{report:?}");
    assert!(report.nodes <= STEPS_TO_NOTICE, "{report:?}");
}

#[test]
fn a_search_whose_time_is_up_answers_at_once_with_a_legal_move() {
    for file in ["free-13x13.tafl", "free-brandubh.tafl"] {
        let game = hostile(file);
        let report = search(
            &game,
            &Limits::time(Duration::ZERO),
            &AtomicBool::new(false),
            |_| {},
        )
        .unwrap();
        assert_cut_at_once(&game, &report);
        assert_eq!(report.depth, 0, "no depth finished: {report:?}");
    }
    for name in tafl::bundled_names() {
        let game = Game::new(engine(name));
        let report = search(
            &game,
            &Limits::time(Duration::ZERO),
            &AtomicBool::new(false),
            |_| {},
        )
        .unwrap();
        assert_cut_at_once(&game, &report);
    }
}

#[test]
fn a_stopped_search_answers_at_once_with_a_legal_move_even_in_the_first_iteration() {
    // A stop already set: the first iteration is cut too (it once always finished, which
    // took 24,244 nodes and 6 s here).
    let game = hostile("free-13x13.tafl");
    let report = search(&game, &Limits::depth(3), &AtomicBool::new(true), |_| {}).unwrap();
    assert_cut_at_once(&game, &report);
    // Quiescence alone (depth 1 is all quiescence below the root) honours the stop too.
    let report = search(&game, &Limits::depth(1), &AtomicBool::new(true), |_| {}).unwrap();
    assert_cut_at_once(&game, &report);
}

#[test]
fn a_cut_first_iteration_plays_only_among_the_moves_allowed() {
    let game = hostile("free-13x13.tafl");
    let allowed: Vec<_> = game.legal_moves().into_iter().rev().take(3).collect();
    let table = Table::new(1);
    let report = tafl::search::search_among(
        &game,
        &allowed,
        &Limits::depth(2),
        &table,
        &AtomicBool::new(true),
        |_| {},
    )
    .unwrap();
    assert!(allowed.contains(&report.best.unwrap()), "{report:?}");
    assert!(report.nodes <= STEPS_TO_NOTICE, "{report:?}");
}

#[test]
fn a_search_with_time_left_still_finishes_its_first_iteration_on_a_small_board() {
    // The cut costs nothing where there is time: a generous budget, stopped by depth.
    let game = Game::new(engine("brandubh"));
    let limits = Limits {
        depth: Some(2),
        ..Limits::time(Duration::from_secs(600))
    };
    let report = search(&game, &limits, &AtomicBool::new(false), |_| {}).unwrap();
    assert_eq!(report.depth, 2, "{report:?}");
    assert!(report.best.is_some());
}
