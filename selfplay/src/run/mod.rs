//! A training run in progress: [`Run`] owns everything the loop in [`train()`] touches,
//! one phase per method.
//!
//! Modules import downward: the phase files use [`Run`] from here and the phase results from
//! outcome.rs; this file uses none of them (the methods are inherent).
//!
//! | method | file |
//! |---|---|
//! | [`Run::open`] (start or resume), [`Run::finish`] | here |
//! | [`Run::warm_start`] (teacher data, training on it) | teacher.rs |
//! | [`Run::self_play`] | play.rs |
//! | [`Run::learn`] (the training phase) | learn.rs |
//! | [`Run::checkpoint`], [`Run::promote`] (gating) | promote.rs |
//! | [`Run::record`], [`Run::gauntlet_if_due`], [`Run::evaluate`] | report.rs |

pub mod evaluation;
pub mod gating;
mod learn;
mod outcome;
mod play;
mod promote;
mod report;
pub mod resume;
mod teacher;
mod train;

use std::collections::BTreeSet;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nn::{InferenceClient, InferenceService, PolicyValueNet, TrainBatch, Trainer};
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::replay::{GameRecord, ReplayWindow, ShardName, WindowSize, EXTERNAL_GAME};
use crate::run::resume::{load_newest_checkpoint, stored_games, LostGames};
use crate::setup::{load_into_service, spawn_service, start_state};
use crate::store::lock::{lock_run, RunLock};
use crate::store::rundir::{write_atomic, RunDir, RunIoError};
use nn::checkpoint::{self, CheckpointState};

pub use evaluation::{EvaluatedMatch, Evaluation, UNTRAINED};
pub use outcome::{SelfPlayed, Trained};
pub use train::train;

/// How to run.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// The run directory.
    pub run_dir: PathBuf,
    /// Continue the run in `run_dir` instead of starting one.
    pub resume: bool,
    /// Show progress bars.
    pub progress: bool,
    /// Set (e.g. by Ctrl-C) to stop soon: finished games are kept, training stops after the
    /// current step and a checkpoint is saved.
    pub stop: Arc<AtomicBool>,
}

/// What the run did, for the caller's report.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    /// Training steps done.
    pub steps: u64,
    /// Games played.
    pub games: u64,
    /// The last checkpoint.
    pub checkpoint: PathBuf,
    /// The final evaluation's matches, if any.
    pub evaluation: Vec<EvaluatedMatch>,
    /// The run stopped early on request; `--resume` continues it.
    pub interrupted: bool,
    /// Every iteration was done but a stop request cut the final evaluation short: the run is
    /// not marked finished, and `--resume` plays the evaluation again.
    pub evaluation_interrupted: bool,
    /// The run was already complete when it was opened: nothing was played, trained or
    /// evaluated again.
    pub already_complete: bool,
}

/// A training run of game `G`: its directory, config, network and optimizer, replay window,
/// shard bookkeeping, counters and checkpoints, and the inference service self-play uses.
pub struct Run<G: Encoding> {
    /// Held while the run is open: a second trainer on this directory is refused.
    _lock: RunLock,
    config: Config,
    dir: RunDir,
    /// How self-play, gating and the gauntlet run the network.
    inference: nn::Inference,
    progress: bool,
    /// [`TrainOptions::stop`] for the life of the process: the evaluation's and the gauntlet's
    /// players hold it in searches that outlive any borrow of the run.
    stop: &'static AtomicBool,
    /// The network being trained.
    net: PolicyValueNet,
    trainer: Trainer,
    /// Reused by every training step.
    batch: TrainBatch,
    window: ReplayWindow,
    /// The classical teacher's games (`[teacher]`, `vzero teach`), all of them: sampled at the
    /// teacher's share, apart from the self-play window.
    teacher: ReplayWindow,
    /// Numbers of this run's own games stored in shards.
    done: BTreeSet<u64>,
    /// Own games a stopped process stored for iterations not done yet: they join the window
    /// with the rest of their iteration, in game order.
    held_back: Vec<GameRecord>,
    /// The run's own games its checkpoint counted that no readable shard holds.
    lost: LostGames,
    /// Shards already in the window (this process's and others').
    known_shards: BTreeSet<PathBuf>,
    shard_names: ShardName,
    /// Counters saved with each checkpoint.
    state: CheckpointState,
    /// The newest checkpoint.
    latest: PathBuf,
    /// The checkpoint self-play uses: the latest, or with gating the best so far.
    best: PathBuf,
    /// Serves `best` to self-play (dropped before `service` is joined).
    client: InferenceClient,
    service: InferenceService,
    game: PhantomData<fn() -> G>,
}

