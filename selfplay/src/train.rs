//! The training run: iterations of self-play, training and checkpointing in a run directory.
//!
//! Each iteration plays `games_per_iteration` games with the current network (workers
//! interleave games; one inference thread batches their leaves), stores them as a shard,
//! trains on the replay window until each new position has been sampled about
//! `samples_per_position` times, saves a checkpoint and hands the new weights to inference.
//! Every random choice derives from the config's seed and a counter (game number, step), so a
//! run is reproducible and resumes exactly.

use std::collections::{BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nn::{BatchingConfig, DeviceChoice, InferenceService, NetConfig, PolicyValueNet, TrainBatch, Trainer};
use rand::SeedableRng;
use rules::Encoding;
use serde_json::json;
use thiserror::Error;

use crate::arena::MatchResult;
use crate::checkpoint::{self, CheckpointError, CheckpointState};
use crate::config::Config;
use crate::evaluation::evaluate;
use crate::games::game_seed;
use crate::gating::{gate, read_best, write_best};
use crate::metrics::iteration_metrics;
use crate::phase::{load_into_service, progress_bar, self_play_phase, write_game_texts};
use crate::replay::{write_shard, DecodeError, GameRecord, ReplayWindow, ShardName, WindowSize};
use crate::resume::{load_external_shards, resume_state};
use crate::rundir::{write_atomic, RunDir, RunIoError};
use crate::sampler::sample_batch;

/// Why a run stopped with an error.
#[derive(Debug, Error)]
pub enum TrainError {
    /// The run directory could not be written or read.
    #[error(transparent)]
    Io(#[from] RunIoError),
    /// A checkpoint could not be written or read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A shard could not be written.
    #[error(transparent)]
    Shard(#[from] crate::replay::ShardError),
    /// A recorded game does not replay.
    #[error("replay: {0}")]
    Decode(#[from] DecodeError),
    /// The device cannot be used.
    #[error(transparent)]
    Device(#[from] nn::device::DeviceError),
    /// The run directory does not fit the request.
    #[error("{0}")]
    Run(String),
}

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
    /// The final evaluation (name of the opponent and the result), if any.
    pub evaluation: Vec<(String, MatchResult)>,
    /// The run stopped early on request; `--resume` continues it.
    pub interrupted: bool,
}

/// Salt that separates the training sampler's random stream from the games'.
const SAMPLER_SALT: u64 = 0x5A4D_504C_4552;

/// The network for game `G` with `blocks` residual blocks of `channels` channels.
pub fn net_config<G: Encoding>(blocks: usize, channels: usize) -> NetConfig {
    NetConfig {
        input_shape: G::INPUT_SHAPE.to_vec(),
        policy_size: G::POLICY_SIZE,
        players: G::NUM_PLAYERS,
        blocks,
        channels,
        board_mask: G::board_mask(),
    }
}

/// The position every game of the run starts from: the config's `start_position`, or the
/// variant's start.
pub fn start_state<G: Encoding>(config: &Config) -> Result<G, TrainError> {
    match &config.start_position {
        Some(text) => G::from_text(text).map_err(|e| TrainError::Run(format!("start_position: {e}"))),
        None => Ok(G::start()),
    }
}

/// Runs (or resumes) training for game `G`.
pub fn train<G: Encoding>(config: &Config, opts: &TrainOptions) -> Result<TrainSummary, TrainError> {
    start_state::<G>(config)?;
    let device = config.device.parse::<DeviceChoice>().expect("validated").resolve()?;
    eprintln!("vzero train: {} on {}, run directory {}", G::NAME, nn::device::describe(device), opts.run_dir.display());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let net_cfg = net_config::<G>(config.network.blocks, config.network.channels);
    let mut window = ReplayWindow::new(WindowSize {
        min: config.replay.window_min,
        max: config.replay.window_max,
        alpha: config.replay.window_alpha,
        beta: config.replay.window_beta,
    });

    let mut net = PolicyValueNet::seeded(&net_cfg, device, config.seed);
    let mut trainer = Trainer::new(&net, config.training.learning_rate, config.training.weight_decay);
    if config.training.mixed_precision && device.is_cuda() {
        trainer = trainer.with_mixed_precision();
        eprintln!("vzero train: mixed-precision training (fp16 autocast, dynamic loss scaling)");
    }
    let mut done = BTreeSet::new();
    let mut known_shards = BTreeSet::new();
    let (dir, mut state, mut latest) = if opts.resume {
        resume_state::<G>(config, &opts.run_dir, &mut net, &mut trainer, &mut window, &mut done, &mut known_shards)?
    } else {
        let dir = start_run(&opts.run_dir)?;
        let state = CheckpointState {
            variant: G::NAME.into(),
            blocks: config.network.blocks,
            channels: config.network.channels,
            step: 0,
            iteration: 0,
            games: 0,
        };
        let latest = checkpoint::save_checkpoint(&dir.checkpoints(), &net, &trainer, &state)?;
        // Written last: a folder without it holds no run yet, and the same command starts over.
        write_atomic(&dir.config(), config.to_toml().as_bytes())?;
        (dir, state, latest)
    };

    let batching = BatchingConfig { max_batch: config.selfplay.max_batch, max_wait: Duration::from_millis(2) };
    let service_cfg = net_cfg.clone();
    let (service, client) = InferenceService::spawn(move || PolicyValueNet::new(&service_cfg, device), batching);
    // With gating, self-play uses the best network so far rather than the latest.
    let gating = config.gating.games > 0;
    let mut best = latest.clone();
    if gating {
        match read_best(&dir) {
            Some(b) => best = b,
            None => write_best(&dir, &best)?,
        }
    }
    load_into_service(&client, &best)?;
    let mut shard_names = ShardName::for_this_process();
    let mut batch = TrainBatch::default();

    let per_iteration = config.selfplay.games_per_iteration as u64;
    let mut interrupted = false;
    while state.iteration < config.training.iterations {
        // Self-play: the games of this iteration not yet in the replay shards (all of them,
        // unless a stopped run left some behind). libtorch gets one thread; the cores go to
        // the search workers.
        let first = state.iteration as u64 * per_iteration;
        let wanted: VecDeque<u64> = (first..first + per_iteration).filter(|n| !done.contains(n)).collect();
        nn::set_threads(1);
        let sp_start = Instant::now();
        let before = (client.stats().positions(), client.stats().batches());
        let rollout_weight = config.search.rollout_weight_at(state.iteration);
        let (records, summaries) =
            self_play_phase::<G>(config, &client, state.iteration, wanted, &opts.stop, opts.progress);
        let sp_secs = sp_start.elapsed().as_secs_f64();
        let evaluated = client.stats().positions() - before.0;
        let forward_passes = client.stats().batches() - before.1;
        let new_positions: usize = records.iter().map(GameRecord::training_positions).sum();
        if !records.is_empty() {
            let shard = dir.replay().join(shard_names.next_name());
            write_shard(&shard, &records)?;
            write_game_texts::<G>(&dir, &shard, &records)?;
            known_shards.insert(shard);
        }
        for r in records {
            done.insert(r.number);
            window.push(Arc::new(r));
        }
        // Games that `vzero selfplay` processes sharing the run directory have added since.
        let external = load_external_shards(&dir, &mut known_shards, &mut window)?;
        state.games = done.len() as u64;
        if opts.stop.load(Ordering::Relaxed) {
            // The network has not changed since the last checkpoint, which stays the latest.
            interrupted = true;
            break;
        }

        nn::set_threads(cores);
        let tr_start = Instant::now();
        let target_steps = steps_allowed(config, window.seen());
        let mut losses = (0.0, 0.0, 0u64);
        let mut first_loss = None;
        let mut sampled_external = 0;
        if window.len() >= config.training.min_positions {
            let bar = progress_bar(opts.progress, target_steps.saturating_sub(state.step), "steps");
            while state.step < target_steps && !opts.stop.load(Ordering::Relaxed) {
                trainer.set_learning_rate(learning_rate(config, state.step));
                let mut rng =
                    rand::rngs::Xoshiro256PlusPlus::seed_from_u64(game_seed(config.seed ^ SAMPLER_SALT, state.step));
                sampled_external += sample_batch::<G>(
                    &window,
                    config.training.batch_size,
                    config.training.search_value_weight,
                    &mut rng,
                    &mut batch,
                )?;
                let s = trainer.step(&net, &batch);
                first_loss.get_or_insert(s);
                losses = (losses.0 + s.policy_loss, losses.1 + s.value_loss, losses.2 + 1);
                state.step += 1;
                bar.inc(1);
                let every = config.training.checkpoint_steps;
                if every > 0 && state.step % every == 0 && state.step < target_steps {
                    checkpoint::save_checkpoint(&dir.checkpoints(), &net, &trainer, &state)?;
                }
            }
            bar.finish_and_clear();
        }
        let tr_secs = tr_start.elapsed().as_secs_f64();
        interrupted = state.step < target_steps && window.len() >= config.training.min_positions;
        if !interrupted {
            state.iteration += 1;
        }
        latest = checkpoint::save_checkpoint(&dir.checkpoints(), &net, &trainer, &state)?;
        if !gating {
            best = latest.clone();
            load_into_service(&client, &best)?;
        } else if !interrupted && gate::<G>(config, &dir, device, &latest, &best, &client)? {
            best = latest.clone();
            write_best(&dir, &best)?;
            load_into_service(&client, &best)?;
        }

        let n = losses.2.max(1) as f64;
        let mut record = iteration_metrics(
            &state,
            &summaries,
            new_positions,
            &window,
            sp_secs,
            tr_secs,
            evaluated,
            forward_passes,
            losses.2,
            losses.0 / n,
            losses.1 / n,
        );
        if let Some(first) = first_loss {
            record["first_step_policy_loss"] = json!(first.policy_loss);
            record["first_step_value_loss"] = json!(first.value_loss);
        }
        record["interrupted"] = json!(interrupted);
        record["rollout_weight"] = json!(rollout_weight);
        record["external_games_added"] = json!(external);
        record["sampled_external_positions"] = json!(sampled_external);
        dir.log_metrics(&record)?;
        if opts.progress {
            eprintln!(
                "iteration {:>3}: {} games, {:.0} games/h, step {}, policy loss {:.3}, value loss {:.3}, window {} positions",
                state.iteration,
                summaries.len(),
                summaries.len() as f64 * 3600.0 / sp_secs.max(1e-9),
                state.step,
                losses.0 / n,
                losses.1 / n,
                window.len()
            );
        }
        if interrupted {
            break;
        }
    }

    let evaluation =
        if config.evaluation.games > 0 && !interrupted { evaluate::<G>(config, &client, &dir)? } else { Vec::new() };
    drop(client);
    service.join();
    Ok(TrainSummary { steps: state.step, games: state.games, checkpoint: latest, evaluation, interrupted })
}

/// Creates the folders of a new run; refuses a directory that already holds one.
fn start_run(root: &Path) -> Result<RunDir, TrainError> {
    let dir = RunDir::create(root)?;
    if dir.config().exists() {
        return Err(TrainError::Run(format!(
            "{} already holds a run; continue it with --resume or choose another --run directory",
            root.display()
        )));
    }
    Ok(dir)
}

/// Training steps allowed once `seen` positions exist: each position sampled about
/// `samples_per_position` times.
fn steps_allowed(config: &Config, seen: u64) -> u64 {
    (seen as f64 * config.training.samples_per_position / config.training.batch_size as f64) as u64
}

/// The learning rate at `step` under the step-decay schedule.
pub fn learning_rate(config: &Config, step: u64) -> f64 {
    let t = &config.training;
    let decays = t.lr_decay_steps.iter().filter(|&&s| step >= s).count();
    t.learning_rate * t.lr_decay.powi(decays as i32)
}
