//! One trainer per run directory: `vzero train` holds an exclusive lock on `RUN/train.lock`
//! while it runs, so a second trainer on the same directory is refused at once, naming the host
//! and process that holds it (two trainers would both write games and checkpoints).
//!
//! The lock is `flock`-style ([`File::try_lock`]): the kernel releases it when its process dies,
//! however it dies, so a crashed trainer never blocks the next one. The file keeps the last
//! holder's host, process and start time; a file found unlocked with a holder in it is a stale
//! lock from a process that died, and taking it over is reported.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};

use thiserror::Error;

use super::host::this_host;

/// The lock file's name inside a run directory.
pub const LOCK_FILE: &str = "train.lock";

/// A held lock on a run directory; dropping it empties the file and releases the lock.
#[derive(Debug)]
pub struct RunLock {
    /// Kept open: closing the file would release the lock.
    file: File,
    /// Who held the lock before, when that holder died without releasing it.
    pub stale_holder: Option<String>,
}

/// The run directory could not be locked.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error("{dir}: a trainer is already running on this run directory ({holder}); stop it first, or give this one another --run")]
    Held {
        /// The run directory.
        dir: PathBuf,
        /// Host, process and start time of the holder, as it wrote them.
        holder: String,
    },
    /// The lock file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// The descriptor of the lock file this process holds (-1: none), kept where a signal handler
/// can read it: an abort by a second stop signal ends the process without running `Drop`, and
/// empties the file itself so that the next trainer does not report a trainer that died.
static HELD_FD: AtomicI32 = AtomicI32::new(-1);

/// The open lock file of the run this process holds, if any: what an abort empties (an
/// atomic load, so safe to call inside a signal handler).
pub fn held_lock_fd() -> Option<RawFd> {
    Some(HELD_FD.load(Ordering::SeqCst)).filter(|fd| *fd >= 0)
}

/// Takes the run directory's trainer lock, or says who holds it.
pub fn lock_run(dir: &Path) -> Result<RunLock, LockError> {
    let path = dir.join(LOCK_FILE);
    let io = |source| LockError::Io { path: path.clone(), source };
    let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
    let mut previous = String::new();
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            file.read_to_string(&mut previous).map_err(io)?;
            let holder = if previous.trim().is_empty() { "holder unknown".into() } else { previous.trim().into() };
            return Err(LockError::Held { dir: dir.to_path_buf(), holder });
        }
        Err(TryLockError::Error(e)) => return Err(io(e)),
    }
    file.read_to_string(&mut previous).map_err(io)?;
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let me = format!("host {}, process {}, since unix time {since}", this_host(), std::process::id());
    file.set_len(0).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(me.as_bytes()).map_err(io)?;
    file.sync_all().map_err(io)?;
    let stale_holder = Some(previous.trim().to_string()).filter(|p| !p.is_empty());
    HELD_FD.store(file.as_raw_fd(), Ordering::SeqCst);
    Ok(RunLock { file, stale_holder })
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // An empty file marks a clean release; a holder left in it means that holder died.
        let _ = self.file.set_len(0);
        let _ = HELD_FD.compare_exchange(self.file.as_raw_fd(), -1, Ordering::SeqCst, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_and_a_dead_holder_is_reported() {
        let dir = std::env::temp_dir().join(format!("vzero-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = lock_run(&dir).unwrap();
        assert_eq!(first.stale_holder, None);
        // flock locks belong to an open file, so a second open in this process conflicts too.
        let err = lock_run(&dir).unwrap_err().to_string();
        assert!(err.contains(&format!("process {}", std::process::id())) && err.contains(&this_host()), "{err}");
        drop(first);
        assert_eq!(lock_run(&dir).unwrap().stale_holder, None, "a clean release is not stale");
        // A holder that died: the kernel released its lock, its name is still in the file.
        std::fs::write(dir.join(LOCK_FILE), format!("host {}, process {}", this_host(), std::process::id())).unwrap();
        let again = lock_run(&dir).unwrap();
        let stale = again.stale_holder.clone().expect("the previous holder is reported");
        assert!(stale.contains(&format!("process {}", std::process::id())), "{stale}");
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
