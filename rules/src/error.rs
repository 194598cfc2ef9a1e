//! Errors for position text and move text, and for playing moves in a game of any variant.

use thiserror::Error;

use crate::variant::Variant;

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

/// Why a move named by text or by policy index cannot be played in a
/// [`VariantGame`](crate::VariantGame); a rejected move is never applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    /// Move text that does not read or names no legal move.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A policy index that no legal move has.
    #[error("illegal action {action}: no legal move has that policy index (0 to {last} in {variant})")]
    Action {
        /// The action as given.
        action: i64,
        /// The variant's last policy index.
        last: usize,
        /// The variant played.
        variant: Variant,
    },
    /// The game is over; the text says how ([`crate::game_over_text`]).
    #[error("{0}")]
    Over(String),
}

/// Why a position and the moves played from it cannot be set up; names the bad part.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// The position text was rejected.
    #[error("position '{text}': {error}")]
    Position {
        /// The position text as given.
        text: String,
        /// Why it was rejected.
        error: PositionError,
    },
    /// A move cannot be played.
    #[error("move {number} ('{text}'): {error}")]
    Move {
        /// The move's number in the list, from 1.
        number: usize,
        /// The move text as given.
        text: String,
        /// Why it cannot be played.
        error: PlayError,
    },
}
