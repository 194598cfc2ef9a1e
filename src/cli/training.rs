//! Flags of the commands that make and inspect training runs: `train`, `selfplay`, `teach` and
//! `runs`.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use selfplay::config::{MAX_GAMES, MAX_ITERATIONS, MAX_STEPS};

use super::values::{count, seed, threads_1_to_256};

/// Flags of `vzero train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The configuration file (see configs/; every key is documented there).
    #[arg(long, required_unless_present = "resume")]
    pub config: Option<PathBuf>,
    /// The run directory to create (default: runs/<variant>-<unix seconds>).
    #[arg(long, conflicts_with = "resume")]
    pub run: Option<PathBuf>,
    /// Continue the stopped run in this directory, with the config saved in it.
    #[arg(long, conflicts_with = "config")]
    pub resume: Option<PathBuf>,
    /// Override a config key, e.g. --set training.iterations=5 (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Seed of the run (overrides the config's `seed`).
    #[arg(long, value_parser = seed())]
    pub seed: Option<u64>,
    /// No progress bars or per-iteration lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Flags of `vzero selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The run directory of the trainer (shared, e.g. on a network file system).
    #[arg(long)]
    pub run: PathBuf,
    /// Stop after this many games, 1 to 1000000 (default: until Ctrl-C or the trainer finishes
    /// the run).
    #[arg(long, value_parser = count::<u64>(1, MAX_GAMES))]
    pub games: Option<u64>,
    /// Seconds to wait for the run directory to appear (a worker started before its trainer),
    /// 0 to 604800 (a week).
    #[arg(long, default_value_t = 600, value_name = "SECONDS", value_parser = count::<u64>(0, MAX_WAIT_SECONDS))]
    pub wait: u64,
    /// Override a key of the run's config for this process, e.g. --set selfplay.workers=8.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// The longest `selfplay --wait`: a week, longer than a trainer's job waits in any queue.
const MAX_WAIT_SECONDS: u64 = 7 * 24 * 3600;

/// Flags of `vzero teach`.
#[derive(Debug, Args)]
pub struct TeachArgs {
    /// The run directory (made by `vzero train`).
    #[arg(long)]
    pub run: PathBuf,
    /// The teacher: alphabeta:DEPTH or alphabeta:DEPTH:MS (default: the run's teacher.player).
    #[arg(long, value_name = "PLAYER", value_parser = teacher)]
    pub teacher: Option<String>,
    /// Labelled positions the run's teacher games should hold in all, those there counted
    /// (1 to 1000000000; default: the run's teacher.positions).
    #[arg(long, value_name = "N", value_parser = count::<u64>(1, MAX_STEPS))]
    pub positions: Option<u64>,
    /// Threads playing teacher games (default: the run's teacher.threads).
    #[arg(long, value_name = "T", value_parser = threads_1_to_256())]
    pub threads: Option<usize>,
    /// Override a key of the run's config for this command, e.g. --set teacher.random_plies=8.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// A teacher as `teacher.player` takes it, judged here so that a bad one is reported as the
/// flag typed (it was reported as the `--set teacher.player=...` it becomes).
fn teacher(text: &str) -> Result<String, String> {
    selfplay::config::teacher_search(text).map(|_| text.to_string())
}

/// Flags of `vzero runs`.
#[derive(Debug, Args)]
pub struct RunsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: RunsAction,
}

/// The `vzero runs` actions.
#[derive(Debug, Subcommand)]
pub enum RunsAction {
    /// What runs have done: games, positions, steps, latest checkpoint, rates, last error.
    Status(RunDirsArgs),
    /// How a run's games ended (checkmate, repetition, the move limit, resignation, ...), its
    /// self-play games grouped by iterations, its teacher's games apart.
    Endings {
        /// Iterations per group of self-play games, up to 1000000 (default, or 0: about five
        /// groups).
        #[arg(long, default_value_t = 0, value_parser = count::<u32>(0, MAX_ITERATIONS))]
        every: u32,
        /// The runs to report on.
        #[command(flatten)]
        runs: RunDirsArgs,
    },
}

/// The run directories every `vzero runs` action reports on, and in which form.
#[derive(Debug, Args)]
pub struct RunDirsArgs {
    /// The run directories.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// One JSON object per run and line, for scripts (fields: see docs/cli.md).
    #[arg(long)]
    pub json: bool,
}
