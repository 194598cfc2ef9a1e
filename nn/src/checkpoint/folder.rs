//! Checkpoints: everything needed to continue training exactly, in one folder per step.
//!
//! `checkpoints/step-000120/` holds `weights.safetensors`, `optimizer.safetensors` and
//! `state.json`. The folder is assembled as `step-000120.partial` and renamed into place
//! ([`durable::replace_dir`]), so a checkpoint folder either is complete or does not exist.
//! `state.json` records the CRC-32 of both tensor files and of itself, so a truncated or
//! bit-flipped file is detected on load.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::config::Trunk;
use crate::net::PolicyValueNet;
use crate::train::Trainer;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The counters and shape stored with a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointState {
    /// The variant the network plays.
    pub variant: String,
    /// Residual blocks.
    pub blocks: usize,
    /// Channels.
    pub channels: usize,
    /// Where the residual blocks run; left out when `full`, so that older files (which have no
    /// other kind) keep their checksum.
    #[serde(default, skip_serializing_if = "is_full_trunk")]
    pub trunk: Trunk,
    /// Training steps done.
    pub step: u64,
    /// Iterations done.
    pub iteration: u32,
    /// Self-play games finished.
    pub games: u64,
    /// The network format of the weights: 1 (files without the field) predicted each seat's
    /// score apart, 2 ([`NETWORK_FORMAT`]) a distribution over the game's outcomes. Left out
    /// when 1, so that older files keep their checksum.
    #[serde(default = "first_format", skip_serializing_if = "is_first_format")]
    pub format: u32,
}

fn is_full_trunk(trunk: &Trunk) -> bool {
    *trunk == Trunk::Full
}

/// The network format this vzero writes and reads (see [`CheckpointState::format`]).
pub const NETWORK_FORMAT: u32 = 2;

fn first_format() -> u32 {
    1
}

fn is_first_format(format: &u32) -> bool {
    *format == 1
}

/// Refuses a checkpoint whose weights are of another network format than this vzero's, with
/// what to do about it.
pub fn check_format(state: &CheckpointState) -> Result<(), String> {
    if state.format == NETWORK_FORMAT {
        return Ok(());
    }
    Err(format!(
        "network format {} (a value head that predicts each seat's score apart); this vzero reads format {NETWORK_FORMAT} only (a distribution over the game's outcomes): train a new run",
        state.format
    ))
}

/// What `state.json` holds: the state, the checksums of the tensor files, and a checksum of
/// those two (over their compact JSON).
#[derive(Serialize, Deserialize)]
struct StateFile {
    state: CheckpointState,
    files: Vec<(String, u32)>,
    crc32: u32,
}

fn state_crc(state: &CheckpointState, files: &[(String, u32)]) -> u32 {
    let bytes = serde_json::to_vec(&(state, files)).expect("state serialises");
    crc32fast::hash(&bytes)
}

/// The tensor files of a checkpoint, in the order `state.json` lists them.
const TENSOR_FILES: [&str; 2] = ["weights.safetensors", "optimizer.safetensors"];
/// The most residual blocks a checkpoint's network may have (as a config's `network.blocks`).
pub const MAX_BLOCKS: usize = 256;
/// The most channels a checkpoint's network may have (as a config's `network.channels`).
pub const MAX_CHANNELS: usize = 4096;

/// The CRC-32 of a file, read in pieces (its size is not held in memory at once).
fn file_crc(path: &Path) -> Result<u32, durable::Error> {
    let mut file = fs::File::open(path).map_err(at(path))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buffer = vec![0; 1 << 16];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return Ok(hasher.finalize()),
            Ok(n) => hasher.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(at(path)(e)),
        }
    }
}

/// Wraps an I/O error with its path.
fn at(path: &Path) -> impl FnOnce(std::io::Error) -> durable::Error + '_ {
    move |source| durable::Error { path: path.to_path_buf(), source }
}

/// A checkpoint could not be written or read.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file system failed.
    #[error(transparent)]
    Io(#[from] durable::Error),
    /// A file is unreadable or does not fit the network.
    #[error("{path}: {reason}")]
    Bad { path: PathBuf, reason: String },
}

/// The file that makes a folder a checkpoint: its counters and the checksums of the rest,
/// written last ([`save_checkpoint`]).
const STATE_FILE: &str = "state.json";

/// Whether `dir` is a checkpoint folder (it holds a `state.json`), usable or not
/// ([`verify_checkpoint`] tells): the one test of every command that takes a checkpoint or a run
/// directory for the same argument, and of every writer that refuses to write into a checkpoint.
pub fn is_checkpoint(dir: &Path) -> bool {
    dir.join(STATE_FILE).is_file()
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
    durable::replace_dir(&dir, |tmp: &Path| {
        let bad = |path: PathBuf, e: tch::TchError| CheckpointError::Bad { path, reason: e.to_string() };
        let weights = tmp.join("weights.safetensors");
        super::weights::write_contiguous(net, &weights).map_err(|e| bad(weights.clone(), e))?;
        let opt = tmp.join("optimizer.safetensors");
        trainer.save_state(&opt).map_err(|e| bad(opt.clone(), e))?;
        let files = TENSOR_FILES
            .iter()
            .map(|f| Ok((f.to_string(), file_crc(&tmp.join(f))?)))
            .collect::<Result<Vec<_>, durable::Error>>()?;
        let file = StateFile { crc32: state_crc(state, &files), state: state.clone(), files };
        let json = serde_json::to_vec_pretty(&file).expect("state serialises");
        Ok::<(), CheckpointError>(durable::write(&tmp.join(STATE_FILE), &json)?)
    })?;
    Ok(dir)
}

