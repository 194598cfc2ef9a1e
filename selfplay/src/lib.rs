//! Self-play, replay buffer, training loop, arena and run directories: the layer that turns
//! search and networks into a training run.

pub mod arena;
pub mod bench;
pub mod bradley_terry;
pub mod checkpoint;
pub mod config;
pub mod engine_process;
pub mod error;
pub mod evaluation;
pub mod evaluator;
pub mod events;
pub mod export;
mod flush;
pub mod forfeit;
pub mod games;
pub mod gating;
pub mod gauntlet;
pub mod host;
pub mod lock;
pub mod phase;
pub mod players;
pub mod policy_json;
pub mod rating;
pub mod replay;
pub mod resume;
pub mod run;
pub mod rundir;
pub mod sampler;
pub mod scaleout;
pub mod setup;
pub mod train;
pub mod uci_agent;
