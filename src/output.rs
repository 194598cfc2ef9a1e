//! Where commands write, checked before their work starts: a match of an hour must not end in
//! "No such file or directory" with its results lost, and no command may write into a
//! checkpoint folder or over a file of a run directory.

use std::path::{Path, PathBuf};

use anyhow::bail;

/// Refuses `--out FILE` before the work unless it can be written there ([`durable::check_writable`]:
/// the folder exists and takes new files, the path is no folder).
pub fn check_out_file(out: &Path) -> anyhow::Result<()> {
    durable::check_writable(out).map_err(|e| anyhow::anyhow!("--out {}: {e}", out.display()))
}

/// Writes a whole output file through a temporary and a rename ([`durable::write`]): a failure
/// (a full disk) is one line naming the file, and leaves the previous file and no temporary.
pub fn write_file(out: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    durable::write(out, bytes).map_err(|e| anyhow::anyhow!("writing {}: {}", out.display(), e.source))
}

/// Appends `record` as one line to the JSON-lines file `out` ([`durable::append_line`]); a torn
/// or unreadable last line found there is moved to a side file first, with a warning naming it.
pub fn append_json_line(out: &Path, record: &serde_json::Value) -> anyhow::Result<()> {
    let line = format!("{record}\n");
    let set_aside = durable::append_line(out, line.as_bytes(), selfplay::store::events::is_json_line)
        .map_err(|e| anyhow::anyhow!("--out {}: {}", out.display(), e.source))?;
    if let Some(set_aside) = set_aside {
        eprintln!("vzero: warning: {set_aside}");
    }
    Ok(())
}

/// Refuses output files that would destroy part of a run (`export`, `encode`): any inside a
/// checkpoint folder, and an existing file anywhere in a run directory. `out` is what the
/// user typed, for the message.
pub fn refuse_run_files(out: &Path, files: &[PathBuf]) -> anyhow::Result<()> {
    let shown = out.display();
    for file in files {
        let Some(folder) = existing_folder(file) else { continue };
        for dir in folder.ancestors() {
            if dir.join("state.json").is_file() && dir.join("weights.safetensors").is_file() {
                bail!("--out {shown}: inside the checkpoint {}; write outside it", dir.display());
            }
            let is_run = dir.join("config.toml").is_file() && dir.join(nn::checkpoint::RUN_CHECKPOINTS).is_dir();
            if is_run && file.exists() {
                bail!("--out {shown}: would overwrite {}, a file of the run {}", file.display(), dir.display());
            }
        }
    }
    Ok(())
}

/// The nearest folder holding `path` that exists, made absolute (run directories and
/// checkpoints are found among its ancestors).
fn existing_folder(path: &Path) -> Option<PathBuf> {
    let start = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    start.ancestors().find_map(|dir| dir.canonicalize().ok().filter(|d| d.is_dir()))
}
