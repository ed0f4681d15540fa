//! Games read from record files (any format `tafl games` reads: the CSV rows `tafl match
//! --games` writes, move lists, native records, OpenTafl's), each played from the variant's
//! start as far as its moves go: a book, the positions `tafl match --book FILE` starts its
//! pairs from (where each game stops, with its history, so that repetition counts as it would
//! have), and the games `tafl tune --records` fits to.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use super::load::USAGE;
use super::record_file::{self, Problems};
use crate::engine::Engine;
use crate::game::Game;
use crate::record::check::{replay, stated_outcome, Verdict};
use crate::record::limits::DEFAULT_MAX_FILE_BYTES;
use crate::record::{self, Format, RecordedOutcome};

/// The starting positions of the book at `path`, in the order of its games. A file that
/// cannot be read, a game that cannot be read, a game whose moves the rules refuse, and a game
/// that has ended (it leaves nothing to play) are each printed, with the game's line, and give
/// exit code 2; an empty book too.
pub fn read(path: &Path, engine: &Arc<Engine>) -> Result<Vec<Game>, ExitCode> {
    let ended = |game: &Game| {
        game.reason().map(|reason| {
            format!(
                "the game has ended ({}): a book's game must leave a position to play",
                reason.as_str()
            )
        })
    };
    let games = replayed(path, engine, "book", ended)?;
    Ok(games.into_iter().map(|(_, game)| game).collect())
}

/// Every game of the record file at `path` (any format `tafl games` reads), each played from
/// the variant's start as far as its moves go, with the result its record states, if it
/// states one (a resignation read against the game). `what` names the file in errors (`book`,
/// `records`). A file that cannot be read (or is larger than
/// [`DEFAULT_MAX_FILE_BYTES`](crate::record::limits::DEFAULT_MAX_FILE_BYTES)), a game that
/// cannot be read, a game that disagrees with the rules and a game that `refuse` has a reason
/// against are each printed, with the game's line (up to a limit, the rest counted), and give
/// exit code 2; a file of no games too. A result the moves do not show (a resignation, a cap)
/// is no error, and neither is a game the rules end before its record does: as `tafl games
/// check` accepts it, it is played as far as the rules let it go (`refuse` then sees it ended).
pub fn replayed(
    path: &Path,
    engine: &Arc<Engine>,
    what: &str,
    refuse: impl Fn(&Game) -> Option<String>,
) -> Result<Vec<(Option<RecordedOutcome>, Game)>, ExitCode> {
    let name = path.display().to_string();
    let text = record_file::read(path, DEFAULT_MAX_FILE_BYTES).map_err(|error| {
        eprintln!("error: cannot read the {what} `{name}`: {error}");
        ExitCode::from(USAGE)
    })?;
    let format = Format::detect(Some(&name), &text);
    let mut games = Vec::new();
    let mut problems = Problems::default();
    for (number, parsed) in record::games(&text, format).enumerate() {
        let game_number = number + 1;
        let record = match parsed {
            Ok(record) => record,
            Err(error) => {
                problems.record_error(&error, &name, &text);
                continue;
            }
        };
        let replayed = replay(engine, &record);
        let why = match replayed.verdict {
            Verdict::Agrees | Verdict::Result { .. } | Verdict::EndsEarly { .. } => {
                refuse(&replayed.game)
            }
            Verdict::Illegal { .. } | Verdict::Captures { .. } | Verdict::OtherRules { .. } => {
                Some(replayed.describe())
            }
        };
        match why {
            Some(why) => problems.line(format_args!(
                "the {what} `{name}`, game {game_number} (line {}): {why}",
                record.line
            )),
            None => games.push((stated_outcome(&record, &replayed.game), replayed.game)),
        }
    }
    problems.finish();
    if problems.count() > 0 {
        return Err(ExitCode::from(USAGE));
    }
    if games.is_empty() {
        eprintln!("error: the {what} `{name}` holds no game");
        return Err(ExitCode::from(USAGE));
    }
    Ok(games)
}
