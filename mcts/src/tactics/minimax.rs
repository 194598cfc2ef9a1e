//! Implicit minimax backups (Lanctot, Winands, Pepels, Sturtevant 2014): beside its Monte-Carlo
//! mean, every move keeps the minimax of the judged values below it ([`Tree::judged`]), so the
//! tactics a judge saw at the frontier reach the root at once instead of being averaged away.
//! Each node's mover takes its best judged move and the other seat gets the rest. The search
//! backs them up for two players only ([`super::Tactics::minimax_weight`]): the max-n form,
//! the two others sharing what is left, misled Wellisch's search.

use rules::Player;

use super::judge::others_share;
use crate::tree::{Status, Tree, NONE};

/// What the mover of the node with edge `edge` expects after it: an exact result where the
/// child has one, else the edge's judged (minimaxed) value; NaN when unjudged.
#[inline]
fn judged_value<M: Copy>(tree: &Tree<M>, edge: usize, mover: Player) -> f32 {
    let child = tree.edges[edge].child;
    if child != NONE {
        let child = &tree.nodes[child as usize];
        if child.status == Status::Terminal && child.visits > 0 {
            return child.mean(mover);
        }
    }
    tree.judged[edge]
}

/// The best judged value among `node`'s moves for its mover; `None` when one is unjudged.
fn best_judged<M: Copy>(tree: &Tree<M>, node: u32) -> Option<f32> {
    let mover = tree.nodes[node as usize].to_move as Player;
    let mut best = f32::NEG_INFINITY;
    for e in tree.nodes[node as usize].edge_range() {
        let v = judged_value(tree, e, mover);
        if v.is_nan() {
            return None;
        }
        best = best.max(v);
    }
    best.is_finite().then_some(best)
}

/// `node`'s moves were judged or one of them got an exact result: carries its new best up,
/// through every ancestor to the root (whose own best nobody reads).
pub(crate) fn back_up_minimax<M: Copy>(tree: &mut Tree<M>, mut node: u32, num_players: usize) {
    loop {
        let parent = tree.nodes[node as usize].parent;
        if parent == NONE {
            return;
        }
        let Some(best) = best_judged(tree, node) else { return };
        let range = tree.nodes[parent as usize].edge_range();
        let edge = range.clone().find(|&i| tree.edges[i].child == node).expect("a child's edge is its parent's");
        tree.judged[edge] = others_share(num_players, best);
        node = parent;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::ROOT;

    /// A root with two moves, each to a node with two judged moves, as a two-player tree.
    fn two_ply_tree(judged: [[f32; 2]; 2]) -> Tree<u8> {
        let mut tree = Tree::new();
        tree.set_moves(ROOT, &[0, 1]);
        tree.nodes[0].to_move = 0;
        for (i, values) in judged.iter().enumerate() {
            let child = tree.add_child(ROOT, i);
            tree.set_moves(child, &[0, 1]);
            tree.nodes[child as usize].to_move = 1;
            let first = tree.nodes[child as usize].first_edge as usize;
            tree.judged[first] = values[0];
            tree.judged[first + 1] = values[1];
        }
        tree
    }

    /// Minimax over a known two-ply tree: each reply is judged for the opponent, so the root's
    /// move is worth the opponent's best reply taken from 1: move 0 is worth min(0.9, 0.6)
    /// = 0.6 to the root's mover and move 1 min(0.8, 0.3) = 0.3, though move 1's
    /// replies look better on average (0.45 against 0.25).
    #[test]
    fn the_root_moves_are_worth_the_best_reply() {
        // The opponent's expected scores after each reply.
        let mut tree = two_ply_tree([[0.1, 0.4], [0.2, 0.7]]);
        for child in [1, 2] {
            back_up_minimax(&mut tree, child, 2);
        }
        let root = &tree.judged[tree.root().edge_range()];
        assert!((root[0] - 0.6).abs() < 1e-6 && (root[1] - 0.3).abs() < 1e-6, "{root:?}");
    }

    /// An exact result replaces its judged value, and an unjudged move leaves the value as it was.
    #[test]
    fn exact_results_count_and_unjudged_moves_wait() {
        let mut tree = two_ply_tree([[0.1, 0.4], [0.2, f32::NAN]]);
        tree.judged[1] = 0.5;
        back_up_minimax(&mut tree, 2, 2);
        assert_eq!(tree.judged[1], 0.5, "move 1 has an unjudged reply");
        // Reply 0 of move 0 turns out to win for the opponent.
        let reply = tree.nodes[1].first_edge as usize;
        let mate = tree.add_child(1, reply);
        let node = &mut tree.nodes[mate as usize];
        node.status = Status::Terminal;
        node.visits = 1;
        node.value_sum[1] = 1.0;
        back_up_minimax(&mut tree, 1, 2);
        assert!(tree.judged[0].abs() < 1e-6, "move 0 now loses: {}", tree.judged[0]);
    }
}
