//! Gating: a new network replaces the best one for self-play only if it beats it.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use alphabeta::tactical_evaluator_with;
use arena::rating::{sprt, ScoreTally, SprtDecision};
use mcts::Tactics;
use nn::InferenceClient;
use rules::Encoding;

use crate::config::{Config, GatingConfig};
use crate::error::TrainError;
use crate::setup::{load_into_service, spawn_service, start_state};
use crate::store::events::{GatingEvent, RunEvent};
use crate::store::rundir::RunDir;
use arena::{play_match, Agent, MatchOptions, SearchAgent};
use nn::NetEvaluator;

/// Plays `candidate` against the network `best_client` serves, both with the default play search
/// (the networks are used that way, and it is where a prior must add to the judge); returns
/// whether the candidate won the match by the config's rule, after logging it.
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
    let play = Tactics::default();
    let agent = |label: &str, client: InferenceClient| {
        let evaluator = tactical_evaluator_with(&play, NetEvaluator::<G>::new(client, 64), None, Arc::default());
        let mut agent = SearchAgent::new(label.into(), evaluator, g.simulations);
        agent.tactics = play.clone();
        agent
    };
    let new = agent("candidate", client);
    let old = agent("best", best_client.clone());
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
        abandon: None,
    };
    let start = start_state::<G>(config)?;
    let decided = |r: &arena::MatchResult, _: &arena::PlayedGame| {
        g.sprt.is_some_and(|[elo0, elo1]| sprt(&r.first_scores, elo0, elo1).1 != SprtDecision::Continue)
    };
    let result = play_match::<G>(&seats, &start, opts, &decided);
    drop(seats);
    drop(new);
    service.join();
    let score = result.mean_score(0);
    let accepted = promotes(g, &result.first_scores);
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    dir.log_event(&RunEvent::Gating(GatingEvent {
        candidate: name(candidate),
        best: name(best),
        games: result.games,
        candidate_score: score,
        threshold: g.threshold,
        sprt: g.sprt,
        accepted,
    }))?;
    Ok(accepted)
}

/// Whether the candidate whose game scores are `scores` replaces the best: its mean reaches the
/// threshold, or with `sprt` the test accepted H1 (undecided keeps the best). Three players: its
/// scores against the two copies of the best, read on the same scale.
pub fn promotes(g: &GatingConfig, scores: &ScoreTally) -> bool {
    match g.sprt {
        Some([elo0, elo1]) => sprt(scores, elo0, elo1).1 == SprtDecision::AcceptH1,
        None => scores.mean() >= g.threshold,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: usize, draws: usize, losses: usize) -> ScoreTally {
        ScoreTally::from_wdl(wins, draws, losses)
    }

    #[test]
    fn a_losing_candidate_never_replaces_the_best() {
        let sprt = GatingConfig { games: 400, sprt: Some([0.0, 30.0]), ..GatingConfig::default() };
        assert!(!promotes(&sprt, &tally(60, 80, 100)), "clearly weaker");
        assert!(!promotes(&sprt, &tally(3, 2, 1)), "ahead but undecided: the best stays");
        assert!(promotes(&sprt, &tally(150, 100, 50)), "clearly stronger");
        let threshold = GatingConfig { games: 10, threshold: 0.55, ..GatingConfig::default() };
        assert!(!promotes(&threshold, &tally(4, 2, 4)));
        assert!(promotes(&threshold, &tally(5, 1, 4)));
    }
}
