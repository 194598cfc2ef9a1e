//! Command-line flags, each defined once with its help text.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use rules::Variant;

use crate::engine::ModelChoice;

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
}

/// Flags of `vzero play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The variant.
    #[arg(long)]
    pub variant: Variant,
    /// The network to play against: a checkpoint folder or run directory, `default` (the one
    /// shipped in models/ for the variant; the uniform evaluator where none is) or `none` (the
    /// uniform evaluator).
    #[arg(long, default_value = "default")]
    pub model: ModelChoice,
    /// Root visits of the model's search per move (and of `hint` and `show`).
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(1..))]
    pub sims: u32,
    /// Your seats: names (white, black; p1, p2, p3) or numbers from 1, comma-separated for two
    /// seats of Wellisch; the model plays the others.
    #[arg(long = "as", value_name = "SEAT[,SEAT]", default_value = "1")]
    pub seats: String,
    /// Picks among the model's moves tied for the most visits (the search itself has no chance).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    pub position: Option<String>,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Flags of `vzero uci`.
#[derive(Debug, Args)]
pub struct UciArgs {
    /// The network to search with: a checkpoint folder or run directory (its newest
    /// checkpoint), `default` (the one shipped in models/ for the variant; the uniform evaluator
    /// where none is) or `none`. Also settable as the `Model` option.
    #[arg(long, default_value = "default")]
    pub model: ModelChoice,
    /// The variant at start [default: the model's, else glinski]; also the `UCI_Variant` option.
    #[arg(long)]
    pub variant: Option<Variant>,
    #[command(flatten)]
    pub net: NetArgs,
}

/// A position named on the command line: a variant, its start or a position text, then moves.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The variant.
    #[arg(long)]
    pub variant: Variant,
    /// Start from this position text instead of the variant's start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Play these space-separated moves first (e.g. "f5-f6 f7-f6").
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The `--moves` text as one move per entry.
    pub fn move_list(&self) -> Vec<String> {
        self.moves.as_deref().unwrap_or("").split_whitespace().map(String::from).collect()
    }
}

/// Flags of `vzero analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The position to analyse.
    #[command(flatten)]
    pub at: PositionArgs,
    /// The network to search with: a checkpoint folder or run directory, `default` (the one
    /// shipped in models/ for the variant; the uniform evaluator where none is) or `none`.
    #[arg(long, default_value = "default")]
    pub model: ModelChoice,
    /// Root visits of the search.
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(1..))]
    pub sims: u32,
    /// How many of the best root moves to list.
    #[arg(long, value_name = "K", default_value_t = 3)]
    pub multipv: usize,
    /// Search threads sharing the tree.
    #[arg(long, default_value_t = 1, value_parser = threads_1_to_256())]
    pub threads: usize,
    /// Print one JSON object (fields in the README) instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Flags of `vzero encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The position to encode.
    #[command(flatten)]
    pub at: PositionArgs,
    /// The folder to write planes.npy, legal_moves.json and position.json into (made if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// Flags of `vzero export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A checkpoint folder, or a run directory (its newest checkpoint).
    pub checkpoint: PathBuf,
    /// The file to write; the sidecar goes next to it with the extension `.json`.
    #[arg(long)]
    pub out: PathBuf,
    /// `torchscript` (a traced module: forward(x) returns policy logits and values
    /// concatenated) or `safetensors` (the raw weights).
    #[arg(long, value_enum, default_value = "torchscript")]
    pub format: ExportFormatArg,
}

/// Export file formats.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ExportFormatArg {
    /// A traced TorchScript module.
    Torchscript,
    /// Raw weights.
    Safetensors,
}

