//! The evaluation at the end of a training run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use nn::InferenceClient;
use rules::Encoding;

use crate::config::Config;
use crate::error::TrainError;
use crate::progress::Progress;
use crate::setup::load_into_service;
use crate::setup::start_state;
use crate::store::events::{read_events, EvaluationEvent, RunEvent};
use crate::store::rundir::RunDir;
use alphabeta::tactical_evaluator_with;
use arena::players::{load_players, PlayerOptions, PlayerSpec};
use arena::uci::EngineBudget;
use arena::{play_match, Agent, MatchOptions, MatchResult, SearchAgent};
use mcts::Tactics;
use nn::checkpoint::checkpoint_dir;
use nn::NetEvaluator;

/// The name the evaluation gives the untrained network (`evaluation.untrained`): its checkpoint.
pub const UNTRAINED: &str = "step-000000000";

/// One match of the evaluation.
#[derive(Clone, Debug)]
pub struct EvaluatedMatch {
    /// Which network played: empty for the trained one, [`UNTRAINED`] for the step-0 network.
    pub network: String,
    /// The baseline's name.
    pub opponent: String,
    /// The match, the network in seat order's first place.
    pub result: MatchResult,
}

/// What the end-of-run evaluation played.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// Each match, in the order played: the trained network against every baseline, then the
    /// untrained one's.
    pub results: Vec<EvaluatedMatch>,
    /// Every match played all its games: a stop signal cut none short or left one out.
    pub complete: bool,
}

/// The end-of-run evaluation: the network against each player of `evaluation.against` in turn,
/// and with `evaluation.untrained` the run's step-0 network against the same, so that the table
/// shows what the search gives and what learning added. Networks and `mcts` (the uniform
/// evaluator) search as players do by default, the tactical levers on, at
/// `evaluation.simulations`. Once `stop` is set every search ends at once, the games in
/// progress are abandoned (scored nowhere) and the results so far are returned (and logged,
/// marked interrupted). When `progress` is on, a bar counts the
/// games (stderr a terminal), or lines on stderr do (each match's first and last among them).
pub(crate) fn evaluate<G: Encoding>(
    config: &Config,
    client: &InferenceClient,
    dir: &RunDir,
    stop: &'static AtomicBool,
    progress: bool,
) -> Result<Evaluation, TrainError> {
    let mut out = Evaluation { results: Vec::new(), complete: true };
    evaluate_network::<G>(config, client, "", dir, stop, progress, &mut out)?;
    let untrained = checkpoint_dir(&dir.checkpoints(), 0);
    if config.evaluation.untrained && !untrained.is_dir() {
        // training.keep_checkpoints deleted it: the table has no step-0 column.
        eprintln!(
            "vzero: warning: evaluation.untrained: {} is gone; only the trained network plays",
            untrained.display()
        );
    }
    if config.evaluation.untrained && out.complete && untrained.is_dir() {
        let (service, step0) = crate::setup::spawn_service::<G>(config, config.inference()?, Duration::from_millis(1));
        load_into_service(&step0, &untrained)?;
        let played = evaluate_network::<G>(config, &step0, UNTRAINED, dir, stop, progress, &mut out);
        drop(step0);
        service.join();
        played?;
    }
    Ok(out)
}

/// The matches of the network `client` serves (named `network` in the log, empty for the
/// trained one) against every baseline, added to `out`.
fn evaluate_network<G: Encoding>(
    config: &Config,
    client: &InferenceClient,
    network: &str,
    dir: &RunDir,
    stop: &'static AtomicBool,
    progress: bool,
    out: &mut Evaluation,
) -> Result<(), TrainError> {
    let sims = config.evaluation.simulations;
    let planned = config.evaluation.games;
    let play = Tactics::default();
    let evaluator =
        tactical_evaluator_with(&play, NetEvaluator::<G>::new(client.clone(), 64), Some(stop), Arc::default());
    let mut net = SearchAgent::new("network".into(), evaluator, sims);
    net.tactics = play.clone();
    net.stop = Some(stop);
    let specs = baseline_specs(config)?;
    let opts = PlayerOptions {
        default_sims: sims,
        leaves: None,
        engine_budget: EngineBudget::Nodes(sims),
        inference: config.inference()?,
        tactics: play,
        reuse_trees: true,
        stop: Some(stop),
    };
    let players = load_players::<G>(&specs, opts).map_err(|e| TrainError::Run(format!("evaluation.against: {e}")))?;
    let start = start_state::<G>(config)?;
    let who = if network.is_empty() { String::new() } else { format!("{network} ") };
    for (name, opponent) in config.evaluation.against.iter().zip(&players.agents) {
        if stop.load(Ordering::Relaxed) {
            out.complete = false;
            break;
        }
        let opponent: &dyn Agent<G> = opponent.as_ref();
        let mut seats: Vec<&dyn Agent<G>> = vec![&net];
        while seats.len() < G::NUM_PLAYERS {
            seats.push(opponent);
        }
        let opts = MatchOptions {
            games: planned,
            opening_plies: 2,
            max_plies: config.selfplay.max_plies,
            adjudicate_material: config.selfplay.adjudicate_material,
            threads: config.selfplay.workers,
            seed: config.seed ^ 0xE7A1,
            abandon: Some(stop),
        };
        // Each match begins and ends with a line where there is no bar: a match is shorter than
        // the minute between lines, and the table comes only after the last one.
        let bar = Progress::new(progress, planned as u64, &format!("evaluation games {who}vs {name}"));
        bar.line_now();
        let result = play_match::<G>(&seats, &start, opts, &|r, _| {
            bar.set_position(r.games as u64);
            stop.load(Ordering::Relaxed)
        });
        bar.set_position(result.games as u64);
        bar.line_now();
        bar.finish_and_clear();
        let interrupted = result.games < planned;
        out.complete &= !interrupted;
        dir.log_event(&RunEvent::Evaluation(EvaluationEvent {
            network: network.to_string(),
            opponent: name.clone(),
            games: result.games,
            network_score: result.mean_score(0),
            network_wins: result.wins[0],
            draws: result.draws,
            games_planned: planned,
            interrupted,
        }))?;
        out.results.push(EvaluatedMatch { network: network.to_string(), opponent: name.clone(), result });
    }
    players.close();
    Ok(())
}

