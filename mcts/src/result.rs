//! What a finished search reports: the trainer's policy target and value, the move to play,
//! and a principal variation to show.

use rand::RngExt;
use rules::MAX_PLAYERS;

use crate::params::SearchParams;
use crate::select::{children_visits, forced_playouts, puct, View};
use crate::tree::{Tree, ROOT};

/// The outcome of one move's search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The root's legal moves, highest prior first (generation order among equal priors).
    pub moves: Vec<M>,
    /// Completed visits of each move's subtree (raw, before pruning).
    pub visits: Vec<u32>,
    /// The policy target: visit shares after policy-target pruning (when enabled), summing to 1.
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

/// Visits per root edge with forced playouts taken back (Wu 2019, "policy target pruning"): every
/// child but the most visited loses up to its forced-playout floor, as long as its PUCT score stays
/// below the best child's; children left with a single visit are dropped.
pub(crate) fn pruned_visits<M: Copy>(tree: &Tree<M>, params: &SearchParams, view: View, visits: &[u32]) -> Vec<f32> {
    let root = tree.root();
    let mut out: Vec<f32> = visits.iter().map(|&v| v as f32).collect();
    let Some(best_edge) = tree.best_edge(ROOT) else { return out };
    let edges = tree.edges_of(ROOT);
    let best = best_edge - root.first_edge as usize;
    let mover = root.to_move as usize;
    let parent_n = children_visits(root, params.virtual_loss);
    let c_sqrt_n = params.c_puct(parent_n) * parent_n.sqrt();
    let q_of = |i: usize| {
        let c = &tree.nodes[edges[i].child as usize];
        view.utility_sum(c, mover) / c.visits as f32
    };
    let best_score = puct(q_of(best), edges[best].prior, out[best], c_sqrt_n);
    let total = root.visits.saturating_sub(1) as f32;
    for i in 0..edges.len() {
        if i == best || visits[i] == 0 {
            continue;
        }
        let floor = forced_playouts(params.forced_playout_k, edges[i].prior, total);
        let q = q_of(i);
        let mut n = out[i];
        // Take visits back one at a time while the child would still not have been preferred.
        while n > 1.0 && (out[i] - n) < floor && puct(q, edges[i].prior, n - 1.0, c_sqrt_n) < best_score {
            n -= 1.0;
        }
        out[i] = if n <= 1.0 { 0.0 } else { n };
    }
    out
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
