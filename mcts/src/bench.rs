//! The speed benchmark behind `vzero bench mcts`: simulations per second with the uniform
//! evaluator, and how the time splits between move generation and the tree.

use std::fmt;
use std::time::Instant;

use rules::Game;

use crate::evaluator::UniformEvaluator;
use crate::params::SearchParams;
use crate::search::Search;

/// One benchmark run's measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// The variant's name.
    pub game: &'static str,
    /// Simulations completed (root visits).
    pub simulations: u64,
    /// Wall time of the whole search.
    pub seconds: f64,
    /// Of which: cloning, replaying paths and generating legal moves at leaves.
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
pub fn bench_position<G: Game>(game: &G, simulations: u32) -> BenchReport {
    let params = SearchParams { max_in_flight: 1, ..SearchParams::analysis(simulations) };
    let mut search = Search::new(game.clone(), params, 0);
    search.enable_profile();
    let clock = Instant::now();
    search.run(&UniformEvaluator);
    let seconds = clock.elapsed().as_secs_f64();
    let profile = search.profile().unwrap_or_default();
    BenchReport {
        game: G::NAME,
        simulations: search.tree().root().visits as u64,
        seconds,
        movegen_seconds: profile.movegen.as_secs_f64(),
        evaluator_seconds: profile.evaluator.as_secs_f64(),
        nodes: search.tree().nodes.len(),
    }
}
