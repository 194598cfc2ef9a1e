//! The search tree: nodes and edges in two arenas, linked by `u32` indices.
//!
//! ```text
//!  nodes: [ root | n1 | n2 | ... ]          edges: [ e0 e1 e2 | e3 e4 | ... ]
//!           │                                        ╰ root's ╯
//!           first_edge=0, num_edges=3                  e1.child = n1 (NONE until first visited)
//! ```
//!
//! A node's legal moves are stored once, as a contiguous range of edges, when it is expanded; a
//! child node is created only when its edge is first selected. Nothing is allocated per node.

use rules::{Player, Scores, MAX_PLAYERS};

/// "No node": an edge whose child was never visited, or the root's parent.
pub const NONE: u32 = u32::MAX;

/// Where a node stands in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    /// Created, its position not looked at yet.
    New,
    /// Legal moves stored; the evaluator's answer is awaited.
    Pending,
    /// Priors known; selection can go through it.
    Expanded,
    /// The result here is exact: a finished game, or a position scored without its evaluation (a
    /// one-move win, a repetition draw) when it has no edges; a position the solver proved from
    /// its children when it has them. Its mean value is that result.
    Terminal,
}

/// One position in the tree. Values are sums of per-player scores (seat-indexed, absolute, not
/// relative to the mover), so any player's view, max-n or paranoid, is read off the same node.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
pub struct Node {
    /// Sum over completed visits of each player's score. For a terminal node every visit adds the
    /// same exact result, so `value_sum / visits` is that result.
    pub value_sum: [f32; MAX_PLAYERS],
    /// Completed visits (evaluations and terminal hits backed up through this node).
    pub visits: u32,
    /// Visits that passed through and wait for their evaluation (virtual loss).
    pub in_flight: u32,
    /// The parent node, [`NONE`] for the root.
    pub parent: u32,
    /// First of this node's edges in [`Tree::edges`].
    pub first_edge: u32,
    /// Number of edges (legal moves); 0 until the node is expanded, and for terminal nodes.
    pub num_edges: u16,
    /// The seat to move here (valid once the node is past [`Status::New`]).
    pub to_move: u8,
    /// Life stage.
    pub status: Status,
}

// The node is read for every visited child on every selection: keep it at half a cache line,
// aligned (`repr(align(32))`) so that it never straddles two lines.
const _: () = assert!(std::mem::size_of::<Node>() == 32);

impl Node {
    /// A fresh node below `parent`.
    pub fn new(parent: u32) -> Node {
        Node {
            value_sum: [0.0; MAX_PLAYERS],
            visits: 0,
            in_flight: 0,
            parent,
            first_edge: 0,
            num_edges: 0,
            to_move: 0,
            status: Status::New,
        }
    }

    /// Every player's mean score over completed visits: a terminal node's exact result. The node
    /// must have been visited.
    pub fn means(&self) -> [f32; MAX_PLAYERS] {
        let visits = self.visits as f32;
        self.value_sum.map(|s| s / visits)
    }

    /// Mean score of `player` over completed visits (0 when unvisited).
    pub fn mean(&self, player: Player) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.value_sum[player] / self.visits as f32
        }
    }

    /// The range of this node's edges in [`Tree::edges`].
    pub fn edge_range(&self) -> std::ops::Range<usize> {
        let first = self.first_edge as usize;
        first..first + self.num_edges as usize
    }
}

/// A legal move out of a node, with its prior and (once visited) its child.
#[derive(Clone, Copy, Debug)]
pub struct Edge<M> {
    /// The move.
    pub mv: M,
    /// The prior the search selects by: the evaluator's, with the tactical prior, a root's
    /// decisive moves and root noise mixed in; 0 until the node's evaluation arrives.
    pub prior: f32,
    /// The evaluator's own prior, before anything is mixed in: what the pruned and completed-Q
    /// policy targets are measured against ([`crate::PolicyTarget`]).
    pub own_prior: f32,
    /// The child node, [`NONE`] until the edge is first selected.
    pub child: u32,
}

