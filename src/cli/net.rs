//! The flags of the commands that play a network: which network (`--model`), where it runs and
//! how a search uses it (`NetArgs`).

use clap::Args;

use super::tactics::TacticsArgs;
use super::values::{count, parsed};
use crate::engine::ModelChoice;

/// `--model`: the network of `play`, `analyse` and `uci` (`arena` and `gauntlet` name theirs as
/// players).
#[derive(Debug, Args)]
pub struct ModelArg {
    /// The network to search with: a checkpoint folder, a run directory (its newest
    /// checkpoint) or a shipped model's folder (its checkpoint/), `default` (the one shipped in
    /// models/ for the variant; the uniform evaluator where none is) or `none` (the uniform
    /// evaluator).
    #[arg(long, default_value = "default")]
    pub model: ModelChoice,
}

/// Where and in which precision networks run, and how many leaves a search sends them at once:
/// the flags of every command that plays a network.
#[derive(Debug, Clone, Args)]
pub struct NetArgs {
    /// Where networks run: auto, cpu or cuda.
    #[arg(long, default_value = "auto", value_parser = parsed::<nn::DeviceChoice>)]
    pub device: nn::DeviceChoice,
    /// Arithmetic of the network on a CPU: auto (bf16 where the CPU computes it natively, else
    /// fp32), fp32 or bf16; batch norms are folded and the layout is channels-last either way.
    #[arg(long, default_value = "auto", value_parser = parsed::<nn::PrecisionChoice>)]
    pub precision: nn::PrecisionChoice,
    /// Leaves a search keeps waiting for the network at once (per search thread): more make
    /// bigger batches and fewer network calls, at a little selectivity per simulation; a fixed
    /// count always searches the same way.
    #[arg(
        long,
        value_name = "N",
        value_parser = count::<u32>(1, mcts::MAX_IN_FLIGHT.into()),
        default_value_t = mcts::SearchParams::analysis(1).max_in_flight
    )]
    pub leaves: u32,
    /// The tactical flags, one per flagged setting of [`mcts::Tactics`].
    #[command(flatten)]
    pub tactical: TacticsArgs,
    /// Forward passes each network batch is split into, run at once on threads of their own
    /// (1 to 64): a single game's leaves use more than one core. (default: the machine's cores
    /// divided by the games or search threads running at once)
    #[arg(long, value_name = "N", value_parser = count::<u32>(1, 64))]
    pub passes: Option<u32>,
}

impl NetArgs {
    /// The tactics the flags ask for, each setting not given at its default (the default
    /// search).
    pub fn tactics(&self) -> mcts::Tactics {
        self.tactical.0.clone()
    }

    /// The device, inference form and passes the flags ask for, with `at_once` games or search
    /// threads sharing the network (the default passes share the cores among them).
    pub fn inference(&self, at_once: usize) -> anyhow::Result<nn::Inference> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let passes = self.passes.map_or(cores / at_once.max(1), |p| p as usize);
        Ok(nn::Inference::choose(self.device.resolve()?, self.precision).with_passes(passes))
    }
}
