//! The `lcb` move choice ([`super::MoveChoice::Lcb`]): the visited move with the highest lower
//! confidence bound on its value, so that a clearly better move found late is not lost to an
//! earlier one's visit count (lc0 and KataGo choose by such bounds too).

use rules::Player;

use crate::select::{mixed_q, View};
use crate::tree::{Status, Tree};

/// The `lcb` move choice: among `node`'s visited children whose edges pass `allowed`, the one
/// with the highest `Q - lcb_width / sqrt(visits)` (`Q` mixed as selection mixes it; an exact
/// result carries no doubt), ties to the more visited; `None` if no allowed child was visited.
pub(crate) fn lcb_edge<M: Copy>(
    tree: &Tree<M>,
    node: u32,
    lcb_width: f32,
    view: View,
    allowed: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mover = tree.nodes[node as usize].to_move as Player;
    let mut best: Option<(usize, f32, u32)> = None;
    for i in tree.nodes[node as usize].edge_range().filter(|&i| allowed(i)) {
        let e = &tree.edges[i];
        let visits = tree.child_visits(e);
        if visits == 0 {
            continue;
        }
        let c = &tree.nodes[e.child as usize];
        let q = mixed_q(view.utility_sum(c, mover) / visits as f32, tree.judged[i], Some(c), view.minimax);
        let doubt = if c.status == Status::Terminal { 0.0 } else { lcb_width / (visits as f32).sqrt() };
        let bound = q - doubt;
        if best.is_none_or(|(_, b, v)| bound > b || (bound == b && visits > v)) {
            best = Some((i, bound, visits));
        }
    }
    best.map(|(i, _, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::ROOT;

    /// A root with two visited moves for seat 0: `(visits, mean score)` each.
    fn root_with(children: [(u32, f32); 2]) -> Tree<u8> {
        let mut tree = Tree::new();
        tree.set_moves(ROOT, &[0, 1]);
        tree.nodes[0].status = Status::Expanded;
        for (i, &(visits, mean)) in children.iter().enumerate() {
            let child = tree.add_child(ROOT, i);
            let node = &mut tree.nodes[child as usize];
            node.status = Status::Expanded;
            node.visits = visits;
            node.value_sum = [mean * visits as f32, (1.0 - mean) * visits as f32, 0.0];
        }
        tree.nodes[0].visits = 1 + children.iter().map(|c| c.0).sum::<u32>();
        tree
    }

    /// Move 0 has more visits and a worse value (0.5 over 10 visits against 0.9 over 3): the
    /// most visited choice plays it, the lower confidence bound the better move 1 (0.9 - 0.2 /
    /// sqrt(3) = 0.78 against 0.5 - 0.2 / sqrt(10) = 0.44). With too few visits to trust, the
    /// bound keeps the well-visited move.
    #[test]
    fn the_lcb_choice_plays_the_better_move_against_more_visits() {
        let view = View { paranoid_root: None, minimax: 0.0 };
        let tree = root_with([(10, 0.5), (3, 0.9)]);
        assert_eq!(tree.best_edge(ROOT), Some(0));
        assert_eq!(lcb_edge(&tree, ROOT, 0.2, view, |_| true), Some(1));
        assert_eq!(lcb_edge(&tree, ROOT, 2.0, view, |_| true), Some(0), "0.5 - 0.63 against 0.9 - 1.15");
        assert_eq!(lcb_edge(&tree, ROOT, 0.2, view, |e| e == 0), Some(0), "only what is allowed");
    }
}
