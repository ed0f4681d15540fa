//! What the engine commands share: loading a variant, and the `--from`/`--side` options.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::engine::{Engine, Position, PositionError};
use crate::game::describe::cite;
use crate::game::notation::{parse_position, ParsePositionError};
use crate::ir::{Rules, Side, Square};
use crate::variant::Variant;

/// The starting point options of `moves`, `replay` and `perft`.
#[derive(Debug, Clone, clap::Args)]
pub struct From {
    /// Start from this position instead of the variant's start: an OpenTafl-style string (top
    /// rank first, `/` between ranks), or a file holding a diagram drawn like the setup block.
    #[arg(long, value_name = "POS|FILE")]
    pub from: Option<String>,
    /// The side to move in `--from` (`attackers` or `defenders`); the variant's first mover by
    /// default.
    #[arg(long, value_name = "SIDE")]
    pub side: Option<Side>,
}

/// A loaded variant: the engine, and the variant file when there is one (to cite clauses).
pub struct Loaded {
    pub variant: Option<Variant>,
    pub engine: Arc<Engine>,
}

/// Exit code for bad input: an illegal or malformed move, a malformed position.
pub const USAGE: u8 = 2;

/// Loads `name`: a bundled variant, a `.tafl` file, or an IR `.json` file (as `tafl ir` writes).
/// Prints the problem and returns the exit code on failure.
pub fn variant(name: &str) -> Result<Loaded, ExitCode> {
    let (variant, rules): (Option<Variant>, Rules) = if name.ends_with(".json") {
        let text = crate::check::limits::read_variant_file(name)
            .map_err(|e| fail(&format!("cannot read `{name}`: {e}")))?;
        let rules =
            Rules::from_json(&text).map_err(|e| fail(&format!("`{name}` is not valid IR: {e}")))?;
        (None, rules)
    } else {
        // The shared loader renders a broken file's diagnostics, as `show` and `play` do.
        let variant = super::load(name).ok_or(ExitCode::FAILURE)?;
        let rules = variant.rules.clone();
        (Some(variant), rules)
    };
    let engine = Engine::new(&rules).map_err(|e| fail(&format!("`{name}`: {e}")))?;
    Ok(Loaded {
        variant,
        engine: Arc::new(engine),
    })
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {}", crate::printable::quoted(message));
    ExitCode::FAILURE
}

/// The variant and the position `--from`/`--side` ask for: what `moves`, `perft` and `replay`
/// start from.
pub fn variant_and_position(name: &str, from: &From) -> Result<(Loaded, Position), ExitCode> {
    let loaded = variant(name)?;
    let position = position(&loaded.engine, loaded.variant.as_ref(), from)?;
    Ok((loaded, position))
}

/// The position `--from`/`--side` ask for, or the start position. A position the rules make
/// impossible is refused (exit 2) with the reason, citing the rule where one forbids it.
pub fn position(
    engine: &Engine,
    variant: Option<&Variant>,
    from: &From,
) -> Result<Position, ExitCode> {
    let side = from.side.unwrap_or(engine.rules().first_to_move);
    match &from.from {
        None if from.side.is_none() => Ok(engine.start()),
        None => Ok(engine.with_side_to_move(&engine.start(), side)),
        Some(given) => {
            let path = std::path::Path::new(given);
            let refuse = |message: String| {
                eprintln!("error: {}", crate::printable::shown(&message));
                ExitCode::from(USAGE)
            };
            let text = if path.is_dir() {
                return Err(refuse(format!(
                    "cannot read `{given}`: it is a directory, not a position or a diagram file"
                )));
            } else if path.is_file() {
                diagram_file(given, engine.width()).map_err(refuse)?
            } else if !given.contains('/')
                || given
                    .chars()
                    .any(|c| !c.is_ascii_alphanumeric() && c != '/')
            {
                // A position string is piece letters and digits with a `/` between its ranks;
                // anything else (a dot, a dash, no `/` at all) was meant as a file: say so,
                // rather than read it as a board of the wrong number of ranks.
                return Err(refuse(format!(
                    "cannot read `{given}`: no such file (a position is written rank by rank \
                     with `/` between them, like `/3t3/3t3/...`)"
                )));
            } else {
                given.clone()
            };
            let text = text.as_str();
            parse_position(engine, text, side).map_err(|e| {
                let rule = match &e {
                    ParsePositionError::Impossible(PositionError::Forbidden { rule, .. }) => {
                        variant.and_then(|v| cite(v, *rule))
                    }
                    _ => None,
                };
                let cited = rule
                    .map(|c| format!(": line {}, `{}`", c.line, c.clause))
                    .unwrap_or_default();
                let what = if text == given {
                    format!("`{text}`")
                } else {
                    format!("in `{given}` (read as `{text}`)")
                };
                eprintln!(
                    "error: bad position {}: {e}{cited}",
                    crate::printable::quoted(&what)
                );
                ExitCode::from(USAGE)
            })
        }
    }
}

