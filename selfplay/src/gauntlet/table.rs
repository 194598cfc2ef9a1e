//! A run's gauntlet results as one table: every player's games, score, time per move and its
//! rating on one Bradley-Terry scale.

use std::collections::BTreeMap;

use super::{checkpoint_step, ANCHOR};
use crate::bradley_terry::{fit_ratings, PairResult, Rating};
use crate::events::{EventLog, GauntletEvent, RunEvent};

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
}

/// The ratings of a run's gauntlet at one simulation count.
#[derive(Clone, Debug, PartialEq)]
pub struct GauntletTable {
    /// The player at Elo 0: `random` where it played, else the first fixed opponent.
    pub anchor: String,
    /// Simulations per move of the checkpoints.
    pub sims: u32,
    /// Checkpoints by step, then the fixed opponents by rating.
    pub rows: Vec<GauntletRow>,
}

/// Totals of one player while the table is built.
#[derive(Default)]
struct Tally {
    games: usize,
    score: f64,
    moves: u64,
    seconds: f64,
}

/// The table of the gauntlet matches in `log` at `sims` simulations (default: those of the
/// last match logged); none if there are no such matches.
pub fn gauntlet_table(log: &EventLog, sims: Option<u32>) -> Option<GauntletTable> {
    let all: Vec<&GauntletEvent> = log
        .events
        .iter()
        .filter_map(|e| match e {
            RunEvent::Gauntlet(g) => Some(g),
            _ => None,
        })
        .collect();
    let sims = sims.or_else(|| all.last().map(|g| g.sims))?;
    let matches: Vec<&GauntletEvent> = all.into_iter().filter(|g| g.sims == sims && g.games > 0).collect();
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
    }
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
    let wall = wall_time_by_step(log);
    let mut rows: Vec<GauntletRow> = names
        .iter()
        .zip(ratings)
        .map(|(&name, rating)| {
            let t = &tallies[name];
            let step = checkpoint_step(name);
            GauntletRow {
                name: name.to_string(),
                step,
                train_seconds: step.and_then(|s| if s == 0 { Some(0.0) } else { wall.get(&s).copied() }),
                games: t.games,
                score: t.score / t.games.max(1) as f64,
                seconds_per_move: (t.moves > 0).then(|| t.seconds / t.moves as f64),
                rating,
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
    Some(GauntletTable { anchor, sims, rows })
}

/// Wall time of self-play and training from the start of the run to the end of the iteration
/// that reached each step (where its checkpoint was saved).
fn wall_time_by_step(log: &EventLog) -> BTreeMap<u64, f64> {
    let mut total = 0.0;
    let mut at = BTreeMap::new();
    for it in log.iterations() {
        total += it.selfplay_seconds + it.train_seconds;
        at.entry(it.step).or_insert(total);
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{event_line, read_events, IterationEvent};

    fn result(player: &str, opponent: &str, games: usize, score: f64) -> RunEvent {
        RunEvent::Gauntlet(GauntletEvent {
            player: player.into(),
            opponent: opponent.into(),
            sims: 32,
            games,
            score,
            player_moves: 100,
            player_seconds: 2.0,
            opponent_moves: 100,
            opponent_seconds: 0.5,
            ..Default::default()
        })
    }

    #[test]
    fn later_checkpoints_that_score_more_rate_higher_with_random_at_zero() {
        let iteration =
            |step, s| RunEvent::Iteration(IterationEvent { step, selfplay_seconds: s, ..Default::default() });
        let text: String = [
            iteration(0, 10.0),
            iteration(50, 20.0),
            result("step-000000000", "random", 20, 10.0),
            result("step-000000000", "greedy", 20, 4.0),
            result("step-000000050", "random", 20, 19.0),
            result("step-000000050", "greedy", 10, 6.0),
            result("step-000000050", "greedy", 10, 7.0),
            RunEvent::Gauntlet(GauntletEvent { sims: 8, games: 4, ..Default::default() }),
        ]
        .iter()
        .map(event_line)
        .collect();
        let table = gauntlet_table(&read_events(&text), Some(32)).unwrap();
        assert_eq!(table.anchor, "random");
        let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["step-000000000", "step-000000050", "greedy", "random"]);
        let elo = |i: usize| table.rows[i].rating.unwrap().elo;
        assert!(elo(1) > elo(0), "{} vs {}", elo(1), elo(0));
        assert_eq!(elo(3), 0.0);
        let later = &table.rows[1];
        assert_eq!((later.games, later.step, later.train_seconds), (40, Some(50), Some(30.0)));
        assert!((later.score - 32.0 / 40.0).abs() < 1e-12, "the two greedy matches add up");
        let close = |x: Option<f64>, y: f64| x.is_some_and(|x| (x - y).abs() < 1e-12);
        assert!(close(later.seconds_per_move, 0.02), "300 moves in 6 seconds: {:?}", later.seconds_per_move);
        assert!(close(table.rows[2].seconds_per_move, 0.005), "greedy: 300 moves in 1.5 seconds");
        assert!(gauntlet_table(&read_events(&text), Some(4)).is_none(), "no match at 4 simulations");
        assert_eq!(gauntlet_table(&read_events(&text), None).unwrap().sims, 8, "the last match's count");
    }
}
