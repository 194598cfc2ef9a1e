//! What copy-make costs: `cargo run --release -p rules --example clone_cost`.
//!
//! Times, per position of a random Glinski game sample, a clone, a make (`play` on a clone
//! already made), and legal move generation, to compare with what an undo would have to redo.

use std::hint::black_box;
use std::time::Instant;

use rules::hexchess::Glinski;
use rules::Game;

fn main() {
    // A sample of positions with their legal moves, from cheap deterministic pseudo-random games.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut sample = Vec::new();
    let mut moves = Vec::new();
    // Few enough positions to stay in cache, as a search's working set does.
    for _ in 0..6 {
        let mut game = Glinski::start();
        for _ in 0..80 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            sample.push((game.clone(), mv));
            game.play(mv);
        }
    }
    let rounds = 5000;
    let n = (sample.len() * rounds) as f64;
    let best = |f: &dyn Fn()| {
        (0..5)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    };

    let clone = best(&|| {
        for _ in 0..rounds {
            for (g, _) in &sample {
                let c = black_box(g).clone();
                black_box(c.hash());
            }
        }
    });
    let clone_make = best(&|| {
        for _ in 0..rounds {
            for (g, mv) in &sample {
                let mut c = black_box(g).clone();
                c.play(*mv);
                black_box(c.hash());
            }
        }
    });
    let generate = best(&|| {
        let mut moves = Vec::with_capacity(256);
        for _ in 0..rounds {
            for (g, _) in &sample {
                black_box(g).legal_moves(&mut moves);
                black_box(&moves);
            }
        }
    });
    let count = best(&|| {
        for _ in 0..rounds {
            for (g, _) in &sample {
                black_box(black_box(g).count_legal_moves());
            }
        }
    });
    let history: usize = sample.iter().map(|(g, _)| g.halfmove_clock().min(100) as usize).sum();
    println!(
        "positions {}, size of a position {} bytes, mean repetition history {:.1} hashes",
        sample.len(),
        std::mem::size_of::<Glinski>(),
        history as f64 / sample.len() as f64
    );
    println!("clone           {:6.2} ns", clone / n * 1e9);
    println!("clone + play    {:6.2} ns (play alone ~{:.2} ns)", clone_make / n * 1e9, (clone_make - clone) / n * 1e9);
    println!("legal_moves     {:6.2} ns", generate / n * 1e9);
    println!("count (bulk)    {:6.2} ns", count / n * 1e9);
}
