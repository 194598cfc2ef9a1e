//! The sliding window of recent positions the trainer samples from.

use std::collections::VecDeque;
use std::sync::Arc;

use rand::RngExt;
use rules::Encoding;

use crate::replay::playback::DecodeError;
use crate::replay::record::GameRecord;
use crate::replay::snapshots::SnapshotSlot;

/// How many positions the window holds as the run grows (KataGo's rule): with `n` positions
/// seen in total, the window is all of them up to `min`, then
/// `min * (1 + beta * ((n / min)^alpha - 1) / alpha)`, capped at `max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowSize {
    /// Positions kept before the window starts to grow sublinearly.
    pub min: usize,
    /// The most positions ever kept.
    pub max: usize,
    /// Growth exponent (0.75 in KataGo).
    pub alpha: f64,
    /// Growth scale (0.4 in KataGo).
    pub beta: f64,
}

impl WindowSize {
    /// A window that keeps every position (the teacher's games).
    pub const EVERYTHING: WindowSize = WindowSize { min: usize::MAX, max: usize::MAX, alpha: 1.0, beta: 1.0 };

    /// The window size after `seen` positions in total.
    pub fn positions(&self, seen: u64) -> usize {
        let n = seen as f64;
        let c = self.min as f64;
        let size = if n <= c { n } else { c * (1.0 + self.beta * ((n / c).powf(self.alpha) - 1.0) / self.alpha) };
        (size as usize).min(self.max)
    }
}

/// The most recent games, holding about [`WindowSize::positions`] training positions.
#[derive(Debug)]
pub struct ReplayWindow {
    size: WindowSize,
    games: VecDeque<Arc<GameRecord>>,
    /// Each game's positions for the sampler, built the first time one of them is sampled.
    snapshots: VecDeque<SnapshotSlot>,
    /// Absolute index of each game's first training position (positions seen before it).
    starts: VecDeque<u64>,
    seen: u64,
}

impl ReplayWindow {
    /// An empty window.
    pub fn new(size: WindowSize) -> ReplayWindow {
        ReplayWindow { size, games: VecDeque::new(), snapshots: VecDeque::new(), starts: VecDeque::new(), seen: 0 }
    }

    /// Adds a finished game and drops the oldest games the window no longer covers.
    pub fn push(&mut self, game: Arc<GameRecord>) {
        let n = game.training_positions() as u64;
        if n == 0 {
            return;
        }
        self.starts.push_back(self.seen);
        self.games.push_back(game);
        self.snapshots.push_back(SnapshotSlot::default());
        self.seen += n;
        let target = self.size.positions(self.seen) as u64;
        // Drop whole games while what remains still covers the target.
        while self.starts.len() > 1 && self.seen - self.starts[1] >= target {
            self.starts.pop_front();
            self.games.pop_front();
            self.snapshots.pop_front();
        }
    }

    /// Training positions in the window.
    pub fn len(&self) -> usize {
        self.starts.front().map_or(0, |&s| (self.seen - s) as usize)
    }

    /// True before the first game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Training positions added over the window's life.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Games in the window.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// A uniformly chosen training position: its game and the ply of the move searched there.
    ///
    /// # Panics
    /// If the window is empty.
    pub fn sample(&self, rng: &mut impl rand::Rng) -> (Arc<GameRecord>, usize) {
        let (i, ply) = self.pick(rng);
        (Arc::clone(&self.games[i]), ply)
    }

    /// A position chosen as [`ReplayWindow::sample`] chooses it (the same one for the same
    /// `rng`), with the game state there, rebuilt from the game's snapshots (decoded for `G` the
    /// first time the game is sampled, kept while it is in the window).
    ///
    /// # Panics
    /// If the window is empty.
    pub fn sample_position<G: Encoding>(
        &self,
        rng: &mut impl rand::Rng,
    ) -> Result<(&GameRecord, usize, G), DecodeError> {
        let (i, ply) = self.pick(rng);
        let record = &self.games[i];
        let position = self.snapshots[i].get_or_build::<G>(record)?.position(ply);
        Ok((record, ply, position))
    }

    /// The index in `games` and the ply of a uniformly chosen training position.
    fn pick(&self, rng: &mut impl rand::Rng) -> (usize, usize) {
        let first = *self.starts.front().expect("sample from an empty replay window");
        let x = first + rng.random_range(0..self.len() as u64);
        let i = self.starts.partition_point(|&s| s <= x) - 1;
        let k = (x - self.starts[i]) as usize;
        let ply = self.games[i]
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.policy_target)
            .nth(k)
            .map(|(ply, _)| ply)
            .expect("k is below the game's training positions");
        (i, ply)
    }
}
