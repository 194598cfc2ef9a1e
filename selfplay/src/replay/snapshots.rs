//! A game's positions kept for sampling: every [`SNAPSHOT_PLIES`]-th position and every move,
//! decoded once, so a sampled position is rebuilt from the snapshot before it (at most
//! `SNAPSHOT_PLIES - 1` moves played, no move generation) rather than replayed from ply 0.

use std::any::Any;
use std::fmt;
use std::sync::OnceLock;

use rules::Encoding;

use crate::replay::playback::DecodeError;
use crate::replay::record::GameRecord;

/// Plies between snapshots: rebuilding costs up to this many `play`s, keeping costs one
/// position per this many plies (a Glinski position is a few hundred bytes, a recorded move
/// with its visits about as much, so 16 adds a few percent to the window's memory).
pub const SNAPSHOT_PLIES: usize = 16;

/// The decoded moves and snapshot positions of one game.
pub struct Snapshots<G: Encoding> {
    /// The moves played, one per ply.
    moves: Vec<G::Move>,
    /// The positions before plies 0, `SNAPSHOT_PLIES`, `2 * SNAPSHOT_PLIES`, ...
    every: Vec<G>,
}

impl<G: Encoding> Snapshots<G> {
    /// Replays `record` once, keeping its moves and a snapshot every [`SNAPSHOT_PLIES`] plies.
    pub fn build(record: &GameRecord) -> Result<Snapshots<G>, DecodeError> {
        let mut moves = Vec::with_capacity(record.moves.len());
        let mut every = Vec::with_capacity(record.moves.len() / SNAPSHOT_PLIES + 1);
        let mut replay = record.replay::<G>()?;
        while let Some(step) = replay.step() {
            let step = step?;
            if step.ply % SNAPSHOT_PLIES == 0 {
                every.push(step.position.clone());
            }
            moves.push(step.mv);
        }
        Ok(Snapshots { moves, every })
    }

    /// The position before move `ply`, the same as replaying the record to it.
    ///
    /// # Panics
    /// If `ply` is not below the number of moves.
    pub fn position(&self, ply: usize) -> G {
        assert!(ply < self.moves.len(), "ply {ply} of a game of {} moves", self.moves.len());
        let from = ply / SNAPSHOT_PLIES;
        let mut game = self.every[from].clone();
        for &mv in &self.moves[from * SNAPSHOT_PLIES..ply] {
            game.play(mv);
        }
        game
    }
}

/// Where a window keeps one game's [`Snapshots`], built on first use. The window does not know
/// the variant, so the snapshots are stored type-erased and recovered for the `G` that built them.
#[derive(Default)]
pub struct SnapshotSlot(OnceLock<Box<dyn Any + Send + Sync>>);

impl SnapshotSlot {
    /// The snapshots of `record` (the game this slot belongs to) as a game of `G`.
    pub fn get_or_build<G: Encoding>(&self, record: &GameRecord) -> Result<&Snapshots<G>, DecodeError> {
        if self.0.get().is_none() {
            // Two threads may build at once; the first to finish is kept, both are equal.
            let _ = self.0.set(Box::new(Snapshots::<G>::build(record)?));
        }
        self.0
            .get()
            .and_then(|s| s.downcast_ref::<Snapshots<G>>())
            .ok_or_else(|| DecodeError::WrongVariant { expected: G::NAME, found: record.variant.clone() })
    }
}

impl fmt::Debug for SnapshotSlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.get().is_some() { "SnapshotSlot(built)" } else { "SnapshotSlot(empty)" })
    }
}
