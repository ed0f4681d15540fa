//! A book: the positions `tafl match --book FILE` starts its pairs from, read from game records
//! (any format `tafl games` reads: the CSV rows `tafl match --games` writes, move lists, native
//! records, OpenTafl's). Each game's moves are played from the variant's start; where they
//! stop is one starting position, with the game's history, so that repetition counts as it
//! would have.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use super::games::describe;
use super::load::USAGE;
use super::render::eprint_diagnostic;
use crate::engine::Engine;
use crate::game::Game;
use crate::record::check::{replay, Verdict};
use crate::record::{self, Format};

/// The starting positions of the book at `path`, in the order of its games. A file that
/// cannot be read, a game that cannot be read, a game whose moves the rules refuse, and a game
/// that has ended (it leaves nothing to play) are each printed, with the game's line, and give
/// exit code 2; an empty book too.
pub fn read(path: &Path, engine: &Arc<Engine>) -> Result<Vec<Game>, ExitCode> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| {
        eprintln!("error: cannot read the book `{name}`: {error}");
        ExitCode::from(USAGE)
    })?;
    let format = Format::detect(Some(&name), &text);
    let mut starts = Vec::new();
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
        let refused = match replayed.verdict {
            // A result the moves do not show (a resignation, a cap) is no matter here: only
            // the position counts.
            Verdict::Agrees | Verdict::Result { .. } => None,
            Verdict::EndsEarly { .. }
            | Verdict::Illegal { .. }
            | Verdict::Captures { .. }
            | Verdict::OtherRules { .. } => Some(describe(engine, &replayed)),
        };
        let why = refused.or_else(|| {
            replayed.game.reason().map(|reason| {
                format!(
                    "the game has ended ({}): a book's game must leave a position to play",
                    reason.as_str()
                )
            })
        });
        match why {
            Some(why) => {
                eprintln!(
                    "error: the book `{name}`, game {game_number} (line {}): {why}",
                    record.line
                );
                bad = true;
            }
            None => starts.push(replayed.game),
        }
    }
    if bad {
        return Err(ExitCode::from(USAGE));
    }
    if starts.is_empty() {
        eprintln!("error: the book `{name}` holds no game");
        return Err(ExitCode::from(USAGE));
    }
    Ok(starts)
}
