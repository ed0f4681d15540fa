//! Perft and random playouts, this engine side by side with the `hnefatafl` crate (0.0.2, MIT)
//! doing the same work in the same run, so that the report can give ratios.
//!
//! Both perfts count leaves in bulk at the last ply (the number of legal moves, without making
//! them), and neither expands a position where the game ended. Both playout loops list every
//! legal move, pick one uniformly with the same generator, and stop at the end of the game or
//! after 500 plies.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hnefatafl::board::state::BoardState;
use hnefatafl::game::logic::GameLogic;
use hnefatafl::game::state::GameState;
use hnefatafl::game::GameStatus;
use hnefatafl::pieces::Side as HSide;
use hnefatafl::preset::{boards, rules};
use hnefatafl::rules::Ruleset;
use tafl::engine::{Engine, Rng};
use tafl::ir::Rules;

const CAP: u32 = 500;
const GAMES: u64 = 200;

/// Leaf count with the hnefatafl crate.
fn hnef_perft<B: BoardState>(logic: &GameLogic<B>, state: &GameState<B>, depth: u32) -> u64 {
    if depth == 1 {
        return state
            .board
            .occupied_by_side(state.side_to_play)
            .into_iter()
            .map(|tile| {
                logic
                    .iter_plays(tile, state)
                    .map_or(0, |plays| plays.count() as u64)
            })
            .sum();
    }
    let mut total = 0;
    for tile in state.board.occupied_by_side(state.side_to_play) {
        let Ok(plays) = logic.iter_plays(tile, state) else {
            continue;
        };
        for play in plays {
            let next = logic.do_valid_play(play, *state).new_state;
            if next.status == GameStatus::Ongoing {
                total += hnef_perft(logic, &next, depth - 1);
            }
        }
    }
    total
}

/// Random games with the hnefatafl crate; returns the plies played.
fn hnef_playouts<B: BoardState>(
    logic: &GameLogic<B>,
    start: &GameState<B>,
    games: u64,
    seed: u64,
) -> u64 {
    let mut plies = 0;
    let mut plays = Vec::with_capacity(256);
    for game in 0..games {
        let mut rng = Rng::for_game(seed, game);
        let mut state = *start;
        for _ in 0..CAP {
            plays.clear();
            for tile in state.board.occupied_by_side(state.side_to_play) {
                if let Ok(iter) = logic.iter_plays(tile, &state) {
                    plays.extend(iter);
                }
            }
            if plays.is_empty() {
                break;
            }
            let play = plays[rng.below(plays.len())];
            state = logic.do_valid_play(play, state).new_state;
            plies += 1;
            if state.status != GameStatus::Ongoing {
                break;
            }
        }
    }
    plies
}

/// A bundled variant's rules: the benches play the real variant files.
fn bundled(name: &str) -> Rules {
    tafl::Variant::bundled(name)
        .expect("bundled variants load")
        .rules
}

fn hnef_setup<B: BoardState>(
    ruleset: Ruleset,
    board: &str,
    size: u8,
) -> (GameLogic<B>, GameState<B>) {
    let logic = GameLogic::new(ruleset, size);
    let state = GameState::new(board, HSide::Attacker).expect("the preset board parses");
    (logic, state)
}

fn perft(c: &mut Criterion) {
    let linnaeus = Engine::new(&bundled("linnaeus")).expect("compiles");
    let fetlar = Engine::new(&bundled("fetlar")).expect("compiles");
    let (tablut_logic, tablut_state) =
        hnef_setup::<hnefatafl::aliases::MediumBasicBoardState>(rules::TABLUT, boards::TABLUT, 9);
    let (cph_logic, cph_state) = hnef_setup::<hnefatafl::aliases::MediumBasicBoardState>(
        rules::COPENHAGEN,
        boards::COPENHAGEN,
        11,
    );

    // Both engines must count the same before their speed means anything.
    for (depth, count) in [(1, 80), (2, 4_400), (3, 353_200)] {
        assert_eq!(linnaeus.perft(&linnaeus.start(), depth), count);
        assert_eq!(hnef_perft(&tablut_logic, &tablut_state, depth), count);
    }
    for (depth, count) in [(1, 116), (2, 6_788), (3, 806_344)] {
        assert_eq!(fetlar.perft(&fetlar.start(), depth), count);
        assert_eq!(hnef_perft(&cph_logic, &cph_state, depth), count);
    }

    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(353_200));
    group.bench_function("tablut d3/tafl", |b| {
        b.iter(|| linnaeus.perft(black_box(&linnaeus.start()), 3))
    });
    group.bench_function("tablut d3/hnefatafl", |b| {
        b.iter(|| hnef_perft(&tablut_logic, black_box(&tablut_state), 3))
    });
    group.throughput(Throughput::Elements(806_344));
    group.bench_function("11x11 d3/tafl", |b| {
        b.iter(|| fetlar.perft(black_box(&fetlar.start()), 3))
    });
    group.bench_function("11x11 d3/hnefatafl", |b| {
        b.iter(|| hnef_perft(&cph_logic, black_box(&cph_state), 3))
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let linnaeus = Engine::new(&bundled("linnaeus")).expect("compiles");
    let fetlar = Engine::new(&bundled("fetlar")).expect("compiles");
    let (tablut_logic, tablut_state) =
        hnef_setup::<hnefatafl::aliases::MediumBasicBoardState>(rules::TABLUT, boards::TABLUT, 9);
    let (cph_logic, cph_state) = hnef_setup::<hnefatafl::aliases::MediumBasicBoardState>(
        rules::COPENHAGEN,
        boards::COPENHAGEN,
        11,
    );

    let mut group = c.benchmark_group("playouts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("tablut/tafl", |b| {
        b.iter(|| linnaeus.playouts(&linnaeus.start(), GAMES, 7, CAP))
    });
    group.bench_function("tablut/hnefatafl", |b| {
        b.iter(|| hnef_playouts(&tablut_logic, &tablut_state, GAMES, 7))
    });
    group.bench_function("11x11/tafl", |b| {
        b.iter(|| fetlar.playouts(&fetlar.start(), GAMES, 7, CAP))
    });
    group.bench_function("11x11/hnefatafl", |b| {
        b.iter(|| hnef_playouts(&cph_logic, &cph_state, GAMES, 7))
    });
    group.finish();

    // Plies per game differ between the engines' rule sets (repetition rules, Copenhagen's
    // shieldwall and exit fort); print them so the report can give plies/s as well.
    let ours = linnaeus.playouts(&linnaeus.start(), GAMES, 7, CAP);
    let theirs = hnef_playouts(&tablut_logic, &tablut_state, GAMES, 7);
    println!(
        "tablut plies per {GAMES} games: tafl {} hnefatafl {theirs}",
        ours.plies
    );
    let ours = fetlar.playouts(&fetlar.start(), GAMES, 7, CAP);
    let theirs = hnef_playouts(&cph_logic, &cph_state, GAMES, 7);
    println!(
        "11x11 plies per {GAMES} games: tafl {} hnefatafl {theirs}",
        ours.plies
    );
}

criterion_group!(benches, perft, playouts);
criterion_main!(benches);
