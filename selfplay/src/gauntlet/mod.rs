//! A run's gauntlet: its checkpoints against fixed opponents that never learn (random, greedy,
//! alpha-beta), played through the arena, each match logged to the run's metrics.jsonl as a
//! [`GauntletMatch`] the moment it ends; a later gauntlet plays only the games a pairing does not
//! have yet. The run plays its own every few iterations (phase.rs), `vzero gauntlet` any time
//! ([`run_gauntlet`]); [`gauntlet_table_from_log`] puts the logged matches on one rating scale.

mod anchors;
mod pairs;
mod phase;
mod play;
mod table;

pub(crate) use anchors::run_anchors;
pub use arena::gauntlet::{
    gauntlet_settings, CheckpointChoice, GauntletMatch, GauntletRow, GauntletSetting, GauntletTable, HeadToHead,
};
pub use pairs::head_to_head_from_log;
pub(crate) use phase::{check_engines, gauntlet_due, gauntlet_phase};
pub use play::{run_gauntlet, GauntletError, GauntletOptions, GauntletPlan};
pub use table::{gauntlet_matches, gauntlet_table_from_log};
