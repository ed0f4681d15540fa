//! hnefatafl-copenhagen's Hnefatafl Text Protocol, a GTP dialect.
//!
//! The command forms and replies follow hnefatafl-copenhagen's own engine
//! (dcampbell24/hnefatafl, `src/message.rs`, `src/game.rs`, `src/bin/hnefatafl-text-protocol.rs`):
//! a success is `= ` and the answer on one line, a failure `? ` and the message followed by an
//! empty line; an empty line or a `#` comment gets no answer.
//!
//! ```text
//! board_size 11                  -> =             (new game on that board)
//! first_move attacker|defender   -> =             (new game, that side first)
//! play attacker d1 d3            -> = <captures>  (each captured square and a space)
//! play defender resigns _        -> =
//! generate_move                  -> = play attacker d1 d3, score: S, delay milliseconds: T, loops: N
//!                                   (then an empty line; the move is played)
//! play_undo                      -> =
//! final_status                   -> = ongoing|attacker_wins|defender_wins|draw
//! show_board                     -> = and the board, top rank first
//! time_settings un-timed | time_settings fischer MINUTES ADD_SECONDS   -> = (new game)
//! list_commands / known_command C / name / version / protocol_version
//! quit                           (no answer)
//! ```
//!
//! Squares are a file letter and a rank from 1 at the bottom: lowercase (`d1`) on 11x11 and 7x7
//! boards and uppercase (`D1`) on 13x13, as hnefatafl-copenhagen writes them; either case is
//! read, and so is the `0d1` that older versions wrote on 7x7 (6.4.1 writes `d1` and refuses
//! `0d1`). Each board size plays one variant: 11 is Copenhagen, and `tafl engine --variant`
//! adds others (hnefatafl-copenhagen also knows 7, its own Brandubh, and 13, so those are
//! refused unless given).

use std::sync::Arc;
use std::time::Duration;

use super::{clock, one_line, quoted, Busy, Job, Loaded, Protocol, Settings, Step};
use crate::engine::Move;
use crate::game::{Game, Status};
use crate::ir::{Side, Square};
use crate::search::{Report, SearchError, Table};
use crate::BySide;

/// The commands this session knows, as `list_commands` prints them.
pub const COMMANDS: [&str; 13] = [
    "board_size",
    "final_status",
    "first_move",
    "generate_move",
    "known_command",
    "list_commands",
    "name",
    "play",
    "play_undo",
    "protocol_version",
    "quit",
    "show_board",
    "time_settings",
];

/// The moves hnefatafl-copenhagen accepts from the side to move, where its rules are narrower
/// than the variant's; empty when it accepts every legal move.
///
/// The crate refuses a defenders' move that leaves the board, before the move's captures, as
/// it stood at the start or after any earlier move ("play: you already reached that position";
/// dcampbell24/hnefatafl, `src/board.rs`, `Board::legal_move`, checked against the boards
/// `Board::play` records). No bundled variant has that rule, so the session keeps to it here:
/// otherwise a move tafl chose could be refused and the game stopped. Should every legal move
/// be barred, the crate would have ended the game already; then the variant's moves stand.
fn hosts_own_choice(game: &Game) -> Vec<Move> {
    if game.to_move() != Side::Defenders {
        return Vec::new();
    }
    let engine = game.engine();
    let boards: Vec<Vec<(Square, usize)>> = game
        .positions()
        .iter()
        .map(|position| engine.pieces(position))
        .collect();
    let now = engine.pieces(game.position());
    let legal = game.legal_moves();
    let allowed: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|mv| {
            let mut moved: Vec<(Square, usize)> = now
                .iter()
                .map(|&(square, kind)| (if square == mv.from { mv.to } else { square }, kind))
                .collect();
            // In the order `Engine::pieces` lists a board: by square index.
            moved.sort_by_key(|&(square, _)| engine.index(square));
            !boards.contains(&moved)
        })
        .collect();
    if allowed.len() == legal.len() || allowed.is_empty() {
        Vec::new()
    } else {
        allowed
    }
}

