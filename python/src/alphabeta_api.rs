//! `vzero.alphabeta(game, depth, ms=None)`: the classical yardstick player's move and score.

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rules::{with_variant_game, Encoding, Game};

use crate::game::PyGame;

/// The alpha-beta player's answer.
#[pyclass(module = "vzero", name = "AlphaBetaResult", frozen, get_all)]
pub struct PyAlphaBetaResult {
    /// The move to play, as text.
    #[pyo3(name = "move")]
    mv: String,
    /// Its policy index.
    action: i64,
    /// Its value for the player to move, in centipawns (`vzero.MATE` and more for a forced win).
    score: i32,
    /// The deepest completed iteration.
    depth: u32,
    /// Nodes searched (full-width and quiescence).
    nodes: u64,
    /// Whether the time limit cut an iteration short.
    stopped: bool,
}

#[pymethods]
impl PyAlphaBetaResult {
    fn __repr__(&self) -> String {
        format!(
            "vzero.AlphaBetaResult(move={:?}, score={}, depth={}, nodes={})",
            self.mv, self.score, self.depth, self.nodes
        )
    }
}

/// Searches `game` with the classical alpha-beta player (the arena's `alphabeta:DEPTH[:MS]`) to
/// `depth` plies, or until `ms` milliseconds have passed; `seed` breaks ties between equal root
/// moves. The GIL is released while it searches.
#[pyfunction]
#[pyo3(signature = (game, depth, ms=None, *, seed=0))]
pub fn alphabeta(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    depth: u32,
    ms: Option<u64>,
    seed: u64,
) -> PyResult<PyAlphaBetaResult> {
    let game = PyGame::game_of(game, "alphabeta: game")?;
    let settings = ::alphabeta::SearchLimits { depth, time: ms.map(Duration::from_millis), table: true }
        .validated()
        .map_err(|e| PyValueError::new_err(format!("alphabeta: {e}")))?;
    if let Some(reason) = game.game_over_text() {
        return Err(PyValueError::new_err(format!("nothing to search: {reason}")));
    }
    let result = py.detach(|| {
        with_variant_game!(&game, g => ::alphabeta::search(g, &settings, seed).map(|found| PyAlphaBetaResult {
            mv: g.move_text(found.best),
            action: g.policy_index(found.best) as i64,
            score: found.value,
            depth: found.depth,
            nodes: found.nodes,
            stopped: found.stopped,
        }))
    });
    Ok(result.expect("a live position has a move"))
}
