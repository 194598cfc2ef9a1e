//! The completed-Q improved policy of Gumbel search, `pi' = softmax(logits + sigma(completed Q))`,
//! and the deterministic selection below the root that makes visit counts follow it (Danihelka
//! et al. 2022, mctx's `qtransform_completed_by_mix_value` and interior action selection).
//!
//! Q values are the mover's expected scores in [0, 1], already the paper's normalised range, so
//! they are not rescaled. Logits are the log-priors: `exp(logit + sigma(q))` is `prior *
//! exp(sigma(q))`, and a move with prior 0 keeps policy 0.

use rules::Player;

use crate::params::SearchParams;
use crate::select::View;
use crate::tree::{Edge, Node, Tree, NONE};

/// A node's children's values as the improved policy reads them: the visited children's Q, the
/// mixed value that completes the others, and the scale of `sigma`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Completion {
    mover: Player,
    view: View,
    /// The mixed value estimate `v_mix`, the Q of every unvisited child.
    v_mix: f32,
    /// `(c_visit + max_b N(b)) * c_scale`: `sigma(q)` is this times `q`.
    sigma: f32,
    /// The largest completed Q, subtracted before `exp` so that large scales cannot overflow.
    q_max: f32,
    /// The softmax's normaliser, relative to `q_max`.
    normaliser: f32,
    /// Prior mass of the children with completed visits.
    visited_prior: f32,
}

impl Completion {
    /// The completion at `node`, from `edges`, which must hold every child with completed visits,
    /// weighting their values by `prior`; the softmax's normaliser is left for the caller to set.
    fn new<M: Copy>(
        tree: &Tree<M>,
        node: &Node,
        edges: &[Edge<M>],
        params: &SearchParams,
        view: View,
        prior: impl Fn(&Edge<M>) -> f32,
    ) -> Completion {
        let mover = node.to_move as Player;
        let (mut child_visits, mut child_utility, mut max_visits) = (0u32, 0.0f32, 0u32);
        let (mut visited_prior, mut weighted_q, mut q_max) = (0.0f32, 0.0f32, f32::NEG_INFINITY);
        for e in edges {
            let Some(c) = visited_child(tree, e) else { continue };
            let utility = view.utility_sum(c, mover);
            let q = utility / c.visits as f32;
            child_visits += c.visits;
            child_utility += utility;
            max_visits = max_visits.max(c.visits);
            // A visited move of prior 0 (root_wins_first) still counts, a little (mctx's floor).
            let p = prior(e).max(f32::MIN_POSITIVE);
            visited_prior += p;
            weighted_q += p * q;
            q_max = q_max.max(q);
        }
        // The node's own evaluation: its visits that went to no child (one, unless it is a
        // finished game), read off the sums so that nodes need not store it.
        let own_visits = node.visits.saturating_sub(child_visits);
        let raw = if own_visits > 0 {
            ((view.utility_sum(node, mover) - child_utility) / own_visits as f32).clamp(0.0, 1.0)
        } else {
            view.utility_sum(node, mover) / node.visits.max(1) as f32
        };
        let v_mix = if child_visits == 0 {
            raw
        } else {
            (raw + child_visits as f32 * weighted_q / visited_prior) / (child_visits as f32 + 1.0)
        };
        let sigma = (params.c_visit + max_visits as f32) * params.c_scale;
        Completion { mover, view, v_mix, sigma, q_max: q_max.max(v_mix), normaliser: 1.0, visited_prior }
    }

    /// The completion at the expanded `node`, for `q` and `sigma` only (no softmax).
    pub fn unnormalised<M: Copy>(tree: &Tree<M>, node: u32, params: &SearchParams, view: View) -> Completion {
        let n = &tree.nodes[node as usize];
        Completion::new(tree, n, &tree.edges[n.edge_range()], params, view, |e| e.prior)
    }

    /// The completion at the expanded `node` with the softmax normalised over all its edges, each
    /// edge's logit being the log of `prior`.
    fn of_all<M: Copy>(
        tree: &Tree<M>,
        node: u32,
        params: &SearchParams,
        view: View,
        prior: impl Fn(&Edge<M>) -> f32 + Copy,
    ) -> Completion {
        let n = &tree.nodes[node as usize];
        let edges = tree.edges_of(node);
        let mut c = Completion::new(tree, n, edges, params, view, prior);
        c.normaliser = edges.iter().map(|e| c.weight(prior(e), c.q(tree, e))).sum::<f32>().max(f32::MIN_POSITIVE);
        c
    }

