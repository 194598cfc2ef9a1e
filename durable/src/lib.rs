//! Crash-safe writes: a file or folder is built under a temporary name, synced to disk, renamed
//! over its target and the folder holding it synced, so a crash (or a full disk, or a kill)
//! leaves either the old content or the new one, never half of either.
//!
//! Temporary names are fixed here, once, because crash recovery cleans them up by name
//! (`selfplay`'s resume deletes `replay/*.tmp` and `checkpoints/*.partial`):
//!
//! - a file `NAME` is written as `NAME.tmp` ([`write`]), or as `STEM.tmp.EXT` where the writer
//!   picks its format from the extension ([`replace_with`], for tch's `save`);
//! - a folder `NAME` is assembled as `NAME.partial` ([`replace_dir`]).
//!
//! A temporary left by a crash is overwritten by the next write to the same target.
//!
//! Besides: several files written all or none ([`write_all`]), files of writers that fail badly
//! on a full disk built in memory first ([`in_memory`]), append-only logs whose torn last line is
//! set aside before the next line goes in ([`append_line`]), and a check that a file can be
//! written, made before the work that produces it ([`check_writable`]).

mod append;
mod check;
mod memory;

pub use append::{append_line, SetAside, TORN_EXTENSION};
pub use check::check_writable;
pub use memory::in_memory;

use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The extension of a file being written.
pub const TMP_EXTENSION: &str = "tmp";
/// The extension of a folder being assembled.
pub const PARTIAL_EXTENSION: &str = "partial";

/// A file-system failure, with the path it happened at.
#[derive(Debug, Error)]
#[error("{path}: {source}")]
pub struct Error {
    /// The file or folder.
    pub path: PathBuf,
    /// What went wrong (a full disk shows here as "No space left on device").
    pub source: io::Error,
}

/// For callers whose errors are plain `io::Error`s; the message keeps the path.
impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        io::Error::new(e.source.kind(), e.to_string())
    }
}

/// Wraps an I/O error with its path.
pub(crate) fn at(path: &Path) -> impl FnOnce(io::Error) -> Error + '_ {
    move |source| Error { path: path.to_path_buf(), source }
}

/// Writes `bytes` to `path` atomically (through `NAME.tmp`).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let tmp = tmp_path(path);
    let written = write_synced(&tmp, path, bytes);
    commit(written, &tmp, path)
}

/// Writes every file of `files` atomically, and all or none of them: each temporary is written
/// and synced before the first rename, so a failure to write (a full disk) leaves every target
/// as it was and no temporary behind. A crash between the renames can leave the first files
/// replaced and not the others.
pub fn write_all(files: &[(&Path, &[u8])]) -> Result<(), Error> {
    let mut written: Vec<PathBuf> = Vec::new();
    for (path, bytes) in files {
        let tmp = tmp_path(path);
        written.push(tmp.clone());
        if let Err(e) = write_synced(&tmp, path, bytes) {
            for tmp in &written {
                let _ = fs::remove_file(tmp);
            }
            return Err(e);
        }
    }
    for (i, ((path, _), tmp)) in files.iter().zip(&written).enumerate() {
        if let Err(e) = commit(Ok(()), tmp, path) {
            for tmp in &written[i + 1..] {
                let _ = fs::remove_file(tmp);
            }
            return Err(e);
        }
    }
    Ok(())
}

/// Writes `bytes` to a new file at `tmp` and syncs it; a failure names `target`, the file the
/// user knows of (a full disk: `model.pt: No space left on device`).
fn write_synced(tmp: &Path, target: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut f = fs::File::create(tmp).map_err(at(target))?;
    f.write_all(bytes).map_err(at(target))?;
    f.sync_all().map_err(at(target))
}

/// Replaces the file at `path` with what `write` writes to the temporary path it is given
/// (`STEM.tmp.EXT`: same folder, same extension), then syncs and renames it into place. If
/// `write` fails, `path` is left as it was.
pub fn replace_with<E: From<Error>>(path: &Path, write: impl FnOnce(&Path) -> Result<(), E>) -> Result<(), E> {
    let tmp = tmp_path_keeping_extension(path);
    if let Err(e) = write(&tmp) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    let synced = sync_file(&tmp);
    Ok(commit(synced, &tmp, path)?)
}

/// Replaces the folder `dir` with the one `fill` builds in the empty temporary folder it is
/// given (`NAME.partial`), syncing every file in it before the rename. If `fill` fails, `dir`
/// is left as it was. An existing `dir` is removed just before the rename (a folder cannot be
/// renamed over a non-empty one), so a crash in between leaves neither; callers that need one
/// keep an older copy elsewhere (checkpoints keep older steps).
pub fn replace_dir<E: From<Error>>(dir: &Path, fill: impl FnOnce(&Path) -> Result<(), E>) -> Result<(), E> {
    let tmp = dir.with_extension(PARTIAL_EXTENSION);
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(at(&tmp))?;
    }
    fs::create_dir_all(&tmp).map_err(at(&tmp))?;
    if let Err(e) = fill(&tmp) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let synced = (|| -> Result<(), Error> {
        for entry in fs::read_dir(&tmp).map_err(at(&tmp))? {
            let path = entry.map_err(at(&tmp))?.path();
            if path.is_file() {
                sync_file(&path)?;
            }
        }
        sync_dir(&tmp)?;
        if dir.exists() {
            fs::remove_dir_all(dir).map_err(at(dir))?;
        }
        Ok(())
    })();
    if let Err(e) = synced {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e.into());
    }
    fs::rename(&tmp, dir).map_err(at(dir))?;
    sync_dir(parent(dir))?;
    Ok(())
}

/// The temporary a file `NAME` is written to: `NAME.tmp`.
pub fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(OsString::from).unwrap_or_default();
    name.push(".");
    name.push(TMP_EXTENSION);
    path.with_file_name(name)
}

/// The temporary for writers that pick a format from the extension: `STEM.tmp.EXT`.
fn tmp_path_keeping_extension(path: &Path) -> PathBuf {
    match path.extension() {
        Some(ext) => {
            let mut ext2 = OsString::from(TMP_EXTENSION);
            ext2.push(".");
            ext2.push(ext);
            path.with_extension(ext2)
        }
        None => tmp_path(path),
    }
}

/// Renames the synced temporary `tmp` over `path` and syncs the folder, or removes `tmp` if an
/// earlier step failed (`done`) or the rename does.
fn commit(done: Result<(), Error>, tmp: &Path, path: &Path) -> Result<(), Error> {
    let renamed = done.and_then(|()| fs::rename(tmp, path).map_err(at(path)));
    if renamed.is_err() {
        let _ = fs::remove_file(tmp);
    }
    renamed?;
    sync_dir(parent(path))
}

/// Flushes a file's content to disk.
fn sync_file(path: &Path) -> Result<(), Error> {
    fs::File::open(path).and_then(|f| f.sync_all()).map_err(at(path))
}

/// Flushes a folder's entries (a rename is durable only once its folder is synced).
fn sync_dir(dir: &Path) -> Result<(), Error> {
    fs::File::open(dir).and_then(|f| f.sync_all()).map_err(at(dir))
}

/// The folder holding `path` (`.` for a bare name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}
