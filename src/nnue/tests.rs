//! The network's promises: the accumulator a search updates equals the one added up again,
//! the integer score follows the float one, a file reads back as written, a broken file is
//! refused in words, and the rules (not the name) choose the network.

use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::engine::{Compiled, Engine, Rng};
use crate::game::Game;
use crate::Variant;

fn engine(name: &str) -> Arc<Engine> {
    let rules = Variant::bundled(name).expect("a bundled variant").rules;
    Arc::new(Engine::new(&rules).expect("a bundled variant compiles"))
}

/// A float network of random weights for `layout`, as large as fitted ones get.
fn random_float(layout: &Layout, seed: u64) -> FloatNetwork {
    let mut rng = Rng::for_game(seed, 1);
    let mut draw = |n: usize, spread: f32| -> Vec<f32> {
        (0..n)
            .map(|_| (rng.below(2001) as f32 / 1000.0 - 1.0) * spread)
            .collect()
    };
    let (h, l) = (32, 8);
    FloatNetwork {
        layout: layout.clone(),
        accumulator: h,
        hidden: l,
        first: draw(layout.inputs() * h, 0.15),
        first_bias: draw(h, 0.3),
        second: draw(l * 2 * h, 0.5),
        second_bias: draw(l, 0.3),
        out: draw(l, 1.5),
        out_bias: 0.1,
    }
}

fn random_network(engine: &Engine, seed: u64) -> Network {
    random_float(&Layout::of(engine.rules()), seed)
        .quantise(&rule_key(engine.rules()), Training::default())
        .expect("small weights quantise")
}

/// The game after playing the moves `picks` choose (each an index into the legal moves).
fn played(engine: &Arc<Engine>, picks: &[usize]) -> Game {
    let mut game = Game::new(engine.clone());
    for &pick in picks {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        game.play(moves[pick % moves.len()])
            .expect("a legal move plays");
    }
    game
}

