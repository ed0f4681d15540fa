//! Engine protocols: `tafl` as an engine inside other programs, and other engines driven by
//! `tafl`.
//!
//! Three text protocols, one module each, every one a session that takes one input line and
//! returns the lines to answer, holding a [`Game`] and the search settings:
//!
//! - [`uci`]: a UCI-like protocol for any variant (`position`, `go`, `stop`, `bestmove`, `info`);
//! - [`gtp`]: hnefatafl-copenhagen's "Hnefatafl Text Protocol" (`board_size`, `play`,
//!   `generate_move`, `=`/`?` replies), a GTP dialect;
//! - [`opentafl`]: the OpenTafl Engine Protocol (`rules`, `play`, `opponent-move`, `move`, ...).
//!
//! A session never searches by itself: a command that needs a move returns a [`Job`], which the
//! caller runs, on a thread (`tafl engine` does, so that `stop` is heard while thinking) or
//! inline ([`Driver`] does, for tests and scripts); [`serve`] runs a whole session on a byte
//! stream, as `tafl engine` does on stdin and stdout. The answer to the job comes from
//! [`Protocol::finish`]. [`client`] is the other direction: it starts an engine process and asks
//! it for moves in any of the three protocols.
//!
//! ```
//! use tafl::protocol::{uci::Uci, Driver, Settings};
//! let mut driver = Driver::new(Uci::new(Settings::default()).unwrap());
//! assert_eq!(driver.feed("isready"), vec!["readyok"]);
//! driver.feed("setoption name Variant value brandubh");
//! let lines = driver.feed("go depth 1");
//! assert!(lines.last().unwrap().starts_with("bestmove "));
//! ```

pub mod client;
pub mod clock;
pub mod gtp;
pub mod line;
pub mod opentafl;
pub mod serve;
pub mod uci;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::engine::{Engine, Move};
use crate::game::Game;
use crate::search::{self, CurrentMove, Limits, Progress, Report, SearchError, Table, TableError};
use crate::{LoadError, Variant};

/// The longest any one move or analysis may think, whatever a protocol asks: ten minutes.
/// A clock of a billion minutes or `go movetime` of a year is a host's mistake, not a wish,
/// and under hnefatafl's protocol nothing can interrupt `generate_move`; no real time control
/// gives a move more (five hours' main time is ten minutes a move at a thirtieth), and past it
/// the search only deepens into a full table. `go infinite`, which waits for `stop`, has no
/// time and is not cut.
pub const MAX_TIME: Duration = Duration::from_secs(10 * 60);

/// The search settings a session starts with; protocols that have options change them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The variant played until the protocol names another (a bundled name or a file).
    pub variant: String,
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB. A session allocates its table when it starts and when
    /// the size changes, never inside a move's time, and keeps it from move to move.
    pub hash_mb: usize,
    /// The deepest any search goes (plies) unless the protocol names a depth itself; with no
    /// clock either, the whole limit.
    pub depth: Option<u32>,
    /// Thinking time per move when the protocol gives no clock and no depth is set.
    pub movetime: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            variant: "copenhagen".to_string(),
            threads: 1,
            hash_mb: 32,
            depth: None,
            movetime: Duration::from_millis(1000),
        }
    }
}

impl Settings {
    /// The limits for one move when no clock says otherwise: the depth if one is set, else the
    /// per-move time.
    pub fn default_limits(&self) -> Limits {
        let limits = match self.depth {
            Some(depth) => Limits::depth(depth),
            None => Limits::time(self.movetime),
        };
        self.apply(limits)
    }

    /// A session's table of this size, empty: for a new session or a new size.
    ///
    /// # Errors
    /// [`TableError`] when that much memory cannot be had.
    pub fn table(&self) -> Result<Arc<Table>, TableError> {
        Table::try_new(self.hash_mb).map(Arc::new)
    }

    /// `limits` with these settings' threads, table size and depth (where `limits` names
    /// none), and a time of at most [`MAX_TIME`].
    pub fn apply(&self, limits: Limits) -> Limits {
        Limits {
            table_mb: self.hash_mb,
            depth: limits.depth.or(self.depth),
            time: limits.time.map(|t| t.min(MAX_TIME)),
            ..limits.with_threads(self.threads)
        }
    }
}

