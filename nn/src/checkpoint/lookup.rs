//! The checkpoint a path names: the path itself when it is a checkpoint folder, else the newest
//! usable checkpoint of the run directory it names, every newer one passed over named with why.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::folder::{is_checkpoint, verify_checkpoint, CheckpointError};
use super::usable::{newest_usable, Skipped};

/// Where a run directory keeps its checkpoints (`RUN/checkpoints/step-N/`): the one spelling of
/// the folder's name, for those who write a run and those who read one.
pub const RUN_CHECKPOINTS: &str = "checkpoints";

/// A path that names no usable checkpoint.
#[derive(Debug, Error)]
#[error("'{}': {reason}", path.display())]
pub struct LookupError {
    /// The path as it was given.
    pub path: PathBuf,
    /// Why it names none.
    pub reason: LookupFailure,
}

/// Why a path names no usable checkpoint.
#[derive(Debug, Error)]
pub enum LookupFailure {
    /// A checkpoint folder that does not verify (a truncated or corrupted file).
    #[error(transparent)]
    Unusable(CheckpointError),
    /// Neither a checkpoint folder nor a folder holding `checkpoints`.
    #[error("neither a checkpoint nor a run directory")]
    NotFound,
    /// A run directory that has saved no checkpoint.
    #[error("the run has no checkpoint yet")]
    NoCheckpointYet,
    /// A run directory none of whose checkpoints verifies (how many were skipped).
    #[error("the run has no readable checkpoint ({0} skipped)")]
    NoneReadable(usize),
}

/// The checkpoint folder a path names: itself, or a run directory's newest usable checkpoint.
/// Newer checkpoints passed over (truncated, corrupted) are named on standard error with why,
/// and with the checkpoint used instead.
pub fn resolve_checkpoint(path: &Path) -> Result<PathBuf, LookupError> {
    let failed = |reason| LookupError { path: path.to_path_buf(), reason };
    if is_checkpoint(path) {
        verify_checkpoint(path).map_err(|e| failed(LookupFailure::Unusable(e)))?;
        return Ok(path.to_path_buf());
    }
    let newest = newest_usable(&path.join(RUN_CHECKPOINTS)).map_err(|_| failed(LookupFailure::NotFound))?;
    let used = newest.usable.as_ref().map(|(dir, _)| dir.as_path());
    for line in skipped_lines(&newest.skipped, used) {
        eprintln!("vzero: warning: {line}");
    }
    match newest.usable {
        Some((dir, _)) => Ok(dir),
        None if newest.skipped.is_empty() => Err(failed(LookupFailure::NoCheckpointYet)),
        None => Err(failed(LookupFailure::NoneReadable(newest.skipped.len()))),
    }
}

/// One warning per skipped checkpoint, the last saying which one is used instead (`used`).
fn skipped_lines(skipped: &[Skipped], used: Option<&Path>) -> Vec<String> {
    let mut lines: Vec<String> = skipped.iter().map(|s| format!("skipping checkpoint {s}")).collect();
    if let Some(last) = lines.last_mut() {
        match used {
            Some(dir) => last.push_str(&format!("; using {}", dir.display())),
            None => last.push_str("; no other checkpoint is usable"),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skipped(name: &str) -> Skipped {
        Skipped { dir: PathBuf::from(name), reason: "state.json: checksum mismatch".into() }
    }

    #[test]
    fn the_last_skipped_line_names_what_is_used_instead() {
        let lines = skipped_lines(&[skipped("c/step-2"), skipped("c/step-1")], Some(Path::new("c/step-0")));
        assert_eq!(
            lines,
            [
                "skipping checkpoint c/step-2 (state.json: checksum mismatch)",
                "skipping checkpoint c/step-1 (state.json: checksum mismatch); using c/step-0",
            ]
        );
        let none = skipped_lines(&[skipped("c/step-1")], None);
        assert_eq!(
            none,
            ["skipping checkpoint c/step-1 (state.json: checksum mismatch); no other checkpoint is usable"]
        );
        assert!(skipped_lines(&[], Some(Path::new("c/step-0"))).is_empty(), "nothing skipped, nothing said");
    }

    #[test]
    fn a_path_that_is_no_checkpoint_says_why_in_the_words_players_print() {
        let root = std::env::temp_dir().join(format!("vzero-lookup-{}", std::process::id()));
        let missing = root.join("missing");
        let err = resolve_checkpoint(&missing).unwrap_err();
        assert_eq!(err.to_string(), format!("'{}': neither a checkpoint nor a run directory", missing.display()));
        let run = root.join("run");
        std::fs::create_dir_all(run.join(RUN_CHECKPOINTS)).unwrap();
        let err = resolve_checkpoint(&run).unwrap_err();
        assert!(matches!(err.reason, LookupFailure::NoCheckpointYet), "{err}");
        assert_eq!(err.reason.to_string(), "the run has no checkpoint yet");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
