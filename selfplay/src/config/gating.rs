//! `[gating]`: the optional match that decides whether a new network replaces the best one,
//! and its limits.

use serde::{Deserialize, Serialize};

use super::limits::{up_to, within, Limits, MAX_GAMES, MAX_SIMULATIONS};

/// `[gating]`: after each iteration the new network plays the best network so far and
/// replaces it for self-play only if it scores at least `threshold` (AlphaGo Zero's gating;
/// AlphaZero and KataGo train without it). Decisions go to metrics.jsonl.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GatingConfig {
    /// Games per gating match; 0 turns gating off.
    pub games: usize,
    /// Mean score the new network needs to become the best.
    pub threshold: f64,
    /// Simulations per move in gating games.
    pub simulations: u32,
}

impl GatingConfig {
    /// Each key within its range (`simulations` at least 1 when games are played is a rule of
    /// two keys, in [`super::Config`]'s validation).
    pub(super) fn limits(&self) -> Limits {
        // The candidate's mean score is in [0, 1]: above 1 no network would ever be promoted
        // (0 promotes every one, still logging how it scored).
        let score = "must be between 0 and 1: it is the mean score a new network needs, and no score is above 1";
        within("gating.threshold", self.threshold, 0.0..=1.0, score)?;
        up_to("gating.games", self.games as u64, MAX_GAMES)?;
        up_to("gating.simulations", self.simulations.into(), MAX_SIMULATIONS)
    }
}

impl Default for GatingConfig {
    fn default() -> Self {
        GatingConfig { games: 0, threshold: 0.55, simulations: 50 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &GatingConfig::default(),
            GatingConfig::limits,
            &[
                (|c| c.threshold = 0.0, None),
                (|c| c.threshold = 1.0, None),
                (|c| c.threshold = 1.0 + f64::EPSILON, Some("gating.threshold")),
                (|c| c.threshold = -f64::MIN_POSITIVE, Some("gating.threshold")),
                (|c| c.threshold = f64::NAN, Some("gating.threshold")),
                (|c| c.games = 1_000_000, None),
                (|c| c.games = 1_000_001, Some("gating.games")),
                (|c| c.simulations = 100_000_001, Some("gating.simulations")),
            ],
        );
    }
}