/// Flags of `vzero render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The variant (see `vzero variants`); with --game it defaults to the game's own.
    #[arg(long, required_unless_present = "game")]
    pub variant: Option<Variant>,
    /// Draw this position text instead of the start position.
    #[arg(long, conflicts_with = "game")]
    pub position: Option<String>,
    /// Play these space-separated moves first (e.g. "f5-f6 f7-f6").
    #[arg(long, conflicts_with = "game")]
    pub moves: Option<String>,
    /// Draw a position of a recorded game: a replay shard (RUN/replay/*.shard) or a game text
    /// file (RUN/games/*.txt, no search statistics).
    #[arg(long, requires = "ply")]
    pub game: Option<PathBuf>,
    /// Which game of the file, counting from 0 [default: 0].
    #[arg(long, requires = "game")]
    pub game_index: Option<usize>,
    /// With --game: draw the position after this many moves (0 is the start).
    #[arg(long, requires = "game")]
    pub ply: Option<usize>,
    /// Draw the move that led to the position as a blue arrow (the last of --moves, or the
    /// game's previous move).
    #[arg(long)]
    pub last_move: bool,
    /// With --game: draw the search's N most visited moves at that ply as green arrows, wider
    /// for more visits [default: 0].
    #[arg(long, value_name = "N", requires = "game")]
    pub top: Option<usize>,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Flags of `vzero replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A replay shard (RUN/replay/*.shard) or a game text file (RUN/games/*.txt, one game a
    /// line, no search statistics).
    pub game: PathBuf,
    /// The variant of a game text file outside a run directory (otherwise read from the run).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Which game of the file, counting from 0.
    #[arg(long, default_value_t = 0)]
    pub game_index: usize,
    /// How many of the search's most visited moves to list and draw at each ply.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub top: usize,
    /// The HTML file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Flags of `vzero plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// The run directory (its metrics.jsonl is read).
    pub run: PathBuf,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Flags of `vzero arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The variant.
    #[arg(long)]
    pub variant: Variant,
    /// One player per seat: random, greedy, mcts[:SIMS] (uniform evaluator), rollout[:SIMS]
    /// (random-playout evaluator), alphabeta:DEPTH[:MS] (classical alpha-beta to DEPTH plies, at
    /// most MS milliseconds a move), a checkpoint folder or run directory, PATH[:SIMS], or
    /// uci:COMMAND, a program speaking the engine protocol (e.g. 'uci:vzero uci --model RUN').
    #[arg(required = true, num_args = 2..=3)]
    pub players: Vec<String>,
    /// Games to play (seats rotate; for three players every seat order equally often).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Simulations per move of search players that name none.
    #[arg(long, default_value_t = 200)]
    pub sims: u32,
    /// Nodes per move of uci: players (`go nodes N`); without this or --engine-movetime, --sims.
    #[arg(long, value_name = "N", conflicts_with = "engine_movetime")]
    pub engine_nodes: Option<u32>,
    /// Milliseconds per move of uci: players (`go movetime MS`), instead of nodes.
    #[arg(long, value_name = "MS")]
    pub engine_movetime: Option<u64>,
    /// How the games are played.
    #[command(flatten)]
    pub play: MatchFlags,
    /// Start every game from this position text instead of the variant's start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Sequential probability ratio test of the first player's Elo: ELO0,ELO1 (stops early
    /// once decided; two players only).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Append the result as one JSON line to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub net: NetArgs,
}

/// How the games of a match are played, for `arena` and `gauntlet`.
#[derive(Debug, Args)]
pub struct MatchFlags {
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the openings and of the players' random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Random plies opening each game (shared by the games of one seat rotation).
    #[arg(long, default_value_t = 2)]
    pub opening_plies: u32,
    /// Longest game in plies; longer games are adjudicated draws.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Search players search every move from an empty tree, instead of keeping the subtree of
    /// the position reached from their last move (tree reuse, whose visits count toward the
    /// move's simulations).
    #[arg(long)]
    pub fresh_search: bool,
}

/// Flags of `vzero gauntlet`.
#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// The run directory: its checkpoints play, its metrics.jsonl keeps the results.
    pub run: PathBuf,
    /// Fixed opponents, comma-separated arena players (random anchors the scale at 0); not
    /// checkpoints, which learn (compare those with `vzero arena` or --each-other).
    #[arg(long, value_delimiter = ',', default_value = "random,greedy", value_parser = fixed_player)]
    pub against: Vec<String>,
    /// Which checkpoints play: all, last, or every:K (every K-th and the newest).
    #[arg(long, default_value = "last")]
    pub checkpoints: selfplay::gauntlet::CheckpointChoice,
    /// Also play each chosen checkpoint against the one chosen before it.
    #[arg(long)]
    pub each_other: bool,
    /// Games per pairing, counting those a previous gauntlet of the run played.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Simulations per move of the checkpoints.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    pub sims: u32,
    /// How the games are played.
    #[command(flatten)]
    pub play: MatchFlags,
    /// Print the table from the results the run has, playing nothing.
    #[arg(long)]
    pub table_only: bool,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Flags of `vzero selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The run directory of the trainer (shared, e.g. on a network file system).
    #[arg(long)]
    pub run: PathBuf,
    /// Stop after this many games (default: until Ctrl-C or the trainer finishes the run).
    #[arg(long)]
    pub games: Option<u64>,
    /// Seconds to wait for the run directory to appear (a worker started before its trainer).
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    pub wait: u64,
    /// Override a key of the run's config for this process, e.g. --set selfplay.workers=8.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// No progress bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Flags of `vzero teach`.