    /// The completed Q of edge `e` for the mover.
    pub fn q<M: Copy>(&self, tree: &Tree<M>, e: &Edge<M>) -> f32 {
        match visited_child(tree, e) {
            Some(c) => self.view.utility_sum(c, self.mover) / c.visits as f32,
            None => self.v_mix,
        }
    }

    /// `sigma(q)`.
    pub fn sigma(&self, q: f32) -> f32 {
        self.sigma * q
    }

    /// `prior * exp(sigma(q))`, relative to the largest completed Q.
    fn weight(&self, prior: f32, q: f32) -> f32 {
        prior * (self.sigma * (q - self.q_max)).exp()
    }

    /// The improved policy `pi'` of a move with `prior` and completed Q `q`.
    pub fn policy(&self, prior: f32, q: f32) -> f32 {
        self.weight(prior, q) / self.normaliser
    }
}

/// The child through `e` if it has completed visits.
fn visited_child<'t, M: Copy>(tree: &'t Tree<M>, e: &Edge<M>) -> Option<&'t Node> {
    (e.child != NONE).then(|| &tree.nodes[e.child as usize]).filter(|c| c.visits > 0)
}

/// The improved policy over the expanded `node`'s edges, in edge order, summing to 1.
pub(crate) fn improved_policy<M: Copy>(tree: &Tree<M>, node: u32, params: &SearchParams, view: View) -> Vec<f32> {
    improved_policy_from(tree, node, params, view, |e| e.prior)
}

/// The improved policy with `prior` as each edge's prior: a PUCT search's completed-Q policy
/// target reads the evaluator's own prior ([`Edge::own_prior`]), not the one the search mixed.
pub(crate) fn improved_policy_from<M: Copy>(
    tree: &Tree<M>,
    node: u32,
    params: &SearchParams,
    view: View,
    prior: impl Fn(&Edge<M>) -> f32 + Copy,
) -> Vec<f32> {
    let c = Completion::of_all(tree, node, params, view, prior);
    tree.edges_of(node).iter().map(|e| c.policy(prior(e), c.q(tree, e))).collect()
}

/// Gumbel search's selection below the root: the edge maximising `pi'(a) - N(a) / (1 + sum_b N(b))`,
/// so that visits track the improved policy. Pending visits count in `N` (weighted by
/// `virtual_loss`), which spreads leaves in flight; they do not change Q.
///
/// Below the root the edges are sorted by prior and every unvisited move has the same completed
/// Q, so the first unvisited edge is the only unvisited candidate and the edges before it are the
/// only ones with children: one scan of that prefix suffices, as in PUCT's selection.
/// `weights` is scratch space, kept by the caller to spare an allocation per selection.
pub(crate) fn select_interior<M: Copy>(
    tree: &Tree<M>,
    node: u32,
    params: &SearchParams,
    view: View,
    weights: &mut Vec<f32>,
) -> usize {
    let n = &tree.nodes[node as usize];
    let range = n.edge_range();
    let edges = &tree.edges[range.clone()];
    let prefix = edges.iter().position(|e| e.child == NONE).unwrap_or(edges.len());
    let mut c = Completion::new(tree, n, &edges[..prefix], params, view, |e| e.prior);
    // One `exp` per child: the unnormalised policy weights, kept for the scores. Priors are
    // normalised when a node is expanded, so the moves without completed visits hold the rest.
    weights.clear();
    let mut total = 0.0;
    let mut visited_weight = 0.0;
    for e in &edges[..prefix] {
        let child = &tree.nodes[e.child as usize];
        total += child.visits as f32 + child.in_flight as f32 * params.virtual_loss;
        let w = if child.visits > 0 { c.weight(e.prior, c.q(tree, e)) } else { 0.0 };
        visited_weight += w;
        weights.push(w);
    }
    let unvisited = c.weight(1.0, c.v_mix);
    c.normaliser = (visited_weight + unvisited * (1.0 - c.visited_prior).max(0.0)).max(f32::MIN_POSITIVE);

    let mut best = prefix.min(edges.len() - 1);
    let mut best_score =
        if prefix < edges.len() { edges[prefix].prior * unvisited / c.normaliser } else { f32::NEG_INFINITY };
    for (i, (e, &w)) in edges[..prefix].iter().zip(weights.iter()).enumerate() {
        let child = &tree.nodes[e.child as usize];
        let w = if child.visits > 0 { w } else { e.prior * unvisited };
        let pending = child.visits as f32 + child.in_flight as f32 * params.virtual_loss;
        let score = w / c.normaliser - pending / (1.0 + total);
        // Ties go to the earlier edge.
        if score > best_score || (score == best_score && i < best) {
            best_score = score;
            best = i;
        }
    }
    range.start + best
}