/// One search a session asks for.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game to search (its side to move moves).
    pub game: Game,
    /// Depth, time and threads.
    pub limits: Limits,
    /// Stop at the first finished depth that has searched this many nodes.
    pub nodes: Option<u64>,
    /// Keep the answer until the caller says stop (UCI `go infinite`).
    pub infinite: bool,
    /// The session's table, kept from move to move (`limits.table_mb` is not used).
    pub table: Arc<Table>,
    /// The only moves to choose among (UCI's `searchmoves`, a host's own rule); empty: all.
    pub only: Vec<Move>,
    /// How many lines to find (MultiPV, OpenTafl's `analyze <number>`), at least 1.
    pub lines: usize,
    /// From how long into the search each move the root starts on is reported
    /// ([`Protocol::current_move`]; UCI's `currmove`); none: never.
    pub current_after: Option<Duration>,
}

/// What a session answers to a line while no search runs.
#[derive(Debug, Default)]
pub struct Step {
    /// Lines to write, in order.
    pub lines: Vec<String>,
    /// A search to run; its answer comes from [`Protocol::finish`].
    pub search: Option<Job>,
    /// The session is over: write the lines and end.
    pub quit: bool,
}

impl Step {
    /// Just these lines.
    pub fn lines(lines: Vec<String>) -> Step {
        Step {
            lines,
            ..Step::default()
        }
    }

    /// One line.
    pub fn line(line: impl Into<String>) -> Step {
        Step::lines(vec![line.into()])
    }

    /// Nothing to say.
    pub fn silent() -> Step {
        Step::default()
    }

    /// A search, with no lines before it.
    pub fn search(job: Job) -> Step {
        Step {
            search: Some(job),
            ..Step::default()
        }
    }

    /// End the session after these lines.
    pub fn quit(lines: Vec<String>) -> Step {
        Step {
            lines,
            quit: true,
            ..Step::default()
        }
    }
}

/// What a session does with a line that arrives while its search runs.
#[derive(Debug, PartialEq, Eq)]
pub enum Busy {
    /// Answer now; the search goes on.
    Reply(Vec<String>),
    /// Stop the search and answer as [`Protocol::finish`] says.
    Stop,
    /// Stop the search once it has run this long (from its start), if it has not stopped
    /// before: a clock that arrives after the search began (OpenTafl sends it after `play`).
    Limit(Duration),
    /// The search was pondering (its answer held, as an infinite search's is): from now on
    /// its answer is written when it ends, and it ends at most this long from now, if a time
    /// is given (UCI `ponderhit`).
    Ponderhit(Option<Duration>),
    /// Stop the search, throw its answer away, and end the session.
    Quit,
    /// Handle the line once the search is over.
    Defer,
}

/// A protocol session: lines in, lines out.
pub trait Protocol {
    /// Lines to write as soon as the engine starts.
    fn greeting(&self) -> Vec<String>;
    /// Handles one line while no search runs.
    fn handle(&mut self, line: &str) -> Step;
    /// The protocol's answer to a line that failed for `message` (one that could not be read,
    /// [`line::LineError`]): the same form as its answer to a malformed command.
    fn error_lines(&self, message: &str) -> Vec<String>;
    /// Handles one line while the session's search runs.
    fn handle_busy(&mut self, line: &str) -> Busy;
    /// A line to write after each finished depth, if the protocol reports progress.
    fn progress(&self, report: &Report) -> Option<String>;
    /// A line to write when the root starts on a move, for a job that asked for them
    /// ([`Job::current_after`]).
    fn current_move(&self, _current: &CurrentMove) -> Option<String> {
        None
    }
    /// A line for either kind of progress.
    fn said(&self, said: Progress<'_>) -> Option<String> {
        match said {
            Progress::Depth(report) => self.progress(report),
            Progress::Current(current) => self.current_move(current),
        }
    }
    /// The answer to the search the last [`Step`] asked for.
    fn finish(&mut self, result: Result<Report, SearchError>) -> Vec<String>;
}