/// The diagram in the file at `path`, as a position string: one line per rank, top rank first,
/// one symbol or `.` per square with spaces between them optional, as in a variant's `setup`
/// block (whose `setup` and `end` lines may be kept); `#` starts a comment, blank lines are
/// skipped. A row of the wrong width is reported with its line.
fn diagram_file(path: &str, width: u8) -> Result<String, String> {
    let text = crate::check::limits::read_variant_file(path)
        .map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let mut ranks = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() || line == "setup" || line == "end" {
            continue;
        }
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != usize::from(width) {
            return Err(format!(
                "`{path}` line {}: {} in `{line}`, but the board is {width} wide",
                index + 1,
                crate::english::count(cells.len(), "square")
            ));
        }
        let mut rank = String::new();
        let mut empty = 0;
        for cell in cells {
            if cell == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                rank.push_str(&empty.to_string());
                empty = 0;
            }
            rank.push(cell);
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks.push(rank);
    }
    if ranks.is_empty() {
        return Err(format!(
            "`{path}` holds no diagram: write one line per rank, top rank first, like the setup block"
        ));
    }
    Ok(format!("/{}/", ranks.join("/")))
}

/// Runs `parallel` on a pool of `threads` threads, or `single` when one thread is asked for (the
/// default of `perft` and `playouts`, so that timings compare fairly). Prints the problem and
/// returns the exit code when the pool cannot start.
pub fn on_threads<T: Send>(
    threads: usize,
    single: impl FnOnce() -> T,
    parallel: impl FnOnce() -> T + Send,
) -> Result<T, ExitCode> {
    if threads <= 1 {
        return Ok(single());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| {
            eprintln!("error: cannot start {threads} threads: {e}");
            ExitCode::FAILURE
        })?;
    Ok(pool.install(parallel))
}

/// The game after `moves` from `position`: each as typed (`e1-e3`, `e1e3`) or as records and
/// `tafl match` write it (`e1-e3xe4`, `Ke5-e3`, with OpenTafl's marks). A malformed or illegal
/// move, or one whose captures differ from those written, is printed with its ply number (and
/// the rule that forbids it) and gives exit code 2.
pub fn game_after(
    loaded: &Loaded,
    position: Position,
    moves: &[String],
) -> Result<crate::game::Game, ExitCode> {
    let mut game = crate::game::Game::from_position(loaded.engine.clone(), position);
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let usage = |message: String| {
            eprintln!("ply {ply}: {}", crate::printable::shown(&message));
            ExitCode::from(USAGE)
        };
        let (mv, written) = read_move(text).map_err(usage)?;
        let before = *game.position();
        let captured = match game.play(mv) {
            Ok(played) => played.captured.clone(),
            Err(illegal) => return Err(usage(illegal.describe(loaded.variant.as_ref()))),
        };
        if let Some(written) = written {
            // As `tafl games check` compares them: kings left out (his capture ends the game).
            let engine = game.engine();
            let written = crate::record::check::without_kings(engine, &before, &written);
            let ours = crate::record::check::without_kings(engine, &before, &captured);
            if written != ours {
                let taken = if captured.is_empty() {
                    "nothing".to_string()
                } else {
                    crate::english::squares(&captured)
                };
                return Err(usage(format!(
                    "`{text}` writes the capture of {}, but the move takes {taken}",
                    crate::english::squares(&written)
                )));
            }
        }
    }
    Ok(game)
}

/// One move as typed or as a record writes it, with the captures written after `x` (`None`
/// where none are written); the error says what is wrong with it.
fn read_move(text: &str) -> Result<(crate::engine::Move, Option<Vec<Square>>), String> {
    if let Some(read) = crate::record::read_move_word(text) {
        return Ok(read);
    }
    // Not a record's word either: the plain reader says which part is wrong.
    let body = text.split_once('x').map_or(text, |(body, _)| body);
    match body.parse::<crate::engine::Move>() {
        Err(e) => Err(e.to_string()),
        Ok(_) => Err(format!(
            "`{text}`: write the captured squares after `x` like `e1-e3xe4` or `e1-e3xe4/d3`"
        )),
    }
}

/// A progress bar of `total` games on standard error, drawn with `template`, when standard error
/// is a terminal and the output is for people (`json` off); `None` otherwise, so that pipes and
/// tests see no bar.
pub fn progress(total: u64, template: &str, json: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    (!json && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    })
}

/// The progress bar of commands that play many games (`balance`, `selfplay`), shown on a
/// terminal from the first second: games finished of all, the
/// games under way and the moves played, the time so far.
pub struct GamesProgress {
    bar: Option<indicatif::ProgressBar>,
    running: AtomicU64,
    moves: AtomicU64,
}

impl GamesProgress {
    /// A bar for `total` games, unless `json` or standard error is not a terminal.
    pub fn new(total: u64, json: bool) -> GamesProgress {
        let bar = progress(
            total,
            "{spinner} {bar:30} {pos}/{len} games, {msg}, {elapsed} so far",
            json,
        );
        if let Some(bar) = &bar {
            bar.set_message("starting");
            bar.enable_steady_tick(std::time::Duration::from_millis(250));
        }
        GamesProgress {
            bar,
            running: AtomicU64::new(0),
            moves: AtomicU64::new(0),
        }
    }

    /// A game starts.
    pub fn start(&self) {
        self.running.fetch_add(1, Ordering::Relaxed);
        self.show();
    }

    /// A move was played in a game under way.
    pub fn moved(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        self.show();
    }

    /// A game ended.
    pub fn finish(&self) {
        self.running.fetch_sub(1, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
        self.show();
    }

    fn show(&self) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{} under way, {} moves played",
                self.running.load(Ordering::Relaxed),
                self.moves.load(Ordering::Relaxed)
            ));
        }
    }

    /// Takes the bar off the terminal.
    pub fn clear(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
