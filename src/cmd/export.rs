//! `vzero export`: a checkpoint for use outside vzero.

use anyhow::Context;
use rules::{FullGame, Variant, WithGame};
use selfplay::checkpoint::read_state;
use selfplay::export::{export_checkpoint, ExportFormat};
use selfplay::players::resolve_checkpoint;

use crate::cli::{ExportArgs, ExportFormatArg};

/// Writes the model file and its sidecar.
pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    let checkpoint = resolve_checkpoint(&args.checkpoint)?;
    let state = read_state(&checkpoint)?;
    let variant: Variant = state.variant.parse().with_context(|| format!("{}", checkpoint.display()))?;
    let format = match args.format {
        ExportFormatArg::Torchscript => ExportFormat::TorchScript,
        ExportFormatArg::Safetensors => ExportFormat::Safetensors,
    };
    let sidecar = variant.with_game(Export { checkpoint: &checkpoint, args: &args, format })?;
    println!("{} ({} from {}) and {}", args.out.display(), variant, checkpoint.display(), sidecar.display());
    Ok(())
}

struct Export<'a> {
    checkpoint: &'a std::path::Path,
    args: &'a ExportArgs,
    format: ExportFormat,
}

impl WithGame for Export<'_> {
    type Output = anyhow::Result<std::path::PathBuf>;

    fn run<G: FullGame>(self) -> anyhow::Result<std::path::PathBuf> {
        Ok(export_checkpoint::<G>(self.checkpoint, &self.args.out, self.format)?)
    }
}
