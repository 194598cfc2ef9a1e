//! How deep and how long one search may go.

use std::time::Duration;

/// The deepest search a player may ask for: beyond it even Mini Hexchess would take hours a
/// move without a time limit, so a larger number is a typing mistake.
pub const MAX_DEPTH: u32 = 30;

/// Limits of one search (one move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Plies searched in full before the quiescence search (iterations run 1, 2, .., depth).
    pub depth: u32,
    /// Wall-clock limit per move: the search stops and plays the best move of the last
    /// completed depth (the best so far at depth 1 if even that did not complete). `None`: no
    /// limit, and the search is deterministic.
    pub time: Option<Duration>,
    /// Whether to use the transposition table (off only to check that it changes no answer).
    pub table: bool,
}

/// Limits that cannot make a search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchLimitsError {
    /// Depth 0 or above [`MAX_DEPTH`].
    #[error("depth {0}: expected 1 to {MAX_DEPTH}")]
    Depth(u32),
    /// A zero time limit.
    #[error("time limit 0 ms: expected at least 1 ms")]
    NoTime,
}

impl SearchLimits {
    /// A search to `depth` plies, with the table and no time limit.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits { depth, time: None, table: true }
    }

    /// Checks the depth and time limit.
    pub fn validated(self) -> Result<SearchLimits, SearchLimitsError> {
        if self.depth == 0 || self.depth > MAX_DEPTH {
            return Err(SearchLimitsError::Depth(self.depth));
        }
        if self.time == Some(Duration::ZERO) {
            return Err(SearchLimitsError::NoTime);
        }
        Ok(self)
    }
}
