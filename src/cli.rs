//! Command-line flags, each defined once with its help text.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rules::Variant;

/// AlphaZero-style self-play training for chess variants on hexagonal and cubic boards.
#[derive(Debug, Parser)]
#[command(name = "vzero", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the variants vzero plays.
    Variants,
    /// Count the leaves of the legal-move tree (checks the move generator).
    Perft(PerftArgs),
    /// Measure speed (move generation, ...).
    Bench(BenchArgs),
    /// Train a network by self-play from a config file, or continue a stopped run.
    Train(TrainArgs),
}

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
    #[arg(long)]
    pub seed: Option<u64>,
    /// No progress bars or per-iteration lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Flags of `vzero perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The variant (see `vzero variants`).
    pub variant: Variant,
    /// Plies to search.
    pub depth: u32,
    /// Start from this position text instead of the variant's start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Play these space-separated moves first (e.g. "f5-f6 f7-f6").
    #[arg(long)]
    pub moves: Option<String>,
    /// Print one `MOVE: COUNT` line per root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (root moves are shared out between them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    pub no_bulk: bool,
}

/// Flags of `vzero bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "perft")]
    pub what: BenchKind,
}

/// The benchmarks `vzero bench` runs.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BenchKind {
    /// Perft leaf nodes per second on each implemented variant, single thread, bulk and not.
    Perft,
}

/// Reports a command-line mistake in one line and returns exit code 2; help and version
/// requests print as usual and succeed.
pub fn usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let text = err.render().to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("vzero: {first} (see 'vzero --help')");
            ExitCode::from(2)
        }
    }
}
