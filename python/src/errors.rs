//! The package's two exceptions. They sit apart from the classes that raise them so that
//! `variant`, `moves` and `game` can all raise them without importing one another.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

// Both exceptions are named under `tafl`, where the package exports them, so that pickle (and
// so Ray, multiprocessing, `copy`) finds them: under `_tafl` they could not be unpickled, and a
// `LintError` raised in a Ray task arrived as a bare `RayTaskError`.
create_exception!(
    tafl,
    LintError,
    PyValueError,
    "The variant text has errors; `.diagnostics` lists every problem (errors and warnings)."
);

create_exception!(
    tafl,
    IllegalMoveError,
    PyValueError,
    "The move is not legal here (or cannot be read); the game is unchanged."
);