impl<G: Encoding> Run<G> {
    /// Starts a run in `opts.run_dir`, or resumes the one there, and loads the network
    /// self-play uses into a new inference service.
    pub fn open(config: &Config, opts: &TrainOptions) -> Result<Run<G>, TrainError> {
        // A bad start position fails here, before anything is written.
        start_state::<G>(config)?;
        let inference = config.inference()?;
        let device = inference.device;
        eprintln!(
            "vzero train: {} on {}, run directory {}; inference {}",
            G::NAME,
            nn::device::describe(device),
            opts.run_dir.display(),
            inference.describe()
        );
        let net_cfg = config.network.net_config::<G>();
        let mut window = ReplayWindow::new(config.replay.window_size());
        let mut teacher = ReplayWindow::new(WindowSize::EVERYTHING);
        let mut net = PolicyValueNet::seeded(&net_cfg, device, config.seed);
        let form = if device.is_cuda() { nn::TrainForm::PLAIN } else { config.training.cpu_form.resolve(&net_cfg) };
        let mut trainer = Trainer::in_form(&net, config.training.learning_rate, config.training.weight_decay, form);
        if config.training.mixed_precision && device.is_cuda() {
            trainer = trainer.with_mixed_precision();
            eprintln!("vzero train: mixed-precision training (fp16 autocast, dynamic loss scaling)");
        } else if form != nn::TrainForm::PLAIN {
            eprintln!("vzero train: training steps in the {form} form");
        }
        let mut done = BTreeSet::new();
        let mut held_back = Vec::new();
        let mut lost = LostGames::default();
        let (lock, dir, state, latest, known_shards) = if opts.resume {
            // A folder with a config.toml but no run (`train --config` finding one): refused
            // before the lock is taken.
            let dir = RunDir::existing(&opts.run_dir).map_err(|e| TrainError::Run(e.to_string()))?;
            let lock = lock_trainer(&dir)?;
            let (mut state, latest) = load_newest_checkpoint::<G>(config, &dir, &mut net, &mut trainer)?;
            let (games, known_shards) = stored_games::<G>(&dir)?;
            let own: Vec<&GameRecord> =
                games.iter().filter(|g| !g.is_teacher() && g.number & EXTERNAL_GAME == 0).collect();
            lost = LostGames::between(state.games, &own);
            let unfinished = state.iteration as u64 * config.selfplay.games_per_iteration as u64;
            for g in games {
                if g.is_teacher() {
                    teacher.push(Arc::new(g));
                    continue;
                }
                if g.number & EXTERNAL_GAME == 0 {
                    done.insert(g.number);
                    if g.number >= unfinished {
                        held_back.push(g);
                        continue;
                    }
                }
                window.push(Arc::new(g));
            }
            state.games = done.len() as u64;
            (lock, dir, state, latest, known_shards)
        } else {
            let dir = create_run_dir(&opts.run_dir)?;
            let lock = lock_trainer(&dir)?;
            let state = CheckpointState {
                variant: G::NAME.into(),
                blocks: config.network.blocks,
                channels: config.network.channels,
                trunk: config.network.trunk,
                step: 0,
                iteration: 0,
                games: 0,
                format: checkpoint::NETWORK_FORMAT,
            };
            // Teacher games already in the folder (copied from another run, to label once and
            // try several runs on them) count as taught; anything else belongs to a run.
            let (games, known_shards) = stored_games::<G>(&dir)?;
            if let Some(g) = games.iter().find(|g| !g.is_teacher()) {
                return Err(TrainError::Run(format!(
                    "{} holds self-play games (game {}) but no run; continue that run with --resume or choose another --run directory",
                    opts.run_dir.display(),
                    g.number
                )));
            }
            for g in games {
                teacher.push(Arc::new(g));
            }
            let latest = checkpoint::save_checkpoint(&dir.checkpoints(), &net, &trainer, &state)?;
            // Written last: a folder without it holds no run yet, and the same command starts over.
            write_atomic(&dir.config(), config.to_toml().as_bytes())?;
            (lock, dir, state, latest, known_shards)
        };

        let (service, client) = spawn_service::<G>(config, inference, Duration::from_millis(2));
        // With gating, self-play uses the best network so far rather than the latest.
        let mut best = latest.clone();
        if config.gating.games > 0 {
            match dir.read_best() {
                Some(b) => best = b,
                None => dir.write_best(&best)?,
            }
        }
        load_into_service(&client, &best)?;
        if opts.resume {
            keep_changed_config(&dir, config)?;
        }
        // One small leak a run, so that a stop reaches every player's search at once.
        let stop: &'static Arc<AtomicBool> = Box::leak(Box::new(Arc::clone(&opts.stop)));
        Ok(Run {
            _lock: lock,
            config: config.clone(),
            dir,
            inference,
            progress: opts.progress,
            stop,
            net,
            trainer,
            batch: TrainBatch::default(),
            window,
            teacher,
            done,
            held_back,
            lost,
            known_shards,
            shard_names: ShardName::for_this_process(),
            state,
            latest,
            best,
            client,
            service,
            game: PhantomData,
        })
    }

