//! The command-line program: one file per command, each with a clap `Args` struct and a `run`.
//! This is the only module that prints.

pub mod bench;
mod load;
pub mod moves;
pub mod perft;
pub mod playouts;
pub mod replay;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Tafl variants as plain text: lint, explain, play and analyse them.
#[derive(Debug, Parser)]
#[command(name = "tafl", version)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the legal moves of the side to move, one per line, sorted.
    Moves(moves::Args),
    /// Play moves and print the resulting position and status as JSON.
    Replay(replay::Args),
    /// Count the move sequences of a given depth.
    Perft(perft::Args),
    /// Play uniformly random games and summarise them as JSON.
    Playouts(playouts::Args),
    /// Measure perft and playout speed.
    Bench(bench::Args),
}

/// Runs the program.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Moves(args) => moves::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Playouts(args) => playouts::run(args),
        Command::Bench(args) => bench::run(args),
    }
}
