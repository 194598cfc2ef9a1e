//! `vzero perft`: leaf counts of the legal-move tree, optionally split by root move.

use std::time::Instant;

use rules::{perft, with_game, Game};

use super::start::start_position;
use crate::cli::{usage, PerftArgs};

/// Runs perft for the chosen variant.
pub fn run(args: PerftArgs) -> anyhow::Result<()> {
    with_game!(args.variant, G => count::<G>(&args))
}

/// Counts and prints the leaves of game `G` from the chosen position.
fn count<G: Game>(args: &PerftArgs) -> anyhow::Result<()> {
    let game = start_position::<G>(args.start.position.as_deref(), args.moves.moves.as_deref())?;
    let bulk = !args.no_bulk;
    announce_cost(&game, args)?;
    let start = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        let split = perft::divide(&game, args.depth, bulk);
        for (mv, count) in &split {
            println!("{mv}: {count}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft_parallel(&game, args.depth, bulk, args.threads)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    eprintln!("time {secs:.3} s, {:.2} M nodes/s", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

/// Counts that take longer than this are announced with their estimate before they start.
const ANNOUNCE_SECONDS: f64 = 10.0;

/// Says up front what a deep count will cost, which a count gives no sign of until it ends
/// (`perft mini-hexchess 30` ran silently for ever): shallower depths are counted until one
/// takes a tenth of a second (together a small share of the count asked for, each depth
/// costing the branching factor times the one before), and the growth of the last is
/// extrapolated. A count past what a 64-bit number holds is refused as a usage error; one
/// longer than [`ANNOUNCE_SECONDS`] is announced on standard error.
fn announce_cost<G: Game>(game: &G, args: &PerftArgs) -> anyhow::Result<()> {
    let bulk = !args.no_bulk;
    let (mut previous, mut last, mut depth, mut secs) = (1u64, 1u64, 0u32, 0.0f64);
    while depth + 1 < args.depth && secs < 0.1 {
        let begun = Instant::now();
        let leaves = perft::perft(game, depth + 1, bulk);
        secs = begun.elapsed().as_secs_f64();
        (previous, last, depth) = (last, leaves, depth + 1);
    }
    if depth == 0 || last == 0 {
        return Ok(());
    }
    let growth = last as f64 / previous.max(1) as f64;
    let leaves = last as f64 * growth.powi((args.depth - depth) as i32);
    let threads = if args.divide { 1 } else { args.threads };
    let rate = last as f64 / secs.max(1e-6) * threads as f64;
    let cost = duration_text(leaves / rate);
    let (variant, asked) = (G::NAME, args.depth);
    if leaves >= u64::MAX as f64 {
        return Err(usage(format!(
            "perft depth {asked}: about {leaves:.1e} leaves of {variant}, more than a 64-bit count holds \
             ({cost} of counting at {:.0} M leaves/s); ask for a shallower depth",
            rate / 1e6
        )));
    }
    if leaves / rate > ANNOUNCE_SECONDS {
        eprintln!(
            "vzero perft: depth {asked} of {variant} is about {leaves:.1e} leaves, about {cost} at the {:.0} M \
             leaves/s of depth {depth} on {threads} thread(s); Ctrl-C stops it",
            rate / 1e6
        );
    }
    Ok(())
}

/// `seconds` in the largest unit that keeps it above 1: "40 seconds", "3.2 hours", "2e9 years".
fn duration_text(seconds: f64) -> String {
    let units = [("seconds", 1.0), ("minutes", 60.0), ("hours", 3600.0), ("days", 86400.0), ("years", 3.156e7)];
    let (name, size) = units.iter().rev().find(|(_, size)| seconds >= *size).copied().unwrap_or(units[0]);
    let amount = seconds / size;
    if amount >= 1e4 {
        format!("{amount:.0e} {name}")
    } else {
        format!("{amount:.1} {name}")
    }
}