#[derive(Debug, Args)]
pub struct TeachArgs {
    /// The run directory (made by `vzero train`).
    #[arg(long)]
    pub run: PathBuf,
    /// The teacher: alphabeta:DEPTH or alphabeta:DEPTH:MS (default: the run's teacher.player).
    #[arg(long, value_name = "PLAYER")]
    pub teacher: Option<String>,
    /// Labelled positions the run's teacher games should hold in all, those there counted
    /// (default: the run's teacher.positions).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// Threads playing teacher games (default: the run's teacher.threads).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Override a key of the run's config for this command, e.g. --set teacher.random_plies=8.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
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
    Status {
        /// The run directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// One JSON object per run and line, for scripts (fields: see the README).
        #[arg(long)]
        json: bool,
    },
    /// How a run's games ended (checkmate, repetition, the move limit, resignation, ...), its
    /// self-play games grouped by iterations, its teacher's games apart.
    Endings {
        /// The run directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Iterations per group of self-play games (default: about five groups).
        #[arg(long, default_value_t = 0)]
        every: u32,
        /// One JSON object per run and line, for scripts.
        #[arg(long)]
        json: bool,
    },
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
    /// Simulations per search for `bench mcts`.
    #[arg(long, default_value_t = 100_000)]
    pub simulations: u32,
    /// Root search of `bench mcts`: puct or gumbel (`search.root`).
    #[arg(long, default_value = "puct")]
    pub root: mcts::RootSearch,
    /// Training config whose network and self-play settings `bench selfplay` and `bench train`
    /// measure.
    #[arg(long, default_value = "configs/mini-hexchess.toml")]
    pub config: PathBuf,
    /// Override a key of `--config` for `bench selfplay` and `bench train`, e.g. --set
    /// device=cuda (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Seconds of each `bench selfplay` measurement, of the `bench train` steps and of the
    /// `bench replay` sampling, and the time cap of each variant's `bench alphabeta` search.
    #[arg(long, default_value_t = 20.0, value_parser = positive_seconds)]
    pub seconds: f64,
    /// Positions in the `bench replay` window.
    #[arg(long, default_value_t = 1_000_000)]
    pub positions: usize,
    /// Positions per batch that `bench replay` samples (`training.batch_size`).
    #[arg(long, default_value_t = 512, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub batch: usize,
    /// A run directory whose games `bench replay` samples, instead of random Glinski games.
    #[arg(long)]
    pub run: Option<PathBuf>,
    /// Positions per forward pass that `bench nn` measures, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64,256")]
    pub batches: Vec<usize>,
    /// Networks `bench nn` measures, as BLOCKSxCHANNELS, comma-separated (default: the
    /// network of `--config`).
    #[arg(long, value_delimiter = ',')]
    pub nets: Vec<String>,
    /// libtorch threads of `bench nn` (default: every core of the machine).
    #[arg(long, value_parser = threads_1_to_256())]
    pub threads: Option<usize>,
}

