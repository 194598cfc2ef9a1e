//! The speed benchmark's entry point on toy games (the real variants are measured by
//! `vzero bench mcts`). Run with `--nocapture` to see the figures.

mod games;

use games::gomoku::Gomoku;
use games::tictactoe::TicTacToe;
use mcts::bench::{simulations_per_second, SearchBench};
use mcts::RootSearch;

/// Simulations per benchmark run (`MCTS_BENCH_SIMS` overrides).
fn sims() -> u32 {
    std::env::var("MCTS_BENCH_SIMS").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

#[test]
fn bench_measures_the_search_with_and_without_win_checks() {
    let sims = sims();
    for bench in [
        simulations_per_second::<Gomoku>(sims, RootSearch::Puct),
        simulations_per_second::<TicTacToe>(sims, RootSearch::Puct),
    ] {
        assert_measured(&bench, sims);
    }
}

/// Gumbel search measures alike. On Tic-tac-toe only: with the uniform evaluator its selection
/// below the root follows the priors, breadth first, and reaches no Gomoku win in 100,000
/// simulations.
#[test]
fn bench_measures_gumbel_search_alike() {
    let sims = sims();
    assert_measured(&simulations_per_second::<TicTacToe>(sims, RootSearch::Gumbel), sims);
}

/// A benchmark of `sims` simulations measured both searches, each with its own split, and the
/// win checks found wins in the tree.
fn assert_measured(bench: &SearchBench, sims: u32) {
    println!("{bench}");
    let (checked, plain) = (&bench.checked, &bench.plain);
    assert!(checked.win_checks && !plain.win_checks, "{bench}");
    for report in [checked, plain] {
        // The search ran to exactly its target, however many leaves it had in flight.
        assert_eq!(report.simulations, sims as u64, "{report}");
        // The split is measured by replaying move generation, so under load it is approximate.
        assert!(report.seconds > 0.0 && report.movegen_seconds > 0.0 && report.evaluator_seconds > 0.0, "{report}");
        // Every simulation adds at most one node, and a search of many has grown a tree.
        assert!(report.nodes > 1 && report.nodes <= sims as usize + 1, "{report}");
    }
    // The checks were made and timed in the search that has them, and only there.
    assert!(checked.win_check_seconds > 0.0, "{bench}");
    assert_eq!(plain.win_check_seconds, 0.0, "{bench}");
    // Both games have one-move wins within a few plies: the checks found some in the tree
    // (scored without the evaluator), and without them no position with moves is (neither game
    // can repeat a position, and positions the solver proved were evaluated first).
    assert!(checked.decided_by_checks > 0, "{bench}");
    assert_eq!(plain.decided_by_checks, 0, "{bench}");
    assert!(bench.cost_ratio() > 0.0 && bench.cost_ratio().is_finite(), "{bench}");
}
