//! `[gating]`: the optional match that decides whether a new network replaces the best one,
//! and its limits.

use serde::{Deserialize, Serialize};

use super::limits::{up_to, within, Limits, OutOfRange, MAX_GAMES, MAX_SIMULATIONS};

/// `[gating]`: after each iteration the new network plays the best network so far and
/// replaces it for self-play only if it beats it: by scoring at least `threshold` over `games`,
/// or, with `sprt`, by a sequential test that stops as soon as it is decided (AlphaGo Zero's
/// gating; AlphaZero and KataGo train without it). Both play with the default play search (the
/// tactical levers on), as the networks are used. Decisions go to metrics.jsonl.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GatingConfig {
    /// Games per gating match; 0 turns gating off.
    pub games: usize,
    /// Mean score the new network needs to become the best.
    pub threshold: f64,
    /// Simulations per move in gating games.
    pub simulations: u32,
    /// `[elo0, elo1]`: decide by an SPRT of H0 "the candidate is elo0 stronger" against H1 "elo1
    /// stronger" (alpha = beta = 0.05) instead of the threshold; the candidate replaces the best
    /// only when H1 is accepted, and a match that reaches `games` undecided keeps the best.
    pub sprt: Option<[f64; 2]>,
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
        if let Some([elo0, elo1]) = self.sprt {
            let order = "must be two Elo differences [elo0, elo1] with elo0 < elo1, each between -1000 and 1000";
            within("gating.sprt", elo0, -1000.0..=1000.0, order)?;
            within("gating.sprt", elo1, -1000.0..=1000.0, order)?;
            if elo0 >= elo1 {
                return Err(OutOfRange::new("gating.sprt", format!("[{elo0}, {elo1}]"), order));
            }
        }
        up_to("gating.simulations", self.simulations.into(), MAX_SIMULATIONS)
    }
}

impl Default for GatingConfig {
    fn default() -> Self {
        GatingConfig { games: 0, threshold: 0.55, simulations: 50, sprt: None }
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
                (|c| c.sprt = Some([0.0, 30.0]), None),
                (|c| c.sprt = Some([30.0, 30.0]), Some("gating.sprt")),
                (|c| c.sprt = Some([0.0, f64::NAN]), Some("gating.sprt")),
                (|c| c.sprt = Some([-1000.1, 0.0]), Some("gating.sprt")),
            ],
        );
    }
}