/// Reads a checkpoint's counters, checking `state.json` against its own checksum.
pub fn read_state(dir: &Path) -> Result<CheckpointState, CheckpointError> {
    Ok(read_state_file(dir)?.state)
}

fn read_state_file(dir: &Path) -> Result<StateFile, CheckpointError> {
    let path = dir.join(STATE_FILE);
    let bytes = fs::read(&path).map_err(at(&path))?;
    let bad = |reason: String| CheckpointError::Bad { path: path.clone(), reason };
    let file: StateFile = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
    if state_crc(&file.state, &file.files) != file.crc32 {
        return Err(bad("checksum mismatch".into()));
    }
    // The checksum catches corruption, not a file written to mislead: what the state names is
    // checked before anything is read or built from it.
    let mut names: Vec<&str> = file.files.iter().map(|(name, _)| name.as_str()).collect();
    let mut expected = TENSOR_FILES;
    names.sort_unstable();
    expected.sort_unstable();
    if names != expected {
        return Err(bad(format!("lists the files {names:?}, expected {TENSOR_FILES:?}")));
    }
    let (blocks, channels) = (file.state.blocks, file.state.channels);
    if !(1..=MAX_BLOCKS).contains(&blocks) || !(1..=MAX_CHANNELS).contains(&channels) {
        return Err(bad(format!(
            "a network of {blocks} blocks x {channels} channels (at most {MAX_BLOCKS} x {MAX_CHANNELS})"
        )));
    }
    Ok(file)
}

/// Checks every tensor file of a checkpoint against the checksums in its `state.json`.
pub fn verify_checkpoint(dir: &Path) -> Result<CheckpointState, CheckpointError> {
    let file = read_state_file(dir)?;
    for (name, crc) in &file.files {
        let path = dir.join(name);
        if file_crc(&path)? != *crc {
            return Err(CheckpointError::Bad { path, reason: "checksum mismatch (truncated or corrupted)".into() });
        }
    }
    Ok(file.state)
}

/// The complete checkpoints in `checkpoints`, oldest first.
pub fn list_checkpoints(checkpoints: &Path) -> Result<Vec<PathBuf>, durable::Error> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(checkpoints)
        .map_err(at(checkpoints))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_dir()
                && p.extension().is_none()
                && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("step-"))
        })
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// The extension of a checkpoint folder a resume set aside as unusable (`step-N.bad`, kept for
/// inspection and never listed again).
pub const SET_ASIDE: &str = "bad";

/// The checkpoint folders of a `checkpoints` folder that resumes set aside as unusable
/// (`step-N.bad`), newest first; none when the folder cannot be read.
pub fn set_aside_checkpoints(checkpoints: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(checkpoints)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    found.retain(|p| {
        p.is_dir()
            && p.extension().is_some_and(|e| e == SET_ASIDE)
            && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("step-"))
    });
    found.sort();
    found.reverse();
    found
}

/// Loads a checkpoint's weights into `net` and, if given, its optimizer state into `trainer`.
pub fn load_checkpoint(
    dir: &Path,
    net: &mut PolicyValueNet,
    trainer: Option<&mut Trainer>,
) -> Result<CheckpointState, CheckpointError> {
    let state = verify_checkpoint(dir)?;
    let weights = dir.join("weights.safetensors");
    check_format(&state).map_err(|reason| CheckpointError::Bad { path: dir.to_path_buf(), reason })?;
    let shape = (net.config().blocks, net.config().channels, net.config().trunk);
    if (state.blocks, state.channels, state.trunk) != shape {
        let trunk = |t: Trunk| if t == Trunk::Full { String::new() } else { format!(" ({} trunk)", t.name()) };
        let reason = format!(
            "the checkpoint is a network of {} blocks x {} channels{}, not {} x {}{}",
            state.blocks,
            state.channels,
            trunk(state.trunk),
            shape.0,
            shape.1,
            trunk(shape.2)
        );
        return Err(CheckpointError::Bad { path: dir.to_path_buf(), reason });
    }
    super::load_weights(net, &weights)
        .map_err(|e| CheckpointError::Bad { path: weights.clone(), reason: e.to_string() })?;
    if let Some(trainer) = trainer {
        let opt = dir.join("optimizer.safetensors");
        trainer.load_state(&opt).map_err(|e| CheckpointError::Bad { path: opt.clone(), reason: e.to_string() })?;
    }
    Ok(state)
}
