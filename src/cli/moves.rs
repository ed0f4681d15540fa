//! `tafl moves VARIANT [--from POS --side SIDE]`: the legal moves, one per line, sorted.

use std::process::ExitCode;

use super::load;

/// Arguments of `tafl moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    #[command(flatten)]
    from: load::From,
}

/// Runs `tafl moves`.
pub fn run(args: Args) -> ExitCode {
    let (loaded, position) = match load::variant_and_position(&args.variant, &args.from) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    // A decided position has no moves to list; stderr says why, stdout stays one move a line.
    let game = crate::game::Game::from_position(loaded.engine.clone(), position);
    if let Some(ending) = game.ending() {
        eprintln!(
            "the game is already over: {} ({})",
            ending.outcome.as_str(),
            ending.reason.as_str()
        );
        return ExitCode::SUCCESS;
    }
    let mut out = String::new();
    for mv in game.legal_moves() {
        out.push_str(&mv.to_string());
        out.push('\n');
    }
    out!("{out}");
    ExitCode::SUCCESS
}
