//! What a finished search reports: the trainer's policy target and value, the move to play,
//! and a principal variation to show.

use rand::RngExt;
use rules::MAX_PLAYERS;

/// The outcome of one move's search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The root's legal moves, highest prior first (generation order among equal priors).
    pub moves: Vec<M>,
    /// Completed visits of each move's subtree (raw, before pruning).
    pub visits: Vec<u32>,
    /// The policy target ([`crate::PolicyTarget`]; the visit shares of a playout-capped search),
    /// summing to 1.
    pub policy: Vec<f32>,
    /// The root's mean value, one expected score per seat (seats past the player count are 0).
    pub value: [f32; MAX_PLAYERS],
    /// The move chosen by the temperature schedule.
    pub chosen: M,
    /// Most visited line from the root, `chosen` not necessarily first.
    pub pv: Vec<M>,
    /// Completed visits at the root (inherited ones included).
    pub root_visits: u32,
    /// False for a cheap search under playout-cap randomisation: do not train the policy on it.
    pub full_search: bool,
}

impl<M: Copy + Eq> SearchResult<M> {
    /// The policy-target share of `mv` (0 if it is not a root move).
    pub fn share(&self, mv: M) -> f32 {
        self.moves.iter().position(|&m| m == mv).map_or(0.0, |i| self.policy[i])
    }

    /// The most visited move.
    pub fn best(&self) -> M {
        self.pv.first().copied().unwrap_or(self.chosen)
    }

    /// The policy target as (policy index, share) pairs for the network; moves with no share
    /// left out. `index` maps a root move to its policy index (the network's encoding of the
    /// position searched, e.g. `rules::Encoding::policy_index`), which search itself never needs.
    pub fn policy_target(&self, index: impl Fn(M) -> usize) -> Vec<(usize, f32)> {
        self.moves.iter().zip(&self.policy).filter(|(_, &p)| p > 0.0).map(|(&mv, &p)| (index(mv), p)).collect()
    }
}

/// Draws a root edge index (relative to the root's edges) with probability proportional to
/// `weight^(1 / temperature)`; `temperature` near 0 takes the largest (first on ties).
pub(crate) fn choose_by_temperature(weights: &[f32], temperature: f32, rng: &mut impl rand::Rng) -> usize {
    let max = weights.iter().copied().fold(0.0f32, f32::max);
    if temperature < 1e-3 || max <= 0.0 {
        return weights.iter().position(|&w| w == max).unwrap_or(0);
    }
    // Relative to the maximum, so large visit counts and small temperatures cannot overflow.
    let powered: Vec<f64> = weights
        .iter()
        .map(|&w| if w > 0.0 { ((w / max) as f64).powf(1.0 / temperature as f64) } else { 0.0 })
        .collect();
    let total: f64 = powered.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, p) in powered.iter().enumerate() {
        if x < *p {
            return i;
        }
        x -= p;
    }
    powered.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}
