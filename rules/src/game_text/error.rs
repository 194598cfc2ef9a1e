//! Why a game text was rejected: the line, and the tag, move or result that failed.

use thiserror::Error;

use crate::error::PlayError;

/// A game text that cannot be read, with the line (from 1) where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct GameTextError {
    /// The line of the text, counting from 1.
    pub line: usize,
    /// What is wrong there.
    pub problem: Problem,
}

/// What is wrong with a game text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    /// The text is not tags and moves (an unclosed tag or comment, a stray character).
    #[error("{0}")]
    Syntax(String),
    /// A tag's value cannot be used.
    #[error("[{tag}]: {message}")]
    Tag {
        /// The tag's name.
        tag: String,
        /// What is wrong with its value.
        message: String,
    },
    /// A move cannot be played.
    #[error("move {number} ({seat}, ply {ply}): {error}")]
    Move {
        /// The move's number as PGN counts them: every seat's move of a round shares it.
        number: usize,
        /// The seat whose move it is, by name.
        seat: String,
        /// The move's place in the game, from 1.
        ply: usize,
        /// Why it cannot be played.
        error: PlayError,
    },
    /// The result, the ending and the moves do not agree.
    #[error("{0}")]
    Result(String),
    /// The text holds no game.
    #[error("no game found (expected tags such as [Variant \"glinski\"], then the moves)")]
    Empty,
}

impl Problem {
    /// This problem at `line`.
    pub(crate) fn at(self, line: usize) -> GameTextError {
        GameTextError { line, problem: self }
    }
}