/// The accumulator of each position of `game`, followed move by move from the start and then
/// taken back move by move, checked against one added up again at every step.
fn follow_and_take_back(net: &Network, engine: &Engine, game: &Game) {
    let kinds = engine.rules().pieces.len();
    macro_rules! check {
        ($positions:expr) => {{
            let positions = $positions;
            let mut acc = Accumulator::of_pos(net, &positions[0], kinds);
            for pair in positions.windows(2) {
                acc.follow(net, &pair[0], &pair[1], kinds);
                assert_eq!(acc, Accumulator::of_pos(net, &pair[1], kinds));
            }
            for pair in positions.windows(2).rev() {
                acc.follow(net, &pair[1], &pair[0], kinds);
                assert_eq!(acc, Accumulator::of_pos(net, &pair[0], kinds));
            }
        }};
    }
    let compiled: Vec<Compiled<'_>> = game
        .positions()
        .iter()
        .map(|p| {
            engine
                .compiled(p)
                .expect("a game's positions are its engine's")
        })
        .collect();
    match &compiled[0] {
        Compiled::Narrow(..) => check!(compiled
            .iter()
            .map(|c| match c {
                Compiled::Narrow(_, pos) => *pos,
                Compiled::Wide(..) => unreachable!("one engine compiles one width"),
            })
            .collect::<Vec<_>>()),
        Compiled::Wide(..) => check!(compiled
            .iter()
            .map(|c| match c {
                Compiled::Wide(_, pos) => *pos,
                Compiled::Narrow(..) => unreachable!("one engine compiles one width"),
            })
            .collect::<Vec<_>>()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_accumulator_followed_equals_the_one_added_up(
        picks in proptest::collection::vec(0usize..500, 0..60),
        variant in prop::sample::select(vec!["brandubh", "copenhagen", "berserk"]),
    ) {
        let engine = engine(variant);
        let net = random_network(&engine, 7);
        follow_and_take_back(&net, &engine, &played(&engine, &picks));
    }
}

#[test]
fn the_integer_score_follows_the_float_one() {
    let engine = engine("copenhagen");
    let layout = Layout::of(engine.rules());
    let float = random_float(&layout, 3);
    let net = float
        .quantise(&rule_key(engine.rules()), Training::default())
        .expect("small weights quantise");
    let mut spread = Vec::new();
    for seed in 0..40u64 {
        let picks: Vec<usize> = (0..seed * 2)
            .map(|i| (i * 7919 + seed * 31) as usize)
            .collect();
        let game = played(&engine, &picks);
        let pieces: Vec<(usize, usize)> = engine
            .pieces(game.position())
            .into_iter()
            .map(|(sq, kind)| (kind, engine.index(sq)))
            .collect();
        let (us, them) = features::inputs(&layout, &pieces, game.to_move());
        let float_score = float.logit(&us, &them) * network::OUTPUT_SCALE as f32;
        let int_score = net.score_pieces(&pieces, game.to_move()) as f32;
        assert!(
            (float_score - int_score).abs() <= 25.0 + 0.05 * float_score.abs(),
            "float {float_score} against integer {int_score}"
        );
        spread.push(int_score);
    }
    // The positions score differently: the comparison is not between constants.
    let (lo, hi) = spread
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &s| (lo.min(s), hi.max(s)));
    assert!(hi - lo > 50.0, "scores from {lo} to {hi}");
}

#[test]
fn a_network_file_reads_back_as_written() {
    let engine = engine("brandubh");
    let net = random_network(&engine, 11);
    let bytes = file::to_bytes(&net);
    assert_eq!(file::from_bytes(&bytes), Ok(net.clone()));
    // The header is one line of JSON a person can read.
    let header = bytes.split(|&b| b == b'\n').next().expect("a header line");
    let text = std::str::from_utf8(header).expect("the header is text");
    assert!(text.contains("\"format\":\"tafl-network\""), "{text}");
    assert!(text.contains("\"name\":\"king\""), "{text}");
}

#[test]
fn a_broken_network_file_is_refused_in_words() {
    let engine = engine("brandubh");
    let bytes = file::to_bytes(&random_network(&engine, 5));
    let short = file::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err();
    assert!(
        short.contains("bytes of weights where the header's sizes need"),
        "{short}"
    );
    let none = file::from_bytes(&[0x93, 1, 2, 3]).unwrap_err();
    assert!(none.contains("no header line"), "{none}");
    // A header of another version, over the same weights.
    let at = bytes
        .iter()
        .position(|&b| b == b'\n')
        .expect("a header line");
    let header = String::from_utf8(bytes[..at].to_vec())
        .expect("the header is text")
        .replacen("\"version\":1", "\"version\":9", 1);
    let mut changed = header.into_bytes();
    changed.extend_from_slice(&bytes[at..]);
    let version = file::from_bytes(&changed).unwrap_err();
    assert!(version.contains("format version 9"), "{version}");
    let garbage = file::from_bytes(b"{\"format\": 3}\n").unwrap_err();
    assert!(
        garbage.contains("the header is not a network's"),
        "{garbage}"
    );
}

#[test]
fn the_rules_choose_the_network_and_a_renamed_copy_gets_the_same() {
    let brandubh = engine("brandubh");
    let net = NetRef::keep(random_network(&brandubh, 2), "brandubh-test.nnue");
    let mut renamed = brandubh.rules().clone();
    renamed.name = "My Brandubh".to_string();
    renamed.notes.push("a copy under another name".to_string());
    assert_eq!(rule_key(&renamed), rule_key(brandubh.rules()));
    assert_eq!(select(&[net], &renamed), Some(net));
    // The same board and pieces under other rules: the network is not chosen.
    let federation = Variant::bundled("federation-brandubh")
        .expect("bundled")
        .rules;
    assert_eq!(Layout::of(&federation), Layout::of(brandubh.rules()));
    assert_ne!(rule_key(&federation), rule_key(brandubh.rules()));
    assert_eq!(select(&[net], &federation), None);
    // Another board: not chosen, and refused when named, naming both.
    let copenhagen = Variant::bundled("copenhagen").expect("bundled").rules;
    assert_eq!(select(&[net], &copenhagen), None);
    let refused = fits(net.network(), &copenhagen, "brandubh-test.nnue").unwrap_err();
    let words = refused.to_string();
    assert!(words.contains("7x7") && words.contains("11x11"), "{words}");
    assert!(words.contains("Copenhagen"), "{words}");
    // Without a bundled network for a variant, the choice by rules is the hand evaluation.
    assert_eq!(Choice::Hand.network(brandubh.rules()), None);
    assert_eq!(Choice::Network(net).network(&copenhagen), Some(net));
}

#[test]
fn a_search_with_a_network_updates_its_accumulators_along_the_line() {
    use crate::search::{search, Limits, Score};
    use std::sync::atomic::AtomicBool;
    // Debug builds check each accumulator the search updates against one added up again
    // (src/search/tree/network.rs); these searches go through captures, quiescence, null
    // moves and re-searches.
    for (variant, depth) in [("brandubh", 5), ("copenhagen", 3), ("berserk", 3)] {
        let engine = engine(variant);
        let net = NetRef::keep(random_network(&engine, 9), "random.nnue");
        let game = played(&engine, &[3, 17, 5, 40, 2, 9, 11, 1]);
        let limits = Limits::depth(depth).with_network(Choice::Network(net));
        let report = search(&game, &limits, &AtomicBool::new(false), |_| {}).expect("a game on");
        assert!(report.best.is_some(), "{variant}");
        if let Score::Value(v) = report.score {
            assert!(v.abs() <= network::SCORE_LIMIT, "{variant}: {v}");
        }
        // The network, not the hand evaluation, scored it: the hand evaluation's answer differs.
        let hand = search(
            &game,
            &Limits::depth(depth).with_network(Choice::Hand),
            &AtomicBool::new(false),
            |_| {},
        )
        .expect("a game on");
        assert!(
            report.score != hand.score || report.pv != hand.pv || report.nodes != hand.nodes,
            "{variant}"
        );
    }
}

#[test]
fn the_fit_learns_a_rule_it_can_learn_and_keeps_the_epoch_that_predicts_unseen_games_best() {
    use crate::ir::Side;
    use crate::search::train::data::Sample;
    use crate::search::train::fit::{fit, held_out, FitSettings};
    let engine = engine("brandubh");
    let layout = Layout::of(engine.rules());
    let squares = layout.squares();
    // Positions of random play; the "game" is won by the attackers exactly when they still
    // have 7 or 8 of their 8 men, a rule of piece counts the network can represent.
    let samples: Vec<Sample> = (0..300u32)
        .map(|game| {
            let picks: Vec<usize> = (0..(game % 40) as usize)
                .map(|i| i * 37 + game as usize * 13)
                .collect();
            let position = played(&engine, &picks);
            let mut board = vec![0u8; squares];
            let mut attackers = 0;
            for (square, kind) in engine.pieces(position.position()) {
                board[engine.index(square)] = kind as u8 + 1;
                attackers += usize::from(kind == 0);
            }
            Sample {
                board,
                to_move: Side::Attackers,
                result: if attackers >= 7 { 1 } else { -1 },
                score: 0,
                game,
                ply: 0,
            }
        })
        .collect();
    let (held, fitted): (Vec<_>, Vec<_>) = samples.into_iter().partition(|s| held_out(s.game));
    assert!(
        !held.is_empty()
            && held.iter().any(|s| s.result == 1)
            && held.iter().any(|s| s.result == -1)
    );
    let settings = FitSettings {
        epochs: 40,
        batch: 64,
        rate: 0.01,
        ..FitSettings::for_board(squares)
    };
    let result = fit(&layout, None, &fitted, &held, &settings, &|_, _| {});
    assert!(
        result.loss_after < result.loss_before - 0.2,
        "{} -> {}",
        result.loss_before,
        result.loss_after
    );
    assert!(
        result.held_after < result.held_before - 0.1,
        "{} -> {}",
        result.held_before,
        result.held_after
    );
    assert!(result.epoch > 0);
}