/// The arenas; index 0 of `nodes` is always the root.
#[derive(Clone, Debug)]
pub struct Tree<M> {
    /// All nodes; the root is `nodes[0]`.
    pub nodes: Vec<Node>,
    /// All edges, each node's a contiguous range.
    pub edges: Vec<Edge<M>>,
    /// Beside each edge (same index): what the node's mover can expect after the move by the
    /// tactical judge, minimaxed up the tree ([`crate::MoveJudge`],
    /// [`Tactics::minimax_weight`](crate::Tactics)): the judge's value of the move
    /// until its child is expanded, then the child's best move for the child's mover, as this
    /// node's mover sees it; NaN where no judge has spoken. Apart from the edges, so that the
    /// edges selection scans stay small (12 bytes on the hexagonal boards).
    pub judged: Vec<f32>,
    /// Arenas [`Tree::reroot`] copies into and swaps with `nodes`/`edges`/`judged`, so that a
    /// search reused move after move stops allocating (and page-faulting) once they are grown.
    spare: (Vec<Node>, Vec<Edge<M>>, Vec<f32>),
}

/// The root's index.
pub const ROOT: u32 = 0;

impl<M: Copy> Tree<M> {
    /// A tree holding only a new root.
    pub fn new() -> Tree<M> {
        Tree {
            nodes: vec![Node::new(NONE)],
            edges: Vec::new(),
            judged: Vec::new(),
            spare: (Vec::new(), Vec::new(), Vec::new()),
        }
    }

