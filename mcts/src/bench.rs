//! The speed benchmark behind `vzero bench mcts`: simulations per second with the uniform
//! evaluator, and how the time splits between move generation and the tree.

use std::fmt;
use std::time::Instant;

use rules::Game;

use crate::batch::Batch;
use crate::evaluator::{Evaluator, UniformEvaluator};
use crate::params::SearchParams;
use crate::search::Search;
use crate::tree::{Tree, ROOT};

/// One benchmark run's measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// The variant's name.
    pub game: &'static str,
    /// Simulations completed (root visits).
    pub simulations: u64,
    /// Wall time of the whole search.
    pub seconds: f64,
    /// Of which: cloning the root state, replaying paths and generating legal moves at leaves.
    pub movegen_seconds: f64,
    /// Of which: inside the (uniform) evaluator.
    pub evaluator_seconds: f64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
}

impl BenchReport {
    /// Simulations per second.
    pub fn simulations_per_second(&self) -> f64 {
        self.simulations as f64 / self.seconds.max(1e-9)
    }

    /// Time in selection, expansion and backup: what is neither move generation nor evaluation.
    pub fn tree_seconds(&self) -> f64 {
        (self.seconds - self.movegen_seconds - self.evaluator_seconds).max(0.0)
    }

    /// Share of the wall time spent generating moves.
    pub fn movegen_share(&self) -> f64 {
        self.movegen_seconds / self.seconds.max(1e-9)
    }

    /// Share of the wall time spent in the tree.
    pub fn tree_share(&self) -> f64 {
        self.tree_seconds() / self.seconds.max(1e-9)
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} simulations in {:.3} s = {:.0} sims/s; movegen {:.1}%, tree {:.1}%, evaluator {:.1}%; {} nodes",
            self.game,
            self.simulations,
            self.seconds,
            self.simulations_per_second(),
            100.0 * self.movegen_share(),
            100.0 * self.tree_share(),
            100.0 * self.evaluator_seconds / self.seconds.max(1e-9),
            self.nodes,
        )
    }
}

/// Single-threaded search of `simulations` simulations from `G`'s start position with the
/// uniform evaluator, one leaf at a time.
pub fn simulations_per_second<G: Game>(simulations: u32) -> BenchReport {
    bench_position(&G::start(), simulations)
}

/// As [`simulations_per_second`], from any position.
///
/// The search is run on one [`Search`] reset between runs, first untimed: a self-play worker or
/// an analysis session reuses its search, whose arenas have long been allocated and faulted in.
/// Then [`TIMED_RUNS`] timed runs, of which the fastest counts (other processes only ever add
/// time). The timed runs have no clocks inside, as per-leaf clocks would cost more than some of
/// what they measure: the split comes from replaying, after the search, exactly the move
/// generation (and evaluation) it did, once per tree node: the root state cloned, the path
/// replayed, the legal moves generated. The tree's share is what remains of the wall time.
pub fn bench_position<G: Game>(game: &G, simulations: u32) -> BenchReport {
    // Without the one-move win checks at leaves: they are move generation and play done for the
    // search's own sake, and would hide the tree's cost they are counted in.
    let params = SearchParams { max_in_flight: 1, wins_in_tree: false, ..SearchParams::analysis(simulations) };
    let mut search = Search::new(game.clone(), params, 0);
    search.run(&UniformEvaluator);
    let mut seconds = f64::INFINITY;
    for _ in 0..TIMED_RUNS {
        search.reset(game.clone());
        let clock = Instant::now();
        search.run(&UniformEvaluator);
        seconds = seconds.min(clock.elapsed().as_secs_f64());
    }
    let (mut movegen_seconds, mut evaluator_seconds) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..TIMED_RUNS {
        let (movegen, evaluation) = replay(game, search.tree());
        movegen_seconds = movegen_seconds.min(movegen);
        evaluator_seconds = evaluator_seconds.min(evaluation);
    }
    BenchReport {
        game: G::NAME,
        simulations: search.tree().root().visits as u64,
        seconds,
        movegen_seconds,
        evaluator_seconds,
        nodes: search.tree().nodes.len(),
    }
}

/// Timed runs of the search and of the replay; the fastest of each counts.
pub const TIMED_RUNS: usize = 3;

/// Seconds spent generating the tree's positions and moves, and evaluating them, redone in
/// chunks: paths are found untimed, then timed as one block per chunk.
fn replay<G: Game>(game: &G, tree: &Tree<G::Move>) -> (f64, f64) {
    const CHUNK: usize = 4096;
    let (mut movegen, mut evaluation) = (0.0, 0.0);
    let mut batch = Batch::new();
    let mut states = Vec::with_capacity(CHUNK);
    let mut moves = Vec::new();
    // Every chunk's legal moves, back to back: `ends[i]` closes those of `states[i]`.
    let mut all_moves = Vec::new();
    let mut ends = Vec::with_capacity(CHUNK);
    let nodes: Vec<u32> = (0..tree.nodes.len() as u32).collect();
    for chunk in nodes.chunks(CHUNK) {
        let paths: Vec<Vec<G::Move>> = chunk.iter().map(|&node| path_to(tree, node)).collect();
        states.clear();
        all_moves.clear();
        ends.clear();
        let clock = Instant::now();
        for path in &paths {
            let mut state = game.clone();
            for &mv in path {
                state.play(mv);
            }
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                std::hint::black_box(state.outcome());
            } else {
                all_moves.extend_from_slice(&moves);
                ends.push(all_moves.len());
                states.push(state);
            }
        }
        movegen += clock.elapsed().as_secs_f64();

        batch.clear();
        let mut start = 0;
        for (state, &end) in states.drain(..).zip(&ends) {
            batch.push(state, &all_moves[start..end], 0);
            start = end;
        }
        let clock = Instant::now();
        Evaluator::<G>::evaluate(&UniformEvaluator, &mut batch);
        evaluation += clock.elapsed().as_secs_f64();
    }
    (movegen, evaluation)
}

/// The moves from the root to `node`.
fn path_to<M: Copy>(tree: &Tree<M>, mut node: u32) -> Vec<M> {
    let mut path = Vec::new();
    while node != ROOT {
        let parent = tree.nodes[node as usize].parent;
        let edge = tree.edges_of(parent).iter().find(|e| e.child == node).expect("child under its parent");
        path.push(edge.mv);
        node = parent;
    }
    path.reverse();
    path
}
