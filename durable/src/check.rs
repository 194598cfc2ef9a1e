//! Checking an output path before the work that fills it: a match of an hour must not end in
//! "No such file or directory" with its results lost.

use std::fs::{self, OpenOptions};
use std::io;
use std::path::Path;

use crate::{at, parent, tmp_path, Error};

/// Checks that this crate's writers can write a file at `path` (through a temporary in the same
/// folder, or by appending): `path` is no folder, its folder exists, new files can be made in
/// it (a probe temporary is made and removed), and an existing `path` opens for writing
/// (nothing in it changes).
pub fn check_writable(path: &Path) -> Result<(), Error> {
    if path.is_dir() {
        return Err(Error {
            path: path.to_path_buf(),
            source: io::Error::new(io::ErrorKind::IsADirectory, "is a folder"),
        });
    }
    let folder = parent(path);
    if !folder.exists() {
        let source = io::Error::new(io::ErrorKind::NotFound, "does not exist");
        return Err(Error { path: folder.to_path_buf(), source });
    }
    if !folder.is_dir() {
        let source = io::Error::new(io::ErrorKind::NotADirectory, "is not a folder");
        return Err(Error { path: folder.to_path_buf(), source });
    }
    let probe = tmp_path(path);
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
        .map_err(refused("cannot make a file in this folder"))
        .map_err(at(folder))?;
    fs::remove_file(&probe).map_err(at(&probe))?;
    if path.exists() {
        OpenOptions::new().append(true).open(path).map_err(refused("cannot write to this file")).map_err(at(path))?;
    }
    Ok(())
}

/// The OS's reason prefixed with what was refused: alone it misleads, as /proc, which exists,
/// takes no new file with "No such file or directory".
fn refused(what: &'static str) -> impl FnOnce(io::Error) -> io::Error {
    move |e| io::Error::new(e.kind(), format!("{what}: {e}"))
}
