//! A game from Python: moves as text or `Move` objects, the history, the computer's move, and
//! the board as numpy planes and as action numbers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use numpy::ndarray::{Array1, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::exceptions::{PyImportError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;
use tafl::game::notation::{parse_position, position_to_string};
use tafl::search::{self, Limits};
use tafl::{Move, Side, Square, Status};

use crate::args;
use crate::errors::IllegalMoveError;
use crate::moves::{read_move, PyMove};
use crate::observation;
use crate::variant::{side_word, Variant};

/// What the computer's search found.
#[pyclass(frozen, get_all, eq, module = "tafl._tafl")]
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play.
    #[pyo3(name = "move")]
    pub best: Option<PyMove>,
    /// The score for the side to move: the evaluation in hundredths of a soldier, or
    /// ±(1,000,000 − plies) for a forced win or loss (as `tafl best --json`).
    pub score: i32,
    /// The score in words (`+0.35`, `wins in 3 plies`).
    pub score_text: String,
    /// The last depth searched to the end.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line, starting with the move.
    pub pv: Vec<PyMove>,
    /// Seconds the search took.
    pub seconds: f64,
}

#[pymethods]
impl SearchResult {
    /// A result from its fields, as `__reduce__` gives them: how one is unpickled.
    #[new]
    #[pyo3(signature = (best, score, score_text, depth, nodes, pv, seconds))]
    #[allow(clippy::too_many_arguments)] // One a field.
    fn new(
        best: Option<PyMove>,
        #[pyo3(from_py_with = score)] score: i32,
        score_text: String,
        #[pyo3(from_py_with = searched_depth)] depth: u32,
        #[pyo3(from_py_with = nodes)] nodes: u64,
        pv: Vec<PyMove>,
        #[pyo3(from_py_with = seconds)] seconds: f64,
    ) -> SearchResult {
        SearchResult {
            best,
            score,
            score_text,
            depth,
            nodes,
            pv,
            seconds,
        }
    }

    /// Pickles as its fields (for Ray and multiprocessing).
    #[allow(clippy::type_complexity)] // The tuple pickle's protocol asks for.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (
        Bound<'py, PyType>,
        (Option<PyMove>, i32, String, u32, u64, Vec<PyMove>, f64),
    ) {
        let r = slf.get();
        (
            slf.get_type(),
            (
                r.best,
                r.score,
                r.score_text.clone(),
                r.depth,
                r.nodes,
                r.pv.clone(),
                r.seconds,
            ),
        )
    }

    fn __repr__(&self) -> String {
        let mv = self
            .best
            .map_or("None".to_string(), |m| m.inner.to_string());
        format!(
            "SearchResult(move={mv}, score={}, depth={}, nodes={})",
            self.score, self.depth, self.nodes
        )
    }
}

/// `score` of a `SearchResult`: any 32-bit signed int.
fn score(value: &Bound<'_, PyAny>) -> PyResult<i32> {
    let n = args::signed(value, "score", i64::from(i32::MIN), i64::from(i32::MAX))?;
    Ok(n as i32)
}

/// `depth` of a `SearchResult`: 0 to 2**32 - 1.
fn searched_depth(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(args::whole(value, "depth", 0, u64::from(u32::MAX))? as u32)
}

/// `nodes` of a `SearchResult`: 0 to 2**64 - 1.
fn nodes(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    args::whole(value, "nodes", 0, u64::MAX)
}

/// `seconds` of a `SearchResult`: a float (or an int) from 0, finite.
fn seconds(value: &Bound<'_, PyAny>) -> PyResult<f64> {
    match value.extract::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        Ok(_) => Err(PyValueError::new_err(format!(
            "`seconds` must be 0 or more and finite, not {}",
            args::shown(value)
        ))),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(value.py()) => Err(
            PyValueError::new_err("`seconds` must be 0 or more and finite, not that large"),
        ),
        Err(_) => Err(PyTypeError::new_err(format!(
            "`seconds` must be a float, not {}",
            args::type_name(value)
        ))),
    }
}

/// Whether numpy imported once already: after that, the arrays are made without asking again.
static NUMPY: AtomicBool = AtomicBool::new(false);

