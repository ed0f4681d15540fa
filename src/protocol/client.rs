//! Driving an engine process: start a command, speak one protocol to it, ask it for moves with
//! a time limit, and kill it when it overruns. What it writes is read a bounded line at a time
//! and a bounded number of lines ahead, and the time limit holds however much it writes, so a
//! program that writes without end costs neither memory nor a hung match.
//!
//! ```no_run
//! use std::time::Duration;
//! use tafl::protocol::client::{Client, Kind, Think};
//! let variant = tafl::Variant::bundled("brandubh").unwrap();
//! let engine = std::sync::Arc::new(tafl::Engine::new(&variant.rules).unwrap());
//! let command = vec!["tafl".to_string(), "engine".to_string(), "--protocol".to_string(), "uci".to_string()];
//! let mut client = Client::start(&command, Kind::Uci, "brandubh", &engine, Duration::from_secs(10)).unwrap();
//! let game = tafl::Game::new(engine);
//! let mv = client.best_move(&game, Think::Depth(2), Duration::from_secs(10)).unwrap();
//! assert!(game.legal_moves().contains(&mv));
//! client.quit();
//! ```

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::gtp::vertex;
use super::line::{LineError, LineReader};
use super::opentafl::{position_record, read_move};
use crate::engine::{Engine, Move};
use crate::game::notation::position_to_string;
use crate::game::Game;
use crate::ir::Side;
use crate::BySide;

/// The longest line read from an engine: 64 KiB, far more than any answer or `info` line, and
/// little enough that [`QUEUE`] of them bound what an engine that writes without end makes us
/// hold (a few megabytes).
pub const MAX_ANSWER_LINE: usize = 64 << 10;

/// Lines read ahead of the one awaited. Past these the reader waits, and so, once the pipe is
/// full, does the engine: its output is never piled up in memory.
const QUEUE: usize = 64;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The UCI-like protocol of [`super::uci`].
    Uci,
    /// hnefatafl-copenhagen's text protocol, [`super::gtp`].
    Gtp,
    /// The OpenTafl Engine Protocol, [`super::opentafl`].
    OpenTafl,
}

/// How long the engine may think for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Think {
    /// To this depth (UCI `go depth`; the other protocols cannot say it, so their engines use
    /// their own settings, e.g. `tafl engine --depth`).
    Depth(u32),
    /// About this long for the move (UCI `go movetime`; OpenTafl has no such message, so its
    /// engines get an overtime-only clock, [`opentafl_move_clock`]; hnefatafl's protocol has
    /// none, so there the engine's settings apply).
    MoveTime(Duration),
    /// With these clocks (UCI `go wtime/btime/winc/binc`, OpenTafl `clock`; hnefatafl's
    /// protocol sets its clock only with a new game, so there the engine's settings apply).
    Clock {
        /// Time left for each side.
        left: BySide<Duration>,
        /// Added after each move (UCI only).
        increment: Duration,
    },
}

/// Why the engine gave no move.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The command could not be started.
    #[error("cannot start the engine: {0}")]
    Spawn(std::io::Error),
    /// Writing to the engine failed (it has exited).
    #[error("cannot write to the engine: {0}")]
    Write(std::io::Error),
    /// It did not answer in time; it has been killed.
    #[error("the engine did not answer within {0:?}; it was stopped")]
    Timeout(Duration),
    /// Its output ended.
    #[error("the engine exited")]
    Exited,
    /// Its output could not be read as lines (a line over [`MAX_ANSWER_LINE`]).
    #[error("cannot read the engine's output: {0}")]
    Unreadable(LineError),
    /// It resigned the game instead of moving (hnefatafl's protocol: `= play ROLE resigns _`).
    /// Not a fault: the caller ends the game as a loss by resignation.
    #[error("the engine resigned")]
    Resigned,
    /// It answered something else than the protocol allows here.
    #[error("the engine answered `{0}`")]
    Protocol(String),
    /// The variant cannot be described to the engine in this protocol.
    #[error("{0}")]
    Unsupported(String),
}

