//! Flags of the commands that draw: `render` (a position as SVG), `replay` (a game as an HTML
//! page) and `plot` (a run's training curves).

use std::path::PathBuf;

use clap::Args;
use rules::Variant;

use super::position::{MovesArg, PositionArg};
use super::values::{game_index, plies, top_moves};

/// Flags of `vzero render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The variant (see `vzero variants`); with --game it defaults to the game's own.
    #[arg(long, required_unless_present = "game")]
    pub variant: Option<Variant>,
    /// Where the position to draw starts (not with --game).
    #[command(flatten)]
    pub start: PositionArg,
    /// The moves that lead from there to the position to draw (not with --game).
    #[command(flatten)]
    pub moves: MovesArg,
    /// Draw a position of a recorded game: a replay shard (RUN/replay/*.shard), a game text
    /// file (docs/games.md) or a run's game lines (RUN/games/*.txt); text has no search
    /// statistics.
    #[arg(long, requires = "ply", conflicts_with_all = ["position", "moves"])]
    pub game: Option<PathBuf>,
    /// Which game of the file, counting from 0 (to 999999) [default: 0].
    #[arg(long, requires = "game", value_parser = game_index())]
    pub game_index: Option<usize>,
    /// With --game: draw the position after this many moves (0 is the start, to 100000).
    #[arg(long, requires = "game", value_parser = plies::<usize>(0))]
    pub ply: Option<usize>,
    /// Draw the move that led to the position as a blue arrow (the last of --moves, or the
    /// game's previous move).
    #[arg(long)]
    pub last_move: bool,
    /// With --game: draw the search's N most visited moves at that ply as green arrows, wider
    /// for more visits, 0 to 5000 [default: 0].
    #[arg(long, value_name = "N", requires = "game", value_parser = top_moves())]
    pub top: Option<usize>,
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Flags of `vzero replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A replay shard (RUN/replay/*.shard), a game text file (docs/games.md) or a run's game
    /// lines (RUN/games/*.txt, one game a line); text has no search statistics.
    pub game: PathBuf,
    /// The variant of a run's game lines outside their run directory, or of a game text
    /// without a [Variant] tag (otherwise read from the game or the run).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Which game of the file, counting from 0 (to 999999).
    #[arg(long, default_value_t = 0, value_parser = game_index())]
    pub game_index: usize,
    /// How many of the search's most visited moves to list and draw at each ply, 0 to 5000.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = top_moves())]
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
