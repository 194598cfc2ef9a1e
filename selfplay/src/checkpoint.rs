//! Checkpoints: everything needed to continue training exactly, in one folder per step.
//!
//! `checkpoints/step-000120/` holds `weights.safetensors`, `optimizer.safetensors` and
//! `state.json`. The folder is assembled under a temporary name and renamed into place, so a
//! checkpoint folder either is complete or does not exist.

use std::fs;
use std::path::{Path, PathBuf};

use nn::{PolicyValueNet, Trainer};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rundir::{at, write_atomic, RunIoError};

/// The counters and shape stored with a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointState {
    /// The variant the network plays.
    pub variant: String,
    /// Residual blocks.
    pub blocks: usize,
    /// Channels.
    pub channels: usize,
    /// Training steps done.
    pub step: u64,
    /// Iterations done.
    pub iteration: u32,
    /// Self-play games finished.
    pub games: u64,
}

/// A checkpoint could not be written or read.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file system failed.
    #[error(transparent)]
    Io(#[from] RunIoError),
    /// A file is unreadable or does not fit the network.
    #[error("{path}: {reason}")]
    Bad { path: PathBuf, reason: String },
}

/// The folder of the checkpoint after `step` steps.
pub fn checkpoint_dir(checkpoints: &Path, step: u64) -> PathBuf {
    checkpoints.join(format!("step-{step:09}"))
}

/// Saves a checkpoint into `checkpoints/step-N/`.
pub fn save_checkpoint(
    checkpoints: &Path,
    net: &PolicyValueNet,
    trainer: &Trainer,
    state: &CheckpointState,
) -> Result<PathBuf, CheckpointError> {
    let dir = checkpoint_dir(checkpoints, state.step);
    let tmp = dir.with_extension("partial");
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(at(&tmp))?;
    }
    fs::create_dir_all(&tmp).map_err(at(&tmp))?;
    let bad = |path: PathBuf, e: nn::TchError| CheckpointError::Bad { path, reason: e.to_string() };
    let weights = tmp.join("weights.safetensors");
    net.var_store().save(&weights).map_err(|e| bad(weights.clone(), e))?;
    let opt = tmp.join("optimizer.safetensors");
    trainer.save_state(&opt).map_err(|e| bad(opt.clone(), e))?;
    let json = serde_json::to_vec_pretty(state).expect("state serialises");
    write_atomic(&tmp.join("state.json"), &json)?;
    if dir.exists() {
        fs::remove_dir_all(&dir).map_err(at(&dir))?;
    }
    fs::rename(&tmp, &dir).map_err(at(&dir))?;
    Ok(dir)
}

/// Reads a checkpoint's counters.
pub fn read_state(dir: &Path) -> Result<CheckpointState, CheckpointError> {
    let path = dir.join("state.json");
    let bytes = fs::read(&path).map_err(at(&path))?;
    serde_json::from_slice(&bytes).map_err(|e| CheckpointError::Bad { path, reason: e.to_string() })
}

/// The complete checkpoints in `checkpoints`, oldest first.
pub fn list_checkpoints(checkpoints: &Path) -> Result<Vec<PathBuf>, RunIoError> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(checkpoints)
        .map_err(at(checkpoints))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.extension().is_none() && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("step-")))
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Loads a checkpoint's weights into `net` and, if given, its optimizer state into `trainer`.
pub fn load_checkpoint(dir: &Path, net: &mut PolicyValueNet, trainer: Option<&mut Trainer>) -> Result<CheckpointState, CheckpointError> {
    let state = read_state(dir)?;
    let weights = dir.join("weights.safetensors");
    net.var_store_mut().load(&weights).map_err(|e| CheckpointError::Bad { path: weights.clone(), reason: e.to_string() })?;
    if let Some(trainer) = trainer {
        let opt = dir.join("optimizer.safetensors");
        trainer.load_state(&opt).map_err(|e| CheckpointError::Bad { path: opt.clone(), reason: e.to_string() })?;
    }
    Ok(state)
}
