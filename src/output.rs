//! Where commands write, checked before their work starts: a match of an hour must not end in
//! "No such file or directory" with its results lost, and no command may write over its own
//! input, into a checkpoint folder, or over a file of a run directory, by its name or through
//! a symbolic link.

use std::path::{Path, PathBuf};

use anyhow::bail;
use nn::checkpoint::is_checkpoint;
use selfplay::store::lock::LOCK_FILE;
use selfplay::RunDir;

/// The formats of the files commands write, each named by its extension.
#[derive(Clone, Copy, Debug)]
pub enum Format {
    /// A picture (`render`, `plot`).
    Svg,
    /// A page (`replay`).
    Html,
}

impl Format {
    /// The format's name and the extensions a file of it may have (any case).
    fn names(self) -> (&'static str, &'static [&'static str]) {
        match self {
            Format::Svg => ("SVG", &["svg"]),
            Format::Html => ("HTML", &["html", "htm"]),
        }
    }
}

/// Refuses `--out FILE` before the work unless it is safe and can be written: it is none of
/// the command's `inputs`, no file of a run or checkpoint ([`refuse_run_files`]), writable
/// ([`durable::check_writable`]: the folder exists and takes new files, the path is no folder)
/// and named for its `format` where the command has one.
pub fn check_out_file(out: &Path, format: Option<Format>, inputs: &[&Path]) -> anyhow::Result<()> {
    check_output("--out", out, format, inputs)
}

/// [`check_out_file`] for the output that `flag` (`--games-out`) names, as messages say.
pub fn check_output(flag: &str, out: &Path, format: Option<Format>, inputs: &[&Path]) -> anyhow::Result<()> {
    refuse_inputs(flag, out, inputs)?;
    refuse_files(flag, out, &[out.to_path_buf()])?;
    // Through a link, the file written is the one it leads to.
    let target = link_target(out).unwrap_or_else(|| out.to_path_buf());
    if target.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
        bail!("{flag} {}: a loop of symbolic links; expected a file or a link to one", out.display());
    }
    durable::check_writable(&target).map_err(|e| anyhow::anyhow!("{flag} {}: {e}", out.display()))?;
    if let Some(format) = format {
        let (name, extensions) = format.names();
        let ext = out.extension().and_then(|e| e.to_str()).unwrap_or_default();
        if !extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)) {
            bail!("{flag} {}: this command writes only {name}; name the file *.{}", out.display(), extensions[0]);
        }
    }
    Ok(())
}

/// Refuses, before the work, an output `out` where the file `probe` cannot be written (a
/// folder that does not exist or takes no new files); the message names `--out` as given.
pub fn check_writable(out: &Path, probe: &Path) -> anyhow::Result<()> {
    durable::check_writable(probe).map_err(|e| anyhow::anyhow!("--out {}: {e}", out.display()))
}

/// Refuses an output that is one of the files the command reads: it would be destroyed by
/// the writing, or, for a log that is appended to, read back half-written.
fn refuse_inputs(flag: &str, out: &Path, inputs: &[&Path]) -> anyhow::Result<()> {
    let Ok(file) = out.canonicalize() else { return Ok(()) };
    for input in inputs {
        if input.canonicalize().is_ok_and(|i| i == file) {
            bail!("{flag} {}: is this command's input {}; write elsewhere", out.display(), input.display());
        }
    }
    Ok(())
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

/// Refuses output files that would destroy part of a run, the one rule of every writer: any
/// inside a checkpoint folder; in a run directory, an existing file, and new ones in the
/// folders the run fills (replay/, checkpoints/, games/) or under the names of its own files
/// (a JSON line in `finished` would end its workers). A file that is a symbolic link is
/// judged by where the link leads as well: appending through a link to a run's config.toml
/// writes into the run as surely as naming it. `out` is what the user typed, for the message.
pub fn refuse_run_files(out: &Path, files: &[PathBuf]) -> anyhow::Result<()> {
    refuse_files("--out", out, files)
}

/// [`refuse_run_files`] for the output that `flag` names.
fn refuse_files(flag: &str, out: &Path, files: &[PathBuf]) -> anyhow::Result<()> {
    for file in files {
        refuse_run_file(&format!("{flag} {}", out.display()), file)?;
        if let Some(target) = link_target(file) {
            refuse_run_file(&format!("{flag} {} (a link to {})", out.display(), target.display()), &target)?;
        }
    }
    Ok(())
}

/// [`refuse_run_files`] for one file, `shown` as the message names it.
fn refuse_run_file(shown: &str, file: &Path) -> anyhow::Result<()> {
    let Some(folder) = existing_folder(file) else { return Ok(()) };
    for dir in folder.ancestors() {
        if is_checkpoint(dir) {
            bail!("{shown}: inside the checkpoint {}; write outside it", dir.display());
        }
        let Ok(run) = RunDir::existing(dir) else { continue };
        if file.exists() {
            bail!("{shown}: would overwrite {}, a file of the run {}", file.display(), dir.display());
        }
        let owned = [run.replay(), run.checkpoints(), run.games()];
        if let Some(owned) = owned.iter().find(|f| folder.starts_with(f)) {
            bail!("{shown}: inside {}, a folder of the run {}; write outside it", owned.display(), dir.display());
        }
        let names = [run.metrics(), run.finished(), run.best(), dir.join(LOCK_FILE)];
        let name = file.file_name().map(|n| dir.join(n));
        if folder == dir && name.is_some_and(|n| names.contains(&n)) {
            bail!("{shown}: would take the name of a file of the run {}; write elsewhere", dir.display());
        }
    }
    Ok(())
}

/// Refuses a run directory (`train --run DIR`) inside a checkpoint folder or inside another
/// run directory (its replay/, checkpoints/ or games/ above all): the new run's shards and
/// checkpoints would be read as the other's, or break the checkpoint. `DIR` itself may be a
/// run (the same config resumes it).
pub fn refuse_nested_run(run: &Path) -> anyhow::Result<()> {
    let Some(folder) = existing_folder(run) else { return Ok(()) };
    let shown = run.display();
    for dir in folder.ancestors() {
        if is_checkpoint(dir) {
            bail!(
                "--run {shown}: inside the checkpoint {}; expected a folder outside any run or checkpoint",
                dir.display()
            );
        }
        if RunDir::existing(dir).is_ok() {
            bail!("--run {shown}: inside the run {}; expected a folder outside any run or checkpoint", dir.display());
        }
    }
    Ok(())
}

/// Where `path` leads if it is a symbolic link, followed to the end of its chain even when
/// that end does not exist yet (writing would create it there); none if it is no link.
fn link_target(path: &Path) -> Option<PathBuf> {
    if !path.symlink_metadata().ok()?.file_type().is_symlink() {
        return None;
    }
    if let Ok(target) = path.canonicalize() {
        return Some(target);
    }
    // A dangling link: followed by hand, as far as the kernel would (40 links).
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        let Ok(next) = std::fs::read_link(&current) else { break };
        current = current.parent().unwrap_or(Path::new(".")).join(next);
    }
    Some(current)
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
