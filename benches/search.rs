//! Search speed: nodes per second and time to a fixed depth from the start, one thread, on
//! 9x9 tablut (Linnaeus), 11x11 Fetlar and Copenhagen, and Thrones and Bones, for the default
//! search and for the plain one of earlier versions (`Settings::NONE`, hand-set weights) in the
//! same run. The baseline, also in the same run, is the engine's random playouts (plies per
//! second): a search node costs a move made plus an evaluation, so the report gives search
//! nodes/s as a ratio to playout plies/s.
//!
//! One middle-game search besides: Copenhagen 22 plies into a game our attackers lost at 1 s a
//! move, the king two moves from an open corner, where quiescence faces open routes at every
//! other node (4.1x faster since it steps only the moves that could close a route).

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tafl::engine::Engine;
use tafl::search::{search, Limits, Settings, WEIGHTS};
use tafl::{Game, Move, Variant};

/// Copenhagen after 22 plies of the game of opening 3 that A attacked in
/// docs/data/match-1s/copenhagen-walled-seed3.csv: the attackers to move, the king on c9 two
/// moves from a11.
const KING_NEAR_A_CORNER: &str = "f10-j10 e7-e10 a7-c7 d6-d5 b6-b3 e6-e9 f2-c2 f6-b6 c7-b7 b6-c6 \
    d11-c11 c6-c9 b7-b9 e10-b10 k8-k9 f8-b8 a8-a9 f7-d7 h11-i11 d7-d11 k4-k2 b10-b11";

fn engine(name: &str) -> Arc<Engine> {
    Arc::new(Engine::new(&Variant::bundled(name).unwrap().rules).unwrap())
}

fn searches(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, depth) in [
        ("linnaeus", 5),
        ("fetlar", 4),
        ("copenhagen", 4),
        ("thrones-and-bones", 5),
    ] {
        let engine = engine(name);
        let game = Game::new(engine.clone());
        let plain = Limits::depth(depth)
            .with_settings(Settings::NONE)
            .with_weights(WEIGHTS);
        for (label, limits) in [("default", Limits::depth(depth)), ("plain", plain)] {
            // The node count of this search, so that criterion reports nodes per second.
            let nodes = search(&game, &limits, &AtomicBool::new(false), |_| {})
                .unwrap()
                .nodes;
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{name}/{label}/depth{depth}"), |b| {
                b.iter(|| black_box(search(&game, &limits, &AtomicBool::new(false), |_| {})))
            });
        }
        let start = engine.start();
        let plies = engine.playouts(&start, 50, 1, 500).plies;
        group.throughput(Throughput::Elements(plies));
        group.bench_function(format!("{name}/playouts-baseline"), |b| {
            b.iter(|| black_box(engine.playouts(&start, 50, 1, 500)))
        });
    }
    let mut game = Game::new(engine("copenhagen"));
    for text in KING_NEAR_A_CORNER.split_whitespace() {
        let mv: Move = text.parse().unwrap();
        game.play(mv).unwrap();
    }
    let limits = Limits::depth(4);
    let nodes = search(&game, &limits, &AtomicBool::new(false), |_| {})
        .unwrap()
        .nodes;
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("copenhagen/king-near-a-corner/depth4", |b| {
        b.iter(|| black_box(search(&game, &limits, &AtomicBool::new(false), |_| {})))
    });
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
