//! The computer player: iterative-deepening alpha-beta search over any variant.
//!
//! [`search`] takes a [`Game`] (so the variant's repetition rules see the game's history) and
//! [`Limits`] (depth, time, threads) and returns a [`Report`]: the move, its [`Score`], the
//! depth reached, the nodes searched and the principal variation. The pieces:
//!
//! - `tree`: negamax with principal-variation search; wins and losses scored by distance, so the
//!   search takes the fastest win and the slowest loss; the variant's endings (escapes, decisive
//!   captures, no moves, automatic repetition, move limits) inside the tree; a repeated position
//!   counts as a draw where no automatic rule says otherwise;
//! - `iteration`: one iteration within aspiration windows, and the clock that decides whether
//!   to start the next;
//! - `tt`: a transposition table on the engine's Zobrist keys, shared lock-free by the threads;
//! - [`eval`]: the evaluation, a weighted sum of terms derived from the rules alone;
//! - [`profile`]: the weights, chosen from the rules (where the king escapes, the board's size,
//!   how the king is captured), never from the variant's name;
//! - [`Settings`]: the techniques beyond plain alpha-beta (quiescence, null moves, late-move
//!   reductions, aspiration windows, extensions, time management), each on or off;
//! - [`duel`]: games between two players from seeded openings (for `tafl match`, `selfplay`,
//!   `compare` and `tune`), and a game as a CSV row;
//! - [`stats`]: Elo, intervals and the SPRT of a match;
//! - [`ladder`]: the balance ladder of `tafl balance`, self-play at rising budgets and whether
//!   the attackers' share has settled;
//! - [`tune`]: fitting the weights to self-play results;
//! - [`train`]: training a network evaluation ([`crate::nnue`]) by self-play generations.
//!
//! With one thread and a depth limit the search is deterministic. More threads run the same
//! search on the shared table (lazy SMP); the table only ever decides a node with an entry of
//! exactly the depth asked, and entries whose score depended on the line (a repetition, a move
//! count) are not stored, so neither the table nor the threads change a fixed-depth score.
//!
//! ```
//! # use std::sync::{Arc, atomic::AtomicBool};
//! use tafl::search::{search, Limits};
//! let rules = tafl::Variant::bundled("brandubh").unwrap().rules;
//! let game = tafl::Game::new(Arc::new(tafl::Engine::new(&rules).unwrap()));
//! let report = search(&game, &Limits::depth(2), &AtomicBool::new(false), |_| {}).unwrap();
//! assert!(report.best.is_some());
//! assert_eq!(report.depth, 2);
//! ```

pub mod duel;
pub mod eval;
mod iteration;
pub mod ladder;
pub mod learned;
pub mod people;
pub mod profile;
mod standing;
pub mod stats;
pub mod train;
mod tree;
mod tt;
pub mod tune;

pub use standing::standing;

use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
// std::time::Instant panics on wasm32-unknown-unknown; web-time is std's on native.
use web_time::Instant;

use crate::engine::bitboard::Bits;
use crate::engine::core::{Core, Pos, RawMove};
use crate::engine::{Compiled, Ending, Engine, Move};
use crate::game::Game;
use iteration::{iteration, Clock};

pub use eval::{Weights, WEIGHTS};
pub use profile::weights_for;
pub use tt::{Table, TableError};

/// A win, for the side to move, at the root; a win `n` plies away scores `WIN - n`.
pub(crate) const WIN: i32 = 1_000_000;
/// Scores beyond ±`PROVEN` are wins and losses by force (a game is far shorter than the 1,000
/// plies between), the others evaluations.
pub(crate) const PROVEN: i32 = WIN - 1000;
/// A draw.
pub(crate) const DRAW: i32 = 0;

