//! `vzero.search(game, evaluate, ...)` and the `SearchResult` it returns. Parameters start from
//! the default search of `vzero analyse` ([`SearchParams::playing`] with `Tactics::default()`:
//! no noise, the tactical levers on) and each keyword sets the [`SearchParams`] setting of its
//! name (its `[search]` config key; mcts/src/params.rs and mcts/src/tactics/settings.rs declare
//! them all, with their ranges), but two: `temperature` is the move's temperature whatever the
//! schedule, and `win_checks` turns both one-move win checks on or off.

use mcts::{RootSearch, SearchParams, Tactics};
use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use rules::VariantGame;

use crate::evaluator::PyEvaluator;
use crate::game::PyGame;
use crate::search::{search_games, SearchOutput};

/// What a search found at the root of one game.
#[pyclass(module = "vzero", name = "SearchResult", frozen)]
pub struct PySearchResult {
    out: SearchOutput,
    policy_size: usize,
    /// The move to play as text: the temperature's draw (Gumbel: the halving's survivor).
    #[pyo3(get)]
    chosen: String,
    /// The policy index of `chosen`.
    #[pyo3(get)]
    chosen_action: i64,
    /// The move the search plays at temperature 0 by its choice rule, as text.
    #[pyo3(get)]
    best: String,
    /// The policy index of `best`.
    #[pyo3(get)]
    best_action: i64,
}

impl PySearchResult {
    fn new(out: SearchOutput, policy_size: usize) -> PySearchResult {
        let (chosen, chosen_action) = (out.moves[out.chosen].clone(), out.actions[out.chosen]);
        let (best, best_action) = (out.moves[out.best].clone(), out.actions[out.best]);
        PySearchResult { out, policy_size, chosen, chosen_action, best, best_action }
    }
}

#[pymethods]
impl PySearchResult {
    /// The root's legal moves as text, highest prior first; every per-move array follows this order.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.out.moves.clone()
    }

    /// The moves' policy indices (int64).
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_slice(py, &self.out.actions)
    }

    /// Completed visits of each move's subtree (int64).
    #[getter]
    fn visits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, self.out.visits.iter().map(|&v| v as i64).collect())
    }

    /// Each move's prior in the search: the softmax of the network's logits over the legal
    /// moves (all of it on the winning moves when `root_wins_first` found one), noise included.
    #[getter]
    fn priors<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.out.priors)
    }

    /// The mover's mean final score after each move, NaN where it was never visited.
    #[getter]
    fn q<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.out.q)
    }

    /// The policy target per move: visit shares (Gumbel: the completed-Q improved policy), sum 1.
    #[getter]
    fn policy<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.out.policy)
    }

    /// The policy target as a dense float32 vector of `policy_size`, 0 off the root's moves: the
    /// training target for the position's planes.
    fn policy_target<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut dense = vec![0.0f32; self.policy_size];
        for (&a, &p) in self.out.actions.iter().zip(&self.out.policy) {
            dense[a as usize] = p;
        }
        PyArray1::from_vec(py, dense)
    }

    /// The root's mean value: each seat's expected final score, in seat order.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.out.value)
    }

    /// `best`, then the most visited line below it, as move text.
    #[getter]
    fn pv(&self) -> Vec<String> {
        self.out.pv.clone()
    }

    /// Completed visits at the root.
    #[getter]
    fn root_visits(&self) -> u32 {
        self.out.root_visits
    }

    fn __repr__(&self) -> String {
        format!(
            "vzero.SearchResult(best={:?}, chosen={:?}, root_visits={}, value={:?})",
            self.best, self.chosen, self.out.root_visits, self.out.value
        )
    }
}

