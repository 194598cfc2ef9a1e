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
    /// Checks the record as a game of `G`: its variant and start position, one finite score per
    /// seat, every move legal, every recorded visit on a distinct legal move with counts that
    /// add up within a `u32` (the policy target divides by their sum), and finite search values.
    /// A shard's checksum guards against corruption, not against a hostile or buggy writer.
    pub fn check<G: Encoding>(&self) -> Result<(), DecodeError> {
        if self.scores.len() != G::NUM_PLAYERS {
            return Err(DecodeError::Scores { expected: G::NUM_PLAYERS, found: self.scores.len() });
        }
        if !self.scores.iter().all(|v| v.is_finite()) {
            return Err(DecodeError::NotFinite("final score"));
        }
        if !self.moves.iter().flat_map(|m| m.root_value.iter().flatten()).all(|v| v.is_finite()) {
            return Err(DecodeError::NotFinite("search value"));
        }
        let mut replay = self.replay::<G>()?;
        let (mut indices, mut visited) = (Vec::new(), Vec::new());
        while let Some(step) = replay.step() {
            let step = step?;
            indices.clear();
            indices.extend(step.legal.iter().map(|&mv| step.position.policy_index(mv) as u32));
            indices.sort_unstable();
            let visits = &step.record.visits;
            if let Some(&(index, _)) = visits.iter().find(|(i, _)| indices.binary_search(i).is_err()) {
                return Err(DecodeError::BadVisit { ply: step.ply, index });
            }
            visited.clear();
            visited.extend(visits.iter().map(|&(i, _)| i));
            visited.sort_unstable();
            if let Some(pair) = visited.windows(2).find(|pair| pair[0] == pair[1]) {
                return Err(DecodeError::RepeatedVisit { ply: step.ply, index: pair[0] });
            }
            if visits.iter().try_fold(0u32, |total, &(_, n)| total.checked_add(n)).is_none() {
                return Err(DecodeError::VisitTotal { ply: step.ply });
            }
        }
        Ok(())
    }
}