/// How long to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The depth to reach, in plies (iterative deepening stops there).
    pub depth: Option<u32>,
    /// The wall time for the whole answer; the best move of the last finished depth is played,
    /// or with [`Settings::partial_iterations`] that of the depth the clock cut short, where
    /// it had one.
    pub time: Option<Duration>,
    /// Search threads (lazy SMP). 1 is deterministic.
    pub threads: usize,
    /// The transposition table's size in MiB (0: no table).
    pub table_mb: usize,
    /// Which search techniques are on.
    pub settings: Settings,
    /// The evaluation's weights; `None`: those its rules choose ([`profile::weights_for`]).
    pub weights: Option<Weights>,
    /// Whether a network evaluates instead ([`crate::nnue`]): by default the one the rules
    /// choose, if any.
    pub network: crate::nnue::Choice,
}

/// The search techniques beyond plain alpha-beta, each on or off, so that each can be measured
/// alone (`tafl match` takes them per player; docs/strength.md gives each one's gain).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Past the depth limit, follow captures, king moves that open a route to an escape
    /// square, and the answers to such a threat (bounded), instead of evaluating a position
    /// where a piece is about to fall or the king about to run.
    pub quiescence: bool,
    /// Null-move pruning: let the side to move pass; if a shallower search still fails high,
    /// so would a real move. Verified by a reduced search where the side to move has few
    /// pieces (zugzwang, where any move spoils the position, is possible there).
    pub null_move: bool,
    /// Late-move reductions: quiet moves ordered late (from the seventh, at depth 4 or more)
    /// are searched one ply shallower first, and again at full depth only if they beat the
    /// best so far.
    pub reductions: bool,
    /// Aspiration windows: each iteration from the root starts with a narrow window around the
    /// last score, widened only when the score falls outside it.
    pub aspiration: bool,
    /// A move that gives the king an open route to an escape square is searched one ply
    /// deeper, so that the answer (a block, or the escape) is seen. Off by default: where a
    /// king stands near open corners nearly every move of his opens a route, and the
    /// extended tree cost three or four plies of depth at 1 s (docs/strength.md).
    pub extensions: bool,
    /// With a time limit, stop at an iteration boundary when the next iteration is not
    /// expected to finish in time, and allow more of the time when the best move has changed.
    pub time_management: bool,
    /// Reverse futility pruning: at a node of a null window a few plies from the horizon, a
    /// side whose evaluation beats `beta` by more than a margin a ply fails high without a
    /// search, unless the other side's runner has an open route, or that side could open one
    /// to a corner with its next move, by a king's move or by a man of his stepping off his
    /// line (then the evaluation says little).
    #[serde(default)]
    pub futility: bool,
    /// Late-move pruning: at a node of a null window a ply or two from the horizon, where the
    /// other side threatens no escape, the quiet moves ordered after the first 12 (1 ply) or
    /// 24 (2 plies), or after a fifth or two fifths of the list where that is more, are not
    /// searched, unless one opens a route for the mover's runner.
    #[serde(default)]
    pub late_move_pruning: bool,
    /// Deep reductions (with `reductions`): a late quiet move in the last two thirds of its
    /// node's list, 6 plies or more from the horizon, is searched two plies shallower first
    /// instead of one.
    #[serde(default)]
    pub deep_reductions: bool,
    /// Deeper table entries: a table entry searched deeper than the node needs decides it too
    /// (where its bound allows), not only one of exactly its depth. Off, the table never
    /// changes a fixed-depth result; on, a position reached again by a transposition closer
    /// to the horizon is not searched again.
    #[serde(default)]
    pub deeper_entries: bool,
    /// Fort watch: where a piece that wins by an edge fort stands on the edge able to move, the
    /// moves that land within three steps of it (either side's: the wall going up, or the
    /// men sent to stop it) are neither reduced nor pruned as late moves, and the other
    /// side's nodes are cut neither by reverse futility nor by a null move: a fort is built
    /// by quiet moves, over several plies, that the evaluation cannot see coming. Off by
    /// default: it held forts in the positions before them, but scored less at 1 s a move
    /// (docs/strength.md).
    #[serde(default)]
    pub fort_watch: bool,
    /// With a time limit, an iteration cut short by the clock still counts where it has
    /// finished a root move that beat the window's floor: that move, searched a ply deeper
    /// than the last finished iteration's, is played (it is the first move searched, the last
    /// iteration's best, or one that beat it). Off, the cut iteration's work is lost.
    #[serde(default)]
    pub partial_iterations: bool,
    /// The learned correction ([`learned`]): where the king escapes to a corner, each piece's
    /// place relative to the nearest corner, as fitted to people's games, is added to the
    /// evaluation. Off by default until a match shows a gain (docs/strength.md, "A learned
    /// correction").
    #[serde(default)]
    pub learned: bool,
    /// Corner chase, where a runner escapes to a small region (a king to the corners): in
    /// quiescence, the king's moves that open a route are followed through three plies, not
    /// one (his threat, the forced block, his next threat), and the side facing him may not
    /// stand on the evaluation where he could move to a fork, a square with open lines to two
    /// corners: only its moves that might stop the fork are searched, and none doing so is a
    /// loss. So a double threat a move past the horizon is seen (docs/strength.md, "How the
    /// attackers lose at 1 s", and "The corner chase"). Nothing changes where the king
    /// escapes to the edge.
    #[serde(default)]
    pub corner_chase: bool,
    /// King threat: in quiescence, a side whose king the other could take with its next move
    /// may not stand on the evaluation; every one of its moves is searched, and none saving
    /// him is a loss (a chess engine's check in quiescence). Without it, the attackers' last
    /// move before a king's capture lay past the horizon whenever it came at the horizon's
    /// edge (docs/strength.md, "A king about to be taken: `king-threat`").
    #[serde(default)]
    pub king_threat: bool,
}

