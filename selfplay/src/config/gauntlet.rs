//! `[gauntlet]`: the run's periodic matches against fixed opponents, and their limits.

use serde::{Deserialize, Serialize};

use super::limits::{fixed_opponents, up_to, Limits, MAX_GAMES, MAX_ITERATIONS, MAX_SIMULATIONS};

/// `[gauntlet]`: every `every` iterations (and after the last) the newest checkpoint plays
/// fixed opponents that never learn, and the results go to metrics.jsonl on one rating scale
/// (`vzero gauntlet RUN --table-only` prints it, `vzero plot` draws it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GauntletConfig {
    /// Iterations between gauntlets; 0 turns them off.
    pub every: u32,
    /// The fixed opponents, as arena players are written (`random`, `greedy`, `alphabeta:1`).
    pub against: Vec<String>,
    /// Games against each opponent.
    pub games: usize,
    /// Simulations per move of the checkpoint.
    pub simulations: u32,
    /// Also play the checkpoint the run's previous gauntlet measured: the head-to-head line that
    /// says whether each block of training made the network stronger than the block before.
    pub each_other: bool,
    /// Also play the run's teacher-only checkpoint (the network its teacher's positions alone
    /// trained): the anchor that says whether self-play added to what the teacher taught.
    pub against_teacher: bool,
}

impl GauntletConfig {
    /// Each count within its range, whether or not the gauntlet runs: a number past it is a
    /// typing mistake either way.
    pub(super) fn limits(&self) -> Limits {
        up_to("gauntlet.every", self.every.into(), MAX_ITERATIONS)?;
        up_to("gauntlet.games", self.games as u64, MAX_GAMES)?;
        up_to("gauntlet.simulations", self.simulations.into(), MAX_SIMULATIONS)
    }

    /// The opponents are fixed players, each named once. Checked, with the rules of two keys in
    /// [`super::Config`]'s validation (`games` fills the seat rotation of the variant, `against`
    /// names someone and `simulations` is at least 1 when games are played), only for a
    /// gauntlet that runs (`every > 0`).
    pub(super) fn opponents(&self) -> Limits {
        fixed_opponents("gauntlet.against", &self.against)
    }
}

impl Default for GauntletConfig {
    fn default() -> Self {
        GauntletConfig {
            every: 0,
            against: vec!["random".into(), "greedy".into()],
            games: 10,
            simulations: 64,
            each_other: false,
            against_teacher: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &GauntletConfig::default(),
            |c: &GauntletConfig| c.limits().and_then(|()| c.opponents()),
            &[
                (|c| c.against = vec!["alphabeta:1".into(), "mcts:50".into()], None),
                (|c| c.against.push("runs/a:50".into()), Some("gauntlet.against")),
                (|c| c.against.push("greedy:5".into()), Some("gauntlet.against")),
                (|c| c.every = 1_000_001, Some("gauntlet.every")),
                (|c| c.games = 1_000_001, Some("gauntlet.games")),
                (|c| c.simulations = 100_000_000, None),
                (|c| c.simulations = 100_000_001, Some("gauntlet.simulations")),
            ],
        );
    }
}
