//! Many games in Rust without the GIL: computer against computer (as `tafl selfplay`) and
//! uniformly random games (as `tafl playouts`).

use std::time::Instant;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tafl::game::Status;
use tafl::search::duel::{self, Tally};
use tafl::search::ladder as balance;
use tafl::search::profile::Evaluation;
use tafl::search::{Limits, Settings};

use crate::args;
use crate::game::limits;
use crate::variant::Variant;

/// One finished game of a selfplay run, for Python: its status word, reason word and length
/// in plies.
pub type Played = (&'static str, &'static str, usize);

/// Plays game number `index` as `tafl selfplay` does ([`duel::selfplay_game`]).
fn play_game(
    variant: &Variant,
    limits: &Limits,
    seed: u64,
    index: u64,
    openings: impl Into<duel::Opening>,
    adjudication: duel::Adjudication,
) -> duel::Played {
    duel::selfplay_game(&variant.engine, limits, seed, index, openings, adjudication)
}

/// When a game of `cap=` and `resign=(score, moves)` stops, the rule checked as
/// `--resign SCORE,MOVES` is (both already read by [`args::cap`] and [`args::resign`]).
fn adjudication(cap: u32, resign: Option<(i32, u32)>) -> PyResult<duel::Adjudication> {
    let resign = resign
        .map(|(score, moves)| duel::Resign::new(score, moves))
        .transpose()
        .map_err(PyValueError::new_err)?;
    Ok(duel::Adjudication {
        cap: cap as usize,
        resign,
    })
}

/// The limits of a selfplay game, as the CLI sets them: one thread a search (games, not
/// searches, share the threads, so results do not depend on how the games are spread) and a
/// 16 MiB table, with the search techniques of `off` turned off and then those of `on` on.
fn selfplay_limits(
    time_ms: Option<u64>,
    depth: Option<u32>,
    off: &[String],
    on: &[String],
) -> PyResult<Limits> {
    let limits = limits(time_ms, depth)?;
    let settings = limits
        .settings
        .turned(off, on)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(limits.with_settings(settings).for_one_of_many_games())
}

/// The weights `weights=` names for `variant`, as `--weights` reads them: `None` or `"rules"`
/// for those its rules choose, a profile's name, `"hand"`, or a weights file's path.
fn chosen(variant: &Variant, weights: Option<&str>) -> PyResult<Evaluation> {
    Evaluation::named(weights.unwrap_or("rules"), variant.engine.rules())
        .map_err(PyValueError::new_err)
}

/// The weights a computer player uses for `variant` by default, chosen from its rules (where
/// the king escapes, the board's size, how the king is captured; never its name): the
/// profile's name, as ``weights=`` takes it.
#[pyfunction]
pub fn evaluation(py: Python<'_>, variant: &Bound<'_, PyAny>) -> PyResult<String> {
    let variant = Variant::resolve(py, variant)?;
    Ok(Evaluation::of(variant.engine.rules()).label)
}

/// `off=` and `on=` as every run reads them (`None`, a comma-separated string or a list of
/// names), each checked as a search technique: the two lists of names, as the results report
/// them. `tafl.sweep` calls it so that its results list exactly what the games were played with.
#[pyfunction]
#[pyo3(signature = (off = Vec::new(), on = Vec::new()))]
pub fn techniques(
    #[pyo3(from_py_with = args::off)] off: Vec<String>,
    #[pyo3(from_py_with = args::on)] on: Vec<String>,
) -> PyResult<(Vec<String>, Vec<String>)> {
    Settings::DEFAULT
        .turned(&off, &on)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((off, on))
}

/// Runs `body` on `threads` threads (rayon), or on this one for 1; `threads` is already bounded
/// by the cores ([`args::threads`]).
fn on_threads<T: Send>(threads: usize, body: impl FnOnce() -> T + Send) -> PyResult<T> {
    if threads <= 1 {
        return Ok(body());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start {threads} threads: {e}")))?;
    Ok(pool.install(body))
}

/// Games `first .. first + count` of a selfplay run seeded with `seed`, one after another on
/// this thread with the GIL released: `[(status, reason, plies), ...]`. Game `i` is the same
/// game whichever call plays it, so a run split into chunks gives the same games. With
/// `count=0` it plays nothing and only checks every setting: how sweeps refuse bad settings
/// before any task starts.
#[pyfunction]
#[pyo3(signature = (variant, first, count, *, seed = 1, openings = 4, opening_moves = duel::OpeningMoves::Any, cap = 400, depth = None, time_ms = None, resign = None, weights = None, off = Vec::new(), on = Vec::new()))]
#[allow(clippy::too_many_arguments)] // The keywords of a Python function.
pub fn selfplay_games(
    py: Python<'_>,
    variant: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::first)] first: u64,
    #[pyo3(from_py_with = args::count)] count: u64,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::openings)] openings: u32,
    #[pyo3(from_py_with = args::opening_moves)] opening_moves: duel::OpeningMoves,
    #[pyo3(from_py_with = args::cap)] cap: u32,
    #[pyo3(from_py_with = args::depth)] depth: Option<u32>,
    #[pyo3(from_py_with = args::time_ms)] time_ms: Option<u64>,
    #[pyo3(from_py_with = args::resign)] resign: Option<(i32, u32)>,
    weights: Option<&str>,
    #[pyo3(from_py_with = args::off)] off: Vec<String>,
    #[pyo3(from_py_with = args::on)] on: Vec<String>,
) -> PyResult<Vec<Played>> {
    let variant = Variant::resolve(py, variant)?;
    let limits = selfplay_limits(time_ms, depth, &off, &on)?
        .with_weights(chosen(&variant, weights)?.weights);
    let adjudication = adjudication(cap, resign)?;
    let opening = duel::Opening {
        plies: openings,
        moves: opening_moves,
    };
    let end = first
        .checked_add(count)
        .ok_or_else(|| PyValueError::new_err("`first + count` is too large"))?;
    Ok(py.detach(|| {
        (first..end)
            .map(|i| play_game(&variant, &limits, seed, i, opening, adjudication))
            .map(|p| (p.status.as_str(), p.reason, p.plies))
            .collect()
    }))
}

