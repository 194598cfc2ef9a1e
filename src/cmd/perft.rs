//! `vzero perft`: leaf counts of the legal-move tree, optionally split by root move.

use std::time::Instant;

use anyhow::{anyhow, Context};
use rules::{perft, with_game, Game};

use crate::cli::PerftArgs;

/// Runs perft for the chosen variant.
pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    with_game!(args.variant, G => count::<G>(&args))
}

/// Counts and prints the leaves of game `G` from the chosen position.
fn count<G: Game>(args: &PerftArgs) -> anyhow::Result<()> {
    let game = start_position::<G>(args.start.position.as_deref(), args.moves.moves.as_deref())?;
    let bulk = !args.no_bulk;
    let start = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        let split = perft::divide(&game, args.depth, bulk);
        for (mv, count) in &split {
            println!("{mv}: {count}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft_parallel(&game, args.depth, bulk, args.threads.max(1))
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    eprintln!("time {secs:.3} s, {:.2} M nodes/s", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

/// The position given by `--position` (or the start) after playing `--moves`.
pub fn start_position<G: Game>(position: Option<&str>, moves: Option<&str>) -> anyhow::Result<G> {
    let mut game = match position {
        Some(text) => G::from_text(text).with_context(|| format!("--position '{text}'"))?,
        None => G::start(),
    };
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        let mv = game.parse_move(text).map_err(|e| anyhow!("--moves: move {} ('{text}'): {e}", i + 1))?;
        game.play(mv);
    }
    Ok(game)
}
