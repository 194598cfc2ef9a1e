//! The judge the tactical levers ask: a [`MoveJudge`] gives every move of a new node a value,
//! and [`Judged`] puts those values into the evaluator's answers where the search asks for
//! them. `alphabeta::TacticsJudge` is the judge: a quiescence search after each move.

use rules::{Game, MAX_PLAYERS};

use crate::batch::Batch;
use crate::evaluator::Evaluator;

/// Judges every legal move of a position at once.
pub trait MoveJudge<G: Game> {
    /// Fills `values[j]` with the expected score (0 to 1) of `state`'s mover after `moves[j]`.
    fn judge_moves(&self, state: &G, moves: &[G::Move], values: &mut [f32]);
}

/// An evaluator whose answers carry judged moves wherever the search asks for them: `inner`'s
/// priors and values, and `judge`'s value of each move. A search whose parameters use no
/// judged values asks for none, and then this is `inner` alone.
#[derive(Clone, Copy, Debug)]
pub struct Judged<E, J> {
    /// Gives the priors and values.
    pub inner: E,
    /// Judges the moves.
    pub judge: J,
}

impl<G: Game, E: Evaluator<G>, J: MoveJudge<G>> Evaluator<G> for Judged<E, J> {
    fn max_batch_size(&self) -> usize {
        self.inner.max_batch_size()
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        self.inner.evaluate(batch);
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            if let Some(values) = slot.move_values {
                self.judge.judge_moves(slot.state, slot.moves, values);
            }
        }
    }

    fn knows_values(&self) -> bool {
        self.inner.knows_values()
    }
}

/// What each of the other seats expects when the mover expects `mover`: the rest of the utility
/// sum (`num_players / 2`) shared equally, `1 - mover` for two players.
pub(crate) fn others_share(num_players: usize, mover: f32) -> f32 {
    (num_players as f32 / 2.0 - mover) / (num_players - 1) as f32
}

/// Each seat's value when the seat `mover` expects `value` and the others share the rest of the
/// utility sum equally (for three players, as paranoid alpha-beta sees them).
pub fn seat_vector(num_players: usize, mover: usize, value: f32) -> [f32; MAX_PLAYERS] {
    let other = others_share(num_players, value);
    let mut v = [0.0; MAX_PLAYERS];
    for (seat, x) in v[..num_players].iter_mut().enumerate() {
        *x = if seat == mover { value } else { other };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_others_share_the_rest_of_the_utility_sum() {
        assert_eq!(seat_vector(2, 1, 0.8)[..2], [0.19999999, 0.8]);
        let three = seat_vector(3, 0, 0.9);
        assert!((three[..3].iter().sum::<f32>() - 1.5).abs() < 1e-6 && three[1] == three[2]);
    }
}
