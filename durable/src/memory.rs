//! Files built in memory, for writers that take only a path and fail badly when the disk is
//! full: libtorch's TorchScript `save` aborts the whole process there (a C++ exception thrown
//! while its writer unwinds). Given a path to memory instead, such a writer cannot run out of
//! disk; the bytes it wrote are then written to disk by [`crate::write`] or [`crate::write_all`],
//! whose failures are ordinary errors.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::{at, Error};

/// Runs `write` on a path naming an empty file in memory and returns what it wrote there. On
/// Linux the file is a `memfd` reached through `/proc/self/fd`; elsewhere (or without /proc) it
/// is a temporary file in the system's temporary folder, removed afterwards.
pub fn in_memory<E: From<Error>>(write: impl FnOnce(&Path) -> Result<(), E>) -> Result<Vec<u8>, E> {
    match memory_file() {
        Some((mut file, path)) => {
            write(&path)?;
            Ok(read_back(&mut file, &path)?)
        }
        None => {
            let path = std::env::temp_dir().join(format!("vzero-in-memory-{}-{}", std::process::id(), unique()));
            let written = write(&path).and_then(|()| {
                let mut file = File::open(&path).map_err(at(&path))?;
                Ok(read_back(&mut file, &path)?)
            });
            let _ = std::fs::remove_file(&path);
            written
        }
    }
}

/// Everything in `file`, from its start.
fn read_back(file: &mut File, path: &Path) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0)).map_err(at(path))?;
    file.read_to_end(&mut bytes).map_err(at(path))?;
    Ok(bytes)
}

/// A new anonymous file in memory and a path that opens it, where the system has them.
#[cfg(target_os = "linux")]
fn memory_file() -> Option<(File, PathBuf)> {
    use std::os::fd::{AsRawFd, FromRawFd};
    // SAFETY: memfd_create takes a NUL-terminated name and flags; the descriptor it returns is
    // new and owned by nothing else, so the File may own it.
    let fd = unsafe { libc::memfd_create(c"vzero-export".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    let file = unsafe { File::from_raw_fd(fd) };
    let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    path.exists().then_some((file, path))
}

#[cfg(not(target_os = "linux"))]
fn memory_file() -> Option<(File, PathBuf)> {
    None
}

/// A number not used before by this process, for temporary names.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
