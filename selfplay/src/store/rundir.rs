//! The run directory: the unit of a training run's state.
//!
//! ```text
//! RUN/config.toml          the resolved configuration
//! RUN/replay/*.shard       finished games (see replay::shard)
//! RUN/checkpoints/step-N/  weights, optimizer state and counters after N training steps
//! RUN/games/*.txt          finished games as move text, one game per line
//! RUN/metrics.jsonl        one JSON object per event (see events)
//! ```
//! Every file is written to a temporary name and renamed (the `durable` crate), so a crash never
//! leaves half a file.

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::events::{event_line, is_json_line, RunEvent};

/// A file-system failure, with the path it happened at.
#[derive(Debug, Error)]
#[error("{path}: {source}")]
pub struct RunIoError {
    /// The file or folder.
    pub path: PathBuf,
    /// What went wrong (a full disk shows here as "No space left on device").
    pub source: std::io::Error,
}

/// Wraps an I/O error with its path.
pub fn at(path: &Path) -> impl FnOnce(std::io::Error) -> RunIoError + '_ {
    move |source| RunIoError { path: path.to_path_buf(), source }
}

impl From<durable::Error> for RunIoError {
    fn from(e: durable::Error) -> RunIoError {
        RunIoError { path: e.path, source: e.source }
    }
}

/// Writes `bytes` to `path` atomically (see [`durable::write`]: a temporary file, fsync,
/// rename, fsync of the folder).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RunIoError> {
    Ok(durable::write(path, bytes)?)
}

/// A folder that is not a run directory, such as a copy of a shipped model (it holds a
/// config.toml too): named with the part of a run it lacks.
#[derive(Debug, Error)]
#[error(
    "{} is not a run directory: it has no {missing} (a run holds config.toml, replay/ and checkpoints/; \
     start one with `vzero train --config FILE --run {}`)",
    .root.display(),
    .root.display()
)]
pub struct NotARun {
    /// The folder.
    pub root: PathBuf,
    /// What it lacks: `config.toml`, `replay/ folder` or `checkpoints/ folder`.
    pub missing: &'static str,
}

/// The paths of one run directory.
#[derive(Clone, Debug)]
pub struct RunDir {
    root: PathBuf,
}

impl RunDir {
    /// Creates the folders of a run at `root` (which may exist but must not hold a run).
    pub fn create(root: &Path) -> Result<RunDir, RunIoError> {
        let dir = RunDir { root: root.to_path_buf() };
        for sub in [dir.replay(), dir.checkpoints(), dir.games()] {
            fs::create_dir_all(&sub).map_err(at(&sub))?;
        }
        Ok(dir)
    }

    /// The paths of a run at `root`, nothing checked or created: for those who know the run is
    /// there (they made it, or [`RunDir::existing`] said so) or who wait for it to appear.
    pub fn unchecked(root: &Path) -> RunDir {
        RunDir { root: root.to_path_buf() }
    }

    /// The run at `root` if it is one (its config, replay and checkpoint folders are there): the
    /// one test of whether a folder is a run. Every command that reads or adds to an existing
    /// run asks this first, so that a folder that is not a run gets one message and nothing,
    /// not even a lock, is written into it; the writers ask it to keep out of runs.
    pub fn existing(root: &Path) -> Result<RunDir, NotARun> {
        let dir = RunDir::unchecked(root);
        let parts = [
            (dir.config(), "config.toml"),
            (dir.replay(), "replay/ folder"),
            (dir.checkpoints(), "checkpoints/ folder"),
        ];
        match parts.into_iter().find(|(path, _)| !path.exists()) {
            Some((_, missing)) => Err(NotARun { root: root.to_path_buf(), missing }),
            None => Ok(dir),
        }
    }

    /// The run's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The resolved configuration.
    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }

    /// Replay shards.
    pub fn replay(&self) -> PathBuf {
        self.root.join("replay")
    }

    /// Checkpoints.
    pub fn checkpoints(&self) -> PathBuf {
        self.root.join(nn::checkpoint::RUN_CHECKPOINTS)
    }

    /// Game records as text.
    pub fn games(&self) -> PathBuf {
        self.root.join("games")
    }

    /// The name of the checkpoint self-play uses when gating is on (one line).
    pub fn best(&self) -> PathBuf {
        self.root.join("best.txt")
    }

    /// The best checkpoint recorded in [`RunDir::best`], if any.
    pub fn read_best(&self) -> Option<PathBuf> {
        let name = fs::read_to_string(self.best()).ok()?;
        let path = self.checkpoints().join(name.trim());
        path.exists().then_some(path)
    }

    /// Records `checkpoint` as the best.
    pub fn write_best(&self, checkpoint: &Path) -> Result<(), RunIoError> {
        let name = checkpoint.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        write_atomic(&self.best(), format!("{name}\n").as_bytes())
    }

    /// Written by the trainer when the run has done every iteration it was asked for (removed
    /// when it is resumed to do more): `vzero selfplay` processes stop when it appears.
    pub fn finished(&self) -> PathBuf {
        self.root.join("finished")
    }

    /// The metrics log.
    pub fn metrics(&self) -> PathBuf {
        self.root.join("metrics.jsonl")
    }

    /// Appends `event` as a line to metrics.jsonl: the one writer of run events (a single
    /// write, synced, so a crash loses at most the line being written). A torn last line a
    /// crash left there is first moved to `metrics.jsonl.torn` ([`durable::append_line`]), with
    /// a warning, so that it does not swallow this event.
    pub fn log_event(&self, event: &RunEvent) -> Result<(), RunIoError> {
        if let Some(set_aside) = durable::append_line(&self.metrics(), event_line(event).as_bytes(), is_json_line)? {
            eprintln!("vzero: warning: {set_aside}");
        }
        Ok(())
    }

    /// The replay shards in creation order (their names sort by time).
    pub fn shard_paths(&self) -> Result<Vec<PathBuf>, RunIoError> {
        let dir = self.replay();
        let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
            .map_err(at(&dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "shard"))
            .collect();
        paths.sort();
        Ok(paths)
    }
}
