//! What `vzero runs endings` reports: how a run's games ended, its self-play games grouped by
//! iterations and its teacher's games apart, so that a fall into repetition draws (or a
//! lever that ends it) shows at a glance.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use rules::{with_game, FullGame};
use selfplay::replay::{read_checked_shard, GameRecord, EXTERNAL_GAME};
use selfplay::Config;
use selfplay::RunDir;
use serde::Serialize;

/// How the games of one group ended.
#[derive(Debug, Default, Serialize)]
pub struct EndingGroup {
    /// The games: `teacher`, `iterations A-B` or `selfplay processes`.
    pub games: String,
    /// How many games.
    pub count: u64,
    /// Their mean length in plies.
    pub mean_plies: f64,
    /// Games with every seat on the same score.
    pub draws: u64,
    /// Games by how they ended: a rule's name (`checkmate`, `repetition`, ...), `move limit`
    /// (stopped at `selfplay.max_plies` and adjudicated) or `resigned` (stopped early by a
    /// resignation).
    pub endings: BTreeMap<String, u64>,
}

/// A run's games by how they ended; also the object `vzero runs endings --json` prints.
#[derive(Debug, Serialize)]
pub struct RunEndings {
    /// The run directory.
    pub run: PathBuf,
    /// Iterations per group of self-play games.
    pub every: u32,
    /// The groups: the teacher's games first, then the trainer's by iteration, then those of
    /// `vzero selfplay` processes.
    pub groups: Vec<EndingGroup>,
}

impl RunEndings {
    /// Reads every usable shard of the run at `root`, grouping its trainer's games `every`
    /// iterations at a time (0: about five groups over the iterations played).
    pub fn gather(root: &Path, every: u32) -> anyhow::Result<RunEndings> {
        let dir = RunDir::existing(root)?;
        let config =
            Config::load(&dir.config(), &[]).with_context(|| format!("{} is not a run directory", root.display()))?;
        let shards = dir.shard_paths()?;
        let games: Vec<GameRecord> = shards
            .iter()
            .filter_map(|path| match with_game!(config.variant(), G => read_checked_shard::<G>(path)) {
                Ok(games) => Some(games),
                Err(e) => {
                    eprintln!("vzero: warning: not counting {e}");
                    None
                }
            })
            .flatten()
            .collect();
        let per_iteration = config.selfplay.games_per_iteration.max(1) as u64;
        let iteration = |g: &GameRecord| (g.number / per_iteration) as u32;
        let played = games.iter().filter(|g| is_trainer(g)).map(|g| iteration(g) + 1).max().unwrap_or(0);
        let every = if every > 0 { every } else { played.div_ceil(5).max(1) };
        let mut groups: BTreeMap<(u8, u32), EndingGroup> = BTreeMap::new();
        for g in &games {
            let (key, name) = if g.is_teacher() {
                ((0, 0), "teacher".to_string())
            } else if is_trainer(g) {
                let first = iteration(g) / every * every + 1;
                ((1, first), format!("iterations {first}-{}", first + every - 1))
            } else {
                ((2, 0), "selfplay processes".to_string())
            };
            let group = groups.entry(key).or_insert_with(|| EndingGroup { games: name, ..EndingGroup::default() });
            let end = with_game!(config.variant(), G => ending_of::<G>(g, config.selfplay.max_plies));
            group.count += 1;
            group.mean_plies += g.moves.len() as f64;
            group.draws += g.scores.windows(2).all(|w| w[0] == w[1]) as u64;
            *group.endings.entry(end).or_default() += 1;
        }
        let mut groups: Vec<EndingGroup> = groups.into_values().collect();
        for g in &mut groups {
            g.mean_plies /= g.count.max(1) as f64;
        }
        Ok(RunEndings { run: root.to_path_buf(), every, groups })
    }
}

/// A game the run's own trainer played (not the teacher's, not a `vzero selfplay` process's).
fn is_trainer(g: &GameRecord) -> bool {
    !g.is_teacher() && g.number & EXTERNAL_GAME == 0
}

/// How `record` ended: the rule that ended its final position, else `move limit` or `resigned`
/// (the run stopped it). A record that does not replay is `unreadable`.
fn ending_of<G: FullGame>(record: &GameRecord, max_plies: u32) -> String {
    let Ok(mut replay) = record.replay::<G>() else { return "unreadable".into() };
    while let Some(step) = replay.step() {
        if step.is_err() {
            return "unreadable".into();
        }
    }
    match replay.into_position().ending() {
        Some(ending) => ending.name().to_string(),
        None if record.moves.len() as u32 >= max_plies => "move limit".into(),
        None => "resigned".into(),
    }
}
