//! Continuing a stopped run: the newest usable checkpoint, the replay window rebuilt from the
//! shards, and the leftovers of writes a crash cut short; also picking up shards that other
//! self-play processes add while the run goes on.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use nn::{PolicyValueNet, Trainer};
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::play::flush::write_game_texts;
use crate::replay::{read_checked_shard, GameRecord, ReplayWindow, EXTERNAL_GAME};
use crate::store::rundir::{at, RunDir};
use nn::checkpoint::{self, CheckpointError, CheckpointState};

/// Loads the newest usable checkpoint of a stopped run into `net` and `trainer`; returns its
/// counters and folder. Unreadable checkpoints are set aside; one of another variant or shape
/// is refused, and so is a run none of whose checkpoints is usable.
pub(crate) fn load_newest_checkpoint<G: Encoding>(
    config: &Config,
    dir: &RunDir,
    net: &mut PolicyValueNet,
    trainer: &mut Trainer,
) -> Result<(CheckpointState, PathBuf), TrainError> {
    let checkpoints = checkpoint::list_checkpoints(&dir.checkpoints())?;
    for (i, path) in checkpoints.iter().enumerate().rev() {
        let older = i > 0;
        let state = match checkpoint::read_state(path) {
            Ok(state) => state,
            Err(e) => {
                set_aside(path, &e, older);
                continue;
            }
        };
        if state.variant != G::NAME
            || state.blocks != config.network.blocks
            || state.channels != config.network.channels
        {
            return Err(TrainError::Run(format!(
                "{}: checkpoint is {} with {} blocks x {} channels, the config asks for {} with {} x {}",
                path.display(),
                state.variant,
                state.blocks,
                state.channels,
                G::NAME,
                config.network.blocks,
                config.network.channels
            )));
        }
        match checkpoint::load_checkpoint(path, net, Some(trainer)) {
            Ok(state) => return Ok((state, path.clone())),
            Err(e) => set_aside(path, &e, older),
        }
    }
    Err(TrainError::Run(no_checkpoint_left(dir)))
}

/// Why a run with no usable checkpoint cannot resume, and what can be done (the caller names
/// the run).
fn no_checkpoint_left(dir: &RunDir) -> String {
    let set_aside = set_aside_checkpoints(dir);
    if set_aside.is_empty() {
        return format!("cannot resume: {} holds no checkpoint", dir.checkpoints().display());
    }
    let none = match set_aside.len() {
        1 => "its only checkpoint is not usable".to_string(),
        n => format!("none of its {n} checkpoints is usable"),
    };
    format!(
        "cannot resume: {none} (set aside as {}/step-N.{}, each with why on its own line; \
         `vzero runs status` lists them); put a good one back under its step-N name, or start a new run",
        dir.checkpoints().display(),
        checkpoint::SET_ASIDE
    )
}

/// The checkpoint folders resumes set aside as unusable (`step-N.bad`), newest first.
pub fn set_aside_checkpoints(dir: &RunDir) -> Vec<PathBuf> {
    checkpoint::set_aside_checkpoints(&dir.checkpoints())
}

/// The games of a stopped run's readable shards, in the order the uninterrupted run added them
/// to its window, and every shard's path. Removes the leftovers of writes a crash cut short and
/// writes game texts a crash left unwritten.
pub(crate) fn stored_games<G: Encoding>(dir: &RunDir) -> Result<(Vec<GameRecord>, BTreeSet<PathBuf>), TrainError> {
    // Leftovers of writes a crash interrupted are never read; remove them.
    remove_leftovers(&dir.replay(), "tmp")?;
    remove_leftovers(&dir.checkpoints(), "partial")?;
    let mut games = Vec::new();
    let mut shards = BTreeSet::new();
    for path in dir.shard_paths()? {
        shards.insert(path.clone());
        match read_usable_shard::<G>(&path) {
            Some(records) => {
                if !dir.games().join(path.with_extension("txt").file_name().expect("named")).exists() {
                    write_game_texts::<G>(dir, &path, &records)?;
                }
                games.extend(records);
            }
            None => continue,
        }
    }
    // By game number: external games, whose numbers have the top bit set, after the run's own.
    games.sort_by_key(|g| g.number);
    Ok((games, shards))
}

/// The run's own games a resume found missing: stored before its checkpoint (which counts
/// them) but in shards that can no longer be read (truncated, corrupted, emptied).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LostGames {
    /// Games the checkpoint counted, less those found.
    pub games: u64,
    /// Their training positions, estimated as the mean of the games found: added to the
    /// positions seen, so that the training steps go on from the checkpoint's count instead of
    /// stalling until new games make up for the lost ones.
    pub positions: u64,
    /// Games the checkpoint counted.
    pub counted: u64,
}

impl LostGames {
    /// The games of `found` (the run's own games read from its shards) short of the
    /// `counted` its checkpoint holds.
    pub fn between(counted: u64, found: &[&GameRecord]) -> LostGames {
        let games = counted.saturating_sub(found.len() as u64);
        let found_positions: u64 = found.iter().map(|g| g.training_positions() as u64).sum();
        let positions = (games * found_positions).checked_div(found.len() as u64).unwrap_or(0);
        LostGames { games, positions, counted }
    }
}

/// Adds the games of shards in the run directory that this process has not seen yet (written
/// by `vzero selfplay` processes) to the window; returns how many games that was. Unreadable
/// shards are skipped with a warning (a shard being renamed into place is never half there).
pub(crate) fn load_external_shards<G: Encoding>(
    dir: &RunDir,
    known: &mut BTreeSet<PathBuf>,
    window: &mut ReplayWindow,
) -> Result<usize, TrainError> {
    let mut added = 0;
    for path in dir.shard_paths()? {
        if !known.insert(path.clone()) {
            continue;
        }
        for g in read_usable_shard::<G>(&path).into_iter().flatten().filter(|g| g.number & EXTERNAL_GAME != 0) {
            window.push(Arc::new(g));
            added += 1;
        }
    }
    Ok(added)
}

/// The games of the shard at `path` if it is readable and can be trained on as `G`; otherwise
/// `None`, with a warning naming the shard and what is wrong (a shard of another variant or
/// run, or one whose contents are inconsistent though its checksum holds).
fn read_usable_shard<G: Encoding>(path: &Path) -> Option<Vec<GameRecord>> {
    read_checked_shard::<G>(path).map_err(|e| eprintln!("vzero: warning: skipping {e}")).ok()
}

/// Renames an unusable checkpoint to `step-N.bad` (kept for inspection, never listed again)
/// and says so, and that an `older` one is tried next.
fn set_aside(path: &Path, error: &CheckpointError, older: bool) {
    let bad = path.with_extension(checkpoint::SET_ASIDE);
    let next = if older { "; falling back to the previous checkpoint" } else { "" };
    eprintln!("vzero: warning: {error}; {} renamed to {}{next}", path.display(), bad.display());
    if let Err(e) = std::fs::rename(path, &bad) {
        eprintln!("vzero: warning: {}: {e}", path.display());
    }
}

/// Deletes the files or folders in `dir` with extension `ext` (half-written by a crash).
fn remove_leftovers(dir: &Path, ext: &str) -> Result<(), TrainError> {
    for entry in std::fs::read_dir(dir).map_err(at(dir))? {
        let path = entry.map_err(at(dir))?.path();
        if path.extension().is_some_and(|e| e == ext) {
            let removed = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
            removed.map_err(at(&path))?;
        }
    }
    Ok(())
}
