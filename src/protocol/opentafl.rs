//! The OpenTafl Engine Protocol (jslater89/OpenTafl, `opentafl-engine-protocol.txt`).
//!
//! The engine says `hello` on start. OpenTafl then sends `rules <OpenTafl rules string>`
//! (read with [`crate::opentafl::import`]), and during the game `opponent-move <moves>
//! <position>`, `clock ...` and `play <side>`; the engine answers `move <move>` and OpenTafl
//! confirms with `move <position>`. For analysis it sends `position`, `side` and
//! `analyze <count> <seconds>`, answered `analysis 1 <move|move|...> <evaluation>`. `finish`
//! ends a game and `goodbye` the engine.
//!
//! Positions are OpenTafl position records: rank 1 first (the reverse of our position strings).
//! Moves are read in simple (`a4-a1`) or full OpenTafl notation (`Ka4-a1xa2+`, a piece letter,
//! `-` `^` `=` or `^=` between the squares, captures and signs after), and written simple.
//! Whatever cannot be read is answered `error 0 <message>` (a rules string we cannot play:
//! `error -1 <message>`, which ends OpenTafl's game) and changes nothing. Berserk rules
//! (`ber:c`, `ber:m`) are refused so: the position records do not say which piece must move
//! again after a capture, and a session resynced from one cannot keep that rule.
//!
//! Time: OpenTafl's host sends the clock line (`clock <attacker ms>[*] <defender ms>[*]
//! <overtime s> <attacker overtimes> <defender overtimes>`) just *before* each `play` (every one
//! of 743 `play`s logged from OpenTafl 0.4.8.0b; none in an untimed game), and its own engine
//! reads the clock when `play` arrives. So the search starts at `play` with the budget
//! [`super::clock::overtime_budget`] gives for the last clock seen, less the time the engine
//! has thought since that clock (before any clock: the per-move default). A host that sends
//! the clock after `play` is served too: a clock that arrives while the search runs cuts it to
//! that clock's budget ([`Busy::Limit`]).

use std::sync::Arc;
use std::time::Duration;

use super::{clock, one_line, quoted, Busy, Job, Loaded, Protocol, Settings, Step};
use crate::engine::Move;
use crate::game::notation::{parse_position, position_to_string};
use crate::game::Game;
use crate::ir::{Side, Square};
use crate::search::{Limits, Report, Score, SearchError, Table, TableError};
use crate::BySide;

/// The most lines `analyze` searches for: each is a search of its own.
const MAX_LINES: usize = 16;

/// OpenTafl's last clock line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Clock {
    left: BySide<Duration>,
    in_overtime: BySide<bool>,
    period: Duration,
    overtimes: BySide<u32>,
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Move,
    Analysis,
    /// The game ended while thinking: say nothing.
    Discard,
}

/// An OpenTafl Engine Protocol session.
#[derive(Debug)]
pub struct OpenTafl {
    settings: Settings,
    loaded: Option<Loaded>,
    game: Option<Game>,
    clock: Option<Clock>,
    /// Thinking time spent since the last clock line.
    spent: Duration,
    purpose: Purpose,
    /// Kept from move to move, cleared by `rules`.
    table: Arc<Table>,
}

impl OpenTafl {
    /// A session; it plays nothing until OpenTafl sends `rules`.
    ///
    /// # Errors
    /// [`TableError`] when the table's memory cannot be had.
    pub fn new(settings: Settings) -> Result<OpenTafl, TableError> {
        Ok(OpenTafl {
            table: settings.table()?,
            settings,
            loaded: None,
            game: None,
            clock: None,
            spent: Duration::ZERO,
            purpose: Purpose::Move,
        })
    }

