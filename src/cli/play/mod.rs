//! `tafl play VARIANT`: a REPL to play any variant, two people at one keyboard or one person
//! playing both sides.
//!
//! On a terminal it edits lines with rustyline (history in the user's data dir, Tab completion
//! of commands and legal moves, Ctrl-C clears the line, Ctrl-D quits). When standard input is not
//! a terminal it reads commands line by line and prints no prompt and no escape codes: that is
//! how the tests drive it. The commands are in [`commands`]; docs/repl.md describes them.

mod board;
mod commands;
mod complete;
mod computer;
mod moving;
mod reason;
mod record;
mod terminal;

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use crate::engine::{Engine, Move};
use crate::english;
pub use crate::english::capitalise;
use crate::game::{describe, Game};
use crate::ir::RuleRef;
use crate::ir::{Rules, Side};
use crate::variant::Variant;

pub use board::Style;

/// Arguments of `tafl play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A bundled variant's name or a variant file.
    pub variant: String,
    /// Draw the board with ASCII letters instead of Unicode pieces.
    #[arg(long)]
    pub ascii: bool,
    /// With commands from a pipe: stop at the first invalid command and exit 1.
    #[arg(long)]
    pub strict: bool,
    /// Let the computer play a side (or both); `ai` in the REPL switches it later.
    #[arg(long, value_name = "SIDES")]
    pub ai: Option<Computer>,
    /// When the computer plays both sides: the pause after each move, in milliseconds, so the
    /// game can be followed [default: 1000 at a terminal, 0 from a pipe].
    #[arg(long, value_name = "MS")]
    pub delay: Option<u64>,
    /// How long the computer thinks.
    #[command(flatten)]
    pub budget: super::best::Budget,
}

/// The sides the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Computer {
    /// The attackers.
    Attackers,
    /// The defenders.
    Defenders,
    /// Both sides (the computer plays itself).
    Both,
    /// Neither.
    Off,
}

impl Computer {
    /// Per side (attackers, defenders), whether the computer plays it.
    pub fn sides(self) -> [bool; 2] {
        match self {
            Computer::Attackers => [true, false],
            Computer::Defenders => [false, true],
            Computer::Both => [true, true],
            Computer::Off => [false, false],
        }
    }
}

/// The state of the REPL: the variant, the game and how it is drawn. The game itself (moves,
/// claims, offers, resignations) is a [`Game`]: the REPL only talks to it.
pub struct Session {
    /// The variant as named on the command line or in a loaded record.
    pub name: String,
    /// The variant file, to cite clauses.
    pub variant: Variant,
    /// The game.
    pub game: Game,
    /// Moves taken back with `undo`, the next to redo last.
    pub redo: Vec<Move>,
    /// How the game stood when it was last saved or loaded (plies and ending), to warn before
    /// leaving with unsaved moves.
    pub saved: (usize, Option<crate::engine::Ending>),
    /// Whether `quit` has warned about unsaved moves once already.
    pub quit_warned: bool,
    /// Per side (attackers, defenders), whether the computer plays it.
    pub computer: [bool; 2],
    /// How long the computer thinks.
    pub budget: super::best::Budget,
    /// Whether to show the computer's thinking as it goes (on a terminal).
    pub live: bool,
    /// When the computer plays both sides, the pause after each of its moves.
    pub delay: std::time::Duration,
    /// How to draw the board.
    pub style: Style,
}

impl Session {
    /// A new game of `variant`.
    pub fn new(name: &str, variant: Variant, style: Style) -> Result<Session, String> {
        let engine = Engine::new(&variant.rules).map_err(|e| format!("`{name}`: {e}"))?;
        let engine = Arc::new(engine);
        Ok(Session {
            name: name.to_string(),
            variant,
            game: Game::new(engine),
            redo: Vec::new(),
            saved: (0, None),
            quit_warned: false,
            computer: [false, false],
            budget: super::best::Budget {
                depth: None,
                time: None,
                threads: 1,
            },
            live: false,
            delay: std::time::Duration::ZERO,
            style,
        })
    }

    /// Starts the same variant again.
    pub fn restart(&mut self) {
        self.game = Game::new(self.game.engine().clone());
        self.redo.clear();
        self.saved = (0, None);
    }

    /// Runs one line of input as the REPL does (a move or a command).
    ///
    /// # Errors
    /// The one-line message saying what is wrong and what to type instead; the game is
    /// unchanged.
    pub fn execute(&mut self, line: &str) -> Result<Reply, String> {
        commands::dispatch(self, line)
    }

    /// Whether the game has moves or an ending that no save or load has kept.
    pub fn is_unsaved(&self) -> bool {
        (self.game.plies().len(), self.game.declared()) != self.saved
    }

    /// Notes that the game as it stands is kept in a file.
    pub fn mark_saved(&mut self) {
        self.saved = (self.game.plies().len(), self.game.declared());
    }

    /// The variant's name for a side ("Muscovites").
    pub fn side_name(&self, side: Side) -> &str {
        &self.game.engine().rules().sides.get(side).name
    }

