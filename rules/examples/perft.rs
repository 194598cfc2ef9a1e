//! Perft speed: `cargo run --release -p rules --example perft -- glinski 4 [--no-bulk] [--runs N]`.
//! Prints the leaf count and the best rate over the runs (other work on the machine adds noise).

use std::time::Instant;

use rules::{perft, Game, Variant, WithGame};

struct Run {
    depth: u32,
    bulk: bool,
    runs: usize,
}

impl WithGame for Run {
    type Output = ();

    fn run<G: Game>(self) {
        let game = G::start();
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..self.runs {
            let start = Instant::now();
            nodes = perft::perft(&game, self.depth, self.bulk);
            best = best.min(start.elapsed().as_secs_f64());
        }
        let mode = if self.bulk { "bulk" } else { "no-bulk" };
        println!("{} perft {} {mode}: {nodes} leaves, best {best:.3} s, {:.2} M leaves/s", G::NAME, self.depth, nodes as f64 / best / 1e6);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: perft VARIANT DEPTH [--no-bulk] [--runs N]";
    let variant: Variant = args.first().expect(usage).parse().expect("unknown variant");
    let depth: u32 = args.get(1).expect(usage).parse().expect(usage);
    let bulk = !args.iter().any(|a| a == "--no-bulk");
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .map_or(1, |n| n.parse().expect(usage));
    variant.with_game(Run { depth, bulk, runs }).expect("variant not implemented");
}
