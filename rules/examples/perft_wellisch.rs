//! Wellisch perft with timing: `cargo run -p rules --release --example perft_wellisch -- DEPTH
//! [--no-bulk] [--position TEXT]`; prints the leaves and millions of leaves per second.

use std::time::Instant;

use rules::perft::perft;
use rules::wellisch::Wellisch;
use rules::Game;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let bulk = !args.iter().any(|a| a == "--no-bulk");
    let game = match args.iter().position(|a| a == "--position") {
        Some(i) => Wellisch::from_text(&args[i + 1]).unwrap_or_else(|e| panic!("{e}")),
        None => Wellisch::start(),
    };
    let start = Instant::now();
    let leaves = perft(&game, depth, bulk);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "wellisch perft {depth} {}: {leaves} leaves, {secs:.3} s, {:.2} M leaves/s",
        if bulk { "bulk" } else { "no-bulk" },
        leaves as f64 / secs.max(1e-9) / 1e6
    );
}