    /// The rules of the game being played.
    pub fn rules(&self) -> &Rules {
        self.game.engine().rules()
    }

    /// Whether the game is over, by a move or by what the players declared.
    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The result as a status word with its reason, as a record writes it.
    pub fn result_word(&self) -> String {
        match self.game.ending() {
            Some(ending) => format!("{} ({})", ending.outcome.as_str(), ending.reason.as_str()),
            None => "ongoing".to_string(),
        }
    }

    /// ` (line 52: `defenders win when the king reaches the edge`)`: the clause behind a rule.
    pub fn cite(&self, rule: RuleRef) -> String {
        describe::cite(&self.variant, rule)
            .map(|c| format!(" (line {}: `{}`)", c.line, c.clause))
            .unwrap_or_default()
    }

    /// Who won and why, in the variant's words, citing the rule; `None` while the game goes on.
    pub fn verdict(&self) -> Option<String> {
        let ending = self.game.ending()?;
        Some(describe::verdict(
            &ending,
            &self.variant,
            self.game.to_move(),
        ))
    }

    /// The board with the status lines above it.
    pub fn show(&self) -> String {
        let last = self.game.plies().last().map(|ply| ply.mv);
        let mut text = board::render(
            self.game.engine(),
            self.game.position(),
            last,
            self.style,
            terminal::width(),
        );
        text.push_str(&self.captures_line());
        text.push_str(&self.status_line());
        text
    }

    /// `Captured so far: 2 Swedes (○ ○), 1 Muscovite (●)` or nothing before the first capture.
    fn captures_line(&self) -> String {
        let rules = self.game.engine().rules();
        let mut parts = Vec::new();
        for side in Side::BOTH {
            // The kind of each captured piece, read from the position before its ply.
            let positions = self.game.positions();
            let lost: Vec<usize> = self
                .game
                .plies()
                .iter()
                .zip(positions)
                .flat_map(|(ply, before)| {
                    ply.captured
                        .iter()
                        .filter_map(|&square| self.game.engine().piece_at(before, square))
                })
                .filter(|&kind| rules.pieces[kind].side == side)
                .collect();
            if !lost.is_empty() {
                let glyphs: Vec<String> = lost
                    .iter()
                    .map(|&kind| board::glyph(rules, kind, self.style).to_string())
                    .collect();
                parts.push(format!(
                    "{} of {} ({})",
                    lost.len(),
                    english::side_noun(self.rules(), side),
                    glyphs.join(" ")
                ));
            }
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("Captured so far: {}\n", parts.join("; "))
        }
    }

    /// `Move 3: the Swedes (defenders) to move. Last move: e2-c2.` or the result.
    fn status_line(&self) -> String {
        let plies = self.game.plies();
        let last = plies
            .last()
            .map(|ply| format!(" Last move: {}.", ply.mv))
            .unwrap_or_default();
        if let Some(verdict) = self.verdict() {
            return format!(
                "Game over after {}.{last}\n{verdict}\n",
                crate::english::count(plies.len(), "ply")
            );
        }
        let side = self.game.to_move();
        let berserk = self
            .game
            .engine()
            .berserker(self.game.position())
            .map(|square| format!(" Berserk: the piece on {square} moves again."))
            .unwrap_or_default();
        format!(
            "Move {}: {} to move.{last}{berserk}\n",
            self.game.move_number(),
            capitalise(&english::side_label(self.rules(), side)),
        )
    }

    /// The prompt: `Muscovites 3> `, or `game over> `.
    pub fn prompt(&self) -> String {
        if self.is_over() {
            "game over> ".to_string()
        } else {
            format!(
                "{} {}> ",
                self.side_name(self.game.to_move()),
                self.game.move_number()
            )
        }
    }
}

/// `position` drawn as the REPL draws it (the variant's letters, no colour), fitted to the
/// terminal: for `tafl show VARIANT --from POS`.
pub fn draw_position(engine: &Engine, position: &crate::engine::Position) -> String {
    let style = Style {
        unicode: false,
        colour: false,
    };
    board::render(engine, position, None, style, terminal::width())
}

/// What a command returns: the reply, or the one-line error (the game is left as it was).
pub(super) type Outcome = Result<Reply, String>;

/// What a command did.
pub enum Reply {
    /// Text to print (possibly empty).
    Text(String),
    /// Leave the REPL.
    Quit,
}

