//! Moves from Python: the `Move` class and the reading of a move given as text or as a `Move`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyType;
use tafl::Move;

use crate::args;
use crate::errors::IllegalMoveError;

/// A move: a piece goes from one square to another, written `e1-e3`.
#[pyclass(frozen, eq, hash, from_py_object, name = "Move", module = "tafl._tafl")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub inner: Move,
}

impl From<Move> for PyMove {
    fn from(inner: Move) -> PyMove {
        PyMove { inner }
    }
}

#[pymethods]
impl PyMove {
    /// Reads `e1-e3` (or `e1e3`).
    #[new]
    fn new(text: &str) -> PyResult<PyMove> {
        text.parse::<Move>()
            .map(PyMove::from)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// The square the piece leaves, e.g. `e1`.
    #[getter(from_square)]
    fn leaves(&self) -> String {
        self.inner.from.to_string()
    }

    /// The square the piece goes to, e.g. `e3`.
    #[getter(to_square)]
    fn reaches(&self) -> String {
        self.inner.to.to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.inner)
    }

    /// Pickles as its text (`copy.deepcopy(game.history())`, Ray, multiprocessing).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().inner.to_string(),))
    }
}

/// A `Move` or a move's text as a move.
pub fn read_move(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = value.cast::<PyMove>() {
        return Ok(mv.get().inner);
    }
    let text: String = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a move is a `Move` or a string like `e1-e3`, not {}",
            args::type_name(value)
        ))
    })?;
    text.parse::<Move>()
        .map_err(|e| IllegalMoveError::new_err(e.to_string()))
}