    /// The current game, once `rules` has been received.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    fn game_ref(&self) -> Result<&Game, String> {
        self.game
            .as_ref()
            .ok_or_else(|| "no rules yet: send `rules <rules string>` first".to_string())
    }

    fn command(&mut self, line: &str) -> Result<Step, String> {
        let (word, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        let rest = rest.trim();
        match word {
            "" => Ok(Step::silent()),
            "rules" => self.rules(rest),
            "position" => {
                let game = self.game_ref()?;
                let side = game.to_move();
                let position = self.read_position(rest, side)?;
                self.game = Some(position);
                Ok(Step::silent())
            }
            "side" => {
                let side: Side = rest.parse().map_err(|e| format!("{e}"))?;
                self.set_side(side)?;
                Ok(Step::silent())
            }
            "clock" => {
                self.clock = Some(read_clock(rest)?);
                self.spent = Duration::ZERO;
                Ok(Step::silent())
            }
            "play" => {
                let side: Side = rest.parse().map_err(|e| format!("{e}"))?;
                self.set_side(side)?;
                self.purpose = Purpose::Move;
                let limits = self.move_limits(side);
                Ok(Step::search(self.job(limits)?))
            }
            "analyze" => {
                let usage = "expected: analyze <number> <seconds>";
                let mut numbers = rest.split_whitespace().map(|s| s.parse::<u64>().ok());
                let (Some(Some(count)), Some(Some(seconds))) = (numbers.next(), numbers.next())
                else {
                    return Err(usage.to_string());
                };
                self.purpose = Purpose::Analysis;
                let limits = self
                    .settings
                    .apply(Limits::time(Duration::from_secs(seconds)));
                let mut job = self.job(limits)?;
                // Each line is a search of its own in a share of the time: a few are useful.
                job.lines = usize::try_from(count)
                    .unwrap_or(MAX_LINES)
                    .clamp(1, MAX_LINES);
                Ok(Step::search(job))
            }
            "opponent-move" => self.opponent_move(rest).map(|()| Step::silent()),
            "move" => {
                // OpenTafl confirms our move with the position after it: follow it.
                let side = self.game_ref()?.to_move();
                let confirmed = self.read_position(rest, side)?;
                self.sync(confirmed);
                Ok(Step::silent())
            }
            "error" => {
                // Our move was refused: take it back; OpenTafl resends the position next.
                if let Some(game) = &mut self.game {
                    game.undo();
                }
                Ok(Step::silent())
            }
            "finish" => {
                self.clock = None;
                Ok(Step::silent())
            }
            "goodbye" => Ok(Step::quit(Vec::new())),
            other => Err(format!("unknown command `{}`", quoted(other))),
        }
    }

    fn rules(&mut self, text: &str) -> Result<Step, String> {
        let refuse = |e: String| {
            Step::line(format!(
                "error -1 cannot play these rules: {}",
                one_line(&e)
            ))
        };
        let variant = match crate::opentafl::import(text) {
            Ok(file) => {
                crate::Variant::from_text("opentafl-rules.tafl", &file).map_err(|e| e.to_string())
            }
            Err(e) => Err(e.to_string()),
        };
        let loaded = match variant
            .and_then(|v| Loaded::from_variant("opentafl rules", v).map_err(|e| e.to_string()))
        {
            Ok(loaded) => loaded,
            Err(e) => return Ok(refuse(e)),
        };
        if loaded.engine.rules().berserk.is_some() {
            // After a berserk capture the capturing piece must move again, but the position
            // records OpenTafl sends do not say so: a session resynced from one proposed
            // another piece's move, was refused, and asked again, for ever. Refused at the
            // start instead, until the pending move is carried.
            return Ok(refuse(
                "berserk rules (`ber:c`, `ber:m`) are not played through this protocol: the \
                 position records do not carry the capturing piece's move still due"
                    .to_string(),
            ));
        }
        self.game = Some(loaded.new_game());
        self.loaded = Some(loaded);
        // A new game, perhaps of another variant.
        self.table.clear();
        Ok(Step::silent())
    }

    /// A game from an OpenTafl position record (rank 1 first) with `side` to move.
    fn read_position(&self, record: &str, side: Side) -> Result<Game, String> {
        let engine = self.game_ref()?.engine().clone();
        let ours = flip_record(record);
        let position = parse_position(&engine, &ours, side).map_err(|e| format!("{e}"))?;
        Ok(Game::from_position(engine, position))
    }

    /// Takes `other` as the game unless it is the position we already have, whose history
    /// (for the repetition rules) is worth keeping.
    fn sync(&mut self, other: Game) {
        let keep = self.game.as_ref().is_some_and(|game| {
            let engine = game.engine();
            position_to_string(engine, game.position())
                == position_to_string(engine, other.position())
                && game.to_move() == other.to_move()
        });
        if !keep {
            self.game = Some(other);
        }
    }

    fn set_side(&mut self, side: Side) -> Result<(), String> {
        let game = self.game_ref()?;
        if game.to_move() != side {
            let engine = game.engine().clone();
            let position = engine.with_side_to_move(game.position(), side);
            self.game = Some(Game::from_position(engine, position));
        }
        Ok(())
    }

    fn move_limits(&self, side: Side) -> Limits {
        match &self.clock {
            Some(clock) => {
                let left = clock.left.get(side).saturating_sub(self.spent);
                self.settings.apply(Limits::time(clock::overtime_budget(
                    left,
                    *clock.in_overtime.get(side),
                    clock.period,
                    *clock.overtimes.get(side),
                )))
            }
            None => self.settings.default_limits(),
        }
    }

    fn job(&self, limits: Limits) -> Result<Job, String> {
        Ok(Job {
            game: self.game_ref()?.clone(),
            limits,
            nodes: None,
            infinite: false,
            table: self.table.clone(),
            only: Vec::new(),
            lines: 1,
            current_after: None,
        })
    }

    /// Plays the listed moves; if they do not lead to the record's position (or do not read),
    /// the record wins: OpenTafl's board is the game.
    fn opponent_move(&mut self, rest: &str) -> Result<(), String> {
        let (moves, record) = rest
            .split_once(' ')
            .ok_or("expected: opponent-move <move-list> <position-record>")?;
        let game = self.game_ref()?;
        let mover = game.to_move();
        let mut played = game.clone();
        let applied = moves
            .split('|')
            .try_for_each(|text| {
                let mv = read_move(text)?;
                played.play(mv).map(|_| ()).map_err(|e| e.to_string())
            })
            .is_ok();
        let recorded = self.read_position(record.trim(), mover.opponent())?;
        let engine = recorded.engine().clone();
        if applied
            && position_to_string(&engine, played.position())
                == position_to_string(&engine, recorded.position())
        {
            self.game = Some(played);
        } else {
            self.game = Some(recorded);
        }
        Ok(())
    }
}

