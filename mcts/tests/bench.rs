//! The speed benchmark's entry point on toy games (the real variants are measured by
//! `vzero bench mcts`). Run with `--nocapture` to see the figures.

mod games;

use games::gomoku::Gomoku;
use games::tictactoe::TicTacToe;
use mcts::bench::simulations_per_second;

/// Simulations per benchmark run (`MCTS_BENCH_SIMS` overrides).
fn sims() -> u32 {
    std::env::var("MCTS_BENCH_SIMS").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

#[test]
fn bench_reports_a_consistent_split() {
    let sims = sims();
    for report in [simulations_per_second::<Gomoku>(sims), simulations_per_second::<TicTacToe>(sims)] {
        println!("{report}");
        assert_eq!(report.simulations, sims as u64);
        assert!(report.simulations_per_second() > 0.0);
        // The split is measured by replaying move generation, so under load it is approximate.
        assert!(report.movegen_seconds > 0.0 && report.evaluator_seconds > 0.0, "{report}");
        assert!((0.0..=1.0).contains(&report.tree_share()), "{report}");
    }
}