/// A Hnefatafl Text Protocol session.
#[derive(Debug)]
pub struct Gtp {
    settings: Settings,
    /// One variant per board size.
    boards: Vec<Loaded>,
    current: usize,
    game: Game,
    /// Fischer time (time left per side, increment), or none.
    clock: Option<(BySide<Duration>, Duration)>,
    fischer: Option<(Duration, Duration)>,
    /// Kept from move to move, cleared by a new game.
    table: Arc<Table>,
}

/// A failure, answered `? message`.
type Reply = Result<Vec<String>, String>;

impl Gtp {
    /// A session with one variant per board size; the first is played until `board_size` says
    /// otherwise.
    ///
    /// # Errors
    /// When `boards` is empty or two variants share a board size.
    pub fn new(settings: Settings, boards: Vec<Loaded>) -> Result<Gtp, String> {
        let first = boards.first().ok_or("no variant to play")?;
        for (i, board) in boards.iter().enumerate() {
            if let Some(twin) = boards[..i].iter().find(|b| size(b) == size(board)) {
                return Err(format!(
                    "`{}` and `{}` both play on board size {}",
                    twin.name,
                    board.name,
                    size(board)
                ));
            }
            if board.engine.width() != board.engine.height() {
                return Err(format!("`{}` is not a square board", board.name));
            }
        }
        let game = first.new_game();
        let table = settings.table().map_err(|e| e.to_string())?;
        Ok(Gtp {
            settings,
            boards,
            current: 0,
            game,
            clock: None,
            fischer: None,
            table,
        })
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn size(&self) -> u8 {
        self.game.engine().width()
    }

    fn new_game(&mut self) {
        self.game = self.boards[self.current].new_game();
        // The game may be another variant's, and what the last game learnt is no help.
        self.table.clear();
        self.clock = self.fischer.map(|(start, increment)| {
            (
                BySide {
                    attackers: start,
                    defenders: start,
                },
                increment,
            )
        });
    }

    fn command(&mut self, words: &[&str]) -> Result<Step, String> {
        let Some((&first, rest)) = words.split_first() else {
            return Ok(Step::silent());
        };
        let ok = |lines: Vec<String>| Ok(Step::lines(answer(lines)));
        match first {
            "board_size" => ok(self.board_size(rest)?),
            "first_move" => {
                let side = role(rest.first().copied())?;
                self.new_game();
                let engine = self.game.engine().clone();
                let start = engine.with_side_to_move(&engine.start(), side);
                self.game = Game::from_position(engine, start);
                ok(Vec::new())
            }
            "play" => ok(self.play(rest)?),
            "generate_move" => self.generate().map(Step::search),
            "play_undo" => match self.game.undo() {
                Some(_) => ok(Vec::new()),
                None => Err("there is no play to undo".to_string()),
            },
            "final_status" => ok(vec![final_status(self.game.status()).to_string()]),
            "show_board" => ok(self.board()),
            "time_settings" => ok(self.time_settings(rest)?),
            "list_commands" => {
                let mut lines = vec![String::new()];
                lines.extend(COMMANDS.iter().map(|c| (*c).to_string()));
                ok(lines)
            }
            "known_command" => {
                let command = rest.first().ok_or("expected: known_command COMMAND")?;
                ok(vec![COMMANDS.contains(command).to_string()])
            }
            "name" => ok(vec!["tafl".to_string()]),
            "version" => ok(vec![env!("CARGO_PKG_VERSION").to_string()]),
            "protocol_version" => ok(vec!["1-beta".to_string()]),
            "quit" => Ok(Step::quit(Vec::new())),
            other => Err(format!("unrecognized command: {}", quoted(other))),
        }
    }

    fn board_size(&mut self, words: &[&str]) -> Reply {
        let wanted: u8 = words
            .first()
            .and_then(|w| w.parse().ok())
            .ok_or("expected: board_size 11 or board_size 13")?;
        let index = self
            .boards
            .iter()
            .position(|b| size(b) == wanted)
            .ok_or_else(|| {
                let known: Vec<String> = self.boards.iter().map(|b| size(b).to_string()).collect();
                format!(
                    "board size {wanted} has no variant here (known: {}); `tafl engine --variant FILE` adds one",
                    known.join(", ")
                )
            })?;
        self.current = index;
        self.new_game();
        Ok(Vec::new())
    }

    fn play(&mut self, words: &[&str]) -> Reply {
        let usage = "expected: 'play ROLE FROM TO' or 'play ROLE resign'";
        let side = role(words.first().copied())?;
        if words.get(1).is_some_and(|w| w.starts_with("resign")) {
            self.game.resign(side).map_err(|e| e.to_string())?;
            return Ok(Vec::new());
        }
        let (Some(from), Some(to)) = (words.get(1), words.get(2)) else {
            return Err(usage.to_string());
        };
        if self.game.is_over() {
            return Err("the game is over".to_string());
        }
        if side != self.game.to_move() {
            return Err(format!(
                "it is the {}'s turn",
                role_name(self.game.to_move())
            ));
        }
        let mv = Move::new(self.square(from)?, self.square(to)?);
        let size = self.size();
        let ply = self.game.play(mv).map_err(|e| e.to_string())?;
        Ok(vec![ply
            .captured
            .iter()
            .map(|&s| format!("{} ", vertex(s, size)))
            .collect()])
    }

    fn generate(&mut self) -> Result<Job, String> {
        if self.game.is_over() {
            return Err("the game is over".to_string());
        }
        let side = self.game.to_move();
        let limits = match &self.clock {
            Some((left, increment)) => {
                self.settings
                    .apply(crate::search::Limits::time(clock::budget(
                        *left.get(side),
                        *increment,
                        None,
                    )))
            }
            None => self.settings.default_limits(),
        };
        Ok(Job {
            game: self.game.clone(),
            limits,
            nodes: None,
            infinite: false,
            table: self.table.clone(),
            only: hosts_own_choice(&self.game),
            lines: 1,
            current_after: None,
        })
    }

    fn time_settings(&mut self, words: &[&str]) -> Reply {
        match words {
            ["un-timed", ..] => self.fischer = None,
            ["fischer", minutes, add_seconds, ..] => {
                let minutes: u64 = minutes
                    .parse()
                    .map_err(|_| "MINUTES is not a whole number")?;
                let add: u64 = add_seconds
                    .parse()
                    .map_err(|_| "ADD_SECONDS is not a whole number")?;
                self.fischer = Some((
                    Duration::from_secs(minutes.saturating_mul(60)),
                    Duration::from_secs(add),
                ));
            }
            _ => {
                return Err(
                    "expected: time_settings un-timed or time_settings fischer MINUTES ADD_SECONDS"
                        .to_string(),
                )
            }
        }
        self.new_game();
        Ok(Vec::new())
    }

    fn square(&self, text: &str) -> Result<Square, String> {
        let bad = || format!("play: invalid coordinate `{}`", quoted(text));
        let plain = text.strip_prefix('0').unwrap_or(text).to_ascii_lowercase();
        let square: Square = plain.parse().map_err(|_| bad())?;
        if square.is_on(self.size(), self.size()) {
            Ok(square)
        } else {
            Err(bad())
        }
    }

    fn board(&self) -> Vec<String> {
        let engine = self.game.engine();
        let size = engine.width();
        let mut lines = vec![String::new()];
        for rank in (0..size).rev() {
            let row: Vec<String> = (0..size)
                .map(|file| {
                    engine
                        .piece_at(self.game.position(), Square::new(file, rank))
                        .map_or(".".to_string(), |kind| {
                            engine.rules().pieces[kind].symbol.to_string()
                        })
                })
                .collect();
            lines.push(format!("{:>2} {}", rank + 1, row.join(" ")));
        }
        let files: Vec<String> = (0..size)
            .map(|file| char::from(b'a' + file).to_string())
            .collect();
        lines.push(format!("   {}", files.join(" ")));
        lines
    }
}

/// The board size a variant plays on.
fn size(loaded: &Loaded) -> u8 {
    loaded.engine.width()
}

/// `= first line`, then the other lines.
fn answer(lines: Vec<String>) -> Vec<String> {
    let mut lines = lines.into_iter();
    let mut out = vec![format!("= {}", lines.next().unwrap_or_default())];
    out.extend(lines);
    out
}

fn role(word: Option<&str>) -> Result<Side, String> {
    let word = word.ok_or("expected a role: attacker or defender")?;
    match word.to_ascii_lowercase().as_str() {
        "a" | "attacker" => Ok(Side::Attackers),
        "d" | "defender" => Ok(Side::Defenders),
        _ => Err(format!(
            "`{}` is not a role: write attacker or defender",
            quoted(word)
        )),
    }
}

fn role_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

fn final_status(status: Status) -> &'static str {
    match status {
        Status::Ongoing => "ongoing",
        Status::AttackersWin => "attacker_wins",
        Status::DefendersWin => "defender_wins",
        Status::Draw => "draw",
    }
}

