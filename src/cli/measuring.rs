//! Flags of the commands that measure players: `arena` (a match) and `gauntlet` (a run's
//! checkpoints against fixed opponents), with `MatchFlags`, how both play their games.

use std::path::PathBuf;

use clap::Args;

use super::net::NetArgs;
use super::position::{PositionArg, VariantArg};
use super::values::{count, number, plies, seed, simulations, threads_1_to_256};

/// Flags of `vzero arena`.
#[derive(Debug, Args)]
pub struct ArenaArgs {
    /// The variant of the games.
    #[command(flatten)]
    pub game: VariantArg,
    /// One player per seat: random, greedy, mcts[:SIMS] (uniform evaluator), rollout[:SIMS]
    /// (random-playout evaluator), alphabeta:DEPTH[:MS] (classical alpha-beta to DEPTH plies, at
    /// most MS milliseconds a move), a checkpoint folder or run directory, PATH[:SIMS], or
    /// uci:COMMAND, a program speaking the engine protocol (e.g. 'uci:vzero uci --model RUN').
    /// A search player given @MS (mcts@100, PATH:800@100) searches MS milliseconds a move.
    #[arg(required = true, num_args = 2..=3)]
    pub players: Vec<String>,
    /// Games to play (seats rotate; for three players every seat order equally often).
    #[arg(long, default_value_t = 100, value_parser = count::<usize>(1, MAX_GAMES))]
    pub games: usize,
    /// Simulations per move of search players that name none.
    #[arg(long, default_value_t = 200, value_parser = simulations())]
    pub sims: u32,
    /// Nodes per move of uci: players (`go nodes N`), 1 to a billion; without this or
    /// --engine-movetime, --sims.
    #[arg(long, value_name = "N", conflicts_with = "engine_movetime", value_parser = count::<u32>(1, MAX_ENGINE_NODES))]
    pub engine_nodes: Option<u32>,
    /// Milliseconds per move of uci: players (`go movetime MS`), instead of nodes.
    #[arg(long, value_name = "MS", value_parser = count::<u64>(1, MAX_MOVETIME_MS))]
    pub engine_movetime: Option<u64>,
    /// How the games are played.
    #[command(flatten)]
    pub play: MatchFlags,
    /// Where every game starts.
    #[command(flatten)]
    pub start: PositionArg,
    /// Sequential probability ratio test of the first player's Elo: ELO0,ELO1 (stops early
    /// once decided; two players only).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Append the result as one JSON line to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the match whose games --games-out FILE holds: its finished games (the same
    /// players, variant, start and --seed) count as played and the others are played, so the
    /// same command with --resume picks up a match that a stop or a crash cut short.
    #[arg(long, requires = "games_out")]
    pub resume: bool,
    #[command(flatten)]
    pub net: NetArgs,
}

/// The most games of a match or a gauntlet's pairing, as the config's game counts: a million
/// is weeks of play.
const MAX_GAMES: u64 = selfplay::config::MAX_GAMES;

/// The most nodes a move of a `uci:` engine may search: a billion is minutes of the fastest
/// engine's search, and more is a typing mistake.
const MAX_ENGINE_NODES: u64 = 1_000_000_000;

/// The most milliseconds a move of a `uci:` engine may take: a day.
const MAX_MOVETIME_MS: u64 = 24 * 3600 * 1000;

