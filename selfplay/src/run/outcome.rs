//! What the phases of an iteration did: handed from phase to phase and into the iteration's record.

use nn::TrainStats;

use crate::play::worker::GameSummary;

/// What the self-play phase of an iteration did.
#[derive(Clone, Debug)]
pub struct SelfPlayed {
    /// The games finished, in game order.
    pub games: Vec<GameSummary>,
    /// Training positions they added.
    pub new_positions: usize,
    /// Wall time.
    pub seconds: f64,
    /// Positions the network evaluated.
    pub evaluated: u64,
    /// Forward passes it took for them.
    pub forward_passes: u64,
    /// Share of random playouts in leaf values.
    pub rollout_weight: f32,
    /// Share of the material prior in leaf values.
    pub material_weight: f32,
    /// Share of the quiescence value in leaf values.
    pub tactics_weight: f32,
    /// Games of `vzero selfplay` processes added to the window.
    pub external_games: usize,
}

/// What the training phase of an iteration did.
#[derive(Clone, Debug, Default)]
pub struct Trained {
    /// Steps taken.
    pub steps: u64,
    /// Sums of the steps' policy and value losses.
    pub loss_sums: (f64, f64),
    /// The losses of the first step.
    pub first: Option<TrainStats>,
    /// Wall time.
    pub seconds: f64,
    /// Positions sampled from `vzero selfplay` processes' games.
    pub sampled_external: usize,
    /// Positions sampled from the teacher's games.
    pub sampled_teacher: usize,
    /// The teacher's share of the batches.
    pub teacher_share: f32,
    /// The phase took every step it was allowed (false: stopped on request).
    pub complete: bool,
}

impl Trained {
    /// Mean policy and value loss (none without steps).
    pub fn mean_losses(&self) -> Option<(f64, f64)> {
        let n = self.steps as f64;
        (self.steps > 0).then(|| (self.loss_sums.0 / n, self.loss_sums.1 / n))
    }
}
