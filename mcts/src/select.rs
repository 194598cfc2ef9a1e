//! PUCT selection: which edge a simulation follows out of an expanded node.
//!
//! Every player maximises its own component of the value vector (max-n); with `paranoid`, the
//! root player's opponents maximise `1 - value[root player]` instead.

use rules::Player;

use crate::params::SearchParams;
use crate::tree::{Node, Status, Tree, NONE, ROOT};

/// Whose value each mover maximises, and how much of the judged minimax it reads; fixed for
/// one move's search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View {
    /// `Some(root player)` in paranoid mode with more than two players.
    pub paranoid_root: Option<Player>,
    /// The share of a move's judged minimax value in its value ([`crate::Tactics::minimax_weight`];
    /// 0 for more than two players).
    pub minimax: f32,
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

/// A move's value for the selection and the `lcb` choice: the Monte-Carlo mean `q`, mixed
/// with its judged minimax value by `minimax_weight` where it has one (an exact result is
/// already in `q` and stays as it is).
#[inline]
pub(crate) fn mixed_q(q: f32, judged: f32, child: Option<&Node>, minimax_weight: f32) -> f32 {
    if minimax_weight <= 0.0 || !judged.is_finite() || child.is_some_and(|c| c.status == Status::Terminal) {
        return q;
    }
    (1.0 - minimax_weight) * q + minimax_weight * judged
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
    let alpha = view.minimax;

    let parent_n = children_visits(parent, vl);
    let c_sqrt_n = params.c_puct(parent_n) * parent_n.sqrt();

    let forced_k = if node == ROOT { forced_k } else { 0.0 };
    let total_child = parent.visits.saturating_sub(1) as f32;

    // One pass: score the visited children; among unvisited ones, which all share the same
    // first-play value, only the highest prior can win, so keep just that one for after the pass.
    // Below the root, edges are sorted by decreasing prior when expanded, and an unvisited child
    // is only ever chosen as the first unvisited one, so the visited children are a prefix and
    // the first unvisited edge ends the scan. (Root noise reorders the root's priors.) With
    // minimax values the unvisited children differ by them, so every one is scored after the pass.
    let judged_first_play = alpha > 0.0;
    let prefix_visited = node != ROOT && !judged_first_play;
    let mut best = usize::MAX;
    let mut best_score = f32::NEG_INFINITY;
    let mut unvisited = usize::MAX;
    let mut unvisited_prior = f32::NEG_INFINITY;
    let mut visited_prior = 0.0;
    for (i, e) in edges.iter().enumerate() {
        if e.child != NONE {
            let c = &tree.nodes[e.child as usize];
            let n = c.visits as f32 + c.in_flight as f32 * vl;
            if n > 0.0 {
                visited_prior += e.prior;
                let score = if c.visits > 0 && (c.visits as f32) < forced_playouts(forced_k, e.prior, total_child) {
                    f32::INFINITY
                } else {
                    let mut q = view.utility_sum(c, mover) / n;
                    if alpha > 0.0 {
                        q = mixed_q(q, tree.judged[range.start + i], Some(c), alpha);
                    }
                    puct(q, e.prior, n, c_sqrt_n)
                };
                if score > best_score {
                    best_score = score;
                    best = i;
                }
                continue;
            }
        }
        if e.prior > unvisited_prior {
            unvisited_prior = e.prior;
            unvisited = i;
        }
        if prefix_visited {
            break;
        }
    }
    if unvisited != usize::MAX {
        // First-play urgency: the parent's value for the mover, less a reduction growing with the
        // share of the prior already explored (so a well-explored node tries new moves less).
        let reduction = if node == ROOT { params.fpu_reduction_root } else { params.fpu_reduction };
        let parent_q = view.utility_sum(parent, mover) / parent.visits.max(1) as f32;
        let fpu = parent_q - reduction * visited_prior.sqrt();
        let mut consider = |i: usize, score: f32| {
            // Ties go to the earlier edge, whichever kind it is.
            if score > best_score || (score == best_score && i < best) {
                best_score = score;
                best = i;
            }
        };
        if judged_first_play {
            for (i, e) in edges.iter().enumerate() {
                let unvisited = e.child == NONE || {
                    let c = &tree.nodes[e.child as usize];
                    c.visits as f32 + c.in_flight as f32 * vl <= 0.0
                };
                if unvisited {
                    let q = mixed_q(fpu, tree.judged[range.start + i], None, alpha);
                    consider(i, puct(q, e.prior, 0.0, c_sqrt_n));
                }
            }
        } else {
            consider(unvisited, puct(fpu, unvisited_prior, 0.0, c_sqrt_n));
        }
    }
    range.start + best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With minimax backups the judged value steers selection to the move it favours, before
    /// any visit says so.
    #[test]
    fn minimax_values_steer_selection_among_unvisited_moves() {
        let mut tree = Tree::new();
        tree.set_moves(ROOT, &[0, 1, 2]);
        tree.nodes[0].status = Status::Expanded;
        tree.nodes[0].visits = 1;
        for e in tree.edges.iter_mut() {
            e.prior = 1.0 / 3.0;
        }
        tree.judged.copy_from_slice(&[0.3, 0.5, 0.95]);
        let params = SearchParams::for_tests_v1();
        let plain = View { paranoid_root: None, minimax: 0.0 };
        assert_eq!(select_edge(&tree, ROOT, &params, plain, 0.0), 0, "equal priors: the first move");
        let minimax = View { minimax: 0.5, ..plain };
        assert_eq!(select_edge(&tree, ROOT, &params, minimax, 0.0), 2, "the judge's favourite");
    }
}
