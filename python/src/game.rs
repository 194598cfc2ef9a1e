//! `vzero.Game`: one position of any variant, with its rules, text and network encoding, named as
//! OpenSpiel's `pyspiel.State` names them where it has a name (`legal_actions`, `apply_action`).

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use rules::{PlayError, Variant, VariantGame};

use crate::errors::{IllegalMoveError, PositionError};

/// A game of one of the vzero variants, at its start position or at `position` text.
#[pyclass(module = "vzero", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    game: VariantGame,
    /// The cells the last move left and entered, marked on the text board.
    last: Option<(u16, u16)>,
}

/// A variant name as a [`Variant`], or Python's `ValueError` with the CLI's message.
pub fn parse_variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(|e| PyValueError::new_err(e.to_string()))
}

fn play_error(e: PlayError) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

impl PyGame {
    /// The game behind a Python object, or a `TypeError` naming `what` it should have been.
    pub fn game_of(object: &Bound<'_, PyAny>, what: &str) -> PyResult<VariantGame> {
        let game =
            object.cast::<PyGame>().map_err(|_| PyTypeError::new_err(format!("{what}: expected a vzero.Game")))?;
        Ok(game.borrow().game.clone())
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant, position=None))]
    fn new(variant: &str, position: Option<&str>) -> PyResult<PyGame> {
        let variant = parse_variant(variant)?;
        let game = match position {
            Some(text) => VariantGame::from_text(variant, text).map_err(|e| PositionError::new_err(e.to_string()))?,
            None => VariantGame::start(variant),
        };
        Ok(PyGame { game, last: None })
    }

    /// The variant's name (`glinski`, `mini-hexchess`, `wellisch`, `weltschach`).
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.game.variant().players()
    }

    /// The seat to move, 0-based in turn order.
    #[getter]
    fn to_move(&self) -> usize {
        self.game.to_move()
    }

    /// The Zobrist hash of everything that makes positions equal for repetition.
    #[getter]
    fn hash(&self) -> u64 {
        self.game.hash()
    }

    /// Shape of the network input of one position: `(C, H, W)`, Weltschach `(C, 8, 8, 8)`.
    #[getter]
    fn input_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.game.input_shape())
    }

    /// Number of policy outputs (actions are in `range(policy_size)`).
    #[getter]
    fn policy_size(&self) -> usize {
        self.game.policy_size()
    }

    /// The legal moves in the variant's notation, in generation order.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// The legal moves' policy indices (int64), in the order of `legal_moves()`.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, self.game.legal_actions())
    }

    /// `policy_size` int8 flags, 1 at every legal action (PettingZoo's `action_mask`).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0i8; self.game.policy_size()];
        for a in self.game.legal_actions() {
            mask[a as usize] = 1;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Plays a move: its text (`"f5-f6"`) or its policy index. Raises `IllegalMoveError` (the
    /// CLI's message) and leaves the game as it was when it cannot be played.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let played = if mv.cast::<PyString>().is_ok() {
            self.game.play_text(&mv.extract::<String>()?)
        } else {
            let action: i64 =
                mv.extract().map_err(|_| PyTypeError::new_err("play: expected move text or an action (int)"))?;
            self.game.play_action(action)
        };
        self.last = played.map_err(play_error)?.cells;
        Ok(())
    }

    /// `play(action)` by OpenSpiel's name.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(action)
    }

    /// An independent copy.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }

    /// Each seat's final score in [0, 1] (win 1, draw 1/2, loss 0, and the variants' special
    /// scores), or None while the game goes on.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.game.outcome().map(|s| PyTuple::new(py, s.as_slice())).transpose()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The rule that ended the game (`"checkmate"`, `"stalemate"`, `"king captured"`,
    /// `"repetition"`, ...), or None while it goes on.
    fn ending(&self) -> Option<&'static str> {
        self.game.ending().map(|e| e.name())
    }

    /// How the game ended in one sentence (`"Checkmate: Black is mated, White wins."`), or None.
    fn ending_text(&self) -> Option<String> {
        self.game.ending_text()
    }

    /// The position in the variant's text format; `Game(variant, text)` reads it back.
    fn text(&self) -> String {
        self.game.to_text()
    }

    /// The network input planes, float32 shaped `input_shape`, from the mover's point of view:
    /// exactly what `vzero encode` writes to planes.npy. With `out` (a C-contiguous float32
    /// array of `input_shape`'s size), the planes are written into it and it is returned.
    #[pyo3(signature = (out=None))]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArrayDyn<f32>>>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let shape = self.game.input_shape();
        let out = out.unwrap_or_else(|| PyArrayDyn::<f32>::zeros(py, shape, false));
        let len: usize = shape.iter().product();
        // A Fortran-ordered array or a transposed view is contiguous too, and `as_slice_mut`
        // takes it, but its memory is in another order: the planes would land scrambled.
        let not_c_order = || {
            PyValueError::new_err(
                "encode: out must be a C-contiguous float32 array (np.ascontiguousarray makes one; \
                 a Fortran-ordered array or a transposed view would get the planes scrambled)",
            )
        };
        if !out.is_c_contiguous() {
            return Err(not_c_order());
        }
        {
            let mut view = out.try_readwrite().map_err(|e| PyValueError::new_err(format!("encode: out: {e}")))?;
            let data = view.as_slice_mut().map_err(|_| not_c_order())?;
            if data.len() != len {
                return Err(PyValueError::new_err(format!(
                    "encode: out holds {} floats; the planes are {len} ({shape:?})",
                    data.len()
                )));
            }
            self.game.encode(data);
        }
        Ok(out)
    }

    /// The policy index of a legal move given as text.
    fn action_of(&self, mv: &str) -> PyResult<i64> {
        self.game.action_of(mv).map_err(play_error)
    }

    /// The text of the legal move with policy index `action`.
    fn move_of(&self, action: i64) -> PyResult<String> {
        self.game.move_of(action).map_err(play_error)
    }

    /// Leaves of the legal-move tree `depth` plies deep (`vzero perft`).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let game = &self.game;
        py.detach(|| game.perft(depth))
    }

    /// The board as text, the last move's cells marked `*` (`vzero play`'s board).
    fn board(&self) -> String {
        self.game.board_text(self.last)
    }

    fn __str__(&self) -> String {
        self.board()
    }

    fn __repr__(&self) -> String {
        format!("vzero.Game({:?}, {:?})", self.game.variant().name(), self.game.to_text())
    }
}
