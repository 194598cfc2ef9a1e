//! Why a search has no answer.

use thiserror::Error;

/// Why [`crate::Search::result`] cannot give a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The root position is finished: there is no move to choose.
    #[error("the game is over at the search root")]
    GameOver,
    /// No simulation has completed yet at the root (search not run).
    #[error("the search has not evaluated the root yet")]
    NotSearched,
}
