//! Which of a run's checkpoints can be used, and why the others cannot: a truncated or
//! bit-flipped checkpoint is reported by those who pass over it, never skipped in silence.

use std::fmt;
use std::path::{Path, PathBuf};

use super::folder::{list_checkpoints, verify_checkpoint, CheckpointState};

/// A checkpoint that cannot be used, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// The checkpoint folder.
    pub dir: PathBuf,
    /// What is wrong, naming the bad file inside the folder (`weights.safetensors: checksum
    /// mismatch (truncated or corrupted)`).
    pub reason: String,
}

/// `DIR (REASON)`, as warnings print it.
impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.dir.display(), self.reason)
    }
}

/// A run's newest usable checkpoint, and the newer ones passed over for it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Newest {
    /// The checkpoint and its counters; none when no checkpoint verifies.
    pub usable: Option<(PathBuf, CheckpointState)>,
    /// The newer checkpoints that failed verification, newest first.
    pub skipped: Vec<Skipped>,
}

/// The newest checkpoint of a `checkpoints` folder that verifies ([`verify_checkpoint`]:
/// `state.json` and the checksums of its tensor files), checking from the newest down.
pub fn newest_usable(checkpoints: &Path) -> Result<Newest, durable::Error> {
    let mut newest = Newest::default();
    for dir in list_checkpoints(checkpoints)?.into_iter().rev() {
        match check(&dir) {
            Ok(state) => {
                newest.usable = Some((dir, state));
                break;
            }
            Err(skipped) => newest.skipped.push(skipped),
        }
    }
    Ok(newest)
}

/// Every checkpoint of a `checkpoints` folder: those that verify, oldest first, and those that
/// do not.
pub fn usable_checkpoints(checkpoints: &Path) -> Result<(Vec<PathBuf>, Vec<Skipped>), durable::Error> {
    let mut usable = Vec::new();
    let mut skipped = Vec::new();
    for dir in list_checkpoints(checkpoints)? {
        match check(&dir) {
            Ok(_) => usable.push(dir),
            Err(s) => skipped.push(s),
        }
    }
    Ok((usable, skipped))
}

/// The checkpoint's counters if it verifies, else why not (the bad file named relative to it).
fn check(dir: &Path) -> Result<CheckpointState, Skipped> {
    verify_checkpoint(dir).map_err(|e| {
        let text = e.to_string();
        let prefix = format!("{}/", dir.display());
        let reason = text.strip_prefix(&prefix).map_or_else(|| text.clone(), str::to_string);
        Skipped { dir: dir.to_path_buf(), reason }
    })
}
