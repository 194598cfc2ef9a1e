//! The self-play phase of an iteration and what the trainer and `vzero selfplay` share around
//! it: writing game texts, progress bars.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use mcts::{RolloutEvaluator, RolloutMix};
use nn::InferenceClient;
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::evaluator::NetEvaluator;
use crate::games::{play_games, GameSummary};
use crate::replay::{record_to_text, GameRecord};
use crate::rundir::{write_atomic, RunDir};
use crate::setup::start_state;

/// Plays the games numbered in `wanted` on `selfplay.workers` threads with the network of
/// iteration `iteration` (which sets the playout share of leaf values); returns the finished
/// ones in game order.
pub(crate) fn self_play_phase<G: Encoding>(
    config: &Config,
    client: &InferenceClient,
    iteration: u32,
    wanted: VecDeque<u64>,
    stop: &AtomicBool,
    progress: bool,
) -> (Vec<GameRecord>, Vec<GameSummary>) {
    let params = config.search.clone();
    let start = start_state::<G>(config).expect("checked when the run started");
    let bar = progress_bar(progress, wanted.len() as u64, "games");
    let queue = Mutex::new(wanted);
    let (tx, rx) = crossbeam::channel::unbounded();
    let mut done: Vec<(GameRecord, GameSummary)> = std::thread::scope(|scope| {
        for _ in 0..config.selfplay.workers {
            let tx = tx.clone();
            let evaluator = RolloutMix {
                inner: NetEvaluator::<G>::new(client.clone(), config.selfplay.max_batch),
                rollout: RolloutEvaluator::new(config.seed, config.search.rollout_plies),
                weight: config.search.rollout_weight_at(iteration),
            };
            let (params, queue, cfg, start) = (&params, &queue, &config.selfplay, &start);
            scope.spawn(move || {
                play_games::<G, _>(cfg, params, &evaluator, start, config.seed, queue, stop, |record, summary| {
                    let _ = tx.send((record, summary));
                });
            });
        }
        drop(tx);
        rx.iter().inspect(|_| bar.inc(1)).collect()
    });
    bar.finish_and_clear();
    done.sort_by_key(|(_, s)| s.number);
    done.into_iter().unzip()
}

/// Writes `records` as move text to `games/<shard name>.txt`.
pub(crate) fn write_game_texts<G: Encoding>(
    dir: &RunDir,
    shard: &Path,
    records: &[GameRecord],
) -> Result<(), TrainError> {
    let mut text = String::new();
    for r in records {
        text.push_str(&record_to_text::<G>(r)?);
        text.push('\n');
    }
    let name = shard.with_extension("txt");
    let path = dir.games().join(name.file_name().expect("shard has a name"));
    write_atomic(&path, text.as_bytes())?;
    Ok(())
}

/// A progress bar, hidden unless `show`.
pub(crate) fn progress_bar(show: bool, len: u64, unit: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{per_sec}} eta {{eta}}");
    bar.set_style(ProgressStyle::with_template(&template).expect("valid template"));
    bar
}
