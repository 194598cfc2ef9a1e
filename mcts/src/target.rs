//! The policy target of a full PUCT search: what the network's policy is trained toward.
//!
//! The root's visit shares carry more than what the search found: the root noise, forced
//! playouts, and the tactical prior each send visits to moves whatever their values. A network
//! trained on those shares learns to repeat them, and the play search adds the same judge again
//! on top. The other targets are measured against the evaluator's own prior
//! ([`crate::tree::Edge::own_prior`]), so that they carry the values the search found and nothing
//! it was told.

use crate::gumbel::improved_policy_from;
use crate::params::SearchParams;
pub use crate::policy_target::PolicyTarget;
use crate::select::{children_visits, puct, View};
use crate::tree::{Edge, Tree, ROOT};

/// The policy target of a full PUCT search over the root's edges, in edge order, summing to 1
/// (the priors when no child has a visit). `root_prior` holds the root's priors before root
/// exploration, by move ([`PolicyTarget::Residual`] reads it).
pub(crate) fn policy_target<M: Copy + Eq>(
    tree: &Tree<M>,
    kind: PolicyTarget,
    params: &SearchParams,
    view: View,
    visits: &[u32],
    root_prior: &[(M, f32)],
) -> Vec<f32> {
    let visited = visits.iter().any(|&v| v > 0);
    let weights = match kind {
        PolicyTarget::Visits => visits.iter().map(|&v| v as f32).collect(),
        PolicyTarget::Pruned => pruned_visits(tree, params, view, visits),
        PolicyTarget::CompletedQ if visited => {
            return improved_policy_from(tree, ROOT, params, view, |e| e.own_prior);
        }
        PolicyTarget::Residual if visited => {
            return residual_policy(tree, params, view, root_prior);
        }
        PolicyTarget::CompletedQ | PolicyTarget::Residual => visits.iter().map(|&v| v as f32).collect(),
    };
    shares(&weights).unwrap_or_else(|| tree.edges_of(ROOT).iter().map(|e| e.prior).collect())
}

/// The tactical prior's share above which the network's prior hardly reaches the search, so that
/// a residual target would divide by almost nothing: [`residual_policy`] is then completed-Q.
const MAX_RESIDUAL_SHARE: f32 = 0.95;

/// [`PolicyTarget::Residual`]: `own + (pi' - mixed) / (1 - w)` per root edge, clipped at 0 and
/// renormalised, where `mixed` is the root's prior before root exploration (`root_prior`, by
/// move), `pi'` its completed-Q improved policy and `w` the tactical prior's share. The
/// completed-Q target of the own prior where the root's prior had nothing mixed in.
pub(crate) fn residual_policy<M: Copy + Eq>(
    tree: &Tree<M>,
    params: &SearchParams,
    view: View,
    root_prior: &[(M, f32)],
) -> Vec<f32> {
    let edges = tree.edges_of(ROOT);
    let mixed = |e: &Edge<M>| root_prior.iter().find(|(m, _)| *m == e.mv).map_or(e.own_prior, |&(_, p)| p);
    let w = params.tactics.tactical_prior;
    let mixed_in = edges.iter().any(|e| (mixed(e) - e.own_prior).abs() > 1e-6);
    if !mixed_in || w > MAX_RESIDUAL_SHARE {
        return improved_policy_from(tree, ROOT, params, view, |e| e.own_prior);
    }
    let improved = improved_policy_from(tree, ROOT, params, view, mixed);
    let weights: Vec<f32> =
        edges.iter().zip(&improved).map(|(e, &t)| (e.own_prior + (t - mixed(e)) / (1.0 - w)).max(0.0)).collect();
    shares(&weights).unwrap_or(improved)
}

/// `weights` scaled to sum to 1, or `None` when they sum to 0.
fn shares(weights: &[f32]) -> Option<Vec<f32>> {
    let total: f32 = weights.iter().sum();
    (total > 0.0).then(|| weights.iter().map(|w| w / total).collect())
}

/// Visits per root edge with the visits no value earned taken back ([`PolicyTarget::Pruned`]):
/// every child but the most visited loses visits as long as its PUCT score, with the
/// evaluator's own prior, stays below the best child's; children left with a single visit are
/// dropped.
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
    let best_score = puct(q_of(best), edges[best].own_prior, out[best], c_sqrt_n);
    for i in 0..edges.len() {
        if i == best || visits[i] == 0 {
            continue;
        }
        let (q, prior) = (q_of(i), edges[i].own_prior);
        let mut n = out[i];
        // Take visits back one at a time while the child would still not have been preferred.
        while n > 1.0 && puct(q, prior, n - 1.0, c_sqrt_n) < best_score {
            n -= 1.0;
        }
        out[i] = if n <= 1.0 { 0.0 } else { n };
    }
    out
}
