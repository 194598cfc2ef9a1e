//! Flags of `vzero perft`, the check of the move generator.

use clap::Args;
use rules::Variant;

use super::position::{MovesArg, PositionArg};
use super::values::{count, threads_1_to_256};

/// Flags of `vzero perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The variant (see `vzero variants`).
    pub variant: Variant,
    /// Plies to search. A count that would take long says first what it will cost; one past
    /// what a 64-bit counter holds is refused.
    #[arg(value_parser = count::<u32>(0, u32::MAX.into()))]
    pub depth: u32,
    /// Where the position starts.
    #[command(flatten)]
    pub start: PositionArg,
    /// The moves that lead from there to the position to count from.
    #[command(flatten)]
    pub moves: MovesArg,
    /// Print one `MOVE: COUNT` line per root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (root moves are shared out between them).
    #[arg(long, default_value_t = 1, value_parser = threads_1_to_256())]
    pub threads: usize,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    pub no_bulk: bool,
}
