//! The speed benchmark behind `vzero bench mcts`: the cost of a simulation with the uniform
//! evaluator and self-play's search settings (PUCT or Gumbel at the root), one-move win checks,
//! repetition draws and the solver included, beside the same search without the win checks, and
//! how each run's time splits between move generation, the win checks, the evaluator and the
//! tree (repetition checks and proofs count as the tree's).

use std::fmt;
use std::time::Instant;

use rules::Game;

use crate::batch::Batch;
use crate::evaluator::{Evaluator, UniformEvaluator};
use crate::params::{RootSearch, SearchParams};
use crate::search::Search;
use crate::tree::{Status, Tree, ROOT};

/// One benchmark run's measurements.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// The variant's name.
    pub game: &'static str,
    /// Whether the search checked for one-move wins (at leaves and at the root).
    pub win_checks: bool,
    /// Simulations completed (root visits).
    pub simulations: u64,
    /// Wall time of the whole search.
    pub seconds: f64,
    /// Of which: cloning the root state, replaying paths and generating legal moves at leaves.
    pub movegen_seconds: f64,
    /// Of which: the one-move win checks ([`Game::winning_move`]); 0 without them.
    pub win_check_seconds: f64,
    /// Of which: inside the (uniform) evaluator.
    pub evaluator_seconds: f64,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// Nodes the search scored without the evaluator although their position has legal moves:
    /// wins found by the win checks and repetition draws (always 0 without both).
    pub decided_by_checks: usize,
}

impl BenchReport {
    /// Simulations per second.
    pub fn simulations_per_second(&self) -> f64 {
        self.simulations as f64 / self.seconds.max(1e-9)
    }

    /// Microseconds of wall time per simulation.
    pub fn micros_per_simulation(&self) -> f64 {
        1e6 * self.seconds / self.simulations.max(1) as f64
    }

    /// Time in selection, expansion and backup: what is neither move generation, win checks
    /// nor evaluation.
    pub fn tree_seconds(&self) -> f64 {
        (self.seconds - self.movegen_seconds - self.win_check_seconds - self.evaluator_seconds).max(0.0)
    }

    /// Share of the wall time spent on `seconds` of it.
    fn share(&self, seconds: f64) -> f64 {
        seconds / self.seconds.max(1e-9)
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "win checks {:<3}: {} simulations in {:.3} s = {:.0} sims/s, {:.2} us/sim; movegen {:.1}%, win checks {:.1}%, tree {:.1}%, evaluator {:.1}%; {} nodes, {} scored without the evaluator",
            if self.win_checks { "on" } else { "off" },
            self.simulations,
            self.seconds,
            self.simulations_per_second(),
            self.micros_per_simulation(),
            100.0 * self.share(self.movegen_seconds),
            100.0 * self.share(self.win_check_seconds),
            100.0 * self.share(self.tree_seconds()),
            100.0 * self.share(self.evaluator_seconds),
            self.nodes,
            self.decided_by_checks,
        )
    }
}

/// The search as self-play runs it (win checks on) and the same search without the checks.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchBench {
    /// The root search measured.
    pub root: RootSearch,
    /// Self-play's settings: [`SearchParams::wins_in_tree`] and [`SearchParams::root_wins_first`]
    /// on (and the defaults' repetition draws and solver).
    pub checked: BenchReport,
    /// The same with both win checks off.
    pub plain: BenchReport,
}

impl SearchBench {
    /// What the win checks multiply a simulation's cost by.
    pub fn cost_ratio(&self) -> f64 {
        self.checked.micros_per_simulation() / self.plain.micros_per_simulation().max(1e-12)
    }
}

impl fmt::Display for SearchBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} ({} root): {:.2} us per simulation as self-play searches, {:.2}x the search without win checks",
            self.checked.game,
            self.root,
            self.checked.micros_per_simulation(),
            self.cost_ratio()
        )?;
        writeln!(f, "  {}", self.checked)?;
        write!(f, "  {}", self.plain)
    }
}

/// The search of [`SearchParams::default`] (self-play's) with `simulations` simulations and
/// `root` search from `G`'s start position, with the uniform evaluator, with and without the
/// one-move win checks, at 8 leaves in flight and 30 plies at temperature 1 as before issue 23.
pub fn simulations_per_second<G: Game>(simulations: u32, root: RootSearch) -> SearchBench {
    bench_position(&G::start(), simulations, root)
}

/// Leaves in flight benchmarked: the default before issue 23 (now 4), so figures stay comparable.
const BENCH_MAX_IN_FLIGHT: u32 = 8;

/// Plies at temperature 1 benchmarked: the default before issue 23 (now 12), for the same reason.
const BENCH_TEMPERATURE_PLIES: u32 = 30;

/// As [`simulations_per_second`], from any position.
pub fn bench_position<G: Game>(game: &G, simulations: u32, root: RootSearch) -> SearchBench {
    let checked = SearchParams {
        simulations,
        root,
        max_in_flight: BENCH_MAX_IN_FLIGHT,
        temperature_plies: BENCH_TEMPERATURE_PLIES,
        ..SearchParams::default()
    };
    let plain = SearchParams { wins_in_tree: false, root_wins_first: false, ..checked.clone() };
    SearchBench { root, checked: bench_search(game, checked), plain: bench_search(game, plain) }
}

