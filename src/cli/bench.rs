//! Flags of `vzero bench`, the speed measurements, and the benchmarks it runs.

use std::path::PathBuf;

use clap::Args;

use super::values::{batch_size, count, number, simulations, threads_1_to_256};

/// Flags of `vzero bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "perft")]
    pub what: BenchKind,
    /// Simulations per search for `bench mcts`.
    #[arg(long, default_value_t = 100_000, value_parser = simulations())]
    pub simulations: u32,
    /// Root search of `bench mcts`: puct or gumbel (`search.root`).
    #[arg(long, default_value = "puct")]
    pub root: mcts::RootSearch,
    /// Training config whose network and self-play settings `bench selfplay` and `bench train`
    /// measure (default: configs/mini-hexchess.toml as built into the program, so it is found
    /// from any folder).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Override a key of `--config` for `bench selfplay` and `bench train`, e.g. --set
    /// device=cuda (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Seconds of each `bench selfplay` measurement, of the `bench train` steps and of the
    /// `bench replay` sampling, and the time cap of each variant's `bench alphabeta` search:
    /// 0.001 to 86400 (a day).
    #[arg(long, default_value_t = 20.0, value_parser = number(0.001, MAX_SECONDS))]
    pub seconds: f64,
    /// Positions in the `bench replay` window.
    #[arg(long, default_value_t = 1_000_000, value_parser = count::<usize>(1, MAX_WINDOW))]
    pub positions: usize,
    /// Positions per batch that `bench replay` samples (`training.batch_size`).
    #[arg(long, default_value_t = 512, value_parser = batch_size())]
    pub batch: usize,
    /// A run directory whose games `bench replay` samples, instead of random Glinski games.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Positions per forward pass that `bench nn` measures, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64,256", value_parser = batch_size())]
    pub batches: Vec<usize>,
    /// Networks `bench nn` measures, as BLOCKSxCHANNELS, comma-separated (default: the
    /// network of `--config`).
    #[arg(long, value_delimiter = ',')]
    pub nets: Vec<String>,
    /// libtorch threads of `bench nn` (default: every core of the machine).
    #[arg(long, value_parser = threads_1_to_256())]
    pub threads: Option<usize>,
}

/// The longest measurement (`--seconds`): a day.
const MAX_SECONDS: f64 = 86_400.0;

/// The most positions of a `bench replay` window: the largest `replay.window_max` a run takes.
const MAX_WINDOW: u64 = selfplay::config::MAX_WINDOW;

/// The benchmarks `vzero bench` runs.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BenchKind {
    /// Perft leaf nodes per second on each implemented variant, single thread, bulk and not.
    Perft,
    /// Search simulations per second from each start position, single thread, uniform
    /// evaluator, self-play's search settings (one-move win checks on) beside the same search
    /// without the win checks, with each one's split between move generation, win checks, tree
    /// work and evaluator; then each tactical lever's cost (microseconds per simulation and
    /// milliseconds a move at 64 and 400 simulations, alpha-beta judge), and the default
    /// search's simulations a second with one and two threads on one tree.
    Mcts,
    /// Network throughput alone and inside self-play (positions per second, their ratio,
    /// batch fill, games per hour) for `--config`.
    Selfplay,
    /// Positions per second of `--config`'s network (or each of `--nets`) in every inference
    /// form this machine has (as trained; batch norms folded, channels-last, fp32; the same in
    /// bf16 where the CPU computes it), at each of `--batches`, with GFLOP/s and the share of
    /// the machine's peak measured by a large matrix product in the same run.
    Nn,
    /// Training steps per second of `--config`'s network on its device: on CUDA as a run
    /// trains (fp16 autocast with loss scaling where `training.mixed_precision`); on a CPU in
    /// each form a step could take (NCHW or channels-last, fp32 or bf16 convolutions where the
    /// CPU computes bf16), with each one's ratio to NCHW fp32 and the one `training.cpu_form`
    /// picks marked.
    Train,
    /// Nodes per second and time per move of the alpha-beta yardstick at depths 1-4 on each
    /// start position, single thread; a variant's deeper iterations stop at the `--seconds` cap.
    /// Then the median cost on midgame positions of a depth-1 teacher label (at 10 and 200 cp),
    /// a tactical leaf value and a node's judged moves.
    #[value(name = "alphabeta")]
    AlphaBeta,
    /// Resident memory of a Glinski replay window of `--positions` positions of random games,
    /// and training positions per second the sampler draws from it in batches of `--batch`
    /// (from every game of `--run` instead, if given).
    Replay,
}
