//! `vzero selfplay --run DIR`: self-play only, beside a running trainer.
//!
//! The process takes the newest checkpoint from DIR/checkpoints, plays games in chunks of
//! `selfplay.games_per_iteration`, writes their games into DIR/replay as shards of at most
//! `selfplay.flush_games` games while they finish, and picks up newer checkpoints between
//! chunks. The trainer adds such shards to its window at each
//! iteration. Game numbers carry [`EXTERNAL_GAME`] and a per-process origin, so neither shard
//! names nor game numbers collide across processes and hosts.

use std::collections::VecDeque;
use std::hash::{BuildHasher, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::play::flush::Flusher;
use crate::play::phase::self_play_phase;
use crate::replay::{ShardName, EXTERNAL_GAME};
use crate::setup::{load_into_service, spawn_service};
use crate::store::rundir::RunDir;
use nn::checkpoint::{list_checkpoints, verify_checkpoint};

/// How to run a self-play-only process.
#[derive(Clone, Debug)]
pub struct SelfplayOptions {
    /// The run directory shared with the trainer.
    pub run_dir: PathBuf,
    /// Stop after this many games (None: until stopped).
    pub games: Option<u64>,
    /// Show progress bars.
    pub progress: bool,
    /// Set (e.g. by Ctrl-C) to stop after writing the finished games.
    pub stop: Arc<AtomicBool>,
}

/// The first game number of this process: the external bit, 31 bits that differ between
/// processes and hosts, and room for 2^32 games.
fn origin_base() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write(ShardName::for_this_process().next_name().as_bytes());
    h.write_u32(std::process::id());
    EXTERNAL_GAME | ((h.finish() & 0x7FFF_FFFF) << 32)
}

/// The newest checkpoint whose files check out, with its iteration.
/// The network the trainer's own self-play uses: with gating, the best so far (a rejected
/// network generates no data); else the newest readable checkpoint. With its iteration.
fn network_to_play(config: &Config, dir: &RunDir) -> Result<Option<(PathBuf, u32)>, TrainError> {
    if config.gating.games > 0 {
        if let Some(best) = dir.read_best() {
            match verify_checkpoint(&best) {
                Ok(state) => return Ok(Some((best, state.iteration))),
                Err(e) => eprintln!("vzero: warning: {e}; playing the newest checkpoint instead"),
            }
        }
    }
    newest_checkpoint(dir)
}

fn newest_checkpoint(dir: &RunDir) -> Result<Option<(PathBuf, u32)>, TrainError> {
    for path in list_checkpoints(&dir.checkpoints())?.into_iter().rev() {
        match verify_checkpoint(&path) {
            Ok(state) => return Ok(Some((path, state.iteration))),
            Err(e) => eprintln!("vzero: warning: {e}; trying an older checkpoint"),
        }
    }
    Ok(None)
}

/// Plays games into the run directory until `opts.games` are done or `opts.stop` is set;
/// returns the number of games written.
pub fn selfplay_only<G: Encoding>(config: &Config, opts: &SelfplayOptions) -> Result<u64, TrainError> {
    let inference = config.inference()?;
    let device = inference.device;
    let dir = RunDir::unchecked(&opts.run_dir);
    eprintln!(
        "vzero selfplay: {} on {}, run directory {}; inference {}",
        G::NAME,
        nn::device::describe(device),
        dir.root().display(),
        inference.describe()
    );
    let (service, client) = spawn_service::<G>(config, inference, Duration::from_millis(2));
    nn::set_threads(1);
    let mut loaded: Option<PathBuf> = None;
    let mut names = ShardName::for_this_process();
    let base = origin_base();
    let mut played = 0u64;
    let chunk = config.selfplay.games_per_iteration as u64;
    // Set by a stop signal or when the trainer marks the run finished; finished games are
    // written either way, games in progress are dropped.
    let done = Arc::new(AtomicBool::new(false));
    let watching = Arc::new(AtomicBool::new(true));
    let watcher = {
        let (done, watching, stop, finished) =
            (Arc::clone(&done), Arc::clone(&watching), Arc::clone(&opts.stop), dir.finished());
        std::thread::spawn(move || {
            while watching.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) || finished.exists() {
                    done.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    while opts.games.is_none_or(|n| played < n) && !done.load(Ordering::Relaxed) && !dir.finished().exists() {
        let (newest, iteration) = network_to_play(config, &dir)?.ok_or_else(|| {
            TrainError::Run(format!("{}: no checkpoint yet; start `vzero train` first", dir.checkpoints().display()))
        })?;
        if loaded.as_deref() != Some(newest.as_path()) {
            load_into_service(&client, &newest)?;
            eprintln!("vzero selfplay: playing with {}", newest.display());
            loaded = Some(newest);
        }
        let count = opts.games.map_or(chunk, |n| chunk.min(n - played));
        let wanted: VecDeque<u64> = (base + played..base + played + count).collect();
        let mut flusher = Flusher::<G>::new(&dir, &mut names, config.selfplay.flush_games);
        let phase = self_play_phase::<G>(config, &client, iteration, wanted, &done, opts.progress, &mut flusher);
        // Whatever finished is stored, even when a write failed later on.
        let flushed = flusher.finish();
        phase?;
        played += flushed?.games.len() as u64;
    }
    watching.store(false, Ordering::Relaxed);
    let _ = watcher.join();
    if dir.finished().exists() {
        eprintln!("vzero selfplay: the trainer has finished the run; stopping");
    }
    drop(client);
    service.join();
    Ok(played)
}
