//! Neural networks for vzero on libtorch (tch): the residual policy/value network, the batched
//! inference service and the network as a search evaluator, its training step, its checkpoints
//! and its export. Positions arrive already encoded by `rules` as flat `f32` buffers.

pub mod bench;
pub mod checkpoint;
pub mod config;
pub mod device;
mod evaluator;
pub mod export;
pub mod fast;
pub mod inference;
mod listed;
pub mod net;
pub mod optimizer;
pub mod scaler;
pub mod train;
mod trunk;

pub use config::{NetConfig, Trunk};
pub use device::DeviceChoice;
pub use evaluator::{NetEvaluator, LISTED_POLICY_FROM};
pub use fast::{FastNet, Inference, InferenceForm, Precision, PrecisionChoice};
pub use inference::{BatchingConfig, InferenceClient, InferenceService, Outputs, Shared};
pub use listed::ListedMoves;
pub use net::PolicyValueNet;
pub use scaler::LossScaler;
/// libtorch errors, re-exported so callers need not depend on tch.
pub use tch::{Device, TchError};
pub use train::{evaluate_losses, TrainBatch, TrainForm, TrainFormChoice, TrainStats, Trainer, UnknownTrainForm};

/// Sets libtorch's intra-op thread count. On few cores, one thread per worker and parallelism
/// across games beats libtorch's OpenMP pool, which collapses when the cores are shared.
pub fn set_threads(threads: usize) {
    tch::set_num_threads(threads.max(1) as i32);
}
