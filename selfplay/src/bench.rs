//! Benchmarks of the self-play pipeline: network throughput alone versus inside self-play, the
//! training step, the memory a replay window takes and how fast the trainer samples from it.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nn::device::DeviceError;
use nn::{BatchingConfig, InferenceService, PolicyValueNet, TrainBatch, TrainForm, Trainer};
use rand::{RngExt, SeedableRng};
use rules::Encoding;

use crate::config::Config;
use crate::play::worker::play_games;
use crate::replay::sampler::sample_batch;
use crate::replay::{DecodeError, GameRecord, MoveRecord, ReplayWindow, WindowSize};
use nn::NetEvaluator;

/// What [`selfplay_throughput`] measured.
#[derive(Clone, Debug)]
pub struct SelfplayBench {
    /// Positions per second the network evaluates alone, in batches of `selfplay.max_batch`.
    pub raw_positions_per_second: f64,
    /// Positions per second it evaluated while serving self-play.
    pub selfplay_positions_per_second: f64,
    /// Mean positions per forward pass in self-play.
    pub mean_batch: f64,
    /// Games finished per hour in self-play (counted over the measured time).
    pub games_per_hour: f64,
}

impl SelfplayBench {
    /// Self-play throughput as a share of the raw throughput.
    pub fn ratio(&self) -> f64 {
        self.selfplay_positions_per_second / self.raw_positions_per_second
    }
}

/// Measures the network of `config` alone for `seconds`, then inside self-play with the
/// config's workers for `seconds`.
pub fn selfplay_throughput<G: Encoding>(
    config: &Config,
    seconds: f64,
) -> Result<SelfplayBench, nn::device::DeviceError> {
    let inference = config.inference()?;
    let device = inference.device;
    let net_cfg = config.network.net_config::<G>();
    let batch = config.selfplay.max_batch;
    let make = move || PolicyValueNet::new(&net_cfg, device);
    let batching = BatchingConfig::new(batch, Duration::from_millis(2), &inference);

    // Alone: one client sending full batches of real positions back to back, with the one
    // libtorch thread that self-play gives the network too.
    nn::set_threads(1);
    let (service, client) = InferenceService::spawn(make.clone(), batching);
    let mut inputs = vec![0.0; batch * G::input_len()];
    for planes in inputs.chunks_exact_mut(G::input_len()) {
        G::start().encode(planes);
    }
    // As the search asks: the whole policy, or the legal moves' logits where it is large.
    let listed = (G::POLICY_SIZE >= nn::LISTED_POLICY_FROM).then(|| {
        let (start, mut moves) = (G::start(), Vec::new());
        start.legal_moves(&mut moves);
        let one: Vec<i64> = moves.iter().map(|&mv| start.policy_index(mv) as i64).collect();
        nn::ListedMoves { indices: one.repeat(batch), counts: vec![one.len(); batch] }
    });
    let evaluate = || match &listed {
        Some(l) => client.evaluate_at(inputs.clone(), batch, l.clone()).expect("service runs"),
        None => client.evaluate(inputs.clone(), batch).expect("service runs"),
    };
    evaluate(); // warm-up
    let begun = Instant::now();
    let mut positions = 0;
    while begun.elapsed().as_secs_f64() < seconds {
        evaluate();
        positions += batch;
    }
    let raw = positions as f64 / begun.elapsed().as_secs_f64();
    drop(client);
    service.join();

    // Inside self-play: the workers play until the time is up.
    let (service, client) = InferenceService::spawn(make, batching);
    let queue = Mutex::new((0..1u64 << 20).collect::<VecDeque<u64>>());
    let stop = Arc::new(AtomicBool::new(false));
    let finished = Mutex::new(0usize);
    let params = config.search.clone();
    let start = crate::setup::start_state::<G>(config).unwrap_or_else(|_| G::start());
    let begun = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..config.selfplay.workers {
            let evaluator = NetEvaluator::<G>::new(client.clone(), batch);
            let (params, queue, stop, finished, start) = (&params, &queue, &stop, &finished, &start);
            scope.spawn(move || {
                play_games::<G, _>(&config.selfplay, params, &evaluator, start, config.seed, queue, stop, |_, _| {
                    *finished.lock().expect("counter") += 1;
                });
            });
        }
        std::thread::sleep(Duration::from_secs_f64(seconds));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let secs = begun.elapsed().as_secs_f64();
    let stats = client.stats();
    let report = SelfplayBench {
        raw_positions_per_second: raw,
        selfplay_positions_per_second: stats.positions() as f64 / secs,
        mean_batch: stats.mean_batch(),
        games_per_hour: *finished.lock().expect("counter") as f64 * 3600.0 / secs,
    };
    drop(client);
    service.join();
    Ok(report)
}

/// Why a training benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum TrainBenchError {
    /// The config's device is not available here.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// A sampled game could not be replayed (a bug: the games are generated here).
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

