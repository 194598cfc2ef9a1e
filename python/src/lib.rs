//! The Python module `vzero._vzero` (re-exported by `vzero`): the rules, the network encoding,
//! the searches (MCTS with the user's own network, classical alpha-beta) and games as text of
//! every vzero variant, built from the `rules`, `mcts` and `alphabeta` crates without libtorch.
//! docs/python.md is the user's reference.

mod alphabeta_api;
mod errors;
mod evaluator;
mod game;
mod game_text;
mod search;
mod search_api;

use pyo3::prelude::*;
use rules::Variant;

/// The variants' names, in the order `vzero variants` lists them.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// One line describing a variant.
#[pyfunction]
fn variant_summary(variant: &str) -> PyResult<&'static str> {
    Ok(game::parse_variant(variant)?.summary())
}

#[pymodule]
fn _vzero(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::PyGame>()?;
    m.add_class::<search_api::PySearchResult>()?;
    m.add_class::<alphabeta_api::PyAlphaBetaResult>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(variant_summary, m)?)?;
    m.add_function(wrap_pyfunction!(search_api::search, m)?)?;
    m.add_function(wrap_pyfunction!(search_api::search_settings, m)?)?;
    m.add_function(wrap_pyfunction!(alphabeta_api::alphabeta, m)?)?;
    m.add_function(wrap_pyfunction!(game_text::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(game_text::write_game, m)?)?;
    m.add("PositionError", py.get_type::<errors::PositionError>())?;
    m.add("IllegalMoveError", py.get_type::<errors::IllegalMoveError>())?;
    m.add("GameTextError", py.get_type::<errors::GameTextError>())?;
    m.add("MATE", ::alphabeta::MATE)?;
    Ok(())
}