/// `ImportError` unless numpy can be imported: the numpy crate panics without it, where the
/// caller should hear what to install.
fn needs_numpy(py: Python<'_>, what: &str) -> PyResult<()> {
    if NUMPY.load(Ordering::Relaxed) {
        return Ok(());
    }
    match py.import("numpy") {
        Ok(_) => {
            NUMPY.store(true, Ordering::Relaxed);
            Ok(())
        }
        Err(cause) => {
            let err = PyImportError::new_err(format!(
                "{what} returns a numpy array and numpy cannot be imported: `pip install numpy`"
            ));
            err.set_cause(py, Some(cause));
            Err(err)
        }
    }
}

/// A game of a variant: the positions so far, the moves, and how it stands.
///
/// `Game("copenhagen")`, `Game(variant)`, or from a position string:
/// `Game("linnaeus", position="/3ttt3/...", to_move="defenders")`.
#[pyclass(name = "Game", module = "tafl._tafl")]
#[derive(Clone)]
pub struct PyGame {
    pub variant: Variant,
    pub inner: tafl::Game,
}

fn side_from(word: &str) -> PyResult<Side> {
    word.parse::<Side>().map_err(|_| {
        PyValueError::new_err(format!(
            "`{word}` is not a side: write `attackers` or `defenders`"
        ))
    })
}