/// An OpenTafl position record (rank 1 first) as our position string (top rank first).
fn flip_record(record: &str) -> String {
    let rows: Vec<&str> = record.trim().trim_matches('/').split('/').rev().collect();
    format!("/{}/", rows.join("/"))
}

/// Our position as an OpenTafl position record (rank 1 first).
pub fn position_record(game: &Game) -> String {
    flip_record(&position_to_string(game.engine(), game.position()))
}

/// Reads a move in simple (`a4-a1`) or full OpenTafl notation (`Ka4-a1xa2+`).
///
/// # Errors
/// A message when the text holds no two squares.
pub fn read_move(text: &str) -> Result<Move, String> {
    let bad = || format!("`{}` is not a move", quoted(text));
    let bytes = text.as_bytes();
    // A piece letter comes before the first square's letter in full notation.
    let start = usize::from(
        bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_alphabetic(),
    );
    let (from, rest) = square_prefix(&text[start..]).ok_or_else(bad)?;
    let rest = rest.trim_start_matches(['-', '^', '=']);
    let (to, tail) = square_prefix(rest).ok_or_else(bad)?;
    if !(tail.is_empty() || tail.starts_with(['x', '+', '-'])) {
        return Err(bad());
    }
    Ok(Move::new(from, to))
}

/// A square at the start of `text`, and what follows it.
fn square_prefix(text: &str) -> Option<(Square, &str)> {
    let letters = text.bytes().take_while(u8::is_ascii_lowercase).count();
    let digits = text[letters..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let end = letters + digits;
    let square = text[..end].parse().ok()?;
    Some((square, &text[end..]))
}

fn read_clock(text: &str) -> Result<Clock, String> {
    let usage = "expected: clock <attacker-ms>[*] <defender-ms>[*] <overtime-s> <attacker-overtimes> <defender-overtimes>";
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [attackers, defenders, period, attacker_ot, defender_ot] = parts[..] else {
        return Err(usage.to_string());
    };
    let millis = |s: &str| -> Result<(Duration, bool), String> {
        let overtime = s.ends_with('*');
        let ms: i64 = s
            .trim_end_matches('*')
            .parse()
            .map_err(|_| usage.to_string())?;
        Ok((Duration::from_millis(ms.max(0).unsigned_abs()), overtime))
    };
    let count = |s: &str| s.parse::<u32>().map_err(|_| usage.to_string());
    let (a, a_ot) = millis(attackers)?;
    let (d, d_ot) = millis(defenders)?;
    let period: u64 = period.parse().map_err(|_| usage.to_string())?;
    Ok(Clock {
        left: BySide {
            attackers: a,
            defenders: d,
        },
        in_overtime: BySide {
            attackers: a_ot,
            defenders: d_ot,
        },
        period: Duration::from_secs(period),
        overtimes: BySide {
            attackers: count(attacker_ot)?,
            defenders: count(defender_ot)?,
        },
    })
}

/// The evaluation as OpenTafl shows it: soldiers, two decimals.
fn evaluation(score: Score) -> String {
    format!("{:.2}", f64::from(score.as_number()) / 100.0)
}

impl Protocol for OpenTafl {
    fn greeting(&self) -> Vec<String> {
        vec!["hello".to_string()]
    }

    fn handle(&mut self, line: &str) -> Step {
        self.command(line)
            .unwrap_or_else(|error| Step::lines(self.error_lines(&error)))
    }

    fn error_lines(&self, message: &str) -> Vec<String> {
        vec![format!("error 0 {}", one_line(message))]
    }

    fn handle_busy(&mut self, line: &str) -> Busy {
        match line.split_whitespace().next() {
            Some("clock") => match read_clock(line.trim().trim_start_matches("clock").trim()) {
                Ok(clock) => {
                    self.clock = Some(clock);
                    // The clock is the one at the start of this turn: the running search's
                    // whole time will be counted when it ends.
                    self.spent = Duration::ZERO;
                    match self.purpose {
                        Purpose::Move => {
                            let side = self.game.as_ref().map_or(Side::Attackers, Game::to_move);
                            match self.move_limits(side).time {
                                Some(budget) => Busy::Limit(budget),
                                None => Busy::Reply(Vec::new()),
                            }
                        }
                        Purpose::Analysis | Purpose::Discard => Busy::Reply(Vec::new()),
                    }
                }
                Err(error) => Busy::Reply(vec![format!("error 0 {error}")]),
            },
            Some("finish") => {
                self.purpose = Purpose::Discard;
                self.clock = None;
                Busy::Stop
            }
            Some("goodbye") => Busy::Quit,
            _ => Busy::Defer,
        }
    }

    fn progress(&self, _report: &Report) -> Option<String> {
        None
    }

    fn finish(&mut self, result: Result<Report, SearchError>) -> Vec<String> {
        let report = match result {
            Ok(report) => report,
            Err(SearchError::GameOver(_)) => {
                return vec!["error 0 the game is over".to_string()];
            }
        };
        match self.purpose {
            Purpose::Discard => Vec::new(),
            Purpose::Analysis => {
                let lines: Vec<String> = std::iter::once((report.pv.clone(), report.score))
                    .chain(report.more_lines.iter().cloned())
                    .map(|(pv, score)| {
                        let moves: Vec<String> = pv.iter().map(ToString::to_string).collect();
                        format!("{} {}", moves.join("|"), evaluation(score))
                    })
                    .collect();
                vec![format!("analysis {} {}", lines.len(), lines.join(" "))]
            }
            Purpose::Move => {
                self.spent += report.elapsed;
                let Some(mv) = report.best else {
                    return vec!["error 0 no legal move".to_string()];
                };
                if let Some(game) = &mut self.game {
                    if let Err(error) = game.play(mv) {
                        return vec![format!("error 0 {error}")];
                    }
                }
                vec![format!("move {mv}")]
            }
        }
    }
}