impl Settings {
    /// Every technique on.
    pub const ALL: Settings = Settings {
        quiescence: true,
        null_move: true,
        reductions: true,
        aspiration: true,
        extensions: true,
        time_management: true,
        futility: true,
        late_move_pruning: true,
        deep_reductions: true,
        deeper_entries: true,
        fort_watch: true,
        partial_iterations: true,
        learned: true,
        corner_chase: true,
        king_threat: true,
    };

    /// What a search uses unless told otherwise: the techniques that did not measure as a loss
    /// (docs/strength.md). Time management lost at a fixed time a move (it stops early, and a
    /// fixed move time gives nothing for the time saved), so it is off. Deep reductions reach
    /// a ply deeper on 9x9 and scored +10 (−9 to +28) at 200 ms over three variants, and
    /// deeper table entries gained at 200 ms (+39 pooled), so both are on. Extensions were
    /// even at 50 ms (Linnaeus +0, Brandubh +17) and cost Copenhagen's search its depth where
    /// the king threatens a corner (depth 4 instead of 8 in 1 s, the losing move instead of
    /// the saving one), so they are off. The fort watch held three of the eleven forts our
    /// Copenhagen attackers lost from the positions before them, but at 1 s a move scored
    /// +221 against the old player where the search without it scores +285, a ply shallower
    /// where the king stands on the edge (docs/strength.md, "A fort in the search"), so it
    /// is off. Partial iterations can only play a move searched deeper than the last finished
    /// iteration's, and were even in matches (Brandubh +2, Linnaeus +6), so they are on. The
    /// corner chase won 27 of our Copenhagen attackers' 32 games at 1 s against the old
    /// player, where the player before it won 13 (docs/strength.md, "The corner chase"), so
    /// it is on. The king threat changed nothing in Copenhagen and slowed the 7x7 and 9x9
    /// searches, whose kings are taken by two, for no gain at 100 ms (Linnaeus −48, Brandubh
    /// −13), so it is off.
    pub const DEFAULT: Settings = Settings {
        time_management: false,
        extensions: false,
        fort_watch: false,
        learned: false,
        king_threat: false,
        ..Settings::ALL
    };

