//! `tafl perft VARIANT DEPTH [--from POS --side SIDE] [--threads N]`: the leaf count.

use std::process::ExitCode;

use super::load;

/// Arguments of `tafl perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// Plies to look ahead.
    pub depth: u32,
    #[command(flatten)]
    from: load::From,
    /// Threads to use; one by default, so that timings compare fairly.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Runs `tafl perft`.
pub fn run(args: Args) -> ExitCode {
    let (loaded, position) = match load::variant_and_position(&args.variant, &args.from) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let engine = &loaded.engine;
    let count = match load::on_threads(
        args.threads,
        || engine.perft(&position, args.depth),
        || engine.perft_parallel(&position, args.depth),
    ) {
        Ok(count) => count,
        Err(code) => return code,
    };
    outln!("{count}");
    ExitCode::SUCCESS
}
