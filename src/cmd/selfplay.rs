//! `vzero selfplay`: extra self-play for a running training run.

use anyhow::Context;
use rules::{FullGame, WithGame};
use selfplay::config::Config;
use selfplay::rundir::RunDir;
use selfplay::scaleout::{selfplay_only, SelfplayOptions};

use crate::cli::SelfplayArgs;

/// Plays games into the run directory until `--games` or Ctrl-C.
pub fn run(args: SelfplayArgs) -> anyhow::Result<()> {
    let config = Config::load(&RunDir::open(&args.run).config(), &args.overrides)?;
    let opts = SelfplayOptions {
        run_dir: args.run.clone(),
        games: args.games,
        progress: !args.quiet,
        stop: super::stop::on_stop_signal()?,
    };
    let games = config.variant().with_game(Selfplay { config: &config, opts: &opts })?;
    println!("{games} games written to {}", RunDir::open(&args.run).replay().display());
    Ok(())
}

struct Selfplay<'a> {
    config: &'a Config,
    opts: &'a SelfplayOptions,
}

impl WithGame for Selfplay<'_> {
    type Output = anyhow::Result<u64>;

    fn run<G: FullGame>(self) -> anyhow::Result<u64> {
        selfplay_only::<G>(self.config, self.opts)
            .with_context(|| format!("self-play into {}", self.opts.run_dir.display()))
    }
}
