//! The user's Python network as a search [`Evaluator`]: each batch of leaves becomes one NumPy
//! array `[B, *input_shape]`, encoded in place, handed to the Python callable with the GIL held,
//! and its logits and values are read back into the batch's slots.
//!
//! A callback that raises (or answers in the wrong shape) cannot stop the search from inside
//! [`Evaluator::evaluate`], which returns nothing: the error is kept, the rest of the search is
//! answered with uniform priors without calling Python again, and the caller raises it once the
//! search returns.

use std::sync::Mutex;

use mcts::{fill_from_network, Batch, Evaluator};
use numpy::{PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rules::{FullGame, MAX_PLAYERS};

/// A Python callable `evaluate(planes) -> (logits, values)` as an evaluator.
pub struct PyEvaluator {
    callback: Py<PyAny>,
    max_batch: usize,
    /// The first error of the callback, raised when the search returns.
    error: Mutex<Option<PyErr>>,
}

impl PyEvaluator {
    /// `callback`, called with at most `max_batch` positions at a time.
    pub fn new(callback: Py<PyAny>, max_batch: usize) -> PyEvaluator {
        PyEvaluator { callback, max_batch: max_batch.max(1), error: Mutex::new(None) }
    }

    /// The callback's first error, if it had one.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.lock().expect("the error slot is never poisoned").take()
    }

    fn failed(&self) -> bool {
        self.error.lock().expect("the error slot is never poisoned").is_some()
    }

    /// Encodes the batch, calls Python and fills the slots.
    fn ask<G: FullGame>(&self, py: Python<'_>, batch: &mut Batch<G>) -> PyResult<()> {
        let n = batch.len();
        let mut dims = vec![n];
        dims.extend_from_slice(G::INPUT_SHAPE);
        let planes = PyArrayDyn::<f32>::zeros(py, dims, false);
        {
            let mut view = planes.readwrite();
            let data = view.as_slice_mut().expect("a new array is contiguous");
            for (state, out) in batch.states().iter().zip(data.chunks_exact_mut(G::input_len())) {
                state.encode(out);
            }
        }
        let answer = self.callback.bind(py).call1((planes,))?;
        let answer = Answer::read(py, &answer, n, G::POLICY_SIZE, G::NUM_PLAYERS)?;
        for i in 0..n {
            let (logits, values) = answer.row(i);
            fill_from_network(batch.slot_mut(i), logits, values);
        }
        Ok(())
    }
}

impl<G: FullGame> Evaluator<G> for PyEvaluator {
    fn max_batch_size(&self) -> usize {
        self.max_batch
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        if !self.failed() {
            match Python::attach(|py| self.ask(py, batch)) {
                Ok(()) => return,
                Err(e) => *self.error.lock().expect("the error slot is never poisoned") = Some(e),
            }
        }
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            slot.priors.fill(1.0);
            *slot.value = [0.5; MAX_PLAYERS];
        }
    }
}

/// The callback's answer, read in place: either a tuple `(logits, values)` of float32 matrices
/// `[n, policy]` and `[n, players]`, or one matrix `[n, policy + players]` (an exported network's
/// output). Each part may be anything `numpy.asarray` reads (NumPy arrays, CPU torch tensors
/// without grad, nested lists); float32 C-contiguous arrays are used without a copy, which
/// matters as a policy has up to tens of thousands of logits of which the search reads a few.
enum Answer<'py> {
    Pair { logits: PyReadonlyArrayDyn<'py, f32>, values: PyReadonlyArrayDyn<'py, f32> },
    Joined { both: PyReadonlyArrayDyn<'py, f32>, policy: usize },
}

impl<'py> Answer<'py> {
    fn read(py: Python<'py>, answer: &Bound<'py, PyAny>, n: usize, policy: usize, players: usize) -> PyResult<Self> {
        // Only a tuple is a pair: a list of two rows is a batch of two.
        if answer.cast::<PyTuple>().is_ok_and(|t| t.len() == 2) {
            let logits = read_matrix(py, &answer.get_item(0)?, "logits", n, policy)?;
            let values = read_matrix(py, &answer.get_item(1)?, "values", n, players)?;
            return Ok(Answer::Pair { logits, values });
        }
        Ok(Answer::Joined { both: read_matrix(py, answer, "output", n, policy + players)?, policy })
    }

    /// Position `i`'s logits and values.
    fn row(&self, i: usize) -> (&[f32], &[f32]) {
        match self {
            Answer::Pair { logits, values } => (row_of(logits, i), row_of(values, i)),
            Answer::Joined { both, policy } => row_of(both, i).split_at(*policy),
        }
    }
}

/// Row `i` of a C-contiguous matrix.
fn row_of<'a>(matrix: &'a PyReadonlyArrayDyn<'_, f32>, i: usize) -> &'a [f32] {
    let data = matrix.as_slice().expect("read_matrix checked it is contiguous");
    let width = matrix.shape()[1];
    &data[i * width..(i + 1) * width]
}

/// `value` as a contiguous float32 matrix of `rows` x `columns`, or an error naming `what`.
fn read_matrix<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    what: &str,
    rows: usize,
    columns: usize,
) -> PyResult<PyReadonlyArrayDyn<'py, f32>> {
    let array = match value.cast::<PyArrayDyn<f32>>() {
        Ok(array) if array.is_c_contiguous() => array.clone(),
        _ => {
            let converted = py.import("numpy")?.call_method1("ascontiguousarray", (value, "float32"))?;
            converted.cast_into::<PyArrayDyn<f32>>().map_err(|e| PyValueError::new_err(e.to_string()))?
        }
    };
    if array.shape() != [rows, columns] {
        return Err(PyValueError::new_err(format!(
            "evaluate returned {what} of shape {:?}; expected [{rows}, {columns}] (batch, {})",
            array.shape(),
            match what {
                "logits" => "policy_size",
                "values" => "num_players",
                _ => "policy_size + num_players",
            }
        )));
    }
    Ok(array.readonly())
}
