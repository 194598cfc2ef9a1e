//! Seats: the one thing every part of a game names, kept apart from the [`Game`](crate::Game)
//! trait so that scores, endings and pictures can name seats without the rules.

/// The most players any variant has (Wellisch Chess has three).
pub const MAX_PLAYERS: usize = 3;

/// A seat, 0-based in turn order (0 = White / P1).
pub type Player = usize;
