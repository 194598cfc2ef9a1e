//! Flags of the commands that search a position with the model: `play`, `analyse` and `uci`.

use std::path::PathBuf;

use clap::Args;
use rules::Variant;

use super::net::{ModelArg, NetArgs};
use super::position::{MovesArg, PositionArg, VariantArg};
use super::values::{count, game_index, plies, seed, simulations, threads_1_to_256, MAX_MULTIPV};

/// Flags of `vzero play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The variant of the game.
    #[command(flatten)]
    pub game: VariantArg,
    /// The network to play against.
    #[command(flatten)]
    pub engine: ModelArg,
    /// Root visits of the model's search per move (and of `hint` and `show`).
    #[arg(long, default_value_t = 800, value_parser = simulations())]
    pub sims: u32,
    /// Your seats: names (white, black; p1, p2, p3) or numbers from 1, comma-separated for two
    /// seats of Wellisch; the model plays the others.
    #[arg(long = "as", value_name = "SEAT[,SEAT]", default_value = "1")]
    pub seats: String,
    /// Picks among the model's moves tied for the most visits (the search itself has no chance).
    #[arg(long, default_value_t = 0, value_parser = seed())]
    pub seed: u64,
    /// Where the game starts.
    #[command(flatten)]
    pub start: PositionArg,
    /// Append the game to this file as text when it ends or is left (docs/games.md; `vzero
    /// replay`, `render --game` and `analyse --game` read it).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// A clock for every seat, MIN+INC (`5+3`: five minutes for the game, three seconds more a
    /// move): the model then searches as long as its clock allows instead of `--sims`, and a
    /// seat whose time runs out loses.
    #[arg(long, value_name = "MIN+INC")]
    pub clock: Option<crate::engine::TimeControl>,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Flags of `vzero analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The variant of the position to analyse; with --game it defaults to the game's own.
    #[arg(long, required_unless_present = "game")]
    pub variant: Option<Variant>,
    /// Where the position starts (not with --game).
    #[command(flatten)]
    pub start: PositionArg,
    /// The moves that lead from there to the position to analyse (not with --game).
    #[command(flatten)]
    pub moves: MovesArg,
    /// Analyse a position of a recorded game: a game text file (docs/games.md) or a replay
    /// shard (RUN/replay/*.shard).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "moves"])]
    pub game: Option<PathBuf>,
    /// Which game of the file, counting from 0 (to 999999) [default: 0].
    #[arg(long, requires = "game", value_parser = game_index())]
    pub game_index: Option<usize>,
    /// With --game: the position after this many moves (0 is the start, to 100000) [default:
    /// the game's last position, or the last one with a move to play where the game is over].
    #[arg(long, requires = "game", value_parser = plies::<usize>(0))]
    pub ply: Option<usize>,
    /// The network to search with.
    #[command(flatten)]
    pub engine: ModelArg,
    /// Root visits of the search.
    #[arg(long, default_value_t = 800, value_parser = simulations())]
    pub sims: u32,
    /// How many of the best root moves to list.
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = count::<usize>(1, MAX_MULTIPV))]
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

/// Flags of `vzero uci`.
#[derive(Debug, Args)]
pub struct UciArgs {
    /// The network to search with (also settable as the `Model` option).
    #[command(flatten)]
    pub engine: ModelArg,
    /// The variant at start [default: the model's, else glinski]; also the `UCI_Variant` option.
    #[arg(long)]
    pub variant: Option<Variant>,
    #[command(flatten)]
    pub net: NetArgs,
}

/// Flags of `vzero serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The TCP port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080, value_parser = count::<u16>(0, u16::MAX.into()))]
    pub port: u16,
    /// The address to listen on: 127.0.0.1 (the default) serves this machine only; any other
    /// address is warned about, since the page plays and reads runs for whoever reaches it.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// The network the page offers first: a checkpoint folder or run directory, `default` (the
    /// one shipped in models/ for the variant) or `none` (the uniform evaluator). Networks are
    /// read only from models/, this path and the --runs folders.
    #[command(flatten)]
    pub engine: ModelArg,
    /// Root visits of a network player's search per move, where the page names none.
    #[arg(long, default_value_t = 400, value_parser = simulations())]
    pub sims: u32,
    /// Folders of run directories (or run directories) to watch and to take networks from.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    pub runs: Vec<std::path::PathBuf>,
    /// Seed of the simple players' choices (random, greedy, alpha-beta's ties): game N of the
    /// server plays as the seed and N say.
    #[arg(long, default_value_t = 0, value_parser = seed())]
    pub seed: u64,
    #[command(flatten)]
    pub net: NetArgs,
}
