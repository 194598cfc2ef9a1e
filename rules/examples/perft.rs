//! Perft speed: `cargo run --release -p rules --example perft -- glinski 4 [--no-bulk] [--runs N]`.
//! Prints the leaf count and the best rate over the runs, by wall clock and (on Linux) by this
//! process's CPU time, which other work on a shared machine disturbs much less.

use std::time::Instant;

use rules::{perft, with_game, Game, Variant};

/// Times perft of game `G` from its start, `runs` times.
fn run<G: Game>(depth: u32, bulk: bool, runs: usize) {
    let game = G::start();
    let mut best = f64::MAX;
    let mut nodes = 0;
    let cpu_start = cpu_seconds();
    for _ in 0..runs {
        let start = Instant::now();
        nodes = perft::perft(&game, depth, bulk);
        best = best.min(start.elapsed().as_secs_f64());
    }
    // The CPU clock ticks in 10 ms steps, so average it over all runs rather than take a best.
    let mean_cpu = (cpu_seconds() - cpu_start) / runs as f64;
    let mode = if bulk { "bulk" } else { "no-bulk" };
    let rate = |secs: f64| nodes as f64 / secs.max(1e-9) / 1e6;
    println!(
        "{} perft {} {mode}: {nodes} leaves, best {best:.4} s wall ({:.2} M leaves/s), mean {mean_cpu:.4} s CPU ({:.2} M leaves/s)",
        G::NAME,
        depth,
        rate(best),
        rate(mean_cpu)
    );
}

/// CPU time used by this process so far (user + system, from /proc; 10 ms resolution), or 0
/// where /proc is missing.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11..13).map_or(0.0, |f| f.iter().filter_map(|x| x.parse::<f64>().ok()).sum());
    ticks / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: perft VARIANT DEPTH [--no-bulk] [--runs N]";
    let variant: Variant = args.first().expect(usage).parse().expect("unknown variant");
    let depth: u32 = args.get(1).expect(usage).parse().expect(usage);
    let bulk = !args.iter().any(|a| a == "--no-bulk");
    let runs =
        args.iter().position(|a| a == "--runs").and_then(|i| args.get(i + 1)).map_or(1, |n| n.parse().expect(usage));
    with_game!(variant, G => run::<G>(depth, bulk, runs));
}
