//! The module's exceptions: subclasses of `ValueError` carrying the CLI's one-line messages.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(vzero, PositionError, PyValueError, "Position text that does not read or breaks a rule.");
create_exception!(vzero, IllegalMoveError, PyValueError, "A move or action that cannot be played here.");
create_exception!(
    vzero,
    GameTextError,
    PyValueError,
    "A game text that does not read, or whose moves or result the rules refuse."
);