    /// Every technique off: the plain alpha-beta search of earlier versions (principal-variation
    /// search, the table, killers and history only).
    pub const NONE: Settings = Settings {
        quiescence: false,
        null_move: false,
        reductions: false,
        aspiration: false,
        extensions: false,
        time_management: false,
        futility: false,
        late_move_pruning: false,
        deep_reductions: false,
        deeper_entries: false,
        fort_watch: false,
        partial_iterations: false,
        learned: false,
        corner_chase: false,
        king_threat: false,
    };

    /// The techniques' names on the command line, in order.
    pub const NAMES: [&'static str; 15] = [
        "quiescence",
        "null-move",
        "reductions",
        "aspiration",
        "extensions",
        "time-management",
        "futility",
        "late-move-pruning",
        "deep-reductions",
        "deeper-entries",
        "fort-watch",
        "partial-iterations",
        "learned",
        "corner-chase",
        "king-threat",
    ];

    /// The switch called `name` (one of [`Settings::NAMES`]), or `None` for another name.
    pub fn switch(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "quiescence" => Some(&mut self.quiescence),
            "null-move" => Some(&mut self.null_move),
            "reductions" => Some(&mut self.reductions),
            "aspiration" => Some(&mut self.aspiration),
            "extensions" => Some(&mut self.extensions),
            "time-management" => Some(&mut self.time_management),
            "futility" => Some(&mut self.futility),
            "late-move-pruning" => Some(&mut self.late_move_pruning),
            "deep-reductions" => Some(&mut self.deep_reductions),
            "deeper-entries" => Some(&mut self.deeper_entries),
            "fort-watch" => Some(&mut self.fort_watch),
            "partial-iterations" => Some(&mut self.partial_iterations),
            "learned" => Some(&mut self.learned),
            "corner-chase" => Some(&mut self.corner_chase),
            "king-threat" => Some(&mut self.king_threat),
            _ => None,
        }
    }

    /// Turns the technique `name` on or off; `all` turns every one, and an empty name (a list's
    /// trailing comma) nothing. The command line's `--off`/`--on` and Python's `off=`/`on=`.
    ///
    /// # Errors
    /// A name that is neither `all` nor one of [`Settings::NAMES`].
    pub fn turn(&mut self, name: &str, on: bool) -> Result<(), UnknownTechnique> {
        match name {
            "" => {}
            "all" => *self = if on { Settings::ALL } else { Settings::NONE },
            _ => {
                *self
                    .switch(name)
                    .ok_or_else(|| UnknownTechnique(name.to_string()))? = on
            }
        }
        Ok(())
    }

    /// These settings with every technique of `off` turned off, then every one of `on` turned
    /// on (so `off=all, on=quiescence` is quiescence alone).
    ///
    /// # Errors
    /// The first name that is no technique.
    pub fn turned<S: AsRef<str>>(
        mut self,
        off: &[S],
        on: &[S],
    ) -> Result<Settings, UnknownTechnique> {
        for name in off {
            self.turn(name.as_ref(), false)?;
        }
        for name in on {
            self.turn(name.as_ref(), true)?;
        }
        Ok(self)
    }
}

/// A search technique's name that is neither `all` nor one of [`Settings::NAMES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTechnique(pub String);

impl std::fmt::Display for UnknownTechnique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown search technique `{}`: expected all, {}",
            self.0,
            Settings::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownTechnique {}

impl Default for Settings {
    /// [`Settings::DEFAULT`].
    fn default() -> Settings {
        Settings::DEFAULT
    }
}

