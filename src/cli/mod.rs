//! The `tafl` command-line program: one module per command. The only part of the crate that
//! prints.

// First, so that its `out!` and `outln!` macros are in scope in every command's module.
#[macro_use]
mod stdout;

mod balance;
pub mod bench;
pub mod best;
mod book;
mod compare;
mod diff;
mod engine;
mod export;
mod fit_people;
mod games;
mod import;
mod ir;
mod learn;
mod lint;
mod list;
mod load;
mod lsp;
mod r#match;
pub mod moves;
mod output;
pub mod perft;
pub mod play;
pub mod playouts;
mod record_file;
mod render;
pub mod replay;
mod report;
pub mod selfplay;
mod serve;
mod show;
mod site;
mod train;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use render::{render_diagnostics, Style};

/// Tafl variants as plain text: lint, explain, play and analyse them.
///
/// VARIANT is the name of a bundled variant (see `tafl list`) or the path of a `.tafl` file.
#[derive(Debug, Parser)]
#[command(
    name = "tafl",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "VARIANT is the name of a bundled variant (`tafl list` shows them) or the path of a .tafl file.\n\
                  The language is described in docs/language.md; diagnostics in docs/diagnostics.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check variant files and report every problem, with where it is and how to fix it.
    #[command(
        after_help = "Examples:\n  tafl lint brandubh\n  tafl lint --format json copenhagen linnaeus\n  tafl lint tests/lint/setup_width.tafl   # exits 1: the file has an error"
    )]
    Lint(lint::Args),
    /// Explain a variant's rules in plain words, with its start position.
    #[command(
        after_help = "Examples:\n  tafl show brandubh\n  tafl show variants/copenhagen.tafl"
    )]
    Show(show::Args),
    /// Print a variant's fully resolved rules (the IR) as JSON.
    Ir(ir::Args),
    /// The rule differences between two variants, in words.
    #[command(
        after_help = "Examples:\n  tafl diff copenhagen brandubh\n  tafl diff linnaeus fetlar"
    )]
    Diff(diff::Args),
    /// Write a variant file from an OpenTafl rules string (`--opentafl 'dim:11 ...'`).
    Import(import::Args),
    /// Print a variant as an OpenTafl rules string, or name each rule OpenTafl cannot say.
    #[command(
        after_help = "Examples:\n  tafl export --opentafl brandubh\n  tafl export --opentafl copenhagen   # exits 1: OpenTafl cannot say two of its rules\n  tafl export --opentafl copenhagen --nearest"
    )]
    Export(export::Args),
    /// List the bundled variants: family, board, where the king escapes and where the rules
    /// come from; `--family`, `--board`, `--source`, `--escape` filter, `--json` for programs.
    List(list::Args),
    /// List the legal moves of the side to move, one per line, sorted.
    #[command(
        after_help = "Examples:\n  tafl moves brandubh\n  tafl moves brandubh --from /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ --side defenders"
    )]
    Moves(moves::Args),
    /// Play moves and print the resulting position and status: text, or JSON with `--json`.
    #[command(
        after_help = "Examples:\n  tafl replay brandubh a4-a3\n  tafl replay --json brandubh a4-a3"
    )]
    Replay(replay::Args),
    /// Count the move sequences of a given depth (perft).
    Perft(perft::Args),
    /// Play uniformly random games and summarise them as JSON.
    Playouts(playouts::Args),
    /// Measure perft and random-playout speed, one thread and all threads.
    Bench(bench::Args),
    /// Serve editors over stdin and stdout (the Language Server Protocol): diagnostics as
    /// you type, hover, completion, definitions, references and an outline.
    Lsp(lsp::Args),
    /// The computer's move for the side to move, with its score and expected line.
    #[command(
        after_help = "Examples:\n  tafl best brandubh --depth 4\n  tafl best --json brandubh a4-a3 --depth 3"
    )]
    Best(best::Args),
    /// Games between two equal computer players: win rates with 95% intervals, for balance.
    Selfplay(selfplay::Args),
    /// Is the variant fair? Self-play at a ladder of budgets: the attackers' share of the
    /// decisive games at each, with 95% intervals, and whether it has settled.
    Balance(balance::Args),
    /// Replay the games of record files through a variant: `check` reports where each game and
    /// the rules part, `stats` who won how often and how the games ended.
    Games(games::Args),
    /// Two computer players in paired games: W/D/L, Elo difference with a 95% interval, SPRT.
    Match(Box<r#match::Args>),
    /// How a rule change moves the balance: two variants from the same openings, the
    /// attackers' score in each and the difference with a paired 95% interval.
    Compare(compare::Args),
    /// Is it a good game? The designer's report from self-play: outcome and endings, length,
    /// how early games are decided, lead changes, choices, board use; with B, two variants side
    /// by side from the same openings.
    #[command(
        after_help = "Examples:\n  tafl report brandubh --games 4 --depth 1\n  tafl report brandubh --games 2 --depth 1 --json\n  tafl report brandubh brandubh-aagenielsen --games 2 --depth 1\n  tafl report no-such-variant   # exits 2: no such variant"
    )]
    Report(Box<report::Args>),
    /// Fit the evaluation's weights to the computer's games against itself (or to recorded
    /// games: `--records`); write a weights file.
    Tune(tune::Args),
    /// Train a network evaluation for a variant by self-play, generation after generation;
    /// each generation's positions, network and log line are written under `--out`.
    Train(Box<train::Args>),
    /// Fit the learned correction (where each piece stands, relative to the nearest corner) to
    /// recorded games, and say how much better it predicts games it did not see.
    Learn(learn::Args),
    /// Fit the model of people's moves to games people played (every fifth held out) and
    /// say how well it, and the engine's best move, predict the held-out moves.
    FitPeople(fit_people::Args),
    /// Play a variant at the terminal, both sides or against a friend (`help` inside lists the
    /// commands).
    Play(play::Args),
    /// Be a computer player for another program over stdin and stdout: `--protocol uci`,
    /// `gtp` (hnefatafl-copenhagen) or `opentafl`.
    Engine(engine::Args),
    /// Serve the browser playground (web/dist, built by web/build.sh) on 127.0.0.1.
    Serve(serve::Args),
}

