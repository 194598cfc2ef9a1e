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
            let start = Instant::now();
            let nodes = perft::perft(&game, self.depth, bulk);
            let secs = start.elapsed().as_secs_f64();
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
