//! Tactical leaf values: what a quiescence search (captures until the position is quiet) says a
//! position is worth, as expected scores a search can blend into its network's values
//! ([`mcts::Blend`]). A young or weak network misses captures a few plies deep; the quiescence
//! search does not, so a search with this blend keeps its tactics when the network plays.

use mcts::LeafJudge;
use rules::{Material, Player, MAX_PLAYERS};

/// A [`LeafJudge`] from [`alphabeta::quiescence_value`], squashed by
/// [`alphabeta::expected_score`]: `search.tactics_weight` in training, `--tactics` in play.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuiescenceJudge;

impl<G: Material> LeafJudge<G> for QuiescenceJudge {
    fn judge(&self, state: &G) -> [f32; MAX_PLAYERS] {
        if let Some(scores) = state.outcome() {
            return mcts::tree::score_array(&scores);
        }
        let mover = alphabeta::expected_score(alphabeta::quiescence_value(state));
        seat_values::<G>(state.to_move(), mover)
    }
}

/// Per-seat expected scores from the mover's: the mover gets `mover`, and the others share
/// what is left of the variant's utility sum (`num_players / 2`) equally: the other side's
/// `1 - mover` for two players; for three, paranoid as the alpha-beta search is, each of the
/// two others `(1.5 - mover) / 2`.
pub fn seat_values<G: Material>(to_move: Player, mover: f32) -> [f32; MAX_PLAYERS] {
    let n = G::NUM_PLAYERS;
    let other = (n as f32 / 2.0 - mover) / (n - 1) as f32;
    let mut values = [0.0; MAX_PLAYERS];
    for (seat, v) in values[..n].iter_mut().enumerate() {
        *v = if seat == to_move { mover } else { other };
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Game, Glinski};

    #[test]
    fn the_values_sum_to_the_utility_sum() {
        let two = seat_values::<Glinski>(1, 0.8);
        assert!((two[0] - 0.2).abs() < 1e-6 && two[1] == 0.8, "{two:?}");
        let three = seat_values::<rules::wellisch::Wellisch>(2, 0.9);
        assert!((three[..3].iter().sum::<f32>() - 1.5).abs() < 1e-6);
        assert_eq!(three[0], three[1]);
        assert_eq!(QuiescenceJudge.judge(&Glinski::start())[..2], [0.5, 0.5]);
    }
}