/// A game as `ladder` receives it: `(status, reason, plies)`, its plies read by [`args::size`].
type RawGame<'py> = (String, String, Bound<'py, PyAny>);

/// The balance ladder of `tafl balance --json` from games already played: `rungs` is
/// `[(ms, [(status, reason, plies), ...]), ...]` as `selfplay_games` returns them; the result
/// has the keys of `tafl balance --json` that do not describe how the games were run (`rungs`,
/// `settled`, `share`, `trend`, `verdict`).
#[pyfunction]
pub fn ladder<'py>(
    py: Python<'py>,
    rungs: Vec<(Bound<'py, PyAny>, Vec<RawGame<'py>>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut counted = Vec::with_capacity(rungs.len());
    for (ms, games) in &rungs {
        let ms = args::whole(ms, "ms", 0, u64::MAX)?;
        let mut results = Vec::with_capacity(games.len());
        for (status, reason, plies) in games {
            let plies = args::size(plies, "plies")?;
            let status = match status.as_str() {
                "attackers_win" => Status::AttackersWin,
                "defenders_win" => Status::DefendersWin,
                "draw" => Status::Draw,
                "ongoing" => Status::Ongoing,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "`{other}` is not a game's status (attackers_win, defenders_win, draw, ongoing)"
                    )))
                }
            };
            results.push((status, reason.as_str(), plies));
        }
        counted.push(balance::Rung::counted(ms, results));
    }
    let ladder = balance::Ladder::of(counted);
    let dict = PyDict::new(py);
    let mut rungs = Vec::with_capacity(ladder.rungs.len());
    for rung in &ladder.rungs {
        let item = PyDict::new(py);
        item.set_item("ms", rung.ms)?;
        item.set_item("games", rung.games)?;
        item.set_item("attackers_win", rung.attackers_win)?;
        item.set_item("defenders_win", rung.defenders_win)?;
        item.set_item("draws", rung.draws)?;
        item.set_item("capped", rung.capped)?;
        item.set_item("share", rung.share)?;
        item.set_item("low", rung.low)?;
        item.set_item("high", rung.high)?;
        item.set_item("mean_plies", rung.mean_plies)?;
        item.set_item("reasons", rung.reasons.clone())?;
        rungs.push(item);
    }
    dict.set_item("rungs", rungs)?;
    dict.set_item("settled", ladder.settled)?;
    dict.set_item("share", ladder.share)?;
    let trend = match ladder.trend {
        balance::Trend::Settled => "settled",
        balance::Trend::TowardsAttackers => "towards_attackers",
        balance::Trend::TowardsDefenders => "towards_defenders",
        balance::Trend::Undecided => "undecided",
    };
    dict.set_item("trend", trend)?;
    dict.set_item("verdict", ladder.verdict())?;
    Ok(dict)
}

/// The proportion `wins / games` with its 95% Wilson score interval: `(rate, low, high)`
/// (the library's, as `tafl selfplay` reports it). `wins` may not exceed `games`.
#[pyfunction]
pub fn wilson(
    #[pyo3(from_py_with = wins)] wins: u64,
    #[pyo3(from_py_with = args::playout_games)] games: u64,
) -> PyResult<(f64, f64, f64)> {
    if wins > games {
        return Err(PyValueError::new_err(format!(
            "`wins` ({wins}) cannot exceed `games` ({games})"
        )));
    }
    let rate = tafl::search::stats::wilson(wins, games);
    Ok((rate.rate, rate.low, rate.high))
}

/// `wins` of `wilson`: 0 to 2**64 - 1.
fn wins(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    args::whole(value, "wins", 0, u64::MAX)
}

