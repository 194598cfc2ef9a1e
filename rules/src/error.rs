//! Errors for position text and move text.

use thiserror::Error;

/// Why a position text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A field of the text could not be read; `at` is the 0-based character offset.
    #[error("bad position text: {field} at character {at}: {message}")]
    Syntax { field: &'static str, at: usize, message: String },
    /// The text reads, but the position breaks a rule (e.g. a side without a king).
    #[error("invalid position: {0}")]
    Invalid(String),
}

/// Why a move text was rejected; a rejected move is never applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move in this variant's notation.
    #[error("cannot read move '{text}': {message}")]
    Syntax { text: String, message: String },
    /// The text names a move that is not legal here, and why.
    #[error("illegal move '{text}': {reason}")]
    Illegal { text: String, reason: String },
}
