//! The evaluation at the end of a training run.

use std::sync::atomic::{AtomicBool, Ordering};

use mcts::UniformEvaluator;
use nn::InferenceClient;
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::setup::start_state;
use crate::store::events::{EvaluationEvent, RunEvent};
use crate::store::rundir::RunDir;
use arena::{play_match, Agent, MatchOptions, MatchResult, RandomAgent, SearchAgent};
use nn::NetEvaluator;

/// The end-of-run evaluation: the network (search at `evaluation.simulations`) against a
/// uniformly random player and against the same search with the uniform evaluator. Once `stop`
/// is set the games in progress finish and the results so far are returned (and logged).
pub(crate) fn evaluate<G: Encoding>(
    config: &Config,
    client: &InferenceClient,
    dir: &RunDir,
    stop: &AtomicBool,
) -> Result<Vec<(String, MatchResult)>, TrainError> {
    let sims = config.evaluation.simulations;
    let net = SearchAgent::new("network".into(), NetEvaluator::<G>::new(client.clone(), 64), sims);
    let uniform = SearchAgent::new(format!("uniform-mcts-{sims}"), UniformEvaluator, sims);
    let start = start_state::<G>(config)?;
    let mut out = Vec::new();
    let opponents: [&dyn Agent<G>; 2] = [&RandomAgent, &uniform];
    for opponent in opponents {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut seats: Vec<&dyn Agent<G>> = vec![&net];
        while seats.len() < G::NUM_PLAYERS {
            seats.push(opponent);
        }
        let opts = MatchOptions {
            games: config.evaluation.games,
            opening_plies: 2,
            max_plies: config.selfplay.max_plies,
            threads: config.selfplay.workers,
            seed: config.seed ^ 0xE7A1,
        };
        let result = play_match::<G>(&seats, &start, opts, &|_| stop.load(Ordering::Relaxed));
        dir.log_event(&RunEvent::Evaluation(EvaluationEvent {
            opponent: Agent::<G>::name(opponent),
            games: result.games,
            network_score: result.mean_score(0),
            network_wins: result.wins[0],
            draws: result.draws,
        }))?;
        out.push((Agent::<G>::name(opponent), result));
    }
    Ok(out)
}