/// A square as hnefatafl-copenhagen (6.4.1) writes it for a board of `size`: uppercase on
/// 13x13, lowercase on the others (`d3` on 7x7: 6.4.1 refuses the `0d3` of older versions).
pub fn vertex(square: Square, size: u8) -> String {
    match size {
        13 => square.to_string().to_ascii_uppercase(),
        _ => square.to_string(),
    }
}

impl Protocol for Gtp {
    fn greeting(&self) -> Vec<String> {
        Vec::new()
    }

    fn handle(&mut self, line: &str) -> Step {
        let text = line.split('#').next().unwrap_or_default();
        let words: Vec<&str> = text.split_whitespace().collect();
        self.command(&words)
            .unwrap_or_else(|error| Step::lines(self.error_lines(&error)))
    }

    fn error_lines(&self, message: &str) -> Vec<String> {
        vec![format!("? {}", one_line(message)), String::new()]
    }

    fn handle_busy(&mut self, _line: &str) -> Busy {
        // The protocol answers commands in order: even `quit` waits for the move in progress.
        Busy::Defer
    }

    fn progress(&self, _report: &Report) -> Option<String> {
        None
    }

    fn finish(&mut self, result: Result<Report, SearchError>) -> Vec<String> {
        let report = match result {
            Ok(report) => report,
            Err(SearchError::GameOver(_)) => {
                return vec!["? the game is over".to_string(), String::new()]
            }
        };
        let side = self.game.to_move();
        let Some(mv) = report.best else {
            return vec!["? no legal move".to_string(), String::new()];
        };
        if let Err(error) = self.game.play(mv) {
            return vec![format!("? {error}"), String::new()];
        }
        if let Some((left, increment)) = &mut self.clock {
            let left = left.get_mut(side);
            *left = left
                .saturating_sub(report.elapsed)
                .saturating_add(*increment);
        }
        let size = self.size();
        vec![
            format!(
                "= play {} {} {}, score: {}, delay milliseconds: {}, loops: {}",
                role_name(side),
                vertex(mv.from, size),
                vertex(mv.to, size),
                report.score.as_number(),
                report.elapsed.as_millis(),
                report.nodes
            ),
            String::new(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().expect("a move written in the test")
    }

    /// Issue 49, defect 6: the crate refused h3-k3, "you already reached that position".
    #[test]
    fn the_defenders_keep_to_the_crates_ban_on_recreating_a_board() {
        let variant = crate::Variant::bundled("copenhagen").expect("bundled");
        let engine = crate::engine::Engine::new(&variant.rules).expect("compiles");
        let mut game = Game::new(Arc::new(engine));
        for text in ["a4-b4", "d6-d4", "b4-a4"] {
            assert!(hosts_own_choice(&game).is_empty(), "before {text}");
            game.play(mv(text)).expect("legal");
        }
        // Back to d6 would remake the start; every other legal move is allowed.
        let allowed = hosts_own_choice(&game);
        let legal = game.legal_moves();
        assert!(legal.contains(&mv("d4-d6")));
        assert!(!allowed.contains(&mv("d4-d6")));
        assert_eq!(allowed.len(), legal.len() - 1);
        // And the search keeps to them.
        let job = Job {
            game: game.clone(),
            limits: crate::search::Limits::depth(2),
            nodes: None,
            infinite: false,
            table: Arc::new(Table::new(1)),
            only: allowed.clone(),
            lines: 1,
            current_after: None,
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let report = super::super::run_job(&job, &stop, |_| {}).expect("the game goes on");
        assert!(allowed.contains(&report.best.expect("a move")));
    }
}
