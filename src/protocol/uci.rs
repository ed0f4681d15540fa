//! A UCI-like protocol for any variant, after chess's Universal Chess Interface.
//!
//! Commands (one per line; docs/engines.md has every form and reply):
//!
//! ```text
//! uci                         -> id name / id author / option ... / uciok
//! isready                     -> readyok (also while thinking)
//! setoption name Variant value <bundled name or .tafl path>
//! setoption name Threads value <n>
//! setoption name Hash value <MiB>   (the table is allocated here, and kept between moves)
//! setoption name Clear Hash         (empties the table)
//! setoption name MultiPV value <n>  (the n best lines, numbered, before `bestmove`)
//! ucinewgame                        (a new game; empties the table)
//! position startpos [moves <m> ...]
//! position [fen] <position string> <attackers|defenders> [moves <m> ...]
//! go [depth n] [movetime ms] [nodes n] [mate n] [infinite] [ponder]
//!    [wtime ms] [btime ms] [winc ms] [binc ms] [movestogo n]
//!    (`searchmoves m1 m2 ...` chooses among those moves; unknown tokens are ignored, and
//!    named in an `info string`)
//! ponderhit                   (the pondering search goes on, on the clock)
//! stop                        -> bestmove <m>
//! quit
//! ```
//!
//! Moves are written as two squares without a dash, `d1d3` (`d1-d3` is read too). `wtime`/`winc`
//! are the defenders' clock and `btime`/`binc` the attackers' (in Copenhagen the attackers play
//! the black pieces); `atime`/`ainc`/`dtime`/`dinc` say the same without colours. Errors are
//! answered `info string error: ...` and change nothing.

use std::sync::Arc;
use std::time::Duration;

use super::{
    clock, one_line, play_text, quoted, Busy, Job, Loaded, Protocol, Settings, StartError, Step,
};
use crate::engine::Move;
use crate::game::notation::parse_position;
use crate::game::Game;
use crate::ir::Side;
use crate::search::{CurrentMove, Limits, Report, Score, SearchError, Table};

/// A UCI-like session.
#[derive(Debug)]
pub struct Uci {
    settings: Settings,
    loaded: Loaded,
    game: Game,
    /// Kept from move to move; cleared by `ucinewgame`, `Clear Hash` and a new variant.
    table: Arc<Table>,
    /// While a `go ponder` search runs: the time it may take once `ponderhit` comes (none:
    /// until it ends by its depth or nodes).
    pondering: Option<Option<Duration>>,
    /// How many lines a search reports (`setoption name MultiPV`), at least 1.
    multipv: usize,
}

