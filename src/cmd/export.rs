//! `vzero export`: a checkpoint for use outside vzero.

use std::path::Path;

use anyhow::{bail, Context};
use nn::checkpoint::{read_state, resolve_checkpoint};
use nn::export::{export_checkpoint, sidecar_path, ExportFormat};
use rules::{with_game, FullGame, Variant};

use crate::cli::{ExportArgs, ExportFormatArg};
use crate::output;

/// Writes the model file and its sidecar.
pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    check_output(&args.out)?;
    let checkpoint = resolve_checkpoint(&args.checkpoint)?;
    let state = read_state(&checkpoint)?;
    let variant: Variant = state.variant.parse().with_context(|| format!("{}", checkpoint.display()))?;
    let format = match args.format {
        ExportFormatArg::Torchscript => ExportFormat::TorchScript,
        ExportFormatArg::Safetensors => ExportFormat::Safetensors,
    };
    let sidecar = with_game!(variant, G => export_as::<G>(&checkpoint, &args, format))?;
    println!("{} ({} from {}) and {}", args.out.display(), variant, checkpoint.display(), sidecar.display());
    Ok(())
}

/// Exports the checkpoint of game `G`; returns the sidecar's path.
fn export_as<G: FullGame>(
    checkpoint: &Path,
    args: &ExportArgs,
    format: ExportFormat,
) -> anyhow::Result<std::path::PathBuf> {
    Ok(export_checkpoint::<G>(checkpoint, &args.out, format)?)
}

/// Refuses an output that cannot be written or would destroy something, before the export: a
/// folder, a missing folder, a model named like a sidecar (`.json`), anything inside a
/// checkpoint folder, and an existing file of a run directory.
fn check_output(out: &Path) -> anyhow::Result<()> {
    let shown = out.display();
    if out.extension().is_some_and(|e| e == "json") {
        bail!("--out {shown}: .json names the sidecars; give the model another extension, e.g. model.pt");
    }
    if out.is_dir() {
        bail!("--out {shown}: is a folder; name the model file, e.g. {}", out.join("model.pt").display());
    }
    output::check_out_file(out, None, &[])?;
    output::refuse_run_files(out, &[sidecar_path(out)])
}
