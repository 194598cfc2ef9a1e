//! What the trainer, self-play processes and benchmarks derive alike from a config: the start
//! position, and a checkpoint's weights in the inference service.

use std::path::Path;

use std::time::Duration;

use nn::{BatchingConfig, InferenceClient, InferenceService, PolicyValueNet};
use rules::{Encoding, Game};

use crate::config::Config;
use crate::error::TrainError;
use nn::checkpoint::CheckpointError;

/// The position every game of the run starts from: the config's `start_position`, or the
/// variant's start. A finished position is refused: its games would end before their first
/// move, and a run of empty games, or a teacher waiting for labelled positions, never ends.
pub fn start_state<G: Game>(config: &Config) -> Result<G, TrainError> {
    let Some(text) = &config.start_position else { return Ok(G::start()) };
    let start = G::from_text(text).map_err(|e| TrainError::Run(format!("start_position: {e}")))?;
    if let Some(scores) = start.outcome() {
        let scores: Vec<String> = scores.as_slice().iter().map(|s| s.to_string()).collect();
        return Err(TrainError::Run(format!(
            "start_position: the game is over there (final scores {}); expected a position with a move to play",
            scores.join(" ")
        )));
    }
    Ok(start)
}

/// An inference service for the config's network of game `G` in `inference`'s form, batching up
/// to `selfplay.max_batch` positions and waiting at most `max_wait` for more; its weights are
/// fresh until a checkpoint's are loaded ([`load_into_service`]).
pub(crate) fn spawn_service<G: Encoding>(
    config: &Config,
    inference: nn::Inference,
    max_wait: Duration,
) -> (InferenceService, InferenceClient) {
    let net = config.network.net_config::<G>();
    let batching = BatchingConfig::new(config.selfplay.max_batch, max_wait, &inference);
    let device = inference.device;
    InferenceService::spawn(move || PolicyValueNet::new(&net, device), batching)
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