/// Where and in which precision networks run, and how many leaves a search sends them at once:
/// the flags of every command that plays a network.
#[derive(Debug, Clone, clap::Args)]
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
    /// count always searches the same way. (default 8)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub leaves: Option<u32>,
    /// Share (0 to 1) of a quiescence search's value (captures until the position is quiet,
    /// squashed to an expected score) blended into every leaf value of network and uniform
    /// search players: keeps a weak network's search from missing captures.
    #[arg(long, value_name = "W", default_value_t = 0.0, value_parser = unit_share)]
    pub tactics: f32,
    /// Full-width plies the `--tactics` search looks before its quiescence (0 to 4): 0 sees
    /// captures only; each ply more also sees quiet threats a move deeper, at several times
    /// the cost of a leaf.
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=mcts::MAX_TACTICS_DEPTH as i64))]
    pub tactics_depth: u32,
    /// Forward passes each network batch is split into, run at once on threads of their own
    /// (1 to 64): a single game's leaves use more than one core. (default: the machine's cores
    /// divided by the games or search threads running at once)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub passes: Option<u32>,
}

/// A share between 0 and 1.
fn unit_share(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("'{text}': expected a number from 0 to 1")),
    }
}

impl NetArgs {
    /// The tactical leaf values `--tactics` and `--tactics-depth` ask for.
    pub fn tactics(&self) -> alphabeta::Tactics {
        // Without a weight the depth changes nothing, so it does not make a player different.
        let depth = if self.tactics > 0.0 { self.tactics_depth } else { 0 };
        alphabeta::Tactics { weight: self.tactics, depth }
    }

    /// The device, inference form and passes the flags ask for, with `at_once` games or search
    /// threads sharing the network (the default passes share the cores among them).
    pub fn inference(&self, at_once: usize) -> anyhow::Result<nn::Inference> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let passes = self.passes.map_or(cores / at_once.max(1), |p| p as usize);
        Ok(nn::Inference::choose(self.device.resolve()?, self.precision).with_passes(passes))
    }
}

/// A flag's value parsed by its type's `FromStr`, so that a bad one is a usage error (exit 2)
/// with the type's own message, as a bad `--variant` is.
fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>().map_err(|e| e.to_string())
}

/// The benchmarks `vzero bench` runs.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum BenchKind {
    /// Perft leaf nodes per second on each implemented variant, single thread, bulk and not.
    Perft,
    /// Search simulations per second from each start position, single thread, uniform
    /// evaluator, self-play's search settings (one-move win checks on) beside the same search
    /// without the win checks, with each one's split between move generation, win checks, tree
    /// work and evaluator.
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
    #[value(name = "alphabeta")]
    AlphaBeta,
    /// Resident memory of a Glinski replay window of `--positions` positions of random games,
    /// and training positions per second the sampler draws from it in batches of `--batch`
    /// (from every game of `--run` instead, if given).
    Replay,
}

/// A thread count from 1 to 256: 0 cannot run, more is a typing mistake on any machine
/// vzero runs on (uci's `Threads` option has the same cap).
fn threads_1_to_256() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256)
}

/// An arena player that never learns, as written: the gauntlet's scale is made of those, and
/// a checkpoint among them would move it.
fn fixed_player(text: &str) -> Result<String, String> {
    match text.parse::<arena::players::PlayerSpec>() {
        Ok(spec) if spec.is_fixed() => Ok(text.to_string()),
        Ok(_) => Err(format!(
            "'{text}' is not a fixed player (random, greedy, mcts[:N], rollout[:N], alphabeta:D[:MS], \
             uci:COMMAND): a checkpoint learns and would move the gauntlet's scale; compare checkpoints \
             with `vzero arena` (or --each-other)"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// A duration in seconds above 0 (a benchmark of no time measures nothing).
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() => Ok(s),
        _ => Err(format!("'{text}' is not a number of seconds above 0")),
    }
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
            let mut lines = text.lines();
            let first = lines.next().unwrap_or("bad arguments");
            let mut first = first.strip_prefix("error: ").unwrap_or(first).to_string();
            // "the following required arguments were not provided:" lists them indented below.
            if first.ends_with(':') {
                for more in lines.take_while(|l| l.starts_with(' ')) {
                    first.push(' ');
                    first.push_str(more.trim());
                }
            }
            eprintln!("vzero: {} (see 'vzero --help')", crate::clip::clip_quotes(&first));
            ExitCode::from(2)
        }
    }
}
