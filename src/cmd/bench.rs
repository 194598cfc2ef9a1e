//! `vzero bench`: speed measurements quoted in the docs and issue notes.

use std::time::Instant;

use rules::{perft, Game, Variant, WithGame};

use crate::cli::{BenchArgs, BenchKind};

/// Runs the chosen benchmark.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    match args.what {
        BenchKind::Perft => {
            for variant in Variant::ALL {
                let depth = perft_bench_depth(variant);
                match variant.with_game(PerftBench { depth }) {
                    Ok(()) => {}
                    Err(e) => println!("{:<14} skipped: {e}", variant.name()),
                }
            }
            Ok(())
        }
        BenchKind::Mcts => {
            for variant in Variant::ALL {
                if let Err(e) = variant.with_game(MctsBench { simulations: args.simulations }) {
                    println!("{:<14} skipped: {e}", variant.name());
                }
            }
            Ok(())
        }
    }
}

struct MctsBench {
    simulations: u32,
}

impl WithGame for MctsBench {
    type Output = ();

    fn run<G: Game>(self) {
        let report = mcts::bench::simulations_per_second::<G>(self.simulations);
        println!("{:<14} {report}", G::NAME);
    }
}

/// Depth at which each variant's perft takes a few seconds: millions of leaves.
fn perft_bench_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Glinski => 4,
        Variant::MiniHexchess => 5,
        Variant::Wellisch => 5,
        Variant::Weltschach => 2,
    }
}

struct PerftBench {
    depth: u32,
}

impl WithGame for PerftBench {
    type Output = ();

    fn run<G: Game>(self) {
        let game = G::start();
        for bulk in [true, false] {
            // Repeat for at least a second and keep the fastest run: small trees finish in
            // milliseconds, where one run says more about the timer than the generator.
            let begun = Instant::now();
            let mut secs = f64::INFINITY;
            let mut nodes = 0;
            while secs.is_infinite() || begun.elapsed().as_secs_f64() < 1.0 {
                let start = Instant::now();
                nodes = perft::perft(&game, self.depth, bulk);
                secs = secs.min(start.elapsed().as_secs_f64());
            }
            println!(
                "{:<14} perft {} {:<8} {:>12} leaves {:>8.3} s {:>8.2} M leaves/s",
                G::NAME,
                self.depth,
                if bulk { "bulk" } else { "no-bulk" },
                nodes,
                secs,
                nodes as f64 / secs.max(1e-9) / 1e6
            );
        }
    }
}
