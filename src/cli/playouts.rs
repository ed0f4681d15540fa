//! `tafl playouts VARIANT N [--seed S] [--cap 500] [--threads 1]`: random games, as JSON.

use std::process::ExitCode;
use std::time::Instant;

use super::load;

/// Arguments of `tafl playouts`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// How many games.
    pub games: u64,
    /// The random seed; the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most plies a game may last (at most a million); longer games count as `capped`.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub cap: u32,
    /// Threads to use.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Runs `tafl playouts`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load::variant(&args.variant) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let engine = &loaded.engine;
    let start = engine.start();
    let timer = Instant::now();
    let summary = match load::on_threads(
        args.threads,
        || engine.playouts(&start, args.games, args.seed, args.cap),
        || engine.playouts_parallel(&start, args.games, args.seed, args.cap),
    ) {
        Ok(summary) => summary,
        Err(code) => return code,
    };
    let seconds = timer.elapsed().as_secs_f64();
    // Written by hand to keep the contract's key order.
    outln!(
        "{{\"games\":{},\"plies\":{},\"attackers_win\":{},\"defenders_win\":{},\"draw\":{},\"capped\":{},\"seconds\":{:.3}}}",
        summary.games, summary.plies, summary.attackers_win, summary.defenders_win, summary.draw, summary.capped, seconds
    );
    ExitCode::SUCCESS
}