impl Limits {
    /// Search to `depth` plies, one thread.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            time: None,
            threads: 1,
            table_mb: 32,
            settings: Settings::DEFAULT,
            weights: None,
            network: crate::nnue::Choice::Rules,
        }
    }

    /// Search for `time`, one thread.
    pub fn time(time: Duration) -> Limits {
        Limits {
            depth: None,
            time: Some(time),
            threads: 1,
            table_mb: 32,
            settings: Settings::DEFAULT,
            weights: None,
            network: crate::nnue::Choice::Rules,
        }
    }

    /// The same limits with these search techniques.
    pub fn with_settings(self, settings: Settings) -> Limits {
        Limits { settings, ..self }
    }

    /// The same limits with these evaluation weights.
    pub fn with_weights(self, weights: Weights) -> Limits {
        Limits {
            weights: Some(weights),
            ..self
        }
    }

    /// The same limits with this evaluation choice.
    pub fn with_network(self, network: crate::nnue::Choice) -> Limits {
        Limits { network, ..self }
    }

    /// The same limits with `threads` threads.
    pub fn with_threads(self, threads: usize) -> Limits {
        Limits {
            threads: threads.max(1),
            ..self
        }
    }

    /// The same limits for one of many games played at once (`selfplay`, `balance`,
    /// `compare`, `match`, Python's sweeps): one search thread, since games and not searches
    /// share the threads (so results do not depend on how the games are spread), and a 16 MiB
    /// table each.
    pub fn for_one_of_many_games(self) -> Limits {
        Limits {
            threads: 1,
            table_mb: 16,
            ..self
        }
    }
}

/// A score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Score {
    /// The side to move loses in this many plies, whatever it does.
    Loss(u32),
    /// No forced result seen: the evaluation, in hundredths of a soldier (positive is good).
    Value(i32),
    /// The side to move wins in this many plies, whatever the other side does.
    Win(u32),
}

impl Score {
    pub(crate) fn from_raw(raw: i32) -> Score {
        if raw > PROVEN {
            Score::Win((WIN - raw) as u32)
        } else if raw < -PROVEN {
            Score::Loss((WIN + raw) as u32)
        } else {
            Score::Value(raw)
        }
    }

    /// The score as one number, as `tafl best --json` prints it: the evaluation, or
    /// ±(1,000,000 − plies) for a forced win or loss.
    pub fn as_number(self) -> i32 {
        match self {
            Score::Value(value) => value,
            Score::Win(plies) => WIN - plies as i32,
            Score::Loss(plies) => -(WIN - plies as i32),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Value(value) => write!(f, "{:+.2}", f64::from(*value) / 100.0),
            Score::Win(plies) => write!(
                f,
                "wins in {}",
                crate::english::count(*plies as usize, "ply")
            ),
            Score::Loss(plies) => write!(
                f,
                "loses in {}",
                crate::english::count(*plies as usize, "ply")
            ),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move to play.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: Score,
    /// The last depth searched to the end.
    pub depth: u32,
    /// Positions visited, all threads together.
    pub nodes: u64,
    /// The deepest ply the main thread reached, quiescence included.
    pub seldepth: u32,
    /// Wall time so far.
    pub elapsed: Duration,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// The next best lines and their scores, best first, when several were asked for
    /// ([`search_lines`]); empty from one search.
    pub more_lines: Vec<(Vec<Move>, Score)>,
}

impl Report {
    /// Before any depth is searched: no move, nothing counted.
    fn nothing() -> Report {
        Report {
            best: None,
            score: Score::Value(0),
            depth: 0,
            nodes: 0,
            seldepth: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            more_lines: Vec::new(),
        }
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            (self.nodes as f64 / seconds) as u64
        } else {
            0
        }
    }
}

/// What a search says while it runs ([`search_lines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// A depth is finished: the report so far, as [`search`]'s callback gets it.
    Depth(&'a Report),
    /// The root has started on a move (only when asked for, and once the time asked has
    /// passed).
    Current(&'a CurrentMove),
}

/// A move the root has started on (UCI's `currmove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentMove {
    /// The depth of the iteration under way.
    pub depth: u32,
    /// The move.
    pub mv: Move,
    /// Its place in the root's order in this iteration, from 1. An iteration whose score fell
    /// outside its aspiration window searches the root again, from 1.
    pub number: usize,
}

/// Why there is nothing to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver(Ending),
}

