//! Weltschach perft from the start: `cargo run -p rules --release --example perft_weltschach -- DEPTH [--no-bulk]`.
//! Prints the leaf count and the leaf rate (single thread).

use std::time::Instant;

use rules::weltschach::Weltschach;
use rules::{perft, Game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(2);
    let bulk = !args.iter().any(|a| a == "--no-bulk");
    let game = Weltschach::start();
    let t = Instant::now();
    let nodes = perft::perft(&game, depth, bulk);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft {depth} ({}): {nodes} leaves in {secs:.3} s, {:.2} M leaves/s",
        if bulk { "bulk" } else { "no bulk" },
        nodes as f64 / secs / 1e6
    );
}