impl Uci {
    /// A session playing `settings.variant` until told otherwise.
    ///
    /// # Errors
    /// [`StartError`] when `settings.variant` cannot be loaded, or the table's memory cannot
    /// be had.
    pub fn new(settings: Settings) -> Result<Uci, StartError> {
        let loaded = Loaded::load(&settings.variant)?;
        let game = loaded.new_game();
        let table = settings.table()?;
        Ok(Uci {
            settings,
            loaded,
            game,
            table,
            pondering: None,
            multipv: 1,
        })
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn command(&mut self, line: &str) -> Result<Step, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Ok(Step::silent());
        };
        match first {
            "uci" => Ok(Step::lines(self.identify())),
            "isready" => Ok(Step::line("readyok")),
            "setoption" => self.set_option(rest).map(|()| Step::silent()),
            "ucinewgame" => {
                self.game = self.loaded.new_game();
                self.table.clear();
                Ok(Step::silent())
            }
            "position" => self.position(rest).map(|()| Step::silent()),
            "go" => self.go(rest),
            // Nothing is searching: nothing to stop.
            "stop" | "ponderhit" => Ok(Step::silent()),
            "quit" => Ok(Step::quit(Vec::new())),
            other => Err(format!("unknown command `{}`", quoted(other))),
        }
    }

    fn identify(&self) -> Vec<String> {
        vec![
            format!("id name tafl {}", env!("CARGO_PKG_VERSION")),
            "id author the tafl authors".to_string(),
            format!(
                "option name Variant type string default {}",
                self.settings.variant
            ),
            format!(
                "option name Threads type spin default {} min 1 max 256",
                self.settings.threads
            ),
            format!(
                "option name Hash type spin default {} min 0 max 4096",
                self.settings.hash_mb
            ),
            "option name Clear Hash type button".to_string(),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_LINES}"),
            "uciok".to_string(),
        ]
    }

    /// `setoption name NAME [value VALUE]`; a name may be several words (`Clear Hash`).
    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        let usage =
            "write `setoption name <Variant|Threads|Hash|MultiPV> value <value>` or `setoption name Clear Hash`";
        let ["name", rest @ ..] = words else {
            return Err(usage.to_string());
        };
        let (name, value) = match rest.iter().position(|w| *w == "value") {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        let key = name.to_ascii_lowercase();
        if key == "clear hash" {
            self.table.clear();
            return Ok(());
        }
        if !matches!(key.as_str(), "variant" | "threads" | "hash" | "multipv") {
            return Err(format!(
                "unknown option `{}` (known: Variant, Threads, Hash, MultiPV, Clear Hash)",
                quoted(&name)
            ));
        }
        if value.is_empty() {
            return Err(usage.to_string());
        }
        let number = |max: usize, min: usize| {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| format!("{name} must be a whole number from {min} to {max}"))
        };
        match key.as_str() {
            "variant" => {
                let loaded = Loaded::load(&value).map_err(|e| {
                    format!(
                        "cannot load variant `{value}`: {}",
                        one_line(&e.to_string())
                    )
                })?;
                self.game = loaded.new_game();
                self.loaded = loaded;
                self.settings.variant = value;
                // Another variant's positions must not meet the old ones' entries.
                self.table.clear();
            }
            "threads" => self.settings.threads = number(256, 1)?,
            "multipv" => self.multipv = number(MAX_LINES, 1)?,
            _ => {
                let megabytes = number(4096, 0)?;
                // Allocated now, when the host expects to wait (it follows with `isready`),
                // not inside the next move's time. Memory that cannot be had is an error, and
                // the old table stays.
                let settings = Settings {
                    hash_mb: megabytes,
                    ..self.settings.clone()
                };
                self.table = settings.table().map_err(|e| e.to_string())?;
                self.settings = settings;
            }
        }
        Ok(())
    }

    /// Builds the whole new game before replacing the old one, so that an error changes nothing.
    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let usage =
            "write `position startpos [moves ...]` or `position <position> <side> [moves ...]`";
        let engine = self.loaded.engine.clone();
        let (mut game, rest) = match words {
            ["startpos", rest @ ..] => (Game::new(engine), rest),
            ["fen", position, side, rest @ ..] | [position, side, rest @ ..]
                if *position != "moves" =>
            {
                let side: Side = side.parse().map_err(|e| format!("{e}"))?;
                let position =
                    parse_position(&engine, position, side).map_err(|e| format!("{e}"))?;
                (Game::from_position(engine, position), rest)
            }
            _ => return Err(usage.to_string()),
        };
        match rest {
            [] => {}
            ["moves", moves @ ..] => {
                for (i, text) in moves.iter().enumerate() {
                    play_text(&mut game, text).map_err(|e| format!("move {}: {e}", i + 1))?;
                }
            }
            _ => return Err(usage.to_string()),
        }
        self.game = game;
        Ok(())
    }

    /// `go` and its parameters. As UCI asks, a token it does not know is ignored (and named
    /// in an `info string`), so that a host always gets its `bestmove`; a known parameter
    /// without a valid number is an error.
    fn go(&mut self, words: &[&str]) -> Result<Step, String> {
        let game = self.game.clone();
        let mut go = Go::default();
        let mut ignored: Vec<&str> = Vec::new();
        let mut only = Vec::new();
        let mut words = words.iter().peekable();
        while let Some(&word) = words.next() {
            match word {
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    // The moves run to the next keyword; each must be legal here.
                    let legal = game.legal_moves();
                    while let Some(text) = words.next_if(|next| !is_go_keyword(next)) {
                        let mv: Move = text
                            .parse()
                            .map_err(|e| format!("`go searchmoves {}`: {e}", quoted(text)))?;
                        if !legal.contains(&mv) {
                            return Err(format!(
                                "`go searchmoves {}`: not a legal move here",
                                quoted(text)
                            ));
                        }
                        only.push(mv);
                    }
                }
                keyword if NUMBER_KEYWORDS.contains(&keyword) => {
                    let value = words
                        .next()
                        .and_then(|v| v.parse::<u64>().ok())
                        .ok_or_else(|| format!("`go {word}` needs a whole number"))?;
                    let slot = match keyword {
                        "depth" => &mut go.depth,
                        "movetime" => &mut go.movetime,
                        "nodes" => &mut go.nodes,
                        "mate" => &mut go.mate,
                        "wtime" | "dtime" => go.time.get_mut(Side::Defenders),
                        "btime" | "atime" => go.time.get_mut(Side::Attackers),
                        "winc" | "dinc" => go.increment.get_mut(Side::Defenders),
                        "binc" | "ainc" => go.increment.get_mut(Side::Attackers),
                        _ => &mut go.moves_to_go,
                    };
                    *slot = Some(value);
                }
                other => ignored.push(other),
            }
        }
        let mut limits = go.limits(&self.settings, game.to_move())?;
        let mut infinite = go.infinite;
        // Pondering: think without a clock until `ponderhit` (then the clock's budget runs
        // from there) or `stop`; the answer waits for one of them, as an infinite one does.
        self.pondering = None;
        if go.ponder && !go.infinite {
            self.pondering = Some(limits.time.take());
            infinite = true;
        }
        let mut lines = Vec::new();
        if !ignored.is_empty() {
            lines.push(format!("info string ignored: {}", ignored.join(" ")));
        }
        Ok(Step {
            lines,
            search: Some(Job {
                game,
                limits,
                nodes: go.nodes,
                infinite,
                table: self.table.clone(),
                only,
                lines: self.multipv,
                current_after: Some(CURRMOVE_AFTER),
            }),
            quit: false,
        })
    }
}