/// Searches the position of `game` for its side to move within `limits`. `stop` ends the search
/// early (the best move found so far is returned); `progress` is called after every finished
/// depth with the report so far. The search has a table of its own, of `limits.table_mb`.
///
/// # Errors
/// [`SearchError::GameOver`] when the game has ended.
pub fn search(
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    progress: impl FnMut(&Report),
) -> Result<Report, SearchError> {
    search_with(game, limits, &Table::new(limits.table_mb), stop, progress)
}

/// [`search`] with the caller's table, whatever `limits.table_mb` says: what earlier searches
/// stored in it is used, as an engine uses what it learnt on the moves before, and the table
/// costs no time here. Positions of another variant must not share a table ([`Table::clear`]
/// it when the variant or the game changes).
///
/// # Errors
/// [`SearchError::GameOver`] when the game has ended.
pub fn search_with(
    game: &Game,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    progress: impl FnMut(&Report),
) -> Result<Report, SearchError> {
    search_among(game, &[], limits, table, stop, progress)
}

/// The best `lines` lines (MultiPV) among `only` (empty: every legal move): the best line
/// as [`search_among`] finds it, then the best without its first move, and so on, each with an
/// equal share of `limits.time`. The first is the report; the others are its
/// [`Report::more_lines`]. Fewer when there are fewer moves, or `stop` is set. `progress` hears
/// of the first line's search: each finished depth, and, from `current_after` on (none: never),
/// each move its root starts on.
///
/// # Errors
/// [`SearchError::GameOver`] when the game has ended.
#[allow(clippy::too_many_arguments)] // the search's inputs, and what its caller listens for
pub fn search_lines(
    game: &Game,
    only: &[Move],
    lines: usize,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    current_after: Option<Duration>,
    mut progress: impl FnMut(Progress<'_>),
) -> Result<Report, SearchError> {
    let candidates: Vec<Move> = if only.is_empty() {
        game.legal_moves()
    } else {
        only.to_vec()
    };
    let lines = lines.clamp(1, candidates.len().max(1));
    let share = Limits {
        time: limits
            .time
            .map(|time| time / u32::try_from(lines).unwrap_or(u32::MAX)),
        ..*limits
    };
    let mut report = search_root(
        game,
        only,
        &share,
        table,
        stop,
        current_after,
        &mut progress,
    )?;
    let mut taken: Vec<Move> = report.best.into_iter().collect();
    while report.more_lines.len() + 1 < lines && !stop.load(Ordering::Relaxed) {
        let rest: Vec<Move> = candidates
            .iter()
            .filter(|mv| !taken.contains(mv))
            .copied()
            .collect();
        let next = search_among(game, &rest, &share, table, stop, |_| {})?;
        let Some(best) = next.best.filter(|best| rest.contains(best)) else {
            break;
        };
        taken.push(best);
        report.nodes += next.nodes;
        report.elapsed += next.elapsed;
        report.more_lines.push((next.pv, next.score));
    }
    Ok(report)
}

/// [`search_with`] choosing only among `only` at the root (UCI's `searchmoves`; a host's rule
/// this toolkit's variant does not have, such as the hnefatafl crate's ban on the defenders
/// recreating a position). The moves of `only` that are not legal are left out; when none is
/// legal, or `only` is empty, every legal move is searched.
///
/// # Errors
/// [`SearchError::GameOver`] when the game has ended.
pub fn search_among(
    game: &Game,
    only: &[Move],
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Report),
) -> Result<Report, SearchError> {
    search_root(game, only, limits, table, stop, None, |said| {
        if let Progress::Depth(report) = said {
            progress(report);
        }
    })
}