impl PyGame {
    /// Plays `mv`, or raises with the game unchanged.
    pub fn play_move(&mut self, mv: Move) -> PyResult<Vec<Square>> {
        match self.inner.play(mv) {
            Ok(ply) => Ok(ply.captured.clone()),
            Err(e) => Err(IllegalMoveError::new_err(e.to_string())),
        }
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant, position = None, to_move = None))]
    fn new(
        py: Python<'_>,
        variant: &Bound<'_, PyAny>,
        position: Option<&str>,
        to_move: Option<&str>,
    ) -> PyResult<PyGame> {
        let variant = Variant::resolve(py, variant)?;
        let engine = variant.engine.clone();
        let inner = match position {
            None => {
                if to_move.is_some() {
                    return Err(PyValueError::new_err("`to_move` needs a `position`"));
                }
                tafl::Game::new(engine)
            }
            Some(text) => {
                let side = match to_move {
                    Some(word) => side_from(word)?,
                    None => engine.rules().first_to_move,
                };
                let start = parse_position(&engine, text, side)
                    .map_err(|e| PyValueError::new_err(format!("bad position: {e}")))?;
                tafl::Game::from_position(engine, start)
            }
        };
        Ok(PyGame { variant, inner })
    }

    /// The variant this game plays.
    #[getter]
    fn variant(&self) -> Variant {
        self.variant.clone()
    }

    /// The legal moves of the side to move, sorted by from-square then to-square; none once
    /// the game is over.
    fn legal_moves(&self) -> Vec<PyMove> {
        self.inner
            .legal_moves()
            .into_iter()
            .map(PyMove::from)
            .collect()
    }

    /// Plays a move (`"e1-e3"` or a `Move`) and returns the squares of the pieces it captured.
    /// An illegal move raises `IllegalMoveError` and changes nothing.
    #[pyo3(name = "play")]
    fn py_play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let mv = read_move(mv)?;
        let captured = self.play_move(mv)?;
        Ok(captured.iter().map(Square::to_string).collect())
    }

    /// Takes back the last move and returns it (`None` at the start). A declared ending is not
    /// possible from Python, so this always takes back a ply.
    fn undo(&mut self) -> Option<PyMove> {
        match self.inner.undo()? {
            tafl::Undone::Ply(ply) => Some(PyMove::from(ply.mv)),
            tafl::Undone::Declared(_) => None,
        }
    }

    /// `ongoing`, `attackers_win`, `defenders_win` or `draw`.
    #[getter]
    fn status(&self) -> &'static str {
        self.inner.status().as_str()
    }

    /// `attackers`, `defenders`, or `None` (game on, or drawn).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        match self.inner.status() {
            Status::AttackersWin => Some("attackers"),
            Status::DefendersWin => Some("defenders"),
            Status::Ongoing | Status::Draw => None,
        }
    }

    /// Why the game ended (`king_escaped`, `king_captured`, `repetition`, ...), or `None`.
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        self.inner.reason().map(|r| r.as_str())
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The side to move: `attackers` or `defenders`.
    #[getter]
    fn to_move(&self) -> &'static str {
        side_word(self.inner.to_move())
    }

    /// The position string (`/3ttt3/4t4/.../`), as `tafl replay --json` prints it.
    #[getter]
    fn position(&self) -> String {
        position_to_string(&self.variant.engine, self.inner.position())
    }

    /// How many plies have been played.
    #[getter]
    fn ply_count(&self) -> usize {
        self.inner.plies().len()
    }

    /// The moves played so far.
    fn history(&self) -> Vec<PyMove> {
        self.inner
            .plies()
            .iter()
            .map(|p| PyMove::from(p.mv))
            .collect()
    }

    /// An independent copy of the game.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// Pickles as the variant, the first position and the moves, replayed when unpickled.
    #[allow(clippy::type_complexity)] // The tuple pickle's protocol asks for.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (Variant, String, &'static str, Vec<String>),
    )> {
        let engine = &self.variant.engine;
        // A game always holds its first position.
        let first = self.inner.positions()[0];
        let replay = py.import("tafl._tafl")?.getattr("_replay")?;
        Ok((
            replay,
            (
                self.variant.clone(),
                position_to_string(engine, &first),
                side_word(engine.to_move(&first)),
                self.inner
                    .plies()
                    .iter()
                    .map(|p| p.mv.to_string())
                    .collect(),
            ),
        ))
    }

    /// The board as a uint8 array of shape (planes, height, width): row 0 is the top rank, column
    /// 0 file `a`. One plane per piece kind (each kind belongs to one side), then one per region
    /// (the special squares), then, with `to_move=True`, a plane of ones when the attackers are
    /// to move. `plane_names()` names them.
    #[pyo3(signature = (to_move = false))]
    fn planes<'py>(&self, py: Python<'py>, to_move: bool) -> PyResult<Bound<'py, PyArray3<u8>>> {
        needs_numpy(py, "Game.planes()")?;
        let engine = &self.variant.engine;
        let count = observation::plane_count(engine, to_move);
        let mut bytes = vec![0u8; count * observation::plane_size(engine)];
        observation::write_planes(engine, self.inner.position(), to_move, &mut bytes);
        let (w, h) = (usize::from(engine.width()), usize::from(engine.height()));
        let array = Array3::from_shape_vec((count, h, w), bytes)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The names of `planes()`: `attackers:soldier`, ..., `region:throne`, ..., `to_move`.
    #[pyo3(signature = (to_move = false))]
    fn plane_names(&self, to_move: bool) -> Vec<String> {
        observation::plane_names(&self.variant.engine, to_move)
    }

    /// An int8 array (as Gymnasium masks are) over the variant's actions: 1 where the action is a legal move.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        needs_numpy(py, "Game.legal_action_mask()")?;
        let actions = &self.variant.actions;
        let mut mask = vec![0i8; actions.count()];
        actions.write_mask(&self.inner.legal_moves(), 1, &mut mask);
        Ok(Array1::from_vec(mask).into_pyarray(py))
    }

    /// The legal moves as action numbers, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        let actions = &self.variant.actions;
        let mut list: Vec<usize> = self
            .inner
            .legal_moves()
            .into_iter()
            .filter_map(|mv| actions.encode(mv))
            .collect();
        list.sort_unstable();
        list
    }

    /// Plays the move of an action number; returns how many pieces it captured. An int that
    /// is no legal action (out of range included) raises `IllegalMoveError`, anything but an
    /// int (a float, a string) `TypeError`; either way nothing changes.
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        let actions = &self.variant.actions;
        let last = actions.count() - 1;
        let number = match args::index(action, "action")? {
            Ok(n) => n,
            Err(shown) if shown.starts_with('-') => {
                return Err(IllegalMoveError::new_err(format!(
                    "action {shown} is negative: actions are 0 to {last}"
                )))
            }
            Err(shown) => {
                return Err(IllegalMoveError::new_err(format!(
                    "action {shown} is past the last action ({last})"
                )))
            }
        };
        let Some(mv) = usize::try_from(number).ok().and_then(|a| actions.decode(a)) else {
            let why = if number <= last as u64 {
                "leaves the board".to_string()
            } else {
                format!("is past the last action ({last})")
            };
            return Err(IllegalMoveError::new_err(format!("action {number} {why}")));
        };
        Ok(self.play_move(mv)?.len())
    }

    /// The computer's move: searches for `time_ms` milliseconds (default 2000, as `tafl best`)
    /// or to `depth` plies (1 to 100), with `threads` threads (at most the cores). The GIL is
    /// released while it thinks. Raises `ValueError` when the game is over.
    #[pyo3(signature = (time_ms = None, depth = None, threads = 1))]
    fn best(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::time_ms)] time_ms: Option<u64>,
        #[pyo3(from_py_with = args::depth)] depth: Option<u32>,
        #[pyo3(from_py_with = args::threads)] threads: usize,
    ) -> PyResult<SearchResult> {
        let limits = limits(time_ms, depth)?.with_threads(threads);
        let game = &self.inner;
        let report = py
            .detach(|| search::search(game, &limits, &AtomicBool::new(false), |_| {}))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(SearchResult {
            best: report.best.map(PyMove::from),
            score: report.score.as_number(),
            score_text: report.score.to_string(),
            depth: report.depth,
            nodes: report.nodes,
            pv: report.pv.iter().copied().map(PyMove::from).collect(),
            seconds: report.elapsed.as_secs_f64(),
        })
    }

    /// The board as text: rank numbers, a symbol per piece, `.` for an empty square and `+`
    /// for an empty special square (in a region other than `edge`), file letters below.
    fn board(&self) -> String {
        let engine = &self.variant.engine;
        let rules = engine.rules();
        // The `edge` region is the board's border, plain to see: marking it would hide the
        // squares that matter (throne, corners).
        let special = |sq: Square| {
            rules
                .regions
                .iter()
                .any(|r| r.name != "edge" && r.squares.contains(&sq))
        };
        let mut text = String::new();
        for rank in (0..engine.height()).rev() {
            text.push_str(&format!("{:>2} ", u32::from(rank) + 1));
            for file in 0..engine.width() {
                let sq = Square::new(file, rank);
                let c = match engine.piece_at(self.inner.position(), sq) {
                    Some(kind) => rules.pieces[kind].symbol,
                    None if special(sq) => '+',
                    None => '.',
                };
                text.push(c);
                text.push(' ');
            }
            text.pop();
            text.push('\n');
        }
        text.push_str("   ");
        let files: Vec<String> = (0..engine.width())
            .map(|f| char::from(b'a' + f).to_string())
            .collect();
        text.push_str(&files.join(" "));
        text.push('\n');
        text
    }

    fn __str__(&self) -> String {
        self.board()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, plies={}, status={})",
            self.variant.engine.rules().name,
            self.inner.plies().len(),
            self.inner.status().as_str()
        )
    }
}

/// The search limits of a depth or a time (default: 2000 ms, as `tafl best`), both read by
/// [`args::depth`] and [`args::time_ms`] (the depth within the command line's 1 to 100).
pub fn limits(time_ms: Option<u64>, depth: Option<u32>) -> PyResult<Limits> {
    match (time_ms, depth) {
        (Some(_), Some(_)) => Err(PyValueError::new_err("give `time_ms` or `depth`, not both")),
        (None, Some(depth)) => Ok(Limits::depth(depth)),
        (Some(ms), None) => Ok(Limits::time(Duration::from_millis(ms))),
        (None, None) => Ok(Limits::time(Duration::from_millis(2000))),
    }
}

/// The game of `variant` from `position` with `to_move` to play, after `moves`: how a pickled
/// game comes back.
#[pyfunction]
#[pyo3(name = "_replay")]
pub fn replay(
    py: Python<'_>,
    variant: &Bound<'_, PyAny>,
    position: &str,
    to_move: &str,
    moves: Vec<String>,
) -> PyResult<PyGame> {
    let mut game = PyGame::new(py, variant, Some(position), Some(to_move))?;
    for text in moves {
        let mv = text
            .parse::<Move>()
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        game.play_move(mv)?;
    }
    Ok(game)
}
