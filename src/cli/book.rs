//! Games read from record files (any format `tafl games` reads: the CSV rows `tafl match
//! --games` writes, move lists, native records, OpenTafl's), each played from the variant's
//! start as far as its moves go: a book, the positions `tafl match --book FILE` starts its
//! pairs from (where each game stops, with its history, so that repetition counts as it would
//! have), and the games `tafl tune --records` fits to.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use super::games::describe;
use super::load::USAGE;
use super::render::eprint_diagnostic;
use crate::engine::Engine;
use crate::game::Game;
use crate::record::check::{replay, stated_outcome, Verdict};
use crate::record::{self, Format, RecordedOutcome};

/// The starting positions of the book at `path`, in the order of its games. A file that
/// cannot be read, a game that cannot be read, a game whose moves the rules refuse, and a game
/// that has ended (it leaves nothing to play) are each printed, with the game's line, and give
/// exit code 2; an empty book too.
pub fn read(path: &Path, engine: &Arc<Engine>) -> Result<Vec<Game>, ExitCode> {
    let name = path.display().to_string();
    let mut bad = false;
    let mut starts = Vec::new();
    for (record, game) in replayed(path, engine, "book")? {
        match game.reason() {
            Some(reason) => {
                eprintln!(
                    "error: the book `{name}`, game {} (line {}): the game has ended ({}): a \
                     book's game must leave a position to play",
                    record.number,
                    record.line,
                    reason.as_str()
                );
                bad = true;
            }
            None => starts.push(game),
        }
    }
    if bad {
        return Err(ExitCode::from(USAGE));
    }
    Ok(starts)
}

/// A game of a record file, as far as its moves go.
pub struct Read {
    /// The game's number in its file (1-based).
    pub number: usize,
    /// The game's first line in its file.
    pub line: usize,
    /// The result the record states, if it states one (a resignation read against the game).
    pub stated: Option<RecordedOutcome>,
}

/// Every game of the record file at `path` (any format `tafl games` reads), each played from
/// the variant's start as far as its moves go. `what` names the file in errors (`book`,
/// `records`). A file that cannot be read, a game that cannot be read and a game whose moves
/// the rules refuse are each printed, with the game's line, and give exit code 2; a file of no
/// games too. A result the moves do not show (a resignation, a cap) is no error: the record's
/// word is kept in [`Read::stated`].
pub fn replayed(
    path: &Path,
    engine: &Arc<Engine>,
    what: &str,
) -> Result<Vec<(Read, Game)>, ExitCode> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| {
        eprintln!("error: cannot read the {what} `{name}`: {error}");
        ExitCode::from(USAGE)
    })?;
    let format = Format::detect(Some(&name), &text);
    let mut games = Vec::new();
    let mut bad = false;
    for (number, parsed) in record::parse(&text, format).into_iter().enumerate() {
        let game_number = number + 1;
        let record = match parsed {
            Ok(record) => record,
            Err(error) => {
                eprint_diagnostic(error, &name, &text);
                bad = true;
                continue;
            }
        };
        let replayed = replay(engine, &record);
        match replayed.verdict {
            Verdict::Agrees | Verdict::Result { .. } => {
                let read = Read {
                    number: game_number,
                    line: record.line,
                    stated: stated_outcome(&record, &replayed.game),
                };
                games.push((read, replayed.game));
            }
            Verdict::EndsEarly { .. }
            | Verdict::Illegal { .. }
            | Verdict::Captures { .. }
            | Verdict::OtherRules { .. } => {
                eprintln!(
                    "error: the {what} `{name}`, game {game_number} (line {}): {}",
                    record.line,
                    describe(engine, &replayed)
                );
                bad = true;
            }
        }
    }
    if bad {
        return Err(ExitCode::from(USAGE));
    }
    if games.is_empty() {
        eprintln!("error: the {what} `{name}` holds no game");
        return Err(ExitCode::from(USAGE));
    }
    Ok(games)
}
