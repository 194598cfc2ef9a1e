//! What `vzero runs status` reports about one run directory, gathered once for the text and the
//! JSON output.

use std::path::{Path, PathBuf};

use anyhow::Context;
use nn::checkpoint::newest_usable;
use rules::{with_game, FullGame};
use selfplay::replay::{read_checked_shard, EXTERNAL_GAME};
use selfplay::run::resume::set_aside_checkpoints;
use selfplay::store::events::read_events;
use selfplay::Config;
use selfplay::RunDir;
use serde::Serialize;

/// A run at a glance; also the object `vzero runs status --json` prints (README lists the fields).
#[derive(Debug, Serialize)]
pub struct RunStatus {
    /// The run directory.
    pub run: PathBuf,
    /// The variant's name.
    pub variant: String,
    /// Residual blocks of the network.
    pub blocks: usize,
    /// Channels of the network.
    pub channels: usize,
    /// Games in the usable shards.
    pub games: u64,
    /// Of those, games of the trainer's own self-play.
    pub trainer_games: u64,
    /// Of those, games of `vzero selfplay` processes.
    pub external_games: u64,
    /// Of those, games of the classical teacher (`vzero teach`, `[teacher]`).
    pub teacher_games: u64,
    /// Moves of those games.
    pub positions: u64,
    /// Of those, the teacher's labelled positions.
    pub teacher_positions: u64,
    /// Shard files in the replay folder.
    pub shards: usize,
    /// Shards not counted: unreadable, another variant's, or inconsistent.
    pub skipped_shards: usize,
    /// Iterations done, by the newest checkpoint (none before the first).
    pub iteration: Option<u32>,
    /// Iterations the run's config asks for.
    pub iterations: u32,
    /// Training steps done, by the newest checkpoint.
    pub step: Option<u64>,
    /// The newest usable checkpoint (it verifies against its checksums).
    pub checkpoint: Option<PathBuf>,
    /// Newer checkpoints that do not verify, newest first, each with why (a truncated or
    /// corrupted file); trainers and players pass over them.
    pub skipped_checkpoints: Vec<SkippedCheckpoint>,
    /// Checkpoint folders a resume found unusable and renamed `step-N.bad`, newest first; with
    /// no usable checkpoint left the run cannot resume.
    pub set_aside_checkpoints: Vec<PathBuf>,
    /// The trainer has marked the run finished.
    pub finished: bool,
    /// Rates and losses of the last iteration logged.
    pub last_iteration: Option<LastIteration>,
    /// The last error logged (a command refused before it opened the run logs none).
    pub last_error: Option<String>,
}

/// Rates and losses of an iteration, as in metrics.jsonl.
#[derive(Debug, Serialize)]
pub struct LastIteration {
    /// Self-play games per hour.
    pub games_per_hour: f64,
    /// Positions the network evaluated per second of self-play.
    pub positions_per_second: f64,
    /// Mean positions per forward pass.
    pub mean_batch: f64,
    /// Mean policy loss (none without training steps).
    pub policy_loss: Option<f64>,
    /// Mean value loss (none without training steps).
    pub value_loss: Option<f64>,
}

/// A checkpoint passed over, and why.
#[derive(Debug, Serialize)]
pub struct SkippedCheckpoint {
    /// The checkpoint folder.
    pub checkpoint: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

/// Games found in a run's shards.
#[derive(Debug, Default)]
struct Counted {
    trainer: u64,
    external: u64,
    teacher: u64,
    positions: u64,
    teacher_positions: u64,
    skipped: usize,
}

impl RunStatus {
    /// Reads the run at `root`: its config, usable shards, newest checkpoint and metrics.
    pub fn gather(root: &Path) -> anyhow::Result<RunStatus> {
        let dir = RunDir::existing(root)?;
        let config =
            Config::load(&dir.config(), &[]).with_context(|| format!("{} is not a run directory", root.display()))?;
        let shards = dir.shard_paths()?;
        let counted = with_game!(config.variant(), G => count_games::<G>(&shards));
        let newest = newest_usable(&dir.checkpoints())?;
        let (checkpoint, state) = newest.usable.map_or((None, None), |(dir, state)| (Some(dir), Some(state)));
        let skipped_checkpoints =
            newest.skipped.into_iter().map(|s| SkippedCheckpoint { checkpoint: s.dir, reason: s.reason }).collect();
        let events = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default());
        let last_iteration = events.iterations().next_back().map(|it| LastIteration {
            games_per_hour: it.games_per_hour,
            positions_per_second: it.positions_per_second,
            mean_batch: it.mean_batch,
            policy_loss: it.policy_loss,
            value_loss: it.value_loss,
        });
        Ok(RunStatus {
            run: root.to_path_buf(),
            variant: config.variant.name().to_string(),
            blocks: config.network.blocks,
            channels: config.network.channels,
            games: counted.trainer + counted.external + counted.teacher,
            trainer_games: counted.trainer,
            external_games: counted.external,
            teacher_games: counted.teacher,
            positions: counted.positions,
            teacher_positions: counted.teacher_positions,
            shards: shards.len(),
            skipped_shards: counted.skipped,
            iteration: state.as_ref().map(|s| s.iteration),
            iterations: config.training.iterations,
            step: state.as_ref().map(|s| s.step),
            checkpoint,
            skipped_checkpoints,
            set_aside_checkpoints: set_aside_checkpoints(&dir),
            finished: dir.finished().exists(),
            last_iteration,
            last_error: events.last_error().map(|e| e.message.clone()),
        })
    }
}

/// Counts the games of the shards a trainer of the variant would use, warning about the others.
fn count_games<G: FullGame>(shards: &[PathBuf]) -> Counted {
    let mut counted = Counted::default();
    for path in shards {
        match read_checked_shard::<G>(path) {
            Ok(games) => {
                for g in games {
                    if g.is_teacher() {
                        counted.teacher += 1;
                        counted.teacher_positions += g.training_positions() as u64;
                    } else if g.number & EXTERNAL_GAME == 0 {
                        counted.trainer += 1;
                    } else {
                        counted.external += 1;
                    }
                    counted.positions += g.moves.len() as u64;
                }
            }
            Err(e) => {
                eprintln!("vzero: warning: not counting {e}");
                counted.skipped += 1;
            }
        }
    }
    counted
}
