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
    // Copy-make cost: one clone per played move in search and non-bulk perft.
    let reps = 2_000_000;
    let t = Instant::now();
    let mut h = 0u64;
    for _ in 0..reps {
        let c = std::hint::black_box(&game).clone();
        h ^= std::hint::black_box(&c).hash();
    }
    let clone_ns = t.elapsed().as_secs_f64() * 1e9 / reps as f64;
    println!("state size {} bytes, clone {clone_ns:.1} ns ({h:x})", std::mem::size_of::<Weltschach>());
    println!(
        "perft {depth} ({}): {nodes} leaves in {secs:.3} s, {:.2} M leaves/s",
        if bulk { "bulk" } else { "no bulk" },
        nodes as f64 / secs / 1e6
    );
}
