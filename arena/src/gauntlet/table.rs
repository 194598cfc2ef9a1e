//! A run's gauntlet results as one table: every player's games, score, time per move and its
//! rating on one Bradley-Terry scale.

use std::collections::BTreeMap;

use super::{checkpoint_step, GauntletMatch, GauntletSetting, ANCHOR};
use crate::rating::{fit_ratings, PairResult, Rating};

/// One player of a gauntlet table.
#[derive(Clone, Debug, PartialEq)]
pub struct GauntletRow {
    /// A checkpoint's folder name or a fixed opponent as written (`greedy`).
    pub name: String,
    /// A checkpoint's training step (none for fixed opponents).
    pub step: Option<u64>,
    /// Training wall time (self-play and training) until the checkpoint, where logged.
    pub train_seconds: Option<f64>,
    /// Games played.
    pub games: usize,
    /// Mean score over them.
    pub score: f64,
    /// Seconds per move it chose.
    pub seconds_per_move: Option<f64>,
    /// Its place on the scale (none without a chain of matches to the anchor).
    pub rating: Option<Rating>,
    /// Its forfeits by kind (only a `uci:` opponent forfeits): counted as losses in its score.
    pub forfeits: BTreeMap<String, usize>,
    /// One of its pairings' last match was interrupted: it has fewer games than asked for
    /// until a gauntlet plays the rest.
    pub partial: bool,
}

/// The ratings of a run's gauntlet under one setting.
#[derive(Clone, Debug, PartialEq)]
pub struct GauntletTable {
    /// The player at Elo 0: `random` where it played, else the first fixed opponent.
    pub anchor: String,
    /// What every game of the table was played under.
    pub setting: GauntletSetting,
    /// Checkpoints by step, then the fixed opponents by rating.
    pub rows: Vec<GauntletRow>,
}

/// Totals of one player while the table is built.
#[derive(Default)]
struct Tally {
    forfeits: BTreeMap<String, usize>,
    games: usize,
    score: f64,
    moves: u64,
    seconds: f64,
}

/// The table of the gauntlet matches of `all` (in the order they were played) played under
/// `setting`, every other match left out ([`super::setting_to_show`] picks one); none if there
/// are no such matches. `train_seconds` maps a training step to the run's wall time of
/// self-play and training when its checkpoint was saved.
pub fn gauntlet_table_from_matches(
    all: &[&GauntletMatch],
    setting: &GauntletSetting,
    train_seconds: &BTreeMap<u64, f64>,
) -> Option<GauntletTable> {
    let matches: Vec<&GauntletMatch> = all.iter().copied().filter(|g| g.setting() == *setting && g.games > 0).collect();
    if matches.is_empty() {
        return None;
    }
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    for g in &matches {
        let n = g.games as f64;
        let player = tallies.entry(&g.player).or_default();
        (player.games, player.score) = (player.games + g.games, player.score + g.score);
        (player.moves, player.seconds) = (player.moves + g.player_moves, player.seconds + g.player_seconds);
        let opponent = tallies.entry(&g.opponent).or_default();
        (opponent.games, opponent.score) = (opponent.games + g.games, opponent.score + n - g.score);
        (opponent.moves, opponent.seconds) = (opponent.moves + g.opponent_moves, opponent.seconds + g.opponent_seconds);
        for (kind, n) in &g.opponent_forfeits {
            *opponent.forfeits.entry(kind.clone()).or_insert(0) += n;
        }
    }
    // A pairing is partial while its newest match is one a stop cut short.
    let mut last_of_pairing: BTreeMap<(&str, &str), bool> = BTreeMap::new();
    for g in &matches {
        last_of_pairing.insert((&g.player, &g.opponent), g.interrupted);
    }
    let partial = |name: &str| last_of_pairing.iter().any(|(&(p, o), &cut)| cut && (p == name || o == name));
    let names: Vec<&str> = tallies.keys().copied().collect();
    let index = |name: &str| names.iter().position(|&n| n == name).expect("every player is tallied");
    let anchor = if names.contains(&ANCHOR) {
        ANCHOR.to_string()
    } else {
        matches
            .iter()
            .map(|g| g.opponent.as_str())
            .find(|o| checkpoint_step(o).is_none())
            .unwrap_or(names[0])
            .to_string()
    };
    let results: Vec<PairResult> = matches
        .iter()
        .map(|g| PairResult { a: index(&g.player), b: index(&g.opponent), games: g.games as f64, score: g.score })
        .collect();
    let ratings = fit_ratings(names.len(), &results, index(&anchor));
    let mut rows: Vec<GauntletRow> = names
        .iter()
        .zip(ratings)
        .map(|(&name, rating)| {
            let t = &tallies[name];
            let step = checkpoint_step(name);
            GauntletRow {
                name: name.to_string(),
                step,
                train_seconds: step.and_then(|s| if s == 0 { Some(0.0) } else { train_seconds.get(&s).copied() }),
                games: t.games,
                score: t.score / t.games.max(1) as f64,
                seconds_per_move: (t.moves > 0).then(|| t.seconds / t.moves as f64),
                rating,
                forfeits: t.forfeits.clone(),
                partial: partial(name),
            }
        })
        .collect();
    let elo = |r: &GauntletRow| r.rating.map_or(f64::NEG_INFINITY, |r| r.elo);
    rows.sort_by(|a, b| match (a.step, b.step) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => elo(b).total_cmp(&elo(a)),
    });
    Some(GauntletTable { anchor, setting: setting.clone(), rows })
}
