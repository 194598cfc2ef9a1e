//! `[training]`: the optimizer, its schedule and checkpoints, and each key's limits.

use serde::{Deserialize, Serialize};

use super::by_name;
use super::limits::{
    above_zero_to, one_to, rule, share, size, up_to, zero_to, Limits, MAX_ITERATIONS, MAX_STEPS, MAX_WINDOW,
};

/// `[training]`: the optimizer and how much it trains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainingConfig {
    /// Iterations of (self-play, training, checkpoint) in the run.
    pub iterations: u32,
    /// Samples per gradient step.
    pub batch_size: usize,
    /// Learning rate (SGD with Nesterov momentum 0.9).
    pub learning_rate: f64,
    /// Multiply the learning rate by `lr_decay` at each step listed in `lr_decay_steps`.
    pub lr_decay: f64,
    /// Steps at which the learning rate decays.
    pub lr_decay_steps: Vec<u64>,
    /// L2 weight decay.
    pub weight_decay: f64,
    /// Samples drawn per new training position: caps how often each position is trained on.
    pub samples_per_position: f64,
    /// Positions in the window before training starts.
    pub min_positions: usize,
    /// Also save a checkpoint every this many steps within an iteration's training (0: only
    /// at the end of each iteration). Bounds the work a crash can lose on long iterations.
    pub checkpoint_steps: u64,
    /// Checkpoints kept on disk: the newest this many plus the best (with gating); 0 keeps all.
    pub keep_checkpoints: usize,
    /// On CUDA, train with the forward pass in fp16 autocast and dynamic loss scaling (weights
    /// and optimizer stay fp32). Ignored on CPU.
    pub mixed_precision: bool,
    /// On a CPU, the layout and arithmetic of the training step: `auto` (channels-last, with
    /// bf16 convolutions where the CPU computes bf16 natively), or one of `nchw-fp32`,
    /// `nhwc-fp32`, `nchw-bf16`, `nhwc-bf16`. Ignored on CUDA.
    #[serde(with = "by_name")]
    pub cpu_form: nn::TrainFormChoice,
    /// Share of the search's root value in each value target; the rest is the game's final
    /// score (Leela's q-ratio). Denser than results alone where most games are draws.
    pub search_value_weight: f32,
}

impl TrainingConfig {
    /// Each key within its range (the decay steps take any step). The share is shown as f64 in
    /// its message, as it always was.
    pub(super) fn limits(&self) -> Limits {
        let no_iterations = "must be at least 1: a run of no iterations trains nothing";
        rule(self.iterations == 0, "training.iterations", self.iterations, no_iterations)?;
        one_to("training.iterations", self.iterations.into(), MAX_ITERATIONS)?;
        size("training.batch_size", self.batch_size, 1 << 16)?;
        // Past 1000, SGD diverges on the first step; a decay multiplies by at most 1.
        above_zero_to("training.learning_rate", self.learning_rate, 1000.0, "")?;
        above_zero_to("training.lr_decay", self.lr_decay, 1.0, "")?;
        zero_to("training.weight_decay", self.weight_decay, 1.0, "")?;
        above_zero_to("training.samples_per_position", self.samples_per_position, 1000.0, "")?;
        up_to("training.min_positions", self.min_positions as u64, MAX_WINDOW)?;
        up_to("training.checkpoint_steps", self.checkpoint_steps, MAX_STEPS)?;
        up_to("training.keep_checkpoints", self.keep_checkpoints as u64, MAX_ITERATIONS)?;
        share("training.search_value_weight", f64::from(self.search_value_weight))
    }
}

impl Default for TrainingConfig {
    fn default() -> Self {
        TrainingConfig {
            iterations: 20,
            batch_size: 128,
            learning_rate: 0.02,
            lr_decay: 0.1,
            lr_decay_steps: Vec::new(),
            weight_decay: 1e-4,
            samples_per_position: 4.0,
            min_positions: 1000,
            checkpoint_steps: 0,
            keep_checkpoints: 0,
            mixed_precision: true,
            cpu_form: nn::TrainFormChoice::Auto,
            search_value_weight: 0.0,
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
            &TrainingConfig::default(),
            TrainingConfig::limits,
            &[
                (|c| c.iterations = 0, Some("training.iterations")),
                (|c| c.iterations = 1, None),
                (|c| c.iterations = 1_000_000, None),
                (|c| c.iterations = 1_000_001, Some("training.iterations")),
                (|c| c.batch_size = 0, Some("training.batch_size")),
                (|c| c.batch_size = 1 << 16, None),
                (|c| c.batch_size = (1 << 16) + 1, Some("training.batch_size")),
                (|c| c.learning_rate = 0.0, Some("training.learning_rate")),
                (|c| c.learning_rate = f64::MIN_POSITIVE, None),
                (|c| c.learning_rate = 1000.0, None),
                (|c| c.learning_rate = 1000.5, Some("training.learning_rate")),
                (|c| c.learning_rate = f64::INFINITY, Some("training.learning_rate")),
                (|c| c.lr_decay = 0.0, Some("training.lr_decay")),
                (|c| c.lr_decay = 1.0, None),
                (|c| c.lr_decay = 1.5, Some("training.lr_decay")),
                (|c| c.lr_decay = f64::NAN, Some("training.lr_decay")),
                (|c| c.weight_decay = 0.0, None),
                (|c| c.weight_decay = -f64::MIN_POSITIVE, Some("training.weight_decay")),
                (|c| c.weight_decay = 1.0, None),
                (|c| c.weight_decay = 1.5, Some("training.weight_decay")),
                (|c| c.weight_decay = f64::INFINITY, Some("training.weight_decay")),
                (|c| c.samples_per_position = 0.0, Some("training.samples_per_position")),
                (|c| c.samples_per_position = f64::MIN_POSITIVE, None),
                (|c| c.samples_per_position = 1001.0, Some("training.samples_per_position")),
                (|c| c.search_value_weight = 1.0, None),
                (|c| c.search_value_weight = 1.0 + f32::EPSILON, Some("training.search_value_weight")),
                (|c| c.search_value_weight = -f32::MIN_POSITIVE, Some("training.search_value_weight")),
                (|c| c.min_positions = 0, None),
                (|c| c.min_positions = 500_000_001, Some("training.min_positions")),
                (|c| c.checkpoint_steps = 1_000_000_001, Some("training.checkpoint_steps")),
                (|c| c.keep_checkpoints = 0, None),
                (|c| c.keep_checkpoints = 1_000_001, Some("training.keep_checkpoints")),
            ],
        );
    }
}
