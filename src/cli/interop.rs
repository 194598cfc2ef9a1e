//! Flags of the commands that hand a network or a position to other programs: `export` (a
//! checkpoint as TorchScript or safetensors) and `encode` (a position as network input).

use std::path::PathBuf;

use clap::Args;

use super::position::{MovesArg, PositionArg, VariantArg};

/// Flags of `vzero encode`.
#[derive(Debug, Args)]
pub struct EncodeArgs {
    /// The variant of the position to encode.
    #[command(flatten)]
    pub game: VariantArg,
    /// Where the position starts.
    #[command(flatten)]
    pub start: PositionArg,
    /// The moves that lead from there to the position to encode.
    #[command(flatten)]
    pub moves: MovesArg,
    /// The folder to write planes.npy, legal_moves.json and position.json into (made if missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// Flags of `vzero export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A checkpoint folder, a run directory (its newest checkpoint) or a shipped model's folder
    /// (its checkpoint/).
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
