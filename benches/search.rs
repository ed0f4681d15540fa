//! Search speed: nodes per second and time to a fixed depth from the start, one thread, on
//! 9x9 tablut (Linnaeus), 11x11 Fetlar and Copenhagen, and Thrones and Bones, for the default
//! search and for the plain one of earlier versions (`Settings::NONE`, hand-set weights) in the
//! same run. The baseline, also in the same run, is the engine's random playouts (plies per
//! second): a search node costs a move made plus an evaluation, so the report gives search
//! nodes/s as a ratio to playout plies/s.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tafl::engine::Engine;
use tafl::search::{search, Limits, Settings, WEIGHTS};
use tafl::{Game, Variant};

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
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
