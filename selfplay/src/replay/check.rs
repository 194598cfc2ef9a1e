//! Whether a stored game can be trained on: shards come from other processes and hosts, and
//! one of another variant or with inconsistent contents must be skipped when it is loaded, not
//! found by the sampler in the middle of training.

use std::path::Path;

use rules::Encoding;

use super::playback::DecodeError;
use super::record::GameRecord;
use super::shard::{read_shard, ShardError};

/// The games of the shard at `path` if it is readable and every game in it can be trained on
/// as `G` (see [`GameRecord::check`]); otherwise why not, naming the shard and the game.
pub fn read_checked_shard<G: Encoding>(path: &Path) -> Result<Vec<GameRecord>, ShardError> {
    let games = read_shard(path)?;
    for g in &games {
        g.check::<G>().map_err(|source| ShardError::Unusable { path: path.to_path_buf(), number: g.number, source })?;
    }
    Ok(games)
}

impl GameRecord {
    /// Checks the record as a game of `G`: its variant and start position, one score per seat,
    /// every move legal, and every recorded visit on a legal move.
    pub fn check<G: Encoding>(&self) -> Result<(), DecodeError> {
        if self.scores.len() != G::NUM_PLAYERS {
            return Err(DecodeError::Scores { expected: G::NUM_PLAYERS, found: self.scores.len() });
        }
        let mut replay = self.replay::<G>()?;
        let mut indices = Vec::new();
        while let Some(step) = replay.step() {
            let step = step?;
            indices.clear();
            indices.extend(step.legal.iter().map(|&mv| step.position.policy_index(mv) as u32));
            indices.sort_unstable();
            if let Some(&(index, _)) = step.record.visits.iter().find(|(i, _)| indices.binary_search(i).is_err()) {
                return Err(DecodeError::BadVisit { ply: step.ply, index });
            }
        }
        Ok(())
    }
}
