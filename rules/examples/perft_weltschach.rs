//! Weltschach perft from the start: `cargo run -p rules --release --example perft_weltschach -- DEPTH [--no-bulk]`.
//! Prints the leaf count and the leaf rate (single thread). `--clone` also times a state clone. `--random N` first plays N random
//! plies (fixed seed, captures preferred) to measure an open middlegame instead of the start.

use std::time::Instant;

use rules::weltschach::Weltschach;
use rules::{perft, Game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(2);
    let bulk = !args.iter().any(|a| a == "--no-bulk");
    let mut game = Weltschach::start();
    if let Some(i) = args.iter().position(|a| a == "--random") {
        let plies: usize = args[i + 1].parse().expect("--random N");
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut moves = Vec::new();
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let caps: Vec<_> = moves.iter().copied().filter(|m| game.piece_at(m.to()).is_some()).collect();
            let pool = if !caps.is_empty() && seed & 1 == 0 { &caps } else { &moves };
            game.play(pool[(seed >> 8) as usize % pool.len()]);
        }
        println!("{} ({} legal moves)", game.to_text(), game.count_legal_moves());
    }
    let t = Instant::now();
    let nodes = perft::perft(&game, depth, bulk);
    let secs = t.elapsed().as_secs_f64();
    // Copy-make cost: one clone per played move in search and non-bulk perft.
    let reps = if args.iter().any(|a| a == "--clone") { 2_000_000 } else { 0 };
    let t = Instant::now();
    let mut h = 0u64;
    for _ in 0..reps {
        let c = std::hint::black_box(&game).clone();
        h ^= std::hint::black_box(&c).hash();
    }
    let clone_ns = t.elapsed().as_secs_f64() * 1e9 / reps as f64;
    if reps > 0 {
        println!("state size {} bytes, clone {clone_ns:.1} ns ({h:x})", std::mem::size_of::<Weltschach>());
    }
    println!(
        "perft {depth} ({}): {nodes} leaves in {secs:.3} s, {:.2} M leaves/s",
        if bulk { "bulk" } else { "no bulk" },
        nodes as f64 / secs / 1e6
    );
}