/// [`search_among`], telling `progress` also of each move the root starts on from
/// `current_after` on.
fn search_root(
    game: &Game,
    only: &[Move],
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    current_after: Option<Duration>,
    progress: impl FnMut(Progress<'_>),
) -> Result<Report, SearchError> {
    if let Some(ending) = game.ending() {
        return Err(SearchError::GameOver(ending));
    }
    let engine = game.engine();
    let legal = game.legal_moves();
    let only: Vec<RawMove> = only
        .iter()
        .filter(|mv| legal.contains(mv))
        .map(|mv| RawMove {
            // A legal move's squares are on the board, whose indices fit the engine's u16.
            from: engine.index(mv.from) as u16,
            to: engine.index(mv.to) as u16,
        })
        .collect();
    let positions = game.positions();
    let history: Vec<u64> = positions[..positions.len() - 1]
        .iter()
        .map(|p| engine.hash(p))
        .collect();
    let root = (history, only, current_after);
    let report = match engine.compiled(game.position()) {
        Some(Compiled::Narrow(core, pos)) => {
            run(engine, core, pos, root, limits, table, stop, progress)
        }
        Some(Compiled::Wide(core, pos)) => {
            run(engine, core, pos, root, limits, table, stop, progress)
        }
        // A game's positions are its engine's own.
        None => Report::nothing(),
    };
    Ok(report)
}

#[allow(clippy::too_many_arguments)] // the search's inputs, each from a different owner
fn run<B: Bits>(
    engine: &Engine,
    core: &Core<B>,
    root: Pos<B>,
    (history, only, current_after): (Vec<u64>, Vec<RawMove>, Option<Duration>),
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    progress: impl FnMut(Progress<'_>),
) -> Report {
    let started = Instant::now();
    let deadline = limits.time.map(|t| started + t);
    let max_depth = limits
        .depth
        .unwrap_or(tree::MAX_PLY as u32 - 1)
        .clamp(1, tree::MAX_PLY as u32 - 1);
    let start: Vec<usize> = engine
        .pieces(&engine.start())
        .into_iter()
        .map(|(_, kind)| kind)
        .collect();
    let weights = limits
        .weights
        .unwrap_or_else(|| profile::weights_for(engine.rules()));
    let mut evaluator = eval::Evaluator::new(core, weights, &start);
    // The model was fitted to Copenhagen's games: it plays where a variant's weights are
    // Copenhagen's profile, a board larger than 7x7 whose king escapes to a corner.
    let features = profile::Features::of(engine.rules());
    if limits.settings.learned
        && features.escape == profile::Escape::Corners
        && !features.small_board
    {
        evaluator = evaluator.with_placed(learned::corners().table(engine, learned::STRENGTH));
    }
    // A network that reads another board or other pieces cannot score this variant: the
    // command line refuses such a file before it gets here.
    if let Some(net) = limits.network.network(engine.rules()) {
        if net.network().layout() == &crate::nnue::Layout::of(engine.rules()) {
            evaluator = evaluator.with_network(net.network());
        }
    }
    let finished = AtomicBool::new(false);
    let helper_nodes = AtomicU64::new(0);
    let settings = limits.settings;

    let mut report = std::thread::scope(|scope| {
        for id in 1..limits.threads.max(1) {
            let (evaluator, table, finished, helper_nodes, history, only) = (
                &evaluator,
                table,
                &finished,
                &helper_nodes,
                history.clone(),
                only.clone(),
            );
            scope.spawn(move || {
                let mut worker =
                    tree::Worker::new(core, evaluator, table, [stop, finished], deadline, history);
                worker.settings = settings;
                worker.root_only = only;
                // Helpers search a little deeper than the main thread, half of them, so that
                // they fill the table ahead of it.
                let mut depth = 1 + (id % 2) as i32;
                while depth <= max_depth as i32 + 1 && !worker.aborted {
                    worker.root_depth = depth;
                    worker.search(&root, depth, 0, -WIN - 1, WIN + 1, true);
                    depth += 1;
                }
                helper_nodes.fetch_add(worker.nodes, Ordering::Relaxed);
            });
        }

        // The main thread's root tells of its moves (from `current_after` on) through the same
        // callback as the finished depths, never at once.
        let progress = RefCell::new(progress);
        let mut announce = |mv: RawMove, number: usize, depth: i32| {
            let current = CurrentMove {
                depth: depth.max(1) as u32,
                mv: engine.move_of(mv),
                number,
            };
            (progress.borrow_mut())(Progress::Current(&current));
        };
        let mut main = tree::Worker::new(core, &evaluator, table, [stop, &finished], None, history);
        main.settings = settings;
        main.root_only = only;
        main.announce = current_after.map(|after| tree::Announce {
            from: started + after,
            call: &mut announce,
        });
        let mut report = Report::nothing();
        let mut clock = Clock::new(started, limits.time, settings.time_management);
        for depth in 1..=max_depth {
            // Every depth may be cut, the first too: its quiescence alone can outlast any
            // budget (every piece moving anywhere, 13x13); a cut first one still has a move.
            main.deadline = deadline;
            main.root_depth = depth as i32;
            let raw = iteration(&mut main, &root, depth as i32, report.score, settings);
            let pv: Vec<Move> = main.root_pv().iter().map(|&m| engine.move_of(m)).collect();
            if main.aborted && depth == 1 {
                report = first_iteration_cut(&mut main, engine, &root, raw, pv);
                break;
            }
            if main.aborted {
                // The root's line is cleared when an attempt starts and set only by a move
                // whose search finished above the floor: where there is one, it is this
                // depth's best so far, and the last finished depth's report says less.
                if settings.partial_iterations && !pv.is_empty() {
                    report.best = pv.first().copied();
                    report.score = Score::from_raw(raw);
                    report.pv = pv;
                }
                break;
            }
            let changed = depth > 1 && pv.first() != report.best.as_ref();
            report = Report {
                best: pv.first().copied(),
                score: Score::from_raw(raw),
                depth,
                nodes: main.nodes + helper_nodes.load(Ordering::Relaxed),
                seldepth: main.seldepth as u32,
                elapsed: started.elapsed(),
                pv,
                more_lines: Vec::new(),
            };
            (progress.borrow_mut())(Progress::Depth(&report));
            // A forced result within the depth searched will not change with more depth.
            if let Score::Win(plies) | Score::Loss(plies) = report.score {
                if plies <= depth {
                    break;
                }
            }
            if !clock.another_iteration(changed) {
                break;
            }
        }
        finished.store(true, Ordering::Relaxed);
        report.nodes = main.nodes;
        report
    });
    // The helpers have all stopped: count their nodes too.
    report.nodes += helper_nodes.load(Ordering::Relaxed);
    report.elapsed = started.elapsed();
    report
}

/// The report of a search cut before its first iteration finished (no depth searched to the
/// end): the best of the root moves whose search finished, or, where none did, the root's
/// first move, scored by the evaluation. Depth 0 says that nothing finished.
fn first_iteration_cut<B: Bits>(
    main: &mut tree::Worker<'_, B>,
    engine: &Engine,
    root: &Pos<B>,
    raw: i32,
    pv: Vec<Move>,
) -> Report {
    let (best, score, pv) = if let Some(&best) = pv.first() {
        (Some(best), Score::from_raw(raw), pv)
    } else {
        let first = main.first_root_move(root).map(|mv| engine.move_of(mv));
        let score = Score::Value(main.eval.evaluate(main.core, root));
        (first, score, first.into_iter().collect())
    };
    Report {
        best,
        score,
        nodes: main.nodes,
        seldepth: main.seldepth as u32,
        pv,
        ..Report::nothing()
    }
}
