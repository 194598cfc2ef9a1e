//! `vzero teach`: a classical teacher's labelled games for a run.

use anyhow::{bail, Context};
use rules::with_game;
use selfplay::store::lock_run;
use selfplay::teach::teach;
use selfplay::{Config, RunDir};

use crate::cli::TeachArgs;

/// Plays teacher games into the run until its teacher games hold the positions asked for.
pub fn run(args: TeachArgs) -> anyhow::Result<()> {
    // Checked before the lock is taken, so that a folder that is not a run is left as it was.
    let dir = RunDir::existing(&args.run)?;
    let mut overrides = args.overrides.clone();
    if let Some(player) = &args.teacher {
        // A value that is not TOML (alphabeta:3 is not) is taken as a string.
        overrides.push(format!("teacher.player={player}"));
    }
    let config = Config::load(&dir.config(), &overrides)?;
    let positions = args.positions.unwrap_or(config.teacher.positions);
    if positions == 0 {
        bail!("--positions: the run's teacher.positions is 0; say how many positions to make");
    }
    let threads = args.threads.unwrap_or(config.teacher.threads);
    // One writer of a run's games at a time: a trainer on this run holds the same lock.
    let _lock = lock_run(dir.root()).with_context(|| format!("{}: the run is in use", args.run.display()))?;
    let stop =
        crate::stop::on_stop_signal("now (teacher games in progress are dropped; the same command plays them again)")?;
    let taught = with_game!(config.variant(), G => teach::<G>(&dir, &config, positions, threads, &stop, !args.quiet))
        .with_context(|| format!("teaching into {}", args.run.display()))?;
    println!(
        "{} teacher positions in {} ({} new in {} games, {:.1} s, {}){}",
        taught.total_positions,
        dir.replay().display(),
        taught.positions(),
        taught.games(),
        taught.seconds,
        config.teacher.player,
        if taught.interrupted { "; stopped early: run the same command to go on" } else { "" }
    );
    Ok(())
}
