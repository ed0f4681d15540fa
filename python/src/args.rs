//! Reading Python arguments (issue 47): every number a Python caller passes is read here, so
//! that a wrong type is a `TypeError` and a number out of range a `ValueError` naming the
//! argument and its range, never an `OverflowError`, and no float or string is quietly taken
//! for a whole number. docs/fuzzing.md lists the limits.
//!
//! Each `#[pyo3(from_py_with = ...)]` reader below reads one argument; pyo3 gives it the value
//! and not the name, so each says its own name.

use std::fmt::Display;
use std::num::NonZeroUsize;

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use tafl::search::duel::OpeningMoves;

/// The most games one call plays and keeps: `selfplay`'s `games` and `selfplay_games`'
/// `count`. Their results are held in memory (and, for `selfplay_games`, returned as a list), so
/// a larger number would exhaust it before the first game; a longer run is several calls.
pub const MAX_GAMES: u64 = 1_000_000;

/// The deepest search: the command line's `--depth` range.
pub const MAX_DEPTH: u64 = 100;

/// An int as Python's `operator.index` reads it (ints, numpy's ints, bools; never a float or a
/// string): `Ok(Ok(n))` for one from 0 to 2**64 - 1, `Ok(Err(shown))` for an int outside
/// that (with the int as text, for a message), `TypeError` for anything else.
pub fn index(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Result<u64, String>> {
    match value.extract::<u64>() {
        Ok(n) => Ok(Ok(n)),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Ok(Err(shown(value))),
        Err(_) => Err(not_an_int(value, name)),
    }
}

/// The `TypeError` for an argument that is not an int.
pub fn not_an_int(value: &Bound<'_, PyAny>, name: &str) -> PyErr {
    PyTypeError::new_err(format!("`{name}` must be an int, not {}", type_name(value)))
}

/// The name of `value`'s type, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "that".to_string(), |n| n.to_string())
}

/// `value` as text for a message, cut short: an int of a million digits is not echoed whole
/// (and Python refuses to write one of more than 4,300).
pub fn shown(value: &Bound<'_, PyAny>) -> String {
    const LONGEST: usize = 40;
    match value.str() {
        Ok(text) => {
            let text = text.to_string();
            if text.chars().count() > LONGEST {
                let cut: String = text.chars().take(LONGEST).collect();
                format!("{cut}...")
            } else {
                text
            }
        }
        Err(_) => "a number too long to write".to_string(),
    }
}

/// `value` as a whole number from `min` to `max`: `TypeError` if it is not an int,
/// `ValueError` (naming `name` and the range) outside the range.
pub fn whole(value: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    match index(value, name)? {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(n) => Err(out_of_range(name, &n.to_string(), min, max)),
        Err(shown) => Err(out_of_range(name, &shown, min, max)),
    }
}

/// `value` as a signed whole number from `min` to `max`, as [`whole`] reads it.
pub fn signed(value: &Bound<'_, PyAny>, name: &str, min: i64, max: i64) -> PyResult<i64> {
    match value.extract::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(n) => Err(out_of_range(name, &n.to_string(), min, max)),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            Err(out_of_range(name, &shown(value), min, max))
        }
        Err(_) => Err(not_an_int(value, name)),
    }
}

fn out_of_range(name: &str, shown: &str, min: impl Display, max: impl Display) -> PyErr {
    PyValueError::new_err(format!("`{name}` must be {min} to {max}, not {shown}"))
}

/// As [`whole`], `None` passed as `None`.
fn optional(value: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<Option<u64>> {
    if value.is_none() {
        return Ok(None);
    }
    whole(value, name, min, max).map(Some)
}

fn narrow<T: TryFrom<u64>>(n: u64) -> T {
    // Every caller's range fits T.
    T::try_from(n).unwrap_or_else(|_| unreachable!("a checked range fits its type"))
}

/// `seed`: 0 to 2**64 - 1.
pub fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(value, "seed", 0, u64::MAX)
}

/// `openings`: random plies at the start of each game, 0 to 2**32 - 1.
pub fn openings(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    whole(value, "openings", 0, u64::from(u32::MAX)).map(narrow)
}

/// `opening_moves`: how the opening plies are drawn, `"any"` or `"plausible"` (as
/// `--opening-moves`).
pub fn opening_moves(value: &Bound<'_, PyAny>) -> PyResult<OpeningMoves> {
    let name: String = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "`opening_moves` must be \"any\" or \"plausible\", not {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string())
        ))
    })?;
    OpeningMoves::ALL
        .into_iter()
        .find(|moves| moves.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "opening_moves={name:?}: write \"any\" or \"plausible\""
            ))
        })
}

