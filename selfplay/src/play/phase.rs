//! The self-play phase of an iteration and what the trainer and `vzero selfplay` share around
//! it: storing games as they finish (through [`Flusher`], which also writes their game texts).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use alphabeta::tactical_evaluator_with;
use mcts::{Blend, MaterialJudge, RolloutEvaluator, Tactics};
use nn::InferenceClient;
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::play::flush::Flusher;
use crate::play::worker::{play_games, GameSummary};
use crate::progress::Progress;
use crate::setup::start_state;
use nn::NetEvaluator;

/// What a self-play phase did besides storing its games (which the [`Flusher`] holds).
pub(crate) struct PhaseGames {
    /// How each finished game ended, in game order.
    pub summaries: Vec<GameSummary>,
    /// Games begun but abandoned when a stop was requested (played again on resume).
    pub dropped: usize,
}

/// Plays the games numbered in `wanted` on `selfplay.workers` threads with the network of
/// iteration `iteration` (which sets the playout and material shares of leaf values and fades the
/// tree levers), handing each finished game to `flusher` as it ends. A failed write stops the
/// workers (through `stop`) and is returned.
pub(crate) fn self_play_phase<G: Encoding>(
    config: &Config,
    client: &InferenceClient,
    iteration: u32,
    wanted: VecDeque<u64>,
    stop: &AtomicBool,
    progress: bool,
    flusher: &mut Flusher<G>,
) -> Result<PhaseGames, TrainError> {
    let params = config.search.tree_levers_at(iteration);
    let start = start_state::<G>(config).expect("checked when the run started");
    let bar = Progress::new(progress, wanted.len() as u64, "games");
    let asked = wanted.len();
    let queue = Mutex::new(wanted);
    let (tx, rx) = crossbeam::channel::unbounded();
    let mut failed = None;
    let mut summaries: Vec<GameSummary> = std::thread::scope(|scope| {
        for _ in 0..config.selfplay.workers {
            let tx = tx.clone();
            let inner = Blend {
                inner: Blend {
                    inner: NetEvaluator::<G>::new(client.clone(), config.selfplay.max_batch),
                    judge: RolloutEvaluator::new(config.seed, config.search.rollout_plies),
                    weight: config.search.rollout_weight_at(iteration),
                },
                judge: MaterialJudge,
                weight: config.search.material_weight_at(iteration),
            };
            // The tactical leaf share fades with the iterations; the search asks the judge about
            // moves only where a tactical lever of `[search]` reads them.
            let tactics =
                Tactics { tactics_weight: config.search.tactics_weight_at(iteration), ..params.tactics.clone() };
            // Each worker's judge keeps its values for all its games.
            let evaluator = tactical_evaluator_with(&tactics, inner, None, Arc::default());
            let (params, queue, cfg, start) = (&params, &queue, &config.selfplay, &start);
            scope.spawn(move || {
                play_games::<G, _>(cfg, params, &evaluator, start, config.seed, queue, stop, |record, summary| {
                    let _ = tx.send((record, summary));
                });
            });
        }
        drop(tx);
        let mut summaries = Vec::new();
        for (record, summary) in rx.iter() {
            bar.inc(1);
            summaries.push(summary);
            if failed.is_none() {
                if let Err(e) = flusher.add(record) {
                    // Games that cannot be stored are not worth playing on.
                    stop.store(true, Ordering::Relaxed);
                    failed = Some(e);
                }
            }
        }
        summaries
    });
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    summaries.sort_by_key(|s| s.number);
    let begun = asked - queue.into_inner().expect("game queue lock").len();
    Ok(PhaseGames { dropped: begun - summaries.len(), summaries })
}