/// Runs `job`, stopping when `stop` is set, and calls `progress` after every finished depth
/// and, where the job asks for them, when the root starts on a move. The best move is never
/// missing while the game goes on: the search answers with a move even when stopped inside
/// its first depth, and should it have none, this falls back to the first legal move.
///
/// # Errors
/// [`SearchError::GameOver`] when the game has ended.
pub fn run_job(
    job: &Job,
    stop: &AtomicBool,
    mut progress: impl FnMut(Progress<'_>),
) -> Result<Report, SearchError> {
    let mut report = search::search_lines(
        &job.game,
        &job.only,
        job.lines,
        &job.limits,
        &job.table,
        stop,
        job.current_after,
        |said| {
            progress(said);
            if let Progress::Depth(report) = said {
                if job.nodes.is_some_and(|nodes| report.nodes >= nodes) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        },
    )?;
    if report.best.is_none() {
        let legal = job.game.legal_moves();
        report.best = legal
            .iter()
            .find(|mv| job.only.contains(mv))
            .or(legal.first())
            .copied();
        report.pv = report.best.into_iter().collect();
    }
    Ok(report)
}

/// A session run synchronously: each line's search runs to its end before `feed` returns. For
/// tests and scripts; `tafl engine` runs searches on a thread instead.
#[derive(Debug)]
pub struct Driver<P> {
    protocol: P,
    over: bool,
}

impl<P: Protocol> Driver<P> {
    /// A driver for `protocol`.
    pub fn new(protocol: P) -> Driver<P> {
        Driver {
            protocol,
            over: false,
        }
    }

    /// The greeting lines.
    pub fn greeting(&self) -> Vec<String> {
        self.protocol.greeting()
    }

    /// Handles one line and returns every line written in answer, progress lines included.
    pub fn feed(&mut self, line: &str) -> Vec<String> {
        let step = self.protocol.handle(line);
        let mut out = step.lines;
        self.over |= step.quit;
        if let Some(job) = step.search {
            let never = AtomicBool::new(false);
            let protocol = &self.protocol;
            let result = run_job(&job, &never, |said| {
                out.extend(protocol.said(said));
            });
            out.extend(self.protocol.finish(result));
        }
        out
    }

    /// Handles `bytes` as a host's input: each line as [`Driver::feed`] does, and each line that
    /// cannot be read ([`line::LineError`]) answered as the protocol answers an error. Returns
    /// every line written in answer.
    pub fn feed_bytes(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for line in line::LineReader::new(bytes) {
            if self.over {
                break;
            }
            match line {
                Ok(line) => out.extend(self.feed(&line)),
                Err(error) => out.extend(self.protocol.error_lines(&error.to_string())),
            }
        }
        out
    }

    /// Whether the session asked to end.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The session.
    pub fn protocol(&self) -> &P {
        &self.protocol
    }
}

/// A loaded variant and its engine.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The name or path it was loaded from.
    pub name: String,
    /// Its engine.
    pub engine: Arc<Engine>,
}

/// Why a variant could not be loaded for a session.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The name is not bundled and no file reads as a variant.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The rules read but the engine cannot play them.
    #[error("{0}")]
    Compile(#[from] crate::CompileError),
}

/// Why a session cannot start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Its variant cannot be read or played.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// Its table's memory cannot be had.
    #[error(transparent)]
    Table(#[from] TableError),
}

impl Loaded {
    /// Loads a bundled variant or a variant file.
    ///
    /// # Errors
    /// [`VariantError`] when it cannot be read or played.
    pub fn load(name_or_path: &str) -> Result<Loaded, VariantError> {
        Loaded::from_variant(name_or_path, Variant::load(name_or_path)?)
    }

    /// The engine for an already read variant.
    ///
    /// # Errors
    /// [`VariantError::Compile`] when the engine cannot play its rules.
    pub fn from_variant(name: &str, variant: Variant) -> Result<Loaded, VariantError> {
        Ok(Loaded {
            name: name.to_string(),
            engine: Arc::new(Engine::new(&variant.rules)?),
        })
    }

    /// A game from the start position.
    pub fn new_game(&self) -> Game {
        Game::new(self.engine.clone())
    }
}

/// Plays `text` (a move in our notation) in `game`, or says why not; the game is unchanged on
/// error.
fn play_text(game: &mut Game, text: &str) -> Result<Move, String> {
    let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
    game.play(mv).map_err(|e| format!("{e}"))?;
    Ok(mv)
}

/// The most characters of a bad word an error quotes back: a host may send a word of a
/// megabyte, and an answer that long helps nobody.
pub const QUOTED_CHARS: usize = 64;

/// `word` as an error quotes it: its first [`QUOTED_CHARS`] characters, then `...` where it
/// was longer.
pub fn quoted(word: &str) -> String {
    match word.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}...", &word[..cut]),
        None => word.to_string(),
    }
}

/// A message on one line: protocols are line based. A line that ends in `:` introduces the
/// next, the others are separated by `; `. A lone `\r` counts as a line end too, and other
/// control characters (which a message may quote from the host's own line) are written
/// escaped (`\u{1b}`), so that nothing in the answer can end its line or drive a terminal.
fn one_line(text: &str) -> String {
    let mut out = String::new();
    for line in text
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "; " });
        }
        for c in line.chars() {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
    }
    out
}
