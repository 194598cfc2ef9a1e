//! The training run: self-play workers, the replay window and its shards, the trainer loop,
//! checkpoints, gating, the run's gauntlet and end-of-run evaluation, resume and extra self-play
//! processes, all meeting in a run directory. Matches and players come from the `arena` crate,
//! networks and checkpoints from `nn`.

pub mod bench;
pub mod config;
pub mod error;
pub mod gauntlet;
pub mod play;
pub mod progress;
pub mod replay;
pub mod run;
pub mod setup;
pub mod store;
pub mod teach;

pub use config::Config;
pub use error::TrainError;
pub use run::{train, TrainOptions, TrainSummary};
pub use store::{read_events, EventLog, RunDir, RunEvent};
