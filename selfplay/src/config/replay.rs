//! `[replay]`: the window of recent positions training samples from, and its keys' limits.

use serde::{Deserialize, Serialize};

use super::limits::{above_zero_to, share, up_to, Limits, MAX_WINDOW};

/// `[replay]`: the window of recent positions (see [`crate::replay::WindowSize`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReplayConfig {
    /// Positions kept before the window grows sublinearly.
    pub window_min: usize,
    /// The most positions kept.
    pub window_max: usize,
    /// Growth exponent.
    pub window_alpha: f64,
    /// Growth scale.
    pub window_beta: f64,
}

impl ReplayConfig {
    /// Each key within its range (`window_min` above 0 and at most `window_max` is a rule of
    /// two keys, in [`super::Config`]'s validation).
    pub(super) fn limits(&self) -> Limits {
        up_to("replay.window_min", self.window_min as u64, MAX_WINDOW)?;
        up_to("replay.window_max", self.window_max as u64, MAX_WINDOW)?;
        share("replay.window_alpha", self.window_alpha)?;
        above_zero_to("replay.window_beta", self.window_beta, 100.0, "")
    }

    /// The window this section describes.
    pub fn window_size(&self) -> crate::replay::WindowSize {
        crate::replay::WindowSize {
            min: self.window_min,
            max: self.window_max,
            alpha: self.window_alpha,
            beta: self.window_beta,
        }
    }
}

impl Default for ReplayConfig {
    fn default() -> Self {
        ReplayConfig { window_min: 20_000, window_max: 500_000, window_alpha: 0.75, window_beta: 0.4 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &ReplayConfig::default(),
            ReplayConfig::limits,
            &[
                (|c| c.window_max = 500_000_000, None),
                (|c| c.window_max = 500_000_001, Some("replay.window_max")),
                (|c| c.window_alpha = 0.0, None),
                (|c| c.window_alpha = 1.0, None),
                (|c| c.window_alpha = 1.0 + f64::EPSILON, Some("replay.window_alpha")),
                (|c| c.window_alpha = -f64::MIN_POSITIVE, Some("replay.window_alpha")),
                (|c| c.window_beta = 0.0, Some("replay.window_beta")),
                (|c| c.window_beta = f64::MIN_POSITIVE, None),
                (|c| c.window_beta = 100.0, None),
                (|c| c.window_beta = 100.5, Some("replay.window_beta")),
                (|c| c.window_beta = f64::INFINITY, Some("replay.window_beta")),
                (|c| c.window_min = 500_000_000, None),
                (|c| c.window_min = 500_000_001, Some("replay.window_min")),
            ],
        );
    }
}
