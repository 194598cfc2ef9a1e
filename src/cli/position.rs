//! The flags that name a position, shared by every command that takes one: the variant, the
//! position text to start from and the moves to play first.

use clap::Args;
use rules::Variant;

/// `--variant`, required: the variant of the game a command plays or looks at (`play`, `arena`,
/// `analyse`, `encode`; `render`, `replay` and `uci` take an optional one with a default of
/// their own, `perft` a positional one).
#[derive(Debug, Args)]
pub struct VariantArg {
    /// The variant.
    #[arg(long)]
    pub variant: Variant,
}

/// `--position`: position text to start from instead of the variant's start position.
#[derive(Debug, Args)]
pub struct PositionArg {
    /// Start from this position text instead of the variant's start position.
    #[arg(long)]
    pub position: Option<String>,
}

/// `--moves`: moves played from the start position before the command looks at it.
#[derive(Debug, Args)]
pub struct MovesArg {
    /// Play these space-separated moves first (e.g. "f5-f6 f7-f6").
    #[arg(long)]
    pub moves: Option<String>,
}

impl MovesArg {
    /// The `--moves` text as one move per entry.
    pub fn list(&self) -> Vec<String> {
        self.moves.as_deref().unwrap_or("").split_whitespace().map(String::from).collect()
    }
}