/// How long a search runs before each move its root starts on is written as `info depth D
/// currmove M currmovenumber N`. A host shows these while it waits; before a second has passed
/// the next finished depth comes soon enough, and a line per root move (a hundred and more on
/// 11x11) at every shallow depth would flood the host with lines nobody reads. Stockfish waits
/// 3 s; our depths take longer to finish than a chess engine's, so a second.
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// The most lines `MultiPV` asks for: each is a search of its own.
const MAX_LINES: usize = 64;

/// The `go` parameters that take a number.
const NUMBER_KEYWORDS: [&str; 13] = [
    "depth",
    "movetime",
    "nodes",
    "mate",
    "wtime",
    "btime",
    "winc",
    "binc",
    "atime",
    "dtime",
    "ainc",
    "dinc",
    "movestogo",
];

/// Whether `word` is a `go` parameter (which ends a `searchmoves` list).
fn is_go_keyword(word: &str) -> bool {
    NUMBER_KEYWORDS.contains(&word) || matches!(word, "infinite" | "ponder" | "searchmoves")
}

/// The parameters of one `go`.
#[derive(Default)]
struct Go {
    depth: Option<u64>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    /// Mate in this many moves: a search of `2 * mate - 1` plies, which stops at a forced win.
    mate: Option<u64>,
    infinite: bool,
    ponder: bool,
    time: crate::BySide<Option<u64>>,
    increment: crate::BySide<Option<u64>>,
    moves_to_go: Option<u64>,
}