/// A running engine.
#[derive(Debug)]
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, LineError>>,
    kind: Kind,
    engine: Arc<Engine>,
    /// Plies of the game the engine already knows (GTP and OpenTafl keep the game themselves).
    told: usize,
}

impl Client {
    /// Starts `command` (the program, then its arguments) and sets it up for `variant` (for
    /// UCI the name or path it loads; for hnefatafl's protocol the board size of `engine`; for
    /// OpenTafl the rules string of `engine`'s rules). `timeout` bounds the set-up.
    ///
    /// # Errors
    /// [`ClientError`] when it cannot be started or does not answer as its protocol says.
    pub fn start(
        command: &[String],
        kind: Kind,
        variant: &str,
        engine: &Arc<Engine>,
        timeout: Duration,
    ) -> Result<Client, ClientError> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| ClientError::Unsupported("empty engine command".to_string()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(ClientError::Spawn)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ClientError::Exited);
        };
        let (sender, lines) = mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || {
            for line in LineReader::with_limit(BufReader::new(stdout), MAX_ANSWER_LINE) {
                let line = match line {
                    // A stray byte that is not UTF-8 (in an `info string`, say) spoils only
                    // its own line, which is not the awaited answer.
                    Err(LineError::NotUtf8) => continue,
                    // The pipe failed: as if the engine had exited.
                    Err(LineError::Read(_)) => break,
                    other => other,
                };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            lines,
            kind,
            engine: engine.clone(),
            told: 0,
        };
        if let Err(error) = client.set_up(variant, timeout) {
            client.kill();
            return Err(match error {
                ClientError::Timeout(_) => ClientError::Timeout(timeout),
                other => other,
            });
        }
        Ok(client)
    }

    fn set_up(&mut self, variant: &str, timeout: Duration) -> Result<(), ClientError> {
        let deadline = Instant::now() + timeout;
        match self.kind {
            Kind::Uci => {
                self.send("uci")?;
                self.wait(deadline, |l| (l == "uciok").then_some(()))?;
                self.send(&format!("setoption name Variant value {variant}"))?;
                self.send("isready")?;
                self.wait(deadline, |l| {
                    if l.starts_with("info string error") {
                        Some(Err(ClientError::Protocol(l.to_string())))
                    } else {
                        (l == "readyok").then_some(Ok(()))
                    }
                })?
            }
            Kind::Gtp => {
                self.send(&format!("board_size {}", self.engine.width()))?;
                self.gtp_answer(deadline).map(|_| ())
            }
            Kind::OpenTafl => {
                self.wait(deadline, |l| (l == "hello").then_some(()))?;
                let rules = crate::opentafl::export(self.engine.rules())
                    .map_err(|e| ClientError::Unsupported(e.to_string()))?;
                self.send(&format!("rules {rules}"))
            }
        }
    }

    /// Asks for the move of `game`'s side to move, telling the engine the plies it has not
    /// seen. Waits at most `timeout`, then kills the engine.
    ///
    /// # Errors
    /// [`ClientError`] when it does not answer a move in time or in its protocol's form, and
    /// [`ClientError::Resigned`] when it resigns.
    pub fn best_move(
        &mut self,
        game: &Game,
        think: Think,
        timeout: Duration,
    ) -> Result<Move, ClientError> {
        let deadline = Instant::now() + timeout;
        let result = match self.kind {
            Kind::Uci => self.uci_move(game, think, deadline),
            Kind::Gtp => self.gtp_move(game, deadline),
            Kind::OpenTafl => self.opentafl_move(game, think, deadline),
        };
        match result {
            Err(ClientError::Timeout(_)) => {
                self.kill();
                Err(ClientError::Timeout(timeout))
            }
            // An engine whose output cannot be read may still be writing it: stop it.
            Err(error @ ClientError::Unreadable(_)) => {
                self.kill();
                Err(error)
            }
            other => other,
        }
    }

    fn uci_move(
        &mut self,
        game: &Game,
        think: Think,
        deadline: Instant,
    ) -> Result<Move, ClientError> {
        let first = &game.positions()[0];
        let engine = game.engine();
        let moves: Vec<String> = game
            .plies()
            .iter()
            .map(|p| format!("{}{}", p.mv.from, p.mv.to))
            .collect();
        let mut position = format!(
            "position {} {}",
            position_to_string(engine, first),
            engine.to_move(first)
        );
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        let go = match think {
            Think::Depth(depth) => format!("go depth {depth}"),
            Think::MoveTime(time) => format!("go movetime {}", time.as_millis()),
            Think::Clock { left, increment } => format!(
                "go atime {} dtime {} ainc {} dinc {}",
                left.attackers.as_millis(),
                left.defenders.as_millis(),
                increment.as_millis(),
                increment.as_millis()
            ),
        };
        self.send(&go)?;
        let answer = self.wait(deadline, |l| {
            l.strip_prefix("bestmove ")
                .map(|rest| rest.split_whitespace().next().unwrap_or("").to_string())
        })?;
        answer
            .parse()
            .map_err(|_| ClientError::Protocol(format!("bestmove {answer}")))
    }

    fn gtp_move(&mut self, game: &Game, deadline: Instant) -> Result<Move, ClientError> {
        let size = game.engine().width();
        for ply in &game.plies()[self.told.min(game.plies().len())..] {
            let role = role(ply.mover);
            self.send(&format!(
                "play {role} {} {}",
                vertex(ply.mv.from, size),
                vertex(ply.mv.to, size)
            ))?;
            self.gtp_answer(deadline)?;
        }
        self.send("generate_move")?;
        let answer = self.gtp_answer(deadline)?;
        // `= play attacker d1 d3, score: ...`
        let words: Vec<&str> = answer
            .split(',')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let square = |text: &str| {
            text.strip_prefix('0')
                .unwrap_or(text)
                .to_ascii_lowercase()
                .parse()
                .ok()
        };
        let mv = match words[..] {
            // hnefatafl-copenhagen's engine resigns as `= play defender resigns _`.
            ["play", _, resigns, ..] if resigns.starts_with("resign") => {
                return Err(ClientError::Resigned)
            }
            ["play", _, from, to] => square(from).zip(square(to)).map(|(f, t)| Move::new(f, t)),
            _ => None,
        };
        self.told = game.plies().len() + 1;
        mv.ok_or(ClientError::Protocol(answer))
    }

    /// The text after `= ` of the next answer; `?` answers are errors.
    fn gtp_answer(&mut self, deadline: Instant) -> Result<String, ClientError> {
        self.wait(deadline, |l| {
            if let Some(rest) = l.strip_prefix('=') {
                Some(Ok(rest.trim().to_string()))
            } else {
                l.starts_with('?')
                    .then(|| Err(ClientError::Protocol(l.to_string())))
            }
        })?
    }

    fn opentafl_move(
        &mut self,
        game: &Game,
        think: Think,
        deadline: Instant,
    ) -> Result<Move, ClientError> {
        let unseen = &game.plies()[self.told.min(game.plies().len())..];
        if !unseen.is_empty() {
            let moves: Vec<String> = unseen.iter().map(|p| p.mv.to_string()).collect();
            self.send(&format!(
                "opponent-move {} {}",
                moves.join("|"),
                position_record(game)
            ))?;
        }
        let side = game.to_move();
        // The clock first, as OpenTafl's own host sends it: its engine reads the clock when
        // `play` arrives, and one sent after would think to its own default instead.
        match think {
            Think::MoveTime(time) => self.send(&opentafl_move_clock(time))?,
            Think::Clock { left, .. } => self.send(&format!(
                "clock {} {} 0 0 0",
                left.attackers.as_millis(),
                left.defenders.as_millis()
            ))?,
            Think::Depth(_) => {}
        }
        self.send(&format!("play {side}"))?;
        let answer = self.wait(deadline, |l| {
            if let Some(rest) = l.strip_prefix("move ") {
                Some(Ok(rest.trim().to_string()))
            } else {
                l.starts_with("error")
                    .then(|| Err(ClientError::Protocol(l.to_string())))
            }
        })??;
        let mv = read_move(&answer).map_err(|_| ClientError::Protocol(format!("move {answer}")))?;
        let mut after = game.clone();
        if after.play(mv).is_ok() {
            self.send(&format!("move {}", position_record(&after)))?;
        }
        self.told = game.plies().len() + 1;
        Ok(mv)
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(ClientError::Write)
    }

    /// Reads lines until `pick` takes one, or the deadline passes. The deadline is checked
    /// before every line: an engine that writes lines without pause never makes the receive
    /// time out, and must not keep the wait going.
    fn wait<T>(
        &mut self,
        deadline: Instant,
        mut pick: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, ClientError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ClientError::Timeout(left));
            }
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => {
                    if let Some(found) = pick(line.trim_end()) {
                        return Ok(found);
                    }
                }
                Ok(Err(error)) => return Err(ClientError::Unreadable(error)),
                Err(RecvTimeoutError::Timeout) => return Err(ClientError::Timeout(left)),
                Err(RecvTimeoutError::Disconnected) => return Err(ClientError::Exited),
            }
        }
    }

    /// Asks the engine to end, and stops it if it has not within a second.
    pub fn quit(mut self) {
        let goodbye = match self.kind {
            Kind::Uci | Kind::Gtp => "quit",
            Kind::OpenTafl => "goodbye",
        };
        let _ = self.send(goodbye);
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    fn kill(&mut self) {
        // It may have exited already; either way it is gone after this.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

/// The `clock` an OpenTafl engine is sent for about `time` a move: no main time and byo-yomi
/// periods of whole seconds, as many as a game can use. OpenTafl has no per-move time, and its
/// own engine plans a main-time clock by the phase of the game: a clock of thirty moves gave it
/// a twentieth of the per-move time in its first ten moves, under its search's 500 ms end pad,
/// where its horizon search was never told to stop and the engine went silent until it
/// forfeited (OpenTafl 0.4.8.0b, `AiWorkspace.planTimeUsage` and `explore`). In overtime alone
/// it thinks a period less 750 ms on every move, so the period is `time` plus 750 ms rounded
/// to whole seconds: 1,250 ms a move for 1 s. An engine of ours spends half a period.
fn opentafl_move_clock(time: Duration) -> String {
    let millis = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
    // OpenTafl reads the period as a Java int.
    let seconds = (millis.saturating_add(750 + 500) / 1000).clamp(1, i32::MAX as u64);
    format!("clock 0 0 {seconds} {PERIODS} {PERIODS}")
}

/// Overtime periods on each side of an [`opentafl_move_clock`]: more than a game has moves.
const PERIODS: u32 = 9999;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opentafl_move_time_is_a_period_that_leaves_it_about_that_time() {
        let clock = |ms| opentafl_move_clock(Duration::from_millis(ms));
        // OpenTafl thinks a period less 750 ms: 1 s a move is 2 s periods (1,250 ms).
        assert_eq!(clock(1_000), "clock 0 0 2 9999 9999");
        assert_eq!(clock(5_000), "clock 0 0 6 9999 9999");
        // A period is a whole second at least, and no time overflows it.
        assert_eq!(clock(0), "clock 0 0 1 9999 9999");
        assert_eq!(
            opentafl_move_clock(Duration::MAX),
            format!("clock 0 0 {} 9999 9999", i32::MAX)
        );
    }
}
