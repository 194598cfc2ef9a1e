//! `vzero selfplay`: extra self-play for a running training run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use rules::with_game;
use selfplay::play::{selfplay_only, SelfplayOptions};
use selfplay::Config;
use selfplay::RunDir;

use crate::cli::SelfplayArgs;

/// Plays games into the run directory until `--games`, a stop signal, or the trainer finishing
/// the run.
pub fn run(args: SelfplayArgs) -> anyhow::Result<()> {
    let stop = crate::stop::on_stop_signal("after writing the finished games (games in progress are dropped)")?;
    // Only a folder yet to be made (or made empty) is waited for: a file or a checkpoint folder
    // never becomes a run, and would be waited on for nothing.
    if args.run.exists() && (!args.run.is_dir() || nn::checkpoint::is_checkpoint(&args.run)) {
        RunDir::existing(&args.run)?;
    }
    wait_for_run(&RunDir::unchecked(&args.run), args.wait, &stop)?;
    let config = Config::load(&RunDir::existing(&args.run)?.config(), &args.overrides)?;
    let opts = SelfplayOptions { run_dir: args.run.clone(), games: args.games, progress: !args.quiet, stop };
    let games = with_game!(config.variant(), G => selfplay_only::<G>(&config, &opts))
        .with_context(|| format!("self-play into {}", opts.run_dir.display()))?;
    println!("{games} games written to {}", RunDir::unchecked(&args.run).replay().display());
    Ok(())
}

/// Waits up to `seconds` for the trainer to create the run (its config is written last, after
/// the first checkpoint), so workers may start before their trainer.
fn wait_for_run(dir: &RunDir, seconds: u64, stop: &AtomicBool) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut said = false;
    while !dir.config().exists() {
        if stop.load(Ordering::Relaxed) {
            anyhow::bail!("{}: stopped while waiting for the run to appear", dir.root().display());
        }
        if Instant::now() >= deadline {
            anyhow::bail!(
                "{}: no run appeared within {seconds} s (start `vzero train` there, or raise --wait)",
                dir.root().display()
            );
        }
        if !said {
            eprintln!("vzero selfplay: waiting up to {seconds} s for a run in {}", dir.root().display());
            said = true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(())
}