    /// Forgets everything but a new root, keeping the allocations.
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.judged.clear();
        self.nodes.push(Node::new(NONE));
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.nodes[ROOT as usize]
    }

    /// A node's edges.
    pub fn edges_of(&self, node: u32) -> &[Edge<M>] {
        &self.edges[self.nodes[node as usize].edge_range()]
    }

    /// Adds a child node below `parent` through edge `edge` and returns its index.
    pub(crate) fn add_child(&mut self, parent: u32, edge: usize) -> u32 {
        let index = u32::try_from(self.nodes.len()).expect("search tree exceeds 2^32 nodes");
        self.nodes.push(Node::new(parent));
        self.edges[edge].child = index;
        index
    }

    /// Stores the legal moves of `node` as its edges, priors zero.
    pub(crate) fn set_moves(&mut self, node: u32, moves: &[M]) {
        let first = u32::try_from(self.edges.len()).expect("search tree exceeds 2^32 edges");
        let n = &mut self.nodes[node as usize];
        n.first_edge = first;
        n.num_edges = u16::try_from(moves.len()).expect("more than 65535 legal moves");
        self.edges.extend(moves.iter().map(|&mv| Edge { mv, prior: 0.0, own_prior: 0.0, child: NONE }));
        self.judged.resize(self.edges.len(), f32::NAN);
    }

    /// Orders `node`'s edges by decreasing prior (stable: equal priors keep their order), their
    /// judged values with them.
    pub(crate) fn sort_edges_by_prior(&mut self, node: u32) {
        let range = self.nodes[node as usize].edge_range();
        let edges = &mut self.edges[range.clone()];
        if edges.is_sorted_by(|a, b| a.prior >= b.prior) {
            return;
        }
        let judged = &mut self.judged[range];
        let mut pairs: Vec<(Edge<M>, f32)> = edges.iter().copied().zip(judged.iter().copied()).collect();
        pairs.sort_by(|a, b| b.0.prior.total_cmp(&a.0.prior));
        for ((e, j), (pe, pj)) in edges.iter_mut().zip(judged.iter_mut()).zip(pairs) {
            (*e, *j) = (pe, pj);
        }
    }

    /// Adds one completed visit with `value` to `node` and every ancestor, ending their pending
    /// visit (the virtual loss laid on the way down). From a terminal node with visits upwards
    /// the visit carries that node's exact result instead: a leaf that was still in flight when
    /// the solver proved an ancestor must not move the ancestor off its exact value.
    pub(crate) fn backup(&mut self, mut node: u32, value: &[f32; MAX_PLAYERS]) {
        let mut value = *value;
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            if n.status == Status::Terminal && n.visits > 0 {
                value = n.means();
            }
            n.visits += 1;
            n.in_flight -= 1;
            for (sum, v) in n.value_sum.iter_mut().zip(&value) {
                *sum += v;
            }
            node = n.parent;
        }
    }

    /// Makes `node` terminal with the exact result `exact` (the solver's proof): its sums become
    /// `exact` times its visits, and every ancestor's sums change by as much, so that each still
    /// holds the sum of what was backed up through it.
    pub(crate) fn set_exact(&mut self, mut node: u32, exact: &[f32; MAX_PLAYERS]) {
        let n = &mut self.nodes[node as usize];
        n.status = Status::Terminal;
        let visits = n.visits as f32;
        let mut change = [0.0; MAX_PLAYERS];
        for ((sum, d), &x) in n.value_sum.iter_mut().zip(&mut change).zip(exact) {
            *d = x * visits - *sum;
            *sum = x * visits;
        }
        node = n.parent;
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            for (sum, d) in n.value_sum.iter_mut().zip(&change) {
                *sum += d;
            }
            node = n.parent;
        }
    }

    /// Takes back the pending visit of `node` and its ancestors without counting it (a collision).
    pub(crate) fn revert(&mut self, mut node: u32) {
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.in_flight -= 1;
            node = n.parent;
        }
    }

    /// The most visited child edge of `node` (ties to the higher prior, then the first), if any
    /// child has completed visits.
    pub fn best_edge(&self, node: u32) -> Option<usize> {
        self.best_edge_where(node, |_| true)
    }

    /// As [`Tree::best_edge`], among the edges (indices into [`Tree::edges`]) that pass `allowed`.
    pub fn best_edge_where(&self, node: u32, allowed: impl Fn(usize) -> bool) -> Option<usize> {
        let range = self.nodes[node as usize].edge_range();
        let mut best: Option<(usize, u32, f32)> = None;
        for i in range.filter(|&i| allowed(i)) {
            let e = &self.edges[i];
            let visits = self.child_visits(e);
            if visits == 0 {
                continue;
            }
            if best.is_none_or(|(_, v, p)| visits > v || (visits == v && e.prior > p)) {
                best = Some((i, visits, e.prior));
            }
        }
        best.map(|(i, _, _)| i)
    }

    /// Completed visits of an edge's child (0 if it has none).
    pub fn child_visits(&self, edge: &Edge<M>) -> u32 {
        if edge.child == NONE {
            0
        } else {
            self.nodes[edge.child as usize].visits
        }
    }

    /// Makes the child through `edge` of the root the new root, keeping only its subtree
    /// (copied to the front of fresh arenas, so memory stays proportional to the live tree).
    /// Returns false, with an empty tree, if that child was never visited.
    pub(crate) fn reroot(&mut self, edge: usize) -> bool {
        let child = self.edges[edge].child;
        if child == NONE || self.nodes[child as usize].status == Status::New {
            self.clear();
            return false;
        }
        let (mut nodes, mut edges, mut judged) = std::mem::take(&mut self.spare);
        nodes.clear();
        edges.clear();
        judged.clear();
        let mut root = self.nodes[child as usize];
        root.parent = NONE;
        nodes.push(root);
        // Breadth-first: `nodes[done]` is the next copied node whose edges still point into the
        // old arenas; its children are appended and its edges rewritten to the new indices.
        let mut done = 0;
        while done < nodes.len() {
            let old = nodes[done];
            let first = edges.len() as u32;
            judged.extend_from_slice(&self.judged[old.edge_range()]);
            for e in &self.edges[old.edge_range()] {
                let mut e = *e;
                if e.child != NONE {
                    let mut c = self.nodes[e.child as usize];
                    c.parent = done as u32;
                    e.child = nodes.len() as u32;
                    nodes.push(c);
                }
                edges.push(e);
            }
            nodes[done].first_edge = first;
            done += 1;
        }
        self.spare.0 = std::mem::replace(&mut self.nodes, nodes);
        self.spare.1 = std::mem::replace(&mut self.edges, edges);
        self.spare.2 = std::mem::replace(&mut self.judged, judged);
        true
    }
}

impl<M: Copy> Default for Tree<M> {
    fn default() -> Self {
        Tree::new()
    }
}

/// Scores as the fixed-size array the tree sums (unused seats 0).
pub fn score_array(scores: &Scores) -> [f32; MAX_PLAYERS] {
    let mut v = [0.0; MAX_PLAYERS];
    v[..scores.len()].copy_from_slice(scores.as_slice());
    v
}

/// The most visited moves from `node` down (empty for [`NONE`], an unvisited child).
pub(crate) fn most_visited_line<M: Copy>(tree: &Tree<M>, mut node: u32) -> Vec<M> {
    let mut line = Vec::new();
    while node != NONE {
        let Some(e) = tree.best_edge(node) else { break };
        line.push(tree.edges[e].mv);
        node = tree.edges[e].child;
    }
    line
}