/// What [`train_throughput`] measured.
#[derive(Clone, Copy, Debug)]
pub struct TrainBench {
    /// Gradient steps per second.
    pub steps_per_second: f64,
    /// Training positions per second (steps times `training.batch_size`).
    pub positions_per_second: f64,
    /// Whether the steps ran in fp16 autocast with loss scaling, as a run on this device would.
    pub mixed_precision: bool,
    /// The layout and arithmetic of the steps.
    pub form: TrainForm,
}

/// Times gradient steps of `config`'s network on its device for about `seconds`, on one batch of
/// `training.batch_size` positions of random games, with mixed precision exactly when a run of
/// this config would use it (`training.mixed_precision` on a CUDA device). Sampling is left out:
/// [`sampler_throughput`] measures it. `form` is the step's layout and arithmetic (a CPU
/// choice: `training.cpu_form`).
pub fn train_throughput<G: Encoding>(
    config: &Config,
    seconds: f64,
    form: TrainForm,
) -> Result<TrainBench, TrainBenchError> {
    let device = config.device.resolve()?;
    let net = PolicyValueNet::seeded(&config.network.net_config::<G>(), device, config.seed);
    let mut trainer = Trainer::in_form(&net, config.training.learning_rate, config.training.weight_decay, form);
    let mixed_precision = config.training.mixed_precision && device.is_cuda();
    if mixed_precision {
        trainer = trainer.with_mixed_precision();
    }
    let size = config.training.batch_size;
    let (window, _) = replay_window_memory::<G>(size, 30, config.seed);
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let mut batch = TrainBatch::default();
    sample_batch::<G>(&window, size, 0.0, &mut rng, &mut batch)?;
    trainer.step(&net, &batch); // warm-up: kernels chosen, memory allocated
    let begun = Instant::now();
    let mut steps = 0;
    // Each step reads its losses back, so the device has finished it when the clock is read.
    while steps == 0 || begun.elapsed().as_secs_f64() < seconds {
        trainer.step(&net, &batch);
        steps += 1;
    }
    let steps_per_second = steps as f64 / begun.elapsed().as_secs_f64();
    Ok(TrainBench { steps_per_second, positions_per_second: steps_per_second * size as f64, mixed_precision, form })
}

/// Fills a replay window with `positions` positions of random games of `G` (each move with
/// `visited` visited root moves, as a search leaves them) and returns the window with the
/// resident memory it added, in bytes.
pub fn replay_window_memory<G: Encoding>(positions: usize, visited: usize, seed: u64) -> (ReplayWindow, u64) {
    let before = resident_bytes();
    let mut window = ReplayWindow::new(WindowSize { min: positions, max: positions, alpha: 0.75, beta: 0.4 });
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    while window.len() < positions {
        window.push(Arc::new(random_game::<G>(&mut rng, visited)));
    }
    let after = resident_bytes();
    (window, after.saturating_sub(before))
}

/// A game of uniformly random moves, at most 300 plies, recorded as self-play records it: every
/// move a training position with `visited` visited root moves and a root value.
pub fn random_game<G: Encoding>(rng: &mut impl rand::Rng, visited: usize) -> GameRecord {
    let mut game = G::start();
    let mut record =
        GameRecord { variant: G::NAME.into(), number: 0, start: game.to_text(), moves: Vec::new(), scores: Vec::new() };
    let mut moves = Vec::new();
    while game.outcome().is_none() && record.moves.len() < 300 {
        game.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        let visits =
            moves.iter().take(visited).map(|&m| (game.policy_index(m) as u32, rng.random_range(1..100))).collect();
        record.moves.push(MoveRecord {
            played: game.policy_index(mv) as u32,
            visits,
            policy_target: true,
            root_value: Some([0.5; rules::MAX_PLAYERS]),
        });
        game.play(mv);
    }
    record.scores = game.outcome().map_or(vec![0.5; G::NUM_PLAYERS], |s| s.as_slice().to_vec());
    record
}

/// What [`sampler_throughput`] measured: samples per second of [`sample_batch`], in two halves
/// of the time (the first includes decoding each game's snapshots the first time it is sampled).
#[derive(Clone, Copy, Debug)]
pub struct SamplerBench {
    /// Samples per second in the first half.
    pub first_half: f64,
    /// Samples per second in the second half.
    pub second_half: f64,
}

/// Draws batches of `batch` positions from `window` with [`sample_batch`] for about `seconds`
/// on this thread, as the trainer does before every step.
pub fn sampler_throughput<G: Encoding>(
    window: &ReplayWindow,
    batch: usize,
    seconds: f64,
    seed: u64,
) -> Result<SamplerBench, DecodeError> {
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = TrainBatch::default();
    let mut rates = [0.0; 2];
    for rate in &mut rates {
        let begun = Instant::now();
        let mut samples = 0;
        while samples == 0 || begun.elapsed().as_secs_f64() < seconds / 2.0 {
            sample_batch::<G>(window, batch, 0.0, &mut rng, &mut out)?;
            samples += batch;
        }
        *rate = samples as f64 / begun.elapsed().as_secs_f64();
    }
    Ok(SamplerBench { first_half: rates[0], second_half: rates[1] })
}

/// The process's resident memory in bytes (Linux; 0 elsewhere).
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()))
        .map_or(0, |pages| pages * 4096)
}
