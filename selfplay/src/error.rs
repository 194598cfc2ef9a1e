//! Why a training run or a self-play process stopped with an error.

use thiserror::Error;

use crate::config::ConfigError;
use crate::replay::{DecodeError, ShardError};
use crate::store::lock::LockError;
use crate::store::rundir::RunIoError;
use nn::checkpoint::CheckpointError;

/// Why a run stopped with an error.
#[derive(Debug, Error)]
pub enum TrainError {
    /// The run directory could not be written or read.
    #[error(transparent)]
    Io(#[from] RunIoError),
    /// A checkpoint could not be written or read.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A shard could not be written.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// A recorded game does not replay.
    #[error("replay: {0}")]
    Decode(#[from] DecodeError),
    /// The device cannot be used.
    #[error(transparent)]
    Device(#[from] nn::device::DeviceError),
    /// Another trainer holds the run directory.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The network diverged (a NaN or infinite loss or weight); nothing from that step on is
    /// saved, so the newest checkpoint is the last sound network.
    #[error("training diverged at step {step}: {what}; no checkpoint was written from it (lower training.learning_rate, then resume)")]
    Diverged {
        /// The training step at which it was found.
        step: u64,
        /// What was not finite.
        what: String,
    },
    /// The run's own gauntlet could not be played. (Not a `source`: the message holds it, and
    /// a chain printed with it would say it twice.)
    #[error("gauntlet: {0}")]
    Gauntlet(crate::gauntlet::GauntletError),
    /// The run's saved config could not be read.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The run directory does not fit the request.
    #[error("{0}")]
    Run(String),
    /// The run was refused before it opened (another trainer holds it, its checkpoints do not
    /// fit the config, the device is missing): nothing of the run was changed, so nothing is to
    /// be logged into it.
    #[error(transparent)]
    NotOpened(Box<TrainError>),
}

impl From<durable::Error> for TrainError {
    fn from(e: durable::Error) -> TrainError {
        TrainError::Io(e.into())
    }
}

/// A device that cannot be used is the run's error, said as when the run itself meets it; the
/// rest are the gauntlet's.
impl From<crate::gauntlet::GauntletError> for TrainError {
    fn from(e: crate::gauntlet::GauntletError) -> TrainError {
        match e {
            crate::gauntlet::GauntletError::Device(e) => TrainError::Device(e),
            e => TrainError::Gauntlet(e),
        }
    }
}

impl TrainError {
    /// Whether the run was refused before it opened (see [`TrainError::NotOpened`]).
    pub fn is_refusal(&self) -> bool {
        matches!(self, TrainError::NotOpened(_))
    }
}