/// Searches `game` (a `Game`, or a list of games of one variant searched together, sharing each
/// `evaluate` call) with the network `evaluate(planes) -> (logits, values)` and returns a
/// `SearchResult` (a list of them for a list). The GIL is released while Rust searches.
#[pyfunction]
#[pyo3(signature = (
    game, evaluate, simulations=None, *, max_in_flight=None, root=None, gumbel_actions=None,
    paranoid=None, dirichlet_epsilon=None, dirichlet_alpha_scale=None, temperature=None,
    c_puct_init=None, c_puct_base=None, fpu_reduction=None, win_checks=None, seed=0, max_batch=1024,
    **settings
))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    evaluate: Py<PyAny>,
    simulations: Option<u32>,
    max_in_flight: Option<u32>,
    root: Option<&str>,
    gumbel_actions: Option<u32>,
    paranoid: Option<bool>,
    dirichlet_epsilon: Option<f32>,
    dirichlet_alpha_scale: Option<f32>,
    temperature: Option<f32>,
    c_puct_init: Option<f32>,
    c_puct_base: Option<f32>,
    fpu_reduction: Option<f32>,
    win_checks: Option<bool>,
    seed: u64,
    max_batch: usize,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let simulations = simulations.unwrap_or(SearchParams::default().simulations);
    let mut params = SearchParams::playing(simulations, &Tactics::default());
    let set = |field: &mut f32, value: Option<f32>| *field = value.unwrap_or(*field);
    params.max_in_flight = max_in_flight.unwrap_or(params.max_in_flight);
    if let Some(root) = root {
        params.root = root.parse::<RootSearch>().map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    params.gumbel_actions = gumbel_actions.unwrap_or(params.gumbel_actions);
    params.paranoid = paranoid.unwrap_or(params.paranoid);
    set(&mut params.dirichlet_epsilon, dirichlet_epsilon);
    set(&mut params.dirichlet_alpha_scale, dirichlet_alpha_scale);
    // A fresh search is at its ply 0: one temperature for its move, whatever the schedule.
    set(&mut params.temperature, temperature);
    set(&mut params.final_temperature, temperature);
    set(&mut params.c_puct_init, c_puct_init);
    set(&mut params.c_puct_base, c_puct_base);
    set(&mut params.fpu_reduction, fpu_reduction);
    if let Some(on) = win_checks {
        params.root_wins_first = on;
        params.wins_in_tree = on;
    }
    for (key, value) in settings.into_iter().flatten() {
        set_by_key(&mut params, &key, &value)?;
    }
    params.validate().map_err(|e| PyValueError::new_err(e.to_string()))?;
    if !evaluate.bind(py).is_callable() {
        return Err(PyTypeError::new_err("search: evaluate must be callable: evaluate(planes) -> (logits, values)"));
    }
    if max_batch == 0 {
        return Err(PyValueError::new_err("search: max_batch = 0: expected at least 1"));
    }
    let single = game.cast::<PyGame>().is_ok();
    let games: Vec<VariantGame> = if single {
        vec![PyGame::game_of(game, "search: game")?]
    } else {
        let items =
            game.try_iter().map_err(|_| PyTypeError::new_err("search: expected a vzero.Game or a list of them"))?;
        items
            .enumerate()
            .map(|(i, item)| PyGame::game_of(&item?, &format!("search: game {i}")))
            .collect::<PyResult<_>>()?
    };
    check_games(&games)?;
    let evaluator = PyEvaluator::new(evaluate, max_batch);
    let outputs = py.detach(|| search_games(&games, &evaluator, &params, seed));
    if let Some(error) = evaluator.take_error() {
        return Err(error);
    }
    let policy_size = games.first().map_or(0, |g| g.policy_size());
    let results: Vec<PySearchResult> = outputs.into_iter().map(|out| PySearchResult::new(out, policy_size)).collect();
    if single {
        let result = results.into_iter().next().expect("one game, one result");
        Ok(Py::new(py, result)?.into_any())
    } else {
        Ok(PyList::new(py, results)?.into_any().unbind())
    }
}

/// Every search setting `search` takes as a keyword, as its declaration gives it: a list of
/// dicts with `key`, `flag` (the command line's, or None), `default` and `range` (in words) and
/// `help`. The defaults are those of the default search (`vzero analyse`'s).
#[pyfunction]
pub fn search_settings(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let defaults = SearchParams::playing(SearchParams::default().simulations, &Tactics::default());
    let rows = SearchParams::settings().into_iter().map(|s| {
        let row = PyDict::new(py);
        row.set_item("key", s.key)?;
        row.set_item("flag", s.flag.map(|f| format!("--{f}")))?;
        row.set_item("default", defaults.get(s.key))?;
        row.set_item("range", &s.range)?;
        row.set_item("help", &s.help)?;
        Ok(row)
    });
    PyList::new(py, rows.collect::<PyResult<Vec<_>>>()?)
}

/// Sets the setting a keyword names (a `[search]` config key, e.g. `tactical_prior=0`), checked
/// against its declared range.
fn set_by_key(params: &mut SearchParams, key: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let key: String = key.extract()?;
    // Python writes its booleans capitalised; the settings read `true` and `false`.
    let text = match value.extract::<bool>() {
        Ok(on) if value.is_instance_of::<PyBool>() => on.to_string(),
        _ => value.str()?.to_string(),
    };
    match params.set(&key, &text) {
        Ok(true) => Ok(()),
        Ok(false) => Err(PyTypeError::new_err(format!("search() got an unexpected keyword argument '{key}'"))),
        Err(e) => Err(PyValueError::new_err(format!("search: {key} = {}: expected {}", e.value, e.expected))),
    }
}

/// Refuses a batch of games of several variants or with a finished game.
fn check_games(games: &[VariantGame]) -> PyResult<()> {
    for (i, g) in games.iter().enumerate() {
        if g.variant() != games[0].variant() {
            return Err(PyValueError::new_err(format!(
                "search: game {i} is {}, game 0 {}: one search takes games of one variant",
                g.variant(),
                games[0].variant()
            )));
        }
        if let Some(reason) = g.game_over_text() {
            let which = if games.len() == 1 { String::new() } else { format!(" (game {i})") };
            return Err(PyValueError::new_err(format!("nothing to search{which}: {reason}")));
        }
    }
    Ok(())
}
