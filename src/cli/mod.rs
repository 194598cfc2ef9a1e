//! Command-line flags, each declared once with its help text: the commands here, the flags of
//! each family of commands in a file of its own, and the flags several commands share
//! (`position`, `net`) flattened into each command that takes them.

mod bench;
#[cfg(test)]
mod fuzz;
mod interop;
mod measuring;
mod net;
mod perft;
mod pictures;
mod playing;
mod position;
mod tactics;
mod training;
mod usage;
mod values;

use clap::{Parser, Subcommand};

pub use bench::{BenchArgs, BenchKind};
pub use interop::{EncodeArgs, ExportArgs, ExportFormatArg};
pub use measuring::{ArenaArgs, GauntletArgs};
pub use net::NetArgs;
pub use perft::PerftArgs;
pub use pictures::{PlotArgs, RenderArgs, ReplayArgs};
pub use playing::{AnalyseArgs, PlayArgs, ServeArgs, UciArgs};
pub use training::{RunsAction, RunsArgs, SelfplayArgs, TeachArgs, TrainArgs};
pub use usage::{is_usage, print_usage, usage, usage_error};
pub use values::{MAX_MULTIPV, MAX_SIMULATIONS, MAX_THREADS};

/// The command line read into [`Cli`]: every flag that takes a value takes a negative number
/// as its value too, so that `--threads -1` is refused with the flag's range rather than read
/// as an unknown flag `-1`.
pub fn parse_args() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    fn negatives(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|arg| if arg.get_action().takes_values() { arg.allow_negative_numbers(true) } else { arg })
            .mut_subcommands(negatives)
    }
    let matches = negatives(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

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
    /// Measure speed: move generation, search, self-play throughput, replay memory.
    Bench(BenchArgs),
    /// Train a network by self-play from a config file, or continue a stopped run.
    Train(TrainArgs),
    /// Self-play only, adding games to a running `vzero train` that shares the run directory.
    Selfplay(SelfplayArgs),
    /// Add a classical teacher's labelled games to a run (what its `[teacher]` section does
    /// before the first iteration), resuming where a stopped `teach` left off.
    Teach(TeachArgs),
    /// Inspect run directories.
    Runs(RunsArgs),
    /// Draw a position as an SVG picture (from position text or a recorded game).
    Render(RenderArgs),
    /// Write a recorded game as one self-contained HTML page to step through.
    Replay(ReplayArgs),
    /// Draw a run's training curves (losses, game length, results) as an SVG chart.
    Plot(PlotArgs),
    /// Play a match between players (checkpoints, search or simple baselines) and rate them.
    Arena(ArenaArgs),
    /// Rate a run's checkpoints against fixed opponents on one Elo scale (results kept in the run).
    Gauntlet(GauntletArgs),
    /// Export a checkpoint as TorchScript or safetensors, with a sidecar JSON describing it.
    Export(ExportArgs),
    /// A UCI-style engine on standard input and output, for GUIs and other programs (see
    /// docs/protocol.md).
    Uci(UciArgs),
    /// The best moves of a position by search, with visits, priors, scores and lines.
    Analyse(AnalyseArgs),
    /// Write a position's network input planes (NumPy .npy) and legal moves with their policy
    /// indices (JSON), for Python and other programs.
    Encode(EncodeArgs),
    /// Play against the model in the terminal (the board drawn as text; 'help' at the prompt).
    Play(PlayArgs),
    /// A local web page to play any variant against networks or alpha-beta, see what the
    /// engine thinks, and watch training runs (see docs/serve.md).
    Serve(ServeArgs),
}
