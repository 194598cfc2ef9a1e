//! Gating: a new network replaces the best one for self-play only if it beats it.

use std::path::Path;
use std::time::Duration;

use nn::InferenceClient;
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::setup::{load_into_service, spawn_service, start_state};
use crate::store::events::{GatingEvent, RunEvent};
use crate::store::rundir::RunDir;
use arena::{play_match, Agent, MatchOptions, SearchAgent};
use nn::NetEvaluator;

/// Plays `candidate` against the network `best_client` serves; returns whether the candidate
/// reached the threshold, after logging the match.
pub fn gate<G: Encoding>(
    config: &Config,
    dir: &RunDir,
    inference: nn::Inference,
    candidate: &Path,
    best: &Path,
    best_client: &InferenceClient,
) -> Result<bool, TrainError> {
    let g = &config.gating;
    let (service, client) = spawn_service::<G>(config, inference, Duration::from_millis(1));
    load_into_service(&client, candidate)?;
    let new = SearchAgent::new("candidate".into(), NetEvaluator::<G>::new(client, 64), g.simulations);
    let old = SearchAgent::new("best".into(), NetEvaluator::<G>::new(best_client.clone(), 64), g.simulations);
    let mut seats: Vec<&dyn Agent<G>> = vec![&new];
    while seats.len() < G::NUM_PLAYERS {
        seats.push(&old);
    }
    let opts = MatchOptions {
        games: g.games,
        opening_plies: 2,
        max_plies: config.selfplay.max_plies,
        adjudicate_material: config.selfplay.adjudicate_material,
        threads: config.selfplay.workers,
        seed: config.seed ^ 0x6A7E,
    };
    let start = start_state::<G>(config)?;
    let result = play_match::<G>(&seats, &start, opts, &|_| false);
    drop(seats);
    drop(new);
    service.join();
    let score = result.mean_score(0);
    let accepted = score >= g.threshold;
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    dir.log_event(&RunEvent::Gating(GatingEvent {
        candidate: name(candidate),
        best: name(best),
        games: result.games,
        candidate_score: score,
        threshold: g.threshold,
        accepted,
    }))?;
    Ok(accepted)
}
