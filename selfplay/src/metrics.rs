//! The per-iteration line of metrics.jsonl.

use serde_json::json;

use crate::checkpoint::CheckpointState;
use crate::games::{GameEnd, GameSummary};
use crate::replay::ReplayWindow;

/// The metrics of one iteration: its games, their results, rates and losses.
#[allow(clippy::too_many_arguments)]
pub(crate) fn iteration_metrics(
    state: &CheckpointState,
    games: &[GameSummary],
    new_positions: usize,
    window: &ReplayWindow,
    selfplay_secs: f64,
    train_secs: f64,
    evaluated: u64,
    forward_passes: u64,
    steps: u64,
    policy_loss: f64,
    value_loss: f64,
) -> serde_json::Value {
    let players = games.first().map_or(0, |g| g.scores.len());
    let mut seat_scores = vec![0.0; players];
    for g in games {
        for (s, v) in seat_scores.iter_mut().zip(&g.scores) {
            *s += *v as f64 / games.len() as f64;
        }
    }
    let count = |end: GameEnd| games.iter().filter(|g| g.end == end).count();
    let playthrough: Vec<&GameSummary> = games.iter().filter(|g| g.would_have_resigned.is_some()).collect();
    let false_resign =
        playthrough.iter().filter(|g| g.would_have_resigned.is_some_and(|seat| g.scores[seat] > 0.0)).count();
    let mean_len = games.iter().map(|g| g.plies as f64).sum::<f64>() / games.len().max(1) as f64;
    json!({
        "event": "iteration",
        "iteration": state.iteration,
        "step": state.step,
        "games": state.games,
        "iteration_games": games.len(),
        "new_positions": new_positions,
        "window_positions": window.len(),
        "mean_game_length": mean_len,
        "seat_scores": seat_scores,
        "ended_by_rules": count(GameEnd::Rules),
        "resigned": count(GameEnd::Resigned),
        "adjudicated": count(GameEnd::MaxPlies),
        "resign_checks": playthrough.len(),
        "false_resignations": false_resign,
        "selfplay_seconds": selfplay_secs,
        "games_per_hour": games.len() as f64 * 3600.0 / selfplay_secs.max(1e-9),
        "positions_per_second": evaluated as f64 / selfplay_secs.max(1e-9),
        "mean_batch": evaluated as f64 / forward_passes.max(1) as f64,
        "train_seconds": train_secs,
        "train_steps": steps,
        "policy_loss": if steps > 0 { Some(policy_loss) } else { None },
        "value_loss": if steps > 0 { Some(value_loss) } else { None },
    })
}