fn rate<'py>(py: Python<'py>, rate: tafl::search::stats::Rate) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("rate", rate.rate)?;
    dict.set_item("low", rate.low)?;
    dict.set_item("high", rate.high)?;
    Ok(dict)
}

/// Computer against computer, as `tafl selfplay --json`: the same keys and, for the same
/// arguments, the same figures (but `seconds`). `threads` games are played at once (at most
/// the cores).
#[pyfunction]
#[pyo3(signature = (variant, games = 20, *, depth = None, time_ms = None, openings = 4, opening_moves = duel::OpeningMoves::Any, seed = 1, cap = 400, threads = 1, resign = None, weights = None, off = Vec::new(), on = Vec::new()))]
#[allow(clippy::too_many_arguments)] // The keywords of a Python function.
pub fn selfplay<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::selfplay_games)] games: u64,
    #[pyo3(from_py_with = args::depth)] depth: Option<u32>,
    #[pyo3(from_py_with = args::time_ms)] time_ms: Option<u64>,
    #[pyo3(from_py_with = args::openings)] openings: u32,
    #[pyo3(from_py_with = args::opening_moves)] opening_moves: duel::OpeningMoves,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::cap)] cap: u32,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    #[pyo3(from_py_with = args::resign)] resign: Option<(i32, u32)>,
    weights: Option<&str>,
    #[pyo3(from_py_with = args::off)] off: Vec<String>,
    #[pyo3(from_py_with = args::on)] on: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let variant = Variant::resolve(py, variant)?;
    let evaluation = chosen(&variant, weights)?;
    let limits = selfplay_limits(time_ms, depth, &off, &on)?.with_weights(evaluation.weights);
    let adjudication = adjudication(cap, resign)?;
    let opening = duel::Opening {
        plies: openings,
        moves: opening_moves,
    };
    let started = Instant::now();
    let results: Vec<duel::Played> = py.detach(|| {
        on_threads(threads, || {
            use rayon::prelude::*;
            (0..games)
                .into_par_iter()
                .map(|i| play_game(&variant, &limits, seed, i, opening, adjudication))
                .collect()
        })
    })?;
    let tally = Tally::of(&results);
    let dict = PyDict::new(py);
    dict.set_item("variant", variant.engine.rules().name.clone())?;
    dict.set_item("evaluation", evaluation.label)?;
    dict.set_item("off", off)?;
    dict.set_item("on", on)?;
    dict.set_item("games", games)?;
    // The CLI's `--level` is not offered here yet: both sides are the engine, as the CLI's
    // default level says.
    dict.set_item("level", "engine")?;
    dict.set_item("attackers_win", tally.attackers_win)?;
    dict.set_item("defenders_win", tally.defenders_win)?;
    dict.set_item("draw", tally.draw)?;
    dict.set_item("capped", tally.capped)?;
    dict.set_item("attackers", rate(py, tally.attackers)?)?;
    dict.set_item("defenders", rate(py, tally.defenders)?)?;
    dict.set_item("mean_plies", tally.mean_plies)?;
    dict.set_item("reasons", tally.reasons)?;
    dict.set_item("depth", limits.depth)?;
    dict.set_item("time_ms", limits.time.map(|t| t.as_millis() as u64))?;
    dict.set_item("openings", openings)?;
    dict.set_item("opening_moves", opening_moves.name())?;
    dict.set_item("seed", seed)?;
    dict.set_item("resign", adjudication.resign.map(|rule| rule.to_string()))?;
    dict.set_item("seconds", started.elapsed().as_secs_f64())?;
    Ok(dict)
}

/// Uniformly random games from the start, as `tafl playouts --json`: games, plies, wins,
/// draws, capped games and seconds. The GIL is released while they run, on `threads` threads
/// (at most the cores). `cap` is at most a million plies.
#[pyfunction]
#[pyo3(signature = (variant, games, *, seed = 1, cap = 500, threads = 1))]
pub fn playouts<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::playout_games)] games: u64,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::playout_cap)] cap: u32,
    #[pyo3(from_py_with = args::threads)] threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let variant = Variant::resolve(py, variant)?;
    let engine = &variant.engine;
    let start = engine.start();
    let timer = Instant::now();
    let summary = py.detach(|| {
        if threads <= 1 {
            Ok(engine.playouts(&start, games, seed, cap))
        } else {
            on_threads(threads, || {
                engine.playouts_parallel(&start, games, seed, cap)
            })
        }
    })?;
    let dict = PyDict::new(py);
    dict.set_item("games", summary.games)?;
    dict.set_item("plies", summary.plies)?;
    dict.set_item("attackers_win", summary.attackers_win)?;
    dict.set_item("defenders_win", summary.defenders_win)?;
    dict.set_item("draw", summary.draw)?;
    dict.set_item("capped", summary.capped)?;
    dict.set_item("seconds", timer.elapsed().as_secs_f64())?;
    Ok(dict)
}
