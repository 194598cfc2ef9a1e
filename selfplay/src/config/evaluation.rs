//! `[evaluation]`: the match against fixed baselines at the end of a run, and its limits.

use serde::{Deserialize, Serialize};

use super::limits::{fixed_opponents, up_to, Limits, MAX_GAMES, MAX_SIMULATIONS};

/// `[evaluation]`: the match against baselines printed at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvaluationConfig {
    /// Games against each baseline (0 skips the evaluation).
    pub games: usize,
    /// Simulations per move of the network player and of the uniform-search baseline.
    pub simulations: u32,
    /// The baselines, as arena players (`mcts`: uniform search at `simulations`).
    pub against: Vec<String>,
    /// Also play the run's untrained (step-0) network against the same baselines, so the table
    /// shows what the search alone gives beside what learning added.
    pub untrained: bool,
}

impl EvaluationConfig {
    /// Each key within its range (`simulations` and an empty `against` are refused only when
    /// games are played: rules of two keys, in [`super::Config`]'s validation).
    pub(super) fn limits(&self) -> Limits {
        up_to("evaluation.games", self.games as u64, MAX_GAMES)?;
        up_to("evaluation.simulations", self.simulations.into(), MAX_SIMULATIONS)?;
        fixed_opponents("evaluation.against", &self.against)
    }
}

impl Default for EvaluationConfig {
    fn default() -> Self {
        let against = ["random", "mcts", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3"];
        EvaluationConfig { games: 100, simulations: 100, against: against.map(String::from).to_vec(), untrained: false }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &EvaluationConfig::default(),
            EvaluationConfig::limits,
            &[
                (|c| c.against = vec![], None),
                (|c| c.against = vec!["uci:stockfish".into(), "rollout:8".into()], None),
                (|c| c.against.push("runs/a".into()), Some("evaluation.against")),
                (|c| c.against.push("mcts:0".into()), Some("evaluation.against")),
                (|c| (c.games, c.simulations) = (0, 0), None),
                (|c| c.games = 1_000_001, Some("evaluation.games")),
                (|c| c.simulations = 100_000_001, Some("evaluation.simulations")),
            ],
        );
    }
}
