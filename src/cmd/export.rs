//! `vzero export`: a checkpoint for use outside vzero.

use std::path::Path;

use anyhow::{bail, Context};
use arena::players::resolve_checkpoint;
use nn::checkpoint::read_state;
use nn::export::{export_checkpoint, ExportFormat};
use rules::{with_game, FullGame, Variant};

use crate::cli::{ExportArgs, ExportFormatArg};

/// Writes the model file and its sidecar.
pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    let checkpoint = resolve_checkpoint(&args.checkpoint)?;
    check_output(&args.out)?;
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

/// Refuses an output that cannot be written or would destroy something: a missing folder, a
/// model and sidecar that would be one file, anything inside a checkpoint folder, and an
/// existing file of a run directory.
fn check_output(out: &Path) -> anyhow::Result<()> {
    let shown = out.display();
    let sidecar = out.with_extension("json");
    if sidecar == out {
        bail!("--out {shown}: the sidecar is written to the model's name with the extension .json; give the model another extension, e.g. model.pt");
    }
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    if !folder.is_dir() {
        bail!("--out {shown}: the folder {} does not exist", folder.display());
    }
    if out.is_dir() {
        bail!("--out {shown}: is a folder; name the model file, e.g. {}", out.join("model.pt").display());
    }
    let folder = folder.canonicalize().with_context(|| format!("--out {shown}"))?;
    for dir in folder.ancestors() {
        if dir.join("state.json").is_file() && dir.join("weights.safetensors").is_file() {
            bail!("--out {shown}: inside the checkpoint {}; export outside it", dir.display());
        }
        let is_run = dir.join("config.toml").is_file() && dir.join("checkpoints").is_dir();
        if is_run && (out.exists() || sidecar.exists()) {
            let existing = if out.exists() { out } else { &sidecar };
            bail!("--out {shown}: would overwrite {}, a file of the run {}", existing.display(), dir.display());
        }
    }
    Ok(())
}
