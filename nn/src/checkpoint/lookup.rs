//! The checkpoint a path names: the path itself when it is a checkpoint folder, the
//! `checkpoint/` of a shipped model's folder (`models/NAME`), else the newest usable checkpoint
//! of the run directory it names, every newer one passed over named with why.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::folder::{is_checkpoint, set_aside_checkpoints, verify_checkpoint, CheckpointError};
use super::usable::{newest_usable, Skipped};

/// Where a run directory keeps its checkpoints (`RUN/checkpoints/step-N/`): the one spelling of
/// the folder's name, for those who write a run and those who read one.
pub const RUN_CHECKPOINTS: &str = "checkpoints";

/// Where a shipped model's folder (`models/NAME`, scripts/ship-model) keeps the checkpoint its
/// export was made from: naming the folder names that checkpoint.
pub const SHIPPED_CHECKPOINT: &str = "checkpoint";

/// What a path that names no checkpoint was expected to be.
const EXPECTED: &str =
    "expected a checkpoint folder (holding state.json), a run directory (holding checkpoints/) or a shipped \
     model's folder (holding checkpoint/)";

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
    /// Nothing is there.
    #[error("no such file or folder; {EXPECTED}")]
    Missing,
    /// A file: an exported model (`model.safetensors`, `model.pt`) or anything else.
    #[error("a file, not a folder (an exported model is for other programs; vzero loads the checkpoint it came from){0}; {EXPECTED}")]
    File(String),
    /// A folder that is neither a checkpoint folder nor holds `checkpoints` or `checkpoint`.
    #[error("neither a checkpoint nor a run directory; {EXPECTED}")]
    NotFound,
    /// A run directory that has saved no checkpoint.
    #[error("the run has no checkpoint yet")]
    NoCheckpointYet,
    /// A run directory whose every checkpoint a resume set aside as unusable (how many).
    #[error("the run has no usable checkpoint: its {0} checkpoint(s) were set aside as unusable by a resume (checkpoints/step-N.bad, kept for inspection)")]
    AllSetAside(usize),
    /// A run directory none of whose checkpoints verifies (how many were skipped).
    #[error("the run has no readable checkpoint ({0} skipped)")]
    NoneReadable(usize),
}

/// The checkpoint folder a path names: itself, or a run directory's newest usable checkpoint.
/// Newer checkpoints passed over (truncated, corrupted) are named on standard error with why,
/// and with the checkpoint used instead.
pub fn resolve_checkpoint(path: &Path) -> Result<PathBuf, LookupError> {
    let failed = |reason| LookupError { path: path.to_path_buf(), reason };
    let shipped = path.join(SHIPPED_CHECKPOINT);
    for dir in [path, shipped.as_path()] {
        if is_checkpoint(dir) {
            verify_checkpoint(dir).map_err(|e| failed(LookupFailure::Unusable(e)))?;
            return Ok(dir.to_path_buf());
        }
    }
    if !path.exists() {
        return Err(failed(LookupFailure::Missing));
    }
    if !path.is_dir() {
        // An export sits beside its checkpoint in a shipped model's folder.
        let beside = path.parent().map(|p| p.join(SHIPPED_CHECKPOINT)).filter(|c| is_checkpoint(c));
        let hint = beside.map_or_else(String::new, |c| format!(": its checkpoint is likely {}", c.display()));
        return Err(failed(LookupFailure::File(hint)));
    }
    let checkpoints = path.join(RUN_CHECKPOINTS);
    let newest = newest_usable(&checkpoints).map_err(|_| failed(LookupFailure::NotFound))?;
    let used = newest.usable.as_ref().map(|(dir, _)| dir.as_path());
    for line in skipped_lines(&newest.skipped, used) {
        eprintln!("vzero: warning: {line}");
    }
    match newest.usable {
        Some((dir, _)) => Ok(dir),
        None if !newest.skipped.is_empty() => Err(failed(LookupFailure::NoneReadable(newest.skipped.len()))),
        None => match set_aside_checkpoints(&checkpoints).len() {
            0 => Err(failed(LookupFailure::NoCheckpointYet)),
            n => Err(failed(LookupFailure::AllSetAside(n))),
        },
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
        assert_eq!(err.to_string(), format!("'{}': no such file or folder; {EXPECTED}", missing.display()));
        let run = root.join("run");
        std::fs::create_dir_all(run.join(RUN_CHECKPOINTS)).unwrap();
        let err = resolve_checkpoint(&run).unwrap_err();
        assert!(matches!(err.reason, LookupFailure::NoCheckpointYet), "{err}");
        assert_eq!(err.reason.to_string(), "the run has no checkpoint yet");
        // Checkpoints a resume set aside are not "none yet".
        std::fs::create_dir_all(run.join(RUN_CHECKPOINTS).join("step-000000026.bad")).unwrap();
        let err = resolve_checkpoint(&run).unwrap_err();
        assert!(matches!(err.reason, LookupFailure::AllSetAside(1)), "{err}");
        let other = root.join("other");
        std::fs::create_dir_all(&other).unwrap();
        let err = resolve_checkpoint(&other).unwrap_err();
        assert_eq!(err.reason.to_string(), format!("neither a checkpoint nor a run directory; {EXPECTED}"));
        std::fs::write(other.join("model.safetensors"), b"").unwrap();
        let err = resolve_checkpoint(&other.join("model.safetensors")).unwrap_err();
        assert!(matches!(err.reason, LookupFailure::File(ref hint) if hint.is_empty()), "{err}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
