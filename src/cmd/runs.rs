//! `vzero runs status`: a run directory at a glance.

use anyhow::Context;
use selfplay::checkpoint::{list_checkpoints, read_state};
use selfplay::config::Config;
use selfplay::events::read_events;
use selfplay::replay::{read_shard, EXTERNAL_GAME};
use selfplay::rundir::RunDir;

use crate::cli::{RunsAction, RunsArgs};

/// Runs the chosen action.
pub fn run(args: RunsArgs) -> anyhow::Result<()> {
    match args.action {
        RunsAction::Status { dir } => status(&RunDir::open(&dir)),
    }
}

fn status(dir: &RunDir) -> anyhow::Result<()> {
    let config =
        Config::load(&dir.config(), &[]).with_context(|| format!("{} is not a run directory", dir.root().display()))?;
    println!("run          {}", dir.root().display());
    println!(
        "variant      {} ({} blocks x {} channels)",
        config.variant, config.network.blocks, config.network.channels
    );
    let (mut own, mut external, mut positions, mut bad) = (0u64, 0u64, 0u64, 0);
    let shards = dir.shard_paths()?;
    for path in &shards {
        match read_shard(path) {
            Ok(games) => {
                for g in games {
                    if g.number & EXTERNAL_GAME == 0 {
                        own += 1;
                    } else {
                        external += 1;
                    }
                    positions += g.moves.len() as u64;
                }
            }
            Err(_) => bad += 1,
        }
    }
    println!(
        "games        {} ({own} by the trainer, {external} by selfplay processes) in {} shards{}",
        own + external,
        shards.len(),
        if bad > 0 { format!(", {bad} unreadable") } else { String::new() }
    );
    println!("positions    {positions}");
    match list_checkpoints(&dir.checkpoints())?.last() {
        Some(latest) => {
            let state = read_state(latest)?;
            println!("steps        {} (iteration {} of {})", state.step, state.iteration, config.training.iterations);
            println!("checkpoint   {}", latest.display());
        }
        None => println!("checkpoint   none yet"),
    }
    let events = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default());
    if let Some(it) = events.iterations().next_back() {
        // A loss is `null` for an iteration without training steps, as in metrics.jsonl.
        let loss = |l: Option<f64>| l.map_or_else(|| "null".to_string(), |v| v.to_string());
        println!(
            "last iter.   {:.0} games/h, {:.0} positions/s, batch {:.1}, policy loss {}, value loss {}",
            it.games_per_hour,
            it.positions_per_second,
            it.mean_batch,
            loss(it.policy_loss),
            loss(it.value_loss)
        );
    }
    match events.last_error() {
        Some(e) => println!("last error   {}", e.message),
        None => println!("last error   none"),
    }
    Ok(())
}
