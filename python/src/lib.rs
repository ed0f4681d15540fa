//! `tafl._tafl`: the Rust half of the `tafl` Python package (issue 19). Variants, games, the
//! computer player and many-game runs; the pure-Python half (`python/tafl/`) builds the
//! PettingZoo environment, the Gymnasium wrapper and the Ray sweeps on it. docs/python.md
//! describes the whole package.

mod actions;
mod args;
mod errors;
mod game;
mod moves;
mod observation;
mod play;
mod variant;
mod vector;

use pyo3::prelude::*;

/// The bundled variants' names (`tafl list`).
#[pyfunction]
fn bundled() -> Vec<&'static str> {
    tafl::bundled_names().collect()
}

#[pymodule]
fn _tafl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("LintError", py.get_type::<errors::LintError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("MAX_GAMES", args::MAX_GAMES)?;
    m.add("MAX_DEPTH", args::MAX_DEPTH)?;
    m.add("MAX_PLAYOUT_CAP", args::MAX_PLAYOUT_CAP)?;
    m.add_class::<variant::Diagnostic>()?;
    m.add_class::<variant::Variant>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::SearchResult>()?;
    m.add_class::<vector::VectorCore>()?;
    m.add("MAX_ENVS", vector::MAX_ENVS)?;
    m.add_function(wrap_pyfunction!(bundled, m)?)?;
    m.add_function(wrap_pyfunction!(game::replay, m)?)?;
    m.add_function(wrap_pyfunction!(play::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(play::selfplay_games, m)?)?;
    m.add_function(wrap_pyfunction!(play::playouts, m)?)?;
    m.add_function(wrap_pyfunction!(play::wilson, m)?)?;
    m.add_function(wrap_pyfunction!(play::evaluation, m)?)?;
    m.add_function(wrap_pyfunction!(play::ladder, m)?)?;
    m.add_function(wrap_pyfunction!(play::techniques, m)?)?;
    Ok(())
}