impl Go {
    fn limits(&self, settings: &Settings, side: Side) -> Result<Limits, String> {
        let depth = self
            .depth
            .map(|d| u32::try_from(d).ok().filter(|d| (1..=100).contains(d)))
            .map(|d| d.ok_or("`go depth` must be from 1 to 100"))
            .transpose()?;
        // A mate in `n` moves is `2n - 1` plies away; the search stops at a forced win.
        let mate = self
            .mate
            .map(|m| u32::try_from(m).ok().filter(|m| (1..=50).contains(m)))
            .map(|m| m.map(|m| 2 * m - 1).ok_or("`go mate` must be from 1 to 50"))
            .transpose()?;
        let depth = match (depth, mate) {
            (Some(depth), Some(mate)) => Some(depth.min(mate)),
            (depth, mate) => depth.or(mate),
        };
        let ms = Duration::from_millis;
        let clock = (*self.time.get(side)).map(|left| {
            let increment = self.increment.get(side).unwrap_or(0);
            let moves = self
                .moves_to_go
                .map(|m| u32::try_from(m).unwrap_or(u32::MAX));
            clock::budget(ms(left), ms(increment), moves)
        });
        let time = self.movetime.map(ms).or(clock);
        if self.infinite || self.nodes.is_some() || depth.is_some() || time.is_some() {
            Ok(settings.apply(Limits {
                depth,
                time: if self.infinite { None } else { time },
                threads: 1,
                table_mb: settings.hash_mb,
                // The shipped search techniques and the variant's own weights.
                ..Limits::depth(1)
            }))
        } else {
            Ok(settings.default_limits())
        }
    }
}

/// A move as UCI writes it: two squares, no dash.
fn uci_move(mv: Move) -> String {
    format!("{}{}", mv.from, mv.to)
}

fn uci_score(score: Score) -> String {
    match score {
        Score::Value(value) => format!("cp {value}"),
        Score::Win(plies) => format!("mate {}", plies.div_ceil(2)),
        Score::Loss(plies) => format!("mate -{}", plies.div_ceil(2)),
    }
}

impl Protocol for Uci {
    fn greeting(&self) -> Vec<String> {
        Vec::new()
    }

    fn handle(&mut self, line: &str) -> Step {
        self.command(line)
            .unwrap_or_else(|error| Step::lines(self.error_lines(&error)))
    }

    fn error_lines(&self, message: &str) -> Vec<String> {
        vec![format!("info string error: {}", one_line(message))]
    }

    fn handle_busy(&mut self, line: &str) -> Busy {
        match line.split_whitespace().next() {
            Some("isready") => Busy::Reply(vec!["readyok".to_string()]),
            Some("stop") => {
                self.pondering = None;
                Busy::Stop
            }
            Some("quit") => Busy::Quit,
            // The host plays the move pondered on: the search goes on, now on the clock.
            Some("ponderhit") => match self.pondering.take() {
                Some(budget) => Busy::Ponderhit(budget),
                None => Busy::Reply(Vec::new()),
            },
            None => Busy::Reply(Vec::new()),
            Some(_) => Busy::Defer,
        }
    }

    fn progress(&self, report: &Report) -> Option<String> {
        let pv: Vec<String> = report.pv.iter().map(|&m| uci_move(m)).collect();
        Some(format!(
            "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {} pv {}",
            report.depth,
            report.seldepth,
            uci_score(report.score),
            report.nodes,
            report.nps(),
            self.table.permille_full(),
            report.elapsed.as_millis(),
            pv.join(" ")
        ))
    }

    fn current_move(&self, current: &CurrentMove) -> Option<String> {
        Some(format!(
            "info depth {} currmove {} currmovenumber {}",
            current.depth,
            uci_move(current.mv),
            current.number
        ))
    }

    fn finish(&mut self, result: Result<Report, SearchError>) -> Vec<String> {
        self.pondering = None;
        match result {
            Ok(report @ Report { best: Some(mv), .. }) => {
                // With MultiPV, every line again, numbered, before the move.
                let mut lines = Vec::new();
                if self.multipv > 1 {
                    let first = (report.pv.clone(), report.score);
                    for (k, (pv, score)) in std::iter::once(first)
                        .chain(report.more_lines.iter().cloned())
                        .enumerate()
                    {
                        let pv: Vec<String> = pv.iter().map(|&m| uci_move(m)).collect();
                        lines.push(format!(
                            "info depth {} multipv {} score {} pv {}",
                            report.depth,
                            k + 1,
                            uci_score(score),
                            pv.join(" ")
                        ));
                    }
                }
                lines.push(format!("bestmove {}", uci_move(mv)));
                lines
            }
            Ok(Report { best: None, .. }) => vec!["bestmove (none)".to_string()],
            Err(SearchError::GameOver(ending)) => vec![
                format!(
                    "info string the game is over: {}",
                    crate::game::Status::of(Some(ending))
                ),
                "bestmove (none)".to_string(),
            ],
        }
    }
}
