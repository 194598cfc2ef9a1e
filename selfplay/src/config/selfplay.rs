//! `[selfplay]`: how training games are generated, and each key's limits.

use serde::{Deserialize, Serialize};

use super::limits::{one_to, share, size, up_to, zero_to, Limits, MAX_ADJUDICATION_PAWNS, MAX_GAMES, MAX_PLIES};

/// `[selfplay]`: how games are generated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfplayConfig {
    /// Worker threads, each interleaving `games_per_worker` games.
    pub workers: usize,
    /// Games each worker keeps in progress at once, so the network sees large batches.
    pub games_per_worker: usize,
    /// Games played per iteration (between two training phases).
    pub games_per_iteration: usize,
    /// Longest game in plies; a game reaching it is adjudicated a draw, or by material.
    pub max_plies: u32,
    /// A game reaching `max_plies` with seats at least this many pawns of material apart is
    /// scored by their material standings ([`rules::material_standings`]: two players, the side
    /// ahead wins); a prior, off in a pure-zero run. 0 keeps every such game a draw. The run's
    /// own matches (gating, evaluation, gauntlet) score their games by the same rule.
    pub adjudicate_material: f32,
    /// A player whose searched value stays below this for `resign_plies` of its consecutive
    /// moves resigns (scores: as if it lost). 0 disables resignation.
    pub resign_threshold: f32,
    /// Consecutive moves below the threshold before resigning.
    pub resign_plies: u32,
    /// Share of games in which resignation is disabled, to measure false resignations.
    pub resign_playthrough: f32,
    /// Positions per inference batch.
    pub max_batch: usize,
    /// Finished games are written to the run directory (as one shard) at least every this many
    /// games, so a process stopped or killed mid-iteration loses at most the games not yet
    /// written.
    pub flush_games: usize,
}

impl SelfplayConfig {
    /// Each key within its range. The shares are shown as f64 in their messages, as they
    /// always were.
    pub(super) fn limits(&self) -> Limits {
        size("selfplay.workers", self.workers, 4096)?;
        size("selfplay.games_per_worker", self.games_per_worker, 1 << 16)?;
        one_to("selfplay.games_per_iteration", self.games_per_iteration as u64, MAX_GAMES)?;
        one_to("selfplay.max_plies", self.max_plies.into(), MAX_PLIES)?;
        let pawns = MAX_ADJUDICATION_PAWNS.into();
        zero_to("selfplay.adjudicate_material", self.adjudicate_material.into(), pawns, " pawns")?;
        up_to("selfplay.resign_plies", self.resign_plies.into(), MAX_PLIES)?;
        share("selfplay.resign_threshold", f64::from(self.resign_threshold))?;
        share("selfplay.resign_playthrough", f64::from(self.resign_playthrough))?;
        size("selfplay.max_batch", self.max_batch, 1 << 16)?;
        size("selfplay.flush_games", self.flush_games, 1 << 20)
    }
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        SelfplayConfig {
            workers: 2,
            games_per_worker: 16,
            games_per_iteration: 64,
            max_plies: 300,
            adjudicate_material: 0.0,
            resign_threshold: 0.0,
            resign_plies: 3,
            resign_playthrough: 0.1,
            max_batch: 256,
            // A lost batch of 16 games is a few percent of a full-size iteration (512), while
            // the shards stay few (32 per such iteration, each one fsync) and the tiny test
            // configs (8 games per iteration) still write one shard per iteration.
            flush_games: 16,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &SelfplayConfig::default(),
            SelfplayConfig::limits,
            &[
                (|c| c.workers = 0, Some("selfplay.workers")),
                (|c| c.workers = 4096, None),
                (|c| c.workers = 4097, Some("selfplay.workers")),
                (|c| c.games_per_worker = 0, Some("selfplay.games_per_worker")),
                (|c| c.games_per_worker = 1 << 16, None),
                (|c| c.games_per_worker = (1 << 16) + 1, Some("selfplay.games_per_worker")),
                (|c| c.games_per_iteration = 0, Some("selfplay.games_per_iteration")),
                (|c| c.games_per_iteration = 1, None),
                (|c| c.games_per_iteration = 1_000_000, None),
                (|c| c.games_per_iteration = 1_000_001, Some("selfplay.games_per_iteration")),
                (|c| c.max_plies = 0, Some("selfplay.max_plies")),
                (|c| c.max_plies = 1, None),
                (|c| c.max_plies = 100_000, None),
                (|c| c.max_plies = 100_001, Some("selfplay.max_plies")),
                (|c| c.adjudicate_material = -f32::MIN_POSITIVE, Some("selfplay.adjudicate_material")),
                (|c| c.adjudicate_material = 10_000.0, None),
                (|c| c.adjudicate_material = 10_001.0, Some("selfplay.adjudicate_material")),
                (|c| c.adjudicate_material = f32::INFINITY, Some("selfplay.adjudicate_material")),
                (|c| c.resign_threshold = -f32::MIN_POSITIVE, Some("selfplay.resign_threshold")),
                (|c| c.resign_threshold = 1.0, None),
                (|c| c.resign_threshold = 1.0 + f32::EPSILON, Some("selfplay.resign_threshold")),
                (|c| c.resign_playthrough = 0.0, None),
                (|c| c.resign_playthrough = 1.0, None),
                (|c| c.resign_playthrough = f32::NAN, Some("selfplay.resign_playthrough")),
                (|c| c.resign_plies = 0, None),
                (|c| c.resign_plies = 100_001, Some("selfplay.resign_plies")),
                (|c| c.max_batch = 0, Some("selfplay.max_batch")),
                (|c| c.max_batch = 1 << 16, None),
                (|c| c.max_batch = (1 << 16) + 1, Some("selfplay.max_batch")),
                (|c| c.flush_games = 0, Some("selfplay.flush_games")),
                (|c| c.flush_games = 1 << 20, None),
                (|c| c.flush_games = (1 << 20) + 1, Some("selfplay.flush_games")),
            ],
        );
    }
}
