//! PUCT selection: which edge a simulation follows out of an expanded node.
//!
//! Every player maximises its own component of the value vector (max-n); with `paranoid`, the
//! root player's opponents maximise `1 - value[root player]` instead.

use rules::Player;

use crate::params::SearchParams;
use crate::tree::{Node, Tree, NONE, ROOT};

/// Whose value each mover maximises; fixed for one move's search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View {
    /// `Some(root player)` in paranoid mode with more than two players.
    pub paranoid_root: Option<Player>,
}

impl View {
    /// The sum, over `node`'s completed visits, of what `mover` wants to maximise.
    #[inline]
    pub fn utility_sum(self, node: &Node, mover: Player) -> f32 {
        match self.paranoid_root {
            Some(root) if root != mover => node.visits as f32 - node.value_sum[root],
            _ => node.value_sum[mover],
        }
    }
}

/// The PUCT score `Q + c * P / (1 + n)` where `c_sqrt_n = c(N) * sqrt(N)`.
#[inline]
pub(crate) fn puct(q: f32, prior: f32, n: f32, c_sqrt_n: f32) -> f32 {
    q + c_sqrt_n * prior / (1.0 + n)
}

/// Visits of a node's children, completed and pending, from the node's own counters: its own
/// evaluation and the simulation now selecting out of it are not children's visits. At least 1,
/// so the priors order the children before any has been visited (lc0).
#[inline]
pub(crate) fn children_visits(node: &Node, virtual_loss: f32) -> f32 {
    let n = node.visits.saturating_sub(1) as f32 + node.in_flight.saturating_sub(1) as f32 * virtual_loss;
    n.max(1.0)
}

/// The forced-playout floor `sqrt(k * P * total)` (Wu 2019), 0 when disabled.
#[inline]
pub(crate) fn forced_playouts(k: f32, prior: f32, total_child_visits: f32) -> f32 {
    if k > 0.0 {
        (k * prior * total_child_visits).sqrt()
    } else {
        0.0
    }
}

/// Picks the edge (an index into `tree.edges`) to follow out of the expanded `node`.
/// `forced_k` is the forced-playout constant, used at the root only (0 for none).
pub(crate) fn select_edge<M: Copy>(
    tree: &Tree<M>,
    node: u32,
    params: &SearchParams,
    view: View,
    forced_k: f32,
) -> usize {
    let parent = &tree.nodes[node as usize];
    let mover = parent.to_move as Player;
    let vl = params.virtual_loss;
    let range = parent.edge_range();
    let edges = &tree.edges[range.clone()];

    let parent_n = children_visits(parent, vl);
    let c_sqrt_n = params.c_puct(parent_n) * parent_n.sqrt();
    let is_root = node == ROOT;

    // First-play urgency: the parent's value for the mover, less a reduction growing with the
    // share of the prior already explored (so a well-explored node tries new moves less).
    let mut visited_prior = 0.0;
    for e in edges {
        if e.child != NONE {
            let c = &tree.nodes[e.child as usize];
            if c.visits + c.in_flight > 0 {
                visited_prior += e.prior;
            }
        }
    }
    let reduction = if is_root { params.fpu_reduction_root } else { params.fpu_reduction };
    let parent_q = view.utility_sum(parent, mover) / parent.visits.max(1) as f32;
    let fpu = parent_q - reduction * visited_prior.sqrt();

    let forced_k = if is_root { forced_k } else { 0.0 };
    let total_child = parent.visits.saturating_sub(1) as f32;

    let mut best = 0;
    let mut best_score = f32::NEG_INFINITY;
    for (i, e) in edges.iter().enumerate() {
        let score = if e.child == NONE {
            puct(fpu, e.prior, 0.0, c_sqrt_n)
        } else {
            let c = &tree.nodes[e.child as usize];
            let n = c.visits as f32 + c.in_flight as f32 * vl;
            if n == 0.0 {
                puct(fpu, e.prior, 0.0, c_sqrt_n)
            } else if c.visits > 0 && (c.visits as f32) < forced_playouts(forced_k, e.prior, total_child) {
                f32::INFINITY
            } else {
                puct(view.utility_sum(c, mover) / n, e.prior, n, c_sqrt_n)
            }
        };
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    range.start + best
}
