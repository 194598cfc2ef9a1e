//! A run's gauntlet results as one table, from the matches and iteration times in its event log.

use std::collections::BTreeMap;

use arena::gauntlet::{gauntlet_table_from_matches, GauntletTable};

use crate::store::EventLog;

/// The table of the gauntlet matches in `log` at `sims` simulations (default: those of the
/// last match logged), each checkpoint with the training time it took; none if there are no
/// such matches.
pub fn gauntlet_table_from_log(
    log: &EventLog,
    sims: Option<u32>,
    tactics: Option<mcts::Tactics>,
) -> Option<GauntletTable> {
    gauntlet_table_from_matches(&super::logged_matches(log), sims, tactics, &wall_time_by_step(log))
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
    use crate::store::events::{event_line, read_events, IterationEvent};
    use crate::store::RunEvent;
    use arena::gauntlet::GauntletMatch;

    fn result(player: &str, opponent: &str, games: usize, score: f64) -> RunEvent {
        RunEvent::Gauntlet(GauntletMatch {
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
            RunEvent::Gauntlet(GauntletMatch { sims: 8, games: 4, ..Default::default() }),
        ]
        .iter()
        .map(event_line)
        .collect();
        let table = gauntlet_table_from_log(&read_events(&text), Some(32), None).unwrap();
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
        assert!(gauntlet_table_from_log(&read_events(&text), Some(4), None).is_none(), "no match at 4 simulations");
        assert_eq!(gauntlet_table_from_log(&read_events(&text), None, None).unwrap().sims, 8, "the last match's count");
        assert!(table.rows.iter().all(|r| !r.partial), "no match was interrupted");
    }

    /// A pairing whose newest match a stop cut short marks both its players partial, until a
    /// later match plays the rest.
    #[test]
    fn an_interrupted_pairing_is_partial_until_completed() {
        let cut = |player: &str, games| {
            RunEvent::Gauntlet(GauntletMatch {
                interrupted: true,
                games_planned: 20,
                ..match result(player, "greedy", games, 1.0) {
                    RunEvent::Gauntlet(g) => g,
                    _ => unreachable!(),
                }
            })
        };
        let lines = |events: &[RunEvent]| events.iter().map(event_line).collect::<String>();
        let events = [result("step-000000000", "random", 20, 10.0), cut("step-000000000", 3)];
        let table = gauntlet_table_from_log(&read_events(&lines(&events)), Some(32), None).unwrap();
        let partial: Vec<(&str, bool)> = table.rows.iter().map(|r| (r.name.as_str(), r.partial)).collect();
        assert_eq!(partial, [("step-000000000", true), ("greedy", true), ("random", false)]);
        let done = [&events[..], &[result("step-000000000", "greedy", 17, 8.0)]].concat();
        let table = gauntlet_table_from_log(&read_events(&lines(&done)), Some(32), None).unwrap();
        assert!(table.rows.iter().all(|r| !r.partial), "{:?}", table.rows);
    }
}
