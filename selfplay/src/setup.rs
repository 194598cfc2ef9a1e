//! What the trainer, self-play processes and benchmarks derive alike from a config: the start
//! position, and a checkpoint's weights in the inference service.

use std::path::Path;

use nn::InferenceClient;
use rules::Game;

use crate::config::Config;
use crate::error::TrainError;
use nn::checkpoint::CheckpointError;

/// The position every game of the run starts from: the config's `start_position`, or the
/// variant's start.
pub fn start_state<G: Game>(config: &Config) -> Result<G, TrainError> {
    match &config.start_position {
        Some(text) => G::from_text(text).map_err(|e| TrainError::Run(format!("start_position: {e}"))),
        None => Ok(G::start()),
    }
}

/// Loads a checkpoint's weights into the inference service.
pub(crate) fn load_into_service(client: &InferenceClient, checkpoint: &Path) -> Result<(), TrainError> {
    let weights = checkpoint.join("weights.safetensors");
    match client.load_weights(weights.clone()) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(reason)) => Err(CheckpointError::Bad { path: weights, reason }.into()),
        Err(e) => Err(TrainError::Run(e.to_string())),
    }
}
