//! The self-play phase: this iteration's games, stored as a shard and added to the window with
//! those other processes have added since.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use rules::Encoding;

use super::outcome::Played;
use super::Run;
use crate::error::TrainError;
use crate::phase::{self_play_phase, write_game_texts};
use crate::replay::{write_shard, GameRecord};
use crate::resume::load_external_shards;

impl<G: Encoding> Run<G> {
    /// Plays the games of this iteration not yet in the replay shards (all of them, unless a
    /// stopped run left some behind), stores them, and adds them and other processes' new games
    /// to the window.
    pub fn self_play(&mut self) -> Result<Played, TrainError> {
        let per_iteration = self.config.selfplay.games_per_iteration as u64;
        let first = self.state.iteration as u64 * per_iteration;
        let wanted: VecDeque<u64> = (first..first + per_iteration).filter(|n| !self.done.contains(n)).collect();
        // libtorch gets one thread; the cores go to the search workers.
        nn::set_threads(1);
        let begun = Instant::now();
        let stats = self.client.stats();
        let before = (stats.positions(), stats.batches());
        let iteration = self.state.iteration;
        let (records, games) =
            self_play_phase::<G>(&self.config, &self.client, iteration, wanted, &self.stop, self.progress);
        let seconds = begun.elapsed().as_secs_f64();
        let stats = self.client.stats();
        let (evaluated, forward_passes) = (stats.positions() - before.0, stats.batches() - before.1);
        let new_positions = records.iter().map(GameRecord::training_positions).sum();
        if !records.is_empty() {
            let shard = self.dir.replay().join(self.shard_names.next_name());
            write_shard(&shard, &records)?;
            write_game_texts::<G>(&self.dir, &shard, &records)?;
            self.known_shards.insert(shard);
        }
        for r in records {
            self.done.insert(r.number);
            self.window.push(Arc::new(r));
        }
        // Games that `vzero selfplay` processes sharing the run directory have added since.
        let external_games = load_external_shards::<G>(&self.dir, &mut self.known_shards, &mut self.window)?;
        self.state.games = self.done.len() as u64;
        Ok(Played {
            games,
            new_positions,
            seconds,
            evaluated,
            forward_passes,
            rollout_weight: self.config.search.rollout_weight_at(iteration),
            external_games,
        })
    }
}