/// Runs the program with the process's arguments; the exit code says how it went.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    // `tafl match` writes to the engines it runs: one that dies must count as a forfeit (an
    // error on the write), not end the match.
    if !matches!(cli.command, Command::Match(_)) {
        stop_quietly_when_output_closes();
    }
    let code = match cli.command {
        Command::Lint(args) => lint::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Ir(args) => ir::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Export(args) => export::run(&args),
        Command::List(args) => list::run(&args),
        Command::Moves(args) => moves::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Playouts(args) => playouts::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Lsp(args) => lsp::run(&args),
        Command::Best(args) => best::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Balance(args) => balance::run(args),
        Command::Learn(args) => learn::run(&args),
        Command::FitPeople(args) => fit_people::run(&args),
        Command::Games(args) => games::run(args),
        Command::Match(args) => r#match::run(*args),
        Command::Tune(args) => tune::run(args),
        Command::Train(args) => train::run(*args),
        Command::Compare(args) => compare::run(args),
        Command::Report(args) => report::run(*args),
        Command::Play(args) => play::run(args),
        Command::Engine(args) => engine::run(&args),
        Command::Serve(args) => serve::run(&args),
    };
    stdout::finish(code)
}

/// A reader that stops early (`tafl list | head -3`) closes our standard output. Rust ignores
/// SIGPIPE, so the next print fails and `println!` panics; the signal's default action ends the
/// program quietly instead, as other Unix tools end (status 141 in a shell).
fn stop_quietly_when_output_closes() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{signal, SigHandler, Signal};
        // SAFETY: the default action runs no code of ours, and this runs at start-up, before
        // any thread or other handler exists.
        let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
    }
}

/// Loads a variant for a command, printing why it cannot be loaded.
fn load(name_or_path: &str) -> Option<crate::Variant> {
    match crate::Variant::load(name_or_path) {
        Ok(variant) => Some(variant),
        Err(crate::LoadError::Invalid { diagnostics, .. }) => {
            eprint!(
                "{}",
                render_diagnostics(&diagnostics, render::terminal_style())
            );
            eprintln!("error: `{name_or_path}` has errors; `tafl lint {name_or_path}` lists them");
            None
        }
        Err(error) => {
            eprintln!("error: {error}");
            None
        }
    }
}

/// The end of a run that reports a summary (`selfplay`, `balance`, `compare`, `match`): one
/// JSON line with `--json`, else the summary in `words`.
fn report<T: serde::Serialize>(
    summary: &T,
    json: bool,
    words: impl FnOnce(&T) -> String,
) -> ExitCode {
    if json {
        // The summaries are plain data with string keys: serialising cannot fail.
        outln!(
            "{}",
            serde_json::to_string(summary).expect("summary serialises")
        );
    } else {
        out!("{}", words(summary));
    }
    ExitCode::SUCCESS
}

/// [`report`], after writing the run's `chart` to `svg` when asked: a chart that cannot be
/// written fails the run before anything is printed.
fn chart_and_report<T: serde::Serialize>(
    summary: &T,
    json: bool,
    (svg, chart): (Option<&std::path::Path>, impl FnOnce(&T) -> String),
    words: impl FnOnce(&T) -> String,
) -> ExitCode {
    if let Some(path) = svg {
        if let Err(e) = output::write(path, chart(summary)) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    report(summary, json, words)
}