    /// Every iteration the config asks for is done.
    pub fn complete(&self) -> bool {
        self.state.iteration >= self.config.training.iterations
    }

    /// A stop was requested (Ctrl-C): finish what is safe and return.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Tells `vzero selfplay` processes on this run that no more games are wanted.
    pub fn mark_finished(&self) -> Result<(), TrainError> {
        Ok(write_atomic(&self.dir.finished(), b"every iteration asked for is done\n")?)
    }

    /// Withdraws [`Run::mark_finished`] when a finished run is resumed to do more.
    pub fn mark_unfinished(&self) -> Result<(), TrainError> {
        let path = self.dir.finished();
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(RunIoError { path, source: e }.into()),
            _ => Ok(()),
        }
    }

    /// The counters of the run so far.
    pub fn state(&self) -> &CheckpointState {
        &self.state
    }

    /// Stops the inference service and reports what the run did: `interrupted` when a stop
    /// request ended the iterations early, else the final `evaluation`.
    pub fn finish(self, evaluation: Evaluation, interrupted: bool) -> TrainSummary {
        let Run { client, service, state, latest, .. } = self;
        drop(client);
        service.join();
        TrainSummary {
            steps: state.step,
            games: state.games,
            checkpoint: latest,
            evaluation_interrupted: !interrupted && !evaluation.complete,
            evaluation: evaluation.results,
            interrupted,
            already_complete: false,
        }
    }
}

/// Takes the run directory's trainer lock, saying so when a dead trainer's lock is taken over.
fn lock_trainer(dir: &RunDir) -> Result<RunLock, TrainError> {
    let lock = lock_run(dir.root())?;
    if let Some(holder) = &lock.stale_holder {
        eprintln!("vzero train: taking over the lock of a trainer that did not exit cleanly ({holder})");
    }
    Ok(lock)
}

/// Saves `config` as the run's config if `--set` changed it on resume (and says what changed),
/// so `vzero runs status`, `vzero selfplay` workers and a later resume see the run as it goes on.
fn keep_changed_config(dir: &RunDir, config: &Config) -> Result<(), TrainError> {
    let saved = Config::load(&dir.config(), &[])?;
    let changes = saved.differences(config);
    if !changes.is_empty() {
        write_atomic(&dir.config(), config.to_toml().as_bytes())?;
        eprintln!("vzero train: the run's config now has {}", changes.join("; "));
    }
    Ok(())
}

/// Creates the folders of a new run; refuses a directory that already holds one.
fn create_run_dir(root: &Path) -> Result<RunDir, TrainError> {
    let dir = RunDir::create(root)?;
    if dir.config().exists() {
        return Err(TrainError::Run(format!(
            "{} already holds a run; continue it with --resume or choose another --run directory",
            root.display()
        )));
    }
    Ok(dir)
}