/// `cap`: the ply cap, 0 to 2**32 - 1.
pub fn cap(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    whole(value, "cap", 0, u64::from(u32::MAX)).map(narrow)
}

/// The longest random playout, in plies: `playouts`' `cap`. A playout reserves its ply history
/// for the whole cap before its first ply (`src/engine/playout.rs`), so a cap of 2**32 - 1
/// (32 GiB) aborted the process; a million plies is 8 MB, far past any game.
pub const MAX_PLAYOUT_CAP: u64 = 1_000_000;

/// `cap` of random playouts: 0 to [`MAX_PLAYOUT_CAP`].
pub fn playout_cap(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    whole(value, "cap", 0, MAX_PLAYOUT_CAP).map(narrow)
}

/// `depth`: `None`, or 1 to [`MAX_DEPTH`].
pub fn depth(value: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
    Ok(optional(value, "depth", 1, MAX_DEPTH)?.map(narrow))
}

/// `time_ms`: `None`, or 0 to 2**64 - 1 milliseconds.
pub fn time_ms(value: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    optional(value, "time_ms", 0, u64::MAX)
}

/// `games` of a selfplay run: 1 to [`MAX_GAMES`].
pub fn selfplay_games(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(value, "games", 1, MAX_GAMES)
}

/// `games` of random playouts: 0 to 2**64 - 1 (nothing is kept per game).
pub fn playout_games(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(value, "games", 0, u64::MAX)
}

/// `first`: the number of the first game, 0 to 2**64 - 1.
pub fn first(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(value, "first", 0, u64::MAX)
}

/// `count`: how many games, 0 to [`MAX_GAMES`].
pub fn count(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole(value, "count", 0, MAX_GAMES)
}

/// The cores this process may run on: what `threads` is bounded by.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `threads`: 1 to 2**32 - 1, and no more than the cores (more threads than cores only take
/// turns on them: 5,000 threads made ten playouts take two minutes).
pub fn threads(value: &Bound<'_, PyAny>) -> PyResult<usize> {
    let asked: usize = narrow(whole(value, "threads", 1, u64::from(u32::MAX))?);
    Ok(asked.min(cores()))
}

/// `resign`: `None`, or `(score, moves)` (a tuple or a list) with a score of 1 to 2**31 - 1
/// hundredths of a soldier and 1 to 2**32 - 1 moves.
pub fn resign(value: &Bound<'_, PyAny>) -> PyResult<Option<(i32, u32)>> {
    if value.is_none() {
        return Ok(None);
    }
    let pair: Vec<Bound<'_, PyAny>> =
        if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>() {
            value.extract()?
        } else {
            Vec::new()
        };
    let [score, moves] = pair.as_slice() else {
        return Err(PyTypeError::new_err(format!(
            "`resign` must be None or (score, moves), not {}",
            type_name(value)
        )));
    };
    let score = whole(score, "resign score", 1, i32::MAX as u64)?;
    let moves = whole(moves, "resign moves", 1, u64::from(u32::MAX))?;
    Ok(Some((narrow(score), narrow(moves))))
}

/// A count or offset kept in a `usize` (a diagnostic's line, a game's plies): 0 to 2**64 - 1.
pub fn size(value: &Bound<'_, PyAny>, name: &str) -> PyResult<usize> {
    let n = whole(value, name, 0, usize::MAX as u64)?;
    Ok(narrow(n))
}

/// `off`: the search techniques turned off, as [`techniques`] reads them.
pub fn off(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    techniques(value, "off")
}

/// `on`: the search techniques turned on (after `off`), as [`techniques`] reads them.
pub fn on(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    techniques(value, "on")
}

/// Search techniques' names as `--off`/`--on` take them: `None` for none, a comma-separated
/// string (`"corner-chase,learned"`, spaces and empty names left out) or a list or tuple of
/// names; `tafl._tafl.techniques` returns what it read, for the sweeps' results. Whether each is a technique
/// is [`tafl::search::Settings::turned`]'s to say (a `ValueError` listing them).
fn techniques(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<String>> {
    if value.is_none() {
        return Ok(Vec::new());
    }
    if let Ok(text) = value.extract::<String>() {
        return Ok(text
            .split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(String::from)
            .collect());
    }
    let refused = || {
        PyTypeError::new_err(format!(
            "`{name}` must be None, a string like \"corner-chase,learned\" or a list of names, not {}",
            type_name(value)
        ))
    };
    if !(value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>()) {
        return Err(refused());
    }
    value.extract::<Vec<String>>().map_err(|_| refused())
}
