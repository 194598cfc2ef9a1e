//! The self-play phase: this iteration's games, stored in shards as they finish and added to
//! the window with those other processes have added since.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use rules::Encoding;

use super::outcome::SelfPlayed;
use super::Run;
use crate::error::TrainError;
use crate::play::flush::Flusher;
use crate::play::phase::self_play_phase;
use crate::replay::GameRecord;
use crate::run::resume::load_external_shards;

impl<G: Encoding> Run<G> {
    /// Plays the games of this iteration not yet in the replay shards (all of them, unless a
    /// stopped run left some behind), storing them every `selfplay.flush_games` games, and adds
    /// the iteration's games and other processes' new games to the window.
    pub fn self_play(&mut self) -> Result<SelfPlayed, TrainError> {
        let per_iteration = self.config.selfplay.games_per_iteration as u64;
        let first = self.state.iteration as u64 * per_iteration;
        let end = first + per_iteration;
        let wanted: VecDeque<u64> = (first..end).filter(|n| !self.done.contains(n)).collect();
        // libtorch gets one thread; the cores go to the search workers.
        nn::set_threads(1);
        let begun = Instant::now();
        let stats = self.client.stats();
        let before = (stats.positions(), stats.batches());
        let iteration = self.state.iteration;
        let mut flusher = Flusher::<G>::new(&self.dir, &mut self.shard_names, self.config.selfplay.flush_games);
        let phase =
            self_play_phase::<G>(&self.config, &self.client, iteration, wanted, self.stop, self.progress, &mut flusher);
        // Whatever finished is stored, even when a write failed later on.
        let flushed = flusher.finish();
        let (phase, flushed) = (phase?, flushed?);
        let seconds = begun.elapsed().as_secs_f64();
        let stats = self.client.stats();
        let (evaluated, forward_passes) = (stats.positions() - before.0, stats.batches() - before.1);
        let new_positions = flushed.games.iter().map(GameRecord::training_positions).sum();
        self.known_shards.extend(flushed.shards);
        if self.stop_requested() {
            eprintln!(
                "vzero train: stopped during self-play; {} games of iteration {} are stored, {} in progress were dropped",
                self.done.range(first..end).count() + flushed.games.len(),
                iteration + 1,
                phase.dropped
            );
        }
        // The window takes an iteration's games in game order, as a run that never stopped
        // does: those an earlier process stored (held back when the run was opened) with these.
        let mut games: Vec<GameRecord> = flushed.games;
        games.extend(self.held_back.extract_if(.., |g| g.number < end));
        games.sort_by_key(|g| g.number);
        for g in games {
            self.done.insert(g.number);
            self.window.push(Arc::new(g));
        }
        // Games that `vzero selfplay` processes sharing the run directory have added since.
        let external_games = load_external_shards::<G>(&self.dir, &mut self.known_shards, &mut self.window)?;
        self.state.games = self.done.len() as u64;
        Ok(SelfPlayed {
            games: phase.summaries,
            new_positions,
            seconds,
            evaluated,
            forward_passes,
            rollout_weight: self.config.search.rollout_weight_at(iteration),
            material_weight: self.config.search.material_weight_at(iteration),
            tactics_weight: self.config.search.tactics_weight_at(iteration),
            external_games,
        })
    }
}
