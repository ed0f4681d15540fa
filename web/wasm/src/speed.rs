//! The same measurements compiled twice, natively (`examples/speed.rs`) and to wasm
//! ([`speed`], run under Node by `web/bench.mjs`), so that the two speeds compare the same work
//! timed the same way (docs/performance.md, "Web").

use std::sync::Arc;

use serde::Serialize;
use tafl::search::{self, Limits};
use tafl::{Engine, Game, Variant};
use wasm_bindgen::prelude::*;
use web_time::Instant;

/// One measurement: what was counted, how many, in how long (the fastest of the runs).
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// `perft` or `search`.
    pub work: &'static str,
    /// The bundled variant.
    pub variant: String,
    /// Perft depth, or search depth.
    pub depth: u32,
    /// Leaves (perft) or nodes (search).
    pub nodes: u64,
    /// Milliseconds, the fastest run.
    pub ms: f64,
}

/// The cases measured: perft from the start, and a one-thread search to a fixed depth from the
/// start (the same nodes on every machine, so the node counts must agree too).
pub const CASES: &[(&str, &str, u32)] = &[
    ("perft", "linnaeus", 4),
    ("perft", "copenhagen", 4),
    ("search", "linnaeus", 6),
    ("search", "copenhagen", 5),
    ("search", "brandubh", 7),
];

/// Runs `work` on bundled `variant` to `depth`, `runs` times, keeping the fastest.
///
/// # Errors
/// An unknown variant or work, in words.
pub fn measure(work: &str, variant: &str, depth: u32, runs: u32) -> Result<Measurement, String> {
    let loaded = Variant::bundled(variant).map_err(|e| e.to_string())?;
    let engine = Arc::new(Engine::new(&loaded.rules).map_err(|e| e.to_string())?);
    let mut best: Option<Measurement> = None;
    for _ in 0..runs.max(1) {
        let timer = Instant::now();
        let (work, nodes) = match work {
            "perft" => ("perft", engine.perft(&engine.start(), depth)),
            "search" => {
                let game = Game::new(engine.clone());
                let stop = std::sync::atomic::AtomicBool::new(false);
                let report = search::search(&game, &Limits::depth(depth), &stop, |_| {})
                    .map_err(|e| e.to_string())?;
                ("search", report.nodes)
            }
            other => return Err(format!("no work `{other}`: `perft` or `search`")),
        };
        let ms = timer.elapsed().as_secs_f64() * 1000.0;
        if best.as_ref().is_none_or(|b| ms < b.ms) {
            best = Some(Measurement {
                work,
                variant: variant.to_string(),
                depth,
                nodes,
                ms,
            });
        }
    }
    best.ok_or_else(|| "no run".to_string())
}

/// Every case of [`CASES`], `runs` times each, as a JSON array of measurements.
///
/// # Errors
/// A case that cannot run (a bundled variant renamed), in words.
#[wasm_bindgen]
pub fn speed(runs: u32) -> Result<String, JsError> {
    CASES
        .iter()
        .map(|&(work, variant, depth)| measure(work, variant, depth, runs))
        .collect::<Result<Vec<_>, _>>()
        .map(|all| crate::to_json(&all))
        .map_err(|e| JsError::new(&e))
}
