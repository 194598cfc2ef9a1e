//! The MCTS-solver (Winands, Björnsson and Saito 2008; lc0's "certain" results), for max-n:
//! exact results in the tree are backed up as exact values, and the root's move choice respects
//! them ([`crate::SearchParams::solver`]).
//!
//! A node is proven when its mover has a child proven to score 1 for it (the best any move can
//! do), or when every one of its moves is proven (then it is worth the best of them for its
//! mover, the first such in edge order). Each mover maximising its own score is exactly how
//! max-n values a node, for two players and for three. A proof only ever follows a child
//! becoming terminal, so [`prove_ancestors`] runs then, and walks up as far as proofs go.
//!
//! The root is never proven: it must stay expanded for [`crate::Search::result`] to choose a
//! move. Instead [`allowed_root_moves`] keeps that choice off moves worse than what is proven.

use rules::Player;

use crate::tree::{Node, Status, Tree, NONE, ROOT};

/// The node `child` (an edge's child, maybe [`NONE`]) if its result is exact.
fn proven(nodes: &[Node], child: u32) -> Option<&Node> {
    (child != NONE).then(|| &nodes[child as usize]).filter(|c| c.status == Status::Terminal && c.visits > 0)
}

/// After `node` has become terminal: proves each ancestor below the root that this decides.
pub(crate) fn prove_ancestors<M: Copy>(tree: &mut Tree<M>, mut node: u32) {
    loop {
        let parent = tree.nodes[node as usize].parent;
        if parent == NONE || parent == ROOT {
            return;
        }
        let Some(exact) = proven_value(tree, parent) else { return };
        tree.set_exact(parent, &exact);
        node = parent;
    }
}

/// The exact value of the expanded `node` if its children prove it.
fn proven_value<M: Copy>(tree: &Tree<M>, node: u32) -> Option<[f32; rules::MAX_PLAYERS]> {
    let mover = tree.nodes[node as usize].to_move as Player;
    let mut best: Option<[f32; rules::MAX_PLAYERS]> = None;
    let mut all = true;
    for e in tree.edges_of(node) {
        let Some(child) = proven(&tree.nodes, e.child) else {
            all = false;
            continue;
        };
        let exact = child.means();
        if exact[mover] >= 1.0 {
            return Some(exact);
        }
        if best.is_none_or(|b| exact[mover] > b[mover]) {
            best = Some(exact);
        }
    }
    best.filter(|_| all)
}

/// Which root moves (by position among the root's edges) the move choice may take: the proven
/// wins for the mover if there are any; else every move but those proven worse than another
/// proven move, and but the proven losses while any move is unproven.
pub(crate) fn allowed_root_moves<M: Copy>(tree: &Tree<M>) -> Vec<bool> {
    let mover = tree.root().to_move as Player;
    let values: Vec<Option<f32>> =
        tree.edges_of(ROOT).iter().map(|e| proven(&tree.nodes, e.child).map(|c| c.mean(mover))).collect();
    if values.iter().any(|v| v.is_some_and(|v| v >= 1.0)) {
        return values.iter().map(|v| v.is_some_and(|v| v >= 1.0)).collect();
    }
    let best = values.iter().flatten().copied().fold(f32::NEG_INFINITY, f32::max);
    let open = values.iter().any(Option::is_none);
    values.iter().map(|v| v.is_none_or(|v| v >= best && !(open && v <= 0.0))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root (seat 0 to move) with one child per `(visits, proven, seat 0's mean)`.
    fn root_with(children: &[(u32, bool, f32)]) -> Tree<u8> {
        let mut tree = Tree::new();
        tree.set_moves(ROOT, &(0..children.len() as u8).collect::<Vec<_>>());
        tree.nodes[ROOT as usize].status = Status::Expanded;
        for (i, &(visits, proven, mean)) in children.iter().enumerate() {
            let child = tree.add_child(ROOT, i);
            let c = &mut tree.nodes[child as usize];
            c.visits = visits;
            c.value_sum = [mean * visits as f32, (1.0 - mean) * visits as f32, 0.0];
            c.status = if proven { Status::Terminal } else { Status::Expanded };
        }
        tree
    }

    #[test]
    fn the_root_plays_a_proven_win_and_avoids_what_is_proven_worse() {
        // A proven win goes first, however few its visits.
        let tree = root_with(&[(90, false, 0.9), (3, true, 1.0), (5, true, 0.0)]);
        assert_eq!(allowed_root_moves(&tree), [false, true, false]);
        // A proven loss is never played while a move is open...
        let tree = root_with(&[(90, true, 0.0), (3, false, 0.2)]);
        assert_eq!(allowed_root_moves(&tree), [false, true]);
        // ... nor one proven worse than another proven move; open moves stay playable.
        let tree = root_with(&[(90, true, 0.0), (3, true, 0.5), (4, false, 0.1)]);
        assert_eq!(allowed_root_moves(&tree), [false, true, true]);
        // With everything lost, anything goes; with nothing proven, too.
        assert_eq!(allowed_root_moves(&root_with(&[(9, true, 0.0), (3, true, 0.0)])), [true, true]);
        assert_eq!(allowed_root_moves(&root_with(&[(9, false, 0.0), (3, false, 0.7)])), [true, true]);
    }

    #[test]
    fn a_node_is_proven_by_a_winning_child_or_by_all_its_children() {
        // Seat 0 to move below the root, with two children.
        let mut tree = root_with(&[(10, false, 0.5)]);
        let node = tree.edges[0].child;
        tree.set_moves(node, &[0, 1]);
        tree.nodes[node as usize].to_move = 0;
        let first = tree.add_child(node, tree.nodes[node as usize].first_edge as usize);
        tree.nodes[first as usize] =
            Node { visits: 2, value_sum: [1.0, 1.0, 0.0], status: Status::Terminal, ..tree.nodes[first as usize] };
        assert_eq!(proven_value(&tree, node), None, "a draw with a move left open proves nothing");
        let second = tree.add_child(node, tree.nodes[node as usize].first_edge as usize + 1);
        tree.nodes[second as usize] =
            Node { visits: 1, value_sum: [0.0, 1.0, 0.0], status: Status::Terminal, ..tree.nodes[second as usize] };
        assert_eq!(proven_value(&tree, node), Some([0.5, 0.5, 0.0]), "all proven: the best for the mover");
        tree.nodes[second as usize].value_sum = [1.0, 0.0, 0.0];
        assert_eq!(proven_value(&tree, node), Some([1.0, 0.0, 0.0]), "a win proves it at once");
        tree.nodes[first as usize].status = Status::Expanded;
        assert_eq!(proven_value(&tree, node), Some([1.0, 0.0, 0.0]), "even with a move open");
    }
}
