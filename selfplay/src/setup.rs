//! What the trainer, self-play processes, players and benchmarks derive alike from a config and
//! a game type: the network's shape, the start position, weights in the inference service.

use std::path::Path;

use nn::{InferenceClient, NetConfig};
use rules::{Encoding, Game};

use crate::checkpoint::CheckpointError;
use crate::config::Config;
use crate::error::TrainError;

/// The network for game `G` with `blocks` residual blocks of `channels` channels.
pub fn net_config<G: Encoding>(blocks: usize, channels: usize) -> NetConfig {
    NetConfig {
        input_shape: G::INPUT_SHAPE.to_vec(),
        policy_size: G::POLICY_SIZE,
        players: G::NUM_PLAYERS,
        outcomes: G::value_classes(),
        blocks,
        channels,
        board_mask: G::board_mask(),
    }
}

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
