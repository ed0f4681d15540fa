//! The `tafl` command-line program: one module per command. The only part of the crate that
//! prints.

mod balance;
pub mod bench;
pub mod best;
mod book;
mod compare;
mod diff;
mod engine;
mod export;
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
pub mod perft;
pub mod play;
pub mod playouts;
mod record_file;
mod render;
pub mod replay;
pub mod selfplay;
mod serve;
mod show;
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
    Lint(lint::Args),
    /// Explain a variant's rules in plain words, with its start position.
    Show(show::Args),
    /// Print a variant's fully resolved rules (the IR) as JSON.
    Ir(ir::Args),
    /// The rule differences between two variants, in words.
    Diff(diff::Args),
    /// Write a variant file from an OpenTafl rules string (`--opentafl 'dim:11 ...'`).
    Import(import::Args),
    /// Print a variant as an OpenTafl rules string, or name each rule OpenTafl cannot say.
    Export(export::Args),
    /// List the bundled variants: family, board, where the king escapes and where the rules
    /// come from; `--family`, `--board`, `--source`, `--escape` filter, `--json` for programs.
    List(list::Args),
    /// List the legal moves of the side to move, one per line, sorted.
    Moves(moves::Args),
    /// Play moves and print the resulting position and status as JSON.
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
    /// Fit the evaluation's weights to the computer's games against itself (or to recorded
    /// games: `--records`); write a weights file.
    Tune(tune::Args),
    /// Train a network evaluation for a variant by self-play, generation after generation;
    /// each generation's positions, network and log line are written under `--out`.
    Train(Box<train::Args>),
    /// Fit the learned correction (where each piece stands, relative to the nearest corner) to
    /// recorded games, and say how much better it predicts games it did not see.
    Learn(learn::Args),
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
    match cli.command {
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
        Command::Games(args) => games::run(args),
        Command::Match(args) => r#match::run(*args),
        Command::Tune(args) => tune::run(args),
        Command::Train(args) => train::run(*args),
        Command::Compare(args) => compare::run(args),
        Command::Play(args) => play::run(args),
        Command::Engine(args) => engine::run(&args),
        Command::Serve(args) => serve::run(&args),
    }
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

/// Writes `contents` to `path` whole or not at all: into a temporary file beside it, renamed
/// over `path` once written, so that an error or an interruption never leaves a partial file
/// where the user expects the result.
/// The end of a run that reports a summary (`selfplay`, `balance`, `compare`, `match`): one
/// JSON line with `--json`, else the summary in `words`.
fn report<T: serde::Serialize>(
    summary: &T,
    json: bool,
    words: impl FnOnce(&T) -> String,
) -> ExitCode {
    if json {
        // The summaries are plain data with string keys: serialising cannot fail.
        println!(
            "{}",
            serde_json::to_string(summary).expect("summary serialises")
        );
    } else {
        print!("{}", words(summary));
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
        if let Err(e) = write_whole(path, &chart(summary)) {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    report(summary, json, words)
}

fn write_whole(path: &std::path::Path, contents: &str) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    let written =
        std::fs::write(&temporary, contents).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_is_written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("tafl-write-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.svg");
        super::write_whole(&path, "first").unwrap();
        super::write_whole(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        // A path that cannot be written (a directory stands there) fails, and leaves neither
        // a partial file nor the temporary one behind.
        let blocked = dir.join("blocked");
        std::fs::create_dir_all(&blocked).unwrap();
        assert!(super::write_whole(&blocked, "lost").is_err());
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
