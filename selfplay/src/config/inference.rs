//! `[inference]`: the form the network runs in outside training, and its thread counts' limits.

use nn::PrecisionChoice;
use serde::{Deserialize, Serialize};

use super::by_name;
use super::limits::{size, Limits};

/// `[inference]`: the form the network runs in for self-play, gating and gauntlets (training
/// always runs it as trained).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InferenceConfig {
    /// `auto` (bf16 where the CPU computes it natively, else fp32), `fp32` or `bf16`; on a CPU
    /// the batch norms are folded and the layout is channels-last in every case.
    #[serde(with = "by_name")]
    pub precision: PrecisionChoice,
    /// libtorch threads of each of the inference service's forward passes.
    pub threads: usize,
    /// Forward passes each batch is split into, run at once on threads of their own.
    pub passes: usize,
}

impl InferenceConfig {
    /// Each key within its range.
    pub(super) fn limits(&self) -> Limits {
        size("inference.threads", self.threads, 256)?;
        size("inference.passes", self.passes, 64)
    }
}

impl Default for InferenceConfig {
    fn default() -> Self {
        InferenceConfig { precision: PrecisionChoice::Auto, threads: 1, passes: 2 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &InferenceConfig::default(),
            InferenceConfig::limits,
            &[
                (|c| c.threads = 0, Some("inference.threads")),
                (|c| c.threads = 1, None),
                (|c| c.threads = 256, None),
                (|c| c.threads = 257, Some("inference.threads")),
                (|c| c.passes = 0, Some("inference.passes")),
                (|c| c.passes = 1, None),
                (|c| c.passes = 64, None),
                (|c| c.passes = 65, Some("inference.passes")),
            ],
        );
    }
}
