//! One-move wins by definition: play a move and look at the result. The reference behind
//! [`Game::winning_move`], which variants speed up, and what its tests compare against.

use crate::game::Game;
use crate::scores::Scores;

/// The result of playing `mv` (a legal move in `state`) if the mover wins by it at once, that is
/// the game ends with the mover scoring 1.
pub fn wins_by<G: Game>(state: &G, mv: G::Move) -> Option<Scores> {
    let mover = state.to_move();
    let mut next = state.clone();
    next.play(mv);
    next.outcome().filter(|s| s.as_slice()[mover] >= 1.0)
}

/// The first legal move (in generation order) by which the mover wins at once, found by playing
/// every legal move: the definition of [`Game::winning_move`] and its default.
pub fn winning_move_by_trying<G: Game>(state: &G) -> Option<G::Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.into_iter().find(|&mv| wins_by(state, mv).is_some())
}
