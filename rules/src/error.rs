//! Errors for position text and move text.

use thiserror::Error;

/// Why a position text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A field of the text could not be read; `at` is the 0-based character offset.
    #[error("bad position text: {field} at character {at}: {message}")]
    Syntax {
        /// The field that could not be read, as the text format names it (e.g. `"castling"`).
        field: &'static str,
        /// The 0-based character offset in the text where it went wrong.
        at: usize,
        /// What is wrong there.
        message: String,
    },
    /// The text reads, but the position breaks a rule (e.g. a side without a king).
    #[error("invalid position: {0}")]
    Invalid(String),
}

/// Why a move text was rejected; a rejected move is never applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in this variant's notation.
    #[error("cannot read move '{text}': {message}")]
    Syntax {
        /// The move text as given.
        text: String,
        /// What could not be read.
        message: String,
    },
    /// The text names a move that is not legal here, and why.
    #[error("illegal move '{text}': {reason}")]
    Illegal {
        /// The move text as given.
        text: String,
        /// Why the move is not legal in this position.
        reason: String,
    },
}