/// Runs `tafl play`.
pub fn run(args: Args) -> ExitCode {
    let variant = match super::load(&args.variant) {
        Some(variant) => variant,
        None => return ExitCode::FAILURE,
    };
    let interactive = std::io::stdin().is_terminal();
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let style = Style {
        unicode: !args.ascii,
        colour,
    };
    let mut session = match Session::new(&args.variant, variant, style) {
        Ok(session) => session,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    session.computer = args.ai.map_or([false, false], Computer::sides);
    session.budget = args.budget;
    session.live = interactive && std::io::stderr().is_terminal();
    session.delay = std::time::Duration::from_millis(args.delay.unwrap_or(if session.live {
        DEFAULT_DELAY_MS
    } else {
        0
    }));
    // Ctrl-C while the computer thinks stops the thinking (it then plays its best move so
    // far, or stops a game it plays against itself); at the prompt the line editor reads
    // Ctrl-C as a key, so this is the only use.
    let _ = ctrlc::set_handler(|| {
        use std::sync::atomic::Ordering;
        computer::STOP.store(true, Ordering::Relaxed);
        computer::INTERRUPTED.store(true, Ordering::Relaxed);
    });
    print_reply(commands::banner(&session));
    // The blank line sets the opening position apart from what follows.
    outln!("{}", terminal::fit(&session.show(), terminal::width()));
    computer::play_turns(&mut session, &mut print_reply);
    if interactive {
        interactive_loop(&mut session)
    } else {
        scripted_loop(&mut session, args.strict)
    }
}

/// The pause after each move when the computer plays itself at a terminal, in milliseconds.
const DEFAULT_DELAY_MS: u64 = 1000;

/// Runs one line; prints its output. `Ok(false)` to quit, `Err` when the line was invalid. A
/// line of several moves plays them in turn (the computer answering where it has the move),
/// up to the first that is refused.
fn run_line(session: &mut Session, line: &str) -> Result<bool, ()> {
    if let Some(moves) = commands::several_moves(line) {
        for mv in moves {
            if !run_command(session, mv)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    run_command(session, line)
}

/// Runs one command or move; prints its output (and the computer's answer).
fn run_command(session: &mut Session, line: &str) -> Result<bool, ()> {
    match commands::dispatch(session, line) {
        Ok(Reply::Text(text)) => {
            print_reply(text);
            // The computer answers when it has the move.
            computer::play_turns(session, &mut print_reply);
            Ok(true)
        }
        Ok(Reply::Quit) => Ok(false),
        Err(message) => {
            print_reply(format!("error: {message}"));
            Err(())
        }
    }
}

/// Prints `text` fitted to the terminal's width.
fn print_reply(text: String) {
    if !text.is_empty() {
        outln!("{}", terminal::fit(text.trim_end(), terminal::width()));
    }
}

fn scripted_loop(session: &mut Session, strict: bool) -> ExitCode {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            // Unreadable input (not UTF-8): say so and go on with the next line.
            print_reply(
                "error: a line of input is not valid UTF-8; type commands in plain text".into(),
            );
            if strict {
                return ExitCode::FAILURE;
            }
            continue;
        };
        match run_line(session, &line) {
            Ok(true) => {}
            Ok(false) => break,
            Err(()) if strict => return ExitCode::FAILURE,
            Err(()) => {}
        }
    }
    ExitCode::SUCCESS
}

/// Where the history is kept: `<data dir>/tafl/history.txt`.
fn history_path() -> Option<PathBuf> {
    let dir = dirs::data_dir()?.join("tafl");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history.txt"))
}

fn interactive_loop(session: &mut Session) -> ExitCode {
    use rustyline::error::ReadlineError;
    use rustyline::{CompletionType, Config, Editor};

    let config = Config::builder()
        .auto_add_history(true)
        .completion_type(CompletionType::List)
        .max_history_size(1000)
        .map(|b| b.build())
        .unwrap_or_default();
    let mut editor: Editor<complete::TaflHelper, rustyline::history::DefaultHistory> =
        match Editor::with_config(config) {
            Ok(editor) => editor,
            Err(e) => {
                // No usable terminal after all: read plain lines instead.
                eprintln!("note: line editing is unavailable ({e}); reading plain lines");
                return scripted_loop(session, false);
            }
        };
    editor.set_helper(Some(complete::TaflHelper::new(commands::names())));
    let history = history_path();
    if let Some(path) = &history {
        // A missing or unreadable history is no reason to stop.
        let _ = editor.load_history(path);
    }
    print_reply(
        "Tab completes commands and moves; Ctrl-C clears the line; Ctrl-D or `quit` leaves.".into(),
    );
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.moves = if session.is_over() {
                Vec::new()
            } else {
                session.game.legal_moves()
            };
        }
        // A line typed while the computer thought runs first, shown after its prompt as if
        // typed there.
        if let Some(line) = terminal::next_typed_line() {
            outln!("{}{line}", session.prompt());
            let _ = editor.add_history_entry(line.as_str());
            if let Ok(false) = run_line(session, &line) {
                break;
            }
            continue;
        }
        let started = terminal::take_typed_partial();
        let read = if started.is_empty() {
            editor.readline(&session.prompt())
        } else {
            editor.readline_with_initial(&session.prompt(), (&started, ""))
        };
        match read {
            Ok(line) => {
                if let Ok(false) = run_line(session, &line) {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            // Ctrl-D is `quit`: one warning first when the game is not saved.
            Err(ReadlineError::Eof) => match commands::leave(session, "press Ctrl-D again") {
                Ok(Reply::Text(warning)) => print_reply(warning),
                _ => break,
            },
            Err(e) => {
                eprintln!("error: cannot read the terminal: {e}");
                break;
            }
        }
    }
    if let Some(path) = &history {
        // Failing to save the history is not worth an error at exit.
        let _ = editor.save_history(path);
    }
    ExitCode::SUCCESS
}