/// How the games of a match are played, for `arena` and `gauntlet`.
#[derive(Debug, Args)]
pub struct MatchFlags {
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = threads_1_to_256())]
    pub threads: usize,
    /// Seed of the openings and of the players' random choices.
    #[arg(long, default_value_t = 0, value_parser = seed())]
    pub seed: u64,
    /// Random plies opening each game (shared by the games of one seat rotation), 0 to 100000.
    #[arg(long, default_value_t = 2, value_parser = plies::<u32>(0))]
    pub opening_plies: u32,
    /// Longest game in plies, 1 to 100000; longer games are adjudicated (see
    /// --adjudicate-material).
    #[arg(long, default_value_t = 400, value_parser = plies::<u32>(1))]
    pub max_plies: u32,
    /// Pawns of material that decide a game at --max-plies: seats that far apart are ranked by
    /// material, as self-play's `selfplay.adjudicate_material` does (0 to 10000); 0 makes every
    /// such game a draw. Default: 3 on Weltschach, whose games between weak players rarely end, 0
    /// elsewhere.
    #[arg(long, value_name = "PAWNS", value_parser = number(0.0, selfplay::config::MAX_ADJUDICATION_PAWNS))]
    pub adjudicate_material: Option<f32>,
    /// Search players search every move from an empty tree, instead of keeping the subtree of
    /// the position reached from their last move (tree reuse, whose visits count toward the
    /// move's simulations).
    #[arg(long)]
    pub fresh_search: bool,
    /// Append every game to this file as text as it ends: tags naming the variant, the players,
    /// the result and the ending, then the moves (docs/games.md; `vzero replay` reads it).
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
}

/// Flags of `vzero gauntlet`.
#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// The run directory: its checkpoints play, its metrics.jsonl keeps the results.
    pub run: PathBuf,
    /// Fixed opponents, comma-separated arena players (random anchors the scale at 0), or a
    /// checkpoint folder such as the run's teacher-only one; not run directories, whose newest
    /// checkpoint learns (compare those with `vzero arena` or --each-other).
    #[arg(long, default_value = "random,greedy", value_parser = fixed_opponents)]
    pub against: Opponents,
    /// Which checkpoints play: all, last, or every:K (every K-th and the newest).
    #[arg(long, default_value = "last")]
    pub checkpoints: selfplay::gauntlet::CheckpointChoice,
    /// Also play each chosen checkpoint against the one chosen before it.
    #[arg(long)]
    pub each_other: bool,
    /// Games per pairing, counting those a previous gauntlet of the run played.
    #[arg(long, default_value_t = 20, value_parser = count::<usize>(1, MAX_GAMES))]
    pub games: usize,
    /// Simulations per move of the checkpoints.
    #[arg(long, default_value_t = 64, value_parser = simulations())]
    pub sims: u32,
    /// The most games to play, 1 to 1000000: a gauntlet that would play more (every checkpoint
    /// of a long run) is refused before its first game, naming its plan.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = count::<usize>(1, MAX_GAMES))]
    pub max_games: usize,
    /// How the games are played.
    #[command(flatten)]
    pub play: MatchFlags,
    /// Print the table from the results the run has, playing nothing.
    #[arg(long)]
    pub table_only: bool,
    #[command(flatten)]
    pub net: NetArgs,
}

/// The gauntlet's fixed opponents, as written.
#[derive(Debug, Clone)]
pub struct Opponents(pub Vec<String>);

/// Comma-separated arena players that never learn, each once: the gauntlet's scale is made of
/// those, and a checkpoint among them would move it (the check of the config's `against` keys).
fn fixed_opponents(text: &str) -> Result<Opponents, String> {
    let list: Vec<String> = text.split(',').map(str::to_string).collect();
    arena::players::check_fixed_opponents(&list).map_err(|e| e.to_string())?;
    Ok(Opponents(list))
}

/// Pawns of material that decide a Weltschach game at the move limit unless
/// `--adjudicate-material` says otherwise: weak players' games there rarely end by the rules
/// (a two-hour network drew 64 of 66 games against `greedy` at the limit), and a match of draws
/// tells two players nothing.
pub const WELTSCHACH_ADJUDICATION: f32 = 3.0;

impl MatchFlags {
    /// The `--adjudicate-material` margin for `variant`: as given, else the variant's default.
    pub fn adjudication(&self, variant: rules::Variant) -> f32 {
        self.adjudicate_material.unwrap_or(match variant {
            rules::Variant::Weltschach => WELTSCHACH_ADJUDICATION,
            _ => 0.0,
        })
    }
}