/// One search with `params` from `game`, timed, and its time split.
///
/// The search is run on one [`Search`] reset between runs, first untimed: a self-play worker or
/// an analysis session reuses its search, whose arenas have long been allocated and faulted in.
/// Then [`TIMED_RUNS`] timed runs, of which the fastest counts (other processes only ever add
/// time). The timed runs have no clocks inside, as per-leaf clocks would cost more than some of
/// what they measure: the split comes from replaying, after the search, exactly the move
/// generation, win checks and evaluation it did, once per tree node: the root state cloned, the
/// path replayed, the legal moves generated, the win check made. The tree's share is what
/// remains of the wall time.
pub fn bench_search<G: Game>(game: &G, params: SearchParams) -> BenchReport {
    let mut search = Search::new(game.clone(), params.clone(), 0);
    search.run(&UniformEvaluator);
    let mut seconds = f64::INFINITY;
    for _ in 0..TIMED_RUNS {
        search.reset(game.clone());
        let clock = Instant::now();
        search.run(&UniformEvaluator);
        seconds = seconds.min(clock.elapsed().as_secs_f64());
    }
    let mut best = Replay { movegen: f64::INFINITY, checks: f64::INFINITY, evaluation: f64::INFINITY, decided: 0 };
    for _ in 0..TIMED_RUNS {
        let r = replay(game, search.tree(), &params);
        best.movegen = best.movegen.min(r.movegen);
        best.checks = best.checks.min(r.checks);
        best.evaluation = best.evaluation.min(r.evaluation);
        best.decided = r.decided;
    }
    BenchReport {
        game: G::NAME,
        win_checks: params.wins_in_tree || params.root_wins_first,
        simulations: search.tree().root().visits as u64,
        seconds,
        movegen_seconds: best.movegen,
        win_check_seconds: best.checks,
        evaluator_seconds: best.evaluation,
        nodes: search.tree().nodes.len(),
        decided_by_checks: best.decided,
    }
}

/// Timed runs of the search and of the replay; the fastest of each counts.
pub const TIMED_RUNS: usize = 3;

/// What one replay of a tree measured.
struct Replay {
    movegen: f64,
    checks: f64,
    evaluation: f64,
    /// Nodes scored without the evaluator although their position has legal moves.
    decided: usize,
}

/// Seconds spent generating the tree's positions and moves, checking them for wins and
/// evaluating them, redone in chunks: paths are found untimed, then each part is timed as one
/// block per chunk.
fn replay<G: Game>(game: &G, tree: &Tree<G::Move>, params: &SearchParams) -> Replay {
    const CHUNK: usize = 4096;
    let mut r = Replay { movegen: 0.0, checks: 0.0, evaluation: 0.0, decided: 0 };
    let mut batch = Batch::new();
    let mut states = Vec::with_capacity(CHUNK);
    let mut moves = Vec::new();
    // Every chunk's legal moves, back to back: `ends[i]` closes those of `states[i]`.
    let mut all_moves = Vec::new();
    let mut ends = Vec::with_capacity(CHUNK);
    // Per state: its node, and whether the search checked it for a win.
    let mut state_nodes = Vec::with_capacity(CHUNK);
    let mut checked = Vec::with_capacity(CHUNK);
    let nodes: Vec<u32> = (0..tree.nodes.len() as u32).collect();
    for chunk in nodes.chunks(CHUNK) {
        let paths: Vec<Vec<G::Move>> = chunk.iter().map(|&node| path_to(tree, node)).collect();
        states.clear();
        all_moves.clear();
        ends.clear();
        state_nodes.clear();
        checked.clear();
        let clock = Instant::now();
        for (path, &node) in paths.iter().zip(chunk) {
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
                state_nodes.push(node);
                checked.push(if node == ROOT { params.root_wins_first } else { params.wins_in_tree });
            }
        }
        r.movegen += clock.elapsed().as_secs_f64();

        if checked.contains(&true) {
            let clock = Instant::now();
            for (state, &check) in states.iter().zip(&checked) {
                if check {
                    std::hint::black_box(state.winning_move());
                }
            }
            r.checks += clock.elapsed().as_secs_f64();
        }

        batch.clear();
        let mut start = 0;
        for ((state, &end), &node) in states.drain(..).zip(&ends).zip(&state_nodes) {
            // A position with moves that the search marked finished without storing its moves
            // was scored without the evaluator: by a win check or as a repetition draw. One the
            // solver proved has its moves, and was evaluated first.
            let n = &tree.nodes[node as usize];
            if n.status == Status::Terminal && n.num_edges == 0 {
                r.decided += 1;
            } else {
                batch.push(state, &all_moves[start..end], 0, 0);
            }
            start = end;
        }
        let clock = Instant::now();
        Evaluator::<G>::evaluate(&UniformEvaluator, &mut batch);
        r.evaluation += clock.elapsed().as_secs_f64();
    }
    r
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
