//! Gauntlets: a run's checkpoints against fixed opponents that never learn (random, greedy,
//! alpha-beta), on one rating scale, so a run is measured by a ruler that does not move with
//! it. Each match is logged to the run's metrics.jsonl as a [`GauntletEvent`] the moment it
//! ends; a later gauntlet plays only the games a pairing does not have yet.
//!
//! [`GauntletEvent`]: crate::events::GauntletEvent

mod choice;
mod play;
mod table;

pub use choice::CheckpointChoice;
pub use play::{run_gauntlet, GauntletError, GauntletOptions};
pub use table::{gauntlet_table, GauntletRow, GauntletTable};

/// The opponent that anchors the scale at Elo 0 when it took part.
pub const ANCHOR: &str = "random";

/// The training step a checkpoint folder name (`step-N`) stands for.
pub fn checkpoint_step(name: &str) -> Option<u64> {
    name.strip_prefix("step-")?.parse().ok()
}