/// `evaluation.against` as players (validated with the config, so every one parses).
fn baseline_specs(config: &Config) -> Result<Vec<PlayerSpec>, TrainError> {
    let parse =
        |text: &String| text.parse::<PlayerSpec>().map_err(|e| TrainError::Run(format!("evaluation.against: {e}")));
    config.evaluation.against.iter().map(parse).collect()
}

/// Whether the run's metrics hold the complete evaluation of its last iteration: after the
/// last iteration event, a match of each network evaluated against each baseline with every
/// game `config` asks for, not interrupted. A run stopped (or killed) during its final
/// evaluation has none, and plays it again when resumed.
pub(crate) fn evaluated(config: &Config, dir: &RunDir) -> bool {
    if config.evaluation.games == 0 {
        return true;
    }
    let log = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default());
    let matches = log.final_evaluation();
    let untrained = config.evaluation.untrained && checkpoint_dir(&dir.checkpoints(), 0).is_dir();
    let networks: &[&str] = if untrained { &["", UNTRAINED] } else { &[""] };
    networks.iter().all(|network| {
        config.evaluation.against.iter().all(|name| {
            matches
                .iter()
                .find(|e| &e.opponent == name && e.network == *network)
                .is_some_and(|e| !e.interrupted && e.games >= config.evaluation.games)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::events::{event_line, IterationEvent};

    fn match_line(opponent: &str, games: usize, interrupted: bool) -> String {
        let planned = if interrupted { 200 } else { 0 };
        let e = EvaluationEvent {
            opponent: opponent.into(),
            games,
            games_planned: planned,
            interrupted,
            ..Default::default()
        };
        event_line(&RunEvent::Evaluation(e))
    }

    /// The evaluation counts as done only when, after the last iteration, each baseline has a
    /// whole match: an interrupted one, or one of a vzero that logged 113 of 200 games as if
    /// whole, does not.
    #[test]
    fn only_a_whole_evaluation_after_the_last_iteration_counts() {
        let dir = std::env::temp_dir().join(format!("vzero-evaluated-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = RunDir::unchecked(&dir);
        let text = "variant = \"mini-hexchess\"\n[evaluation]\ngames = 200\nsimulations = 12\nagainst = [\"random\", \"mcts\"]\n";
        let config = Config::parse(text, "test", &[]).unwrap();
        let iteration = event_line(&RunEvent::Iteration(IterationEvent::default()));
        let old_partial = "{\"event\":\"evaluation\",\"opponent\":\"random\",\"games\":113}\n";
        let cases = [
            (vec![iteration.clone()], false),
            (vec![iteration.clone(), match_line("random", 200, false), match_line("mcts", 200, false)], true),
            (vec![iteration.clone(), match_line("random", 200, false), match_line("mcts", 90, true)], false),
            (vec![iteration.clone(), old_partial.into(), match_line("mcts", 200, false)], false),
            (vec![match_line("random", 200, false), match_line("mcts", 200, false), iteration.clone()], false),
        ];
        for (lines, done) in cases {
            std::fs::write(run.metrics(), lines.concat()).unwrap();
            assert_eq!(evaluated(&config, &run), done, "{lines:?}");
        }
        // With the untrained network asked for, its matches count too, unless its checkpoint is
        // gone (kept_checkpoints deleted it), when the trained network's alone make it whole.
        let untrained = Config::parse(&format!("{text}untrained = true\n"), "test", &[]).unwrap();
        let trained = [iteration.clone(), match_line("random", 200, false), match_line("mcts", 200, false)].concat();
        std::fs::write(run.metrics(), &trained).unwrap();
        assert!(evaluated(&untrained, &run), "no step-0 checkpoint: nothing more to play");
        std::fs::create_dir_all(checkpoint_dir(&run.checkpoints(), 0)).unwrap();
        assert!(!evaluated(&untrained, &run), "the step-0 network's matches are missing");
        let step0 = |o: &str| {
            let e = EvaluationEvent { network: UNTRAINED.into(), opponent: o.into(), games: 200, ..Default::default() };
            event_line(&RunEvent::Evaluation(e))
        };
        std::fs::write(run.metrics(), trained + &step0("random") + &step0("mcts")).unwrap();
        assert!(evaluated(&untrained, &run));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
