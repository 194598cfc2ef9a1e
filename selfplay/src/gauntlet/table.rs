//! A run's gauntlet results as one table, from the matches and iteration times in its event log.

use std::collections::BTreeMap;

use arena::gauntlet::{gauntlet_table_from_matches, setting_to_show, GauntletMatch, GauntletSetting, GauntletTable};

use crate::store::{EventLog, RunEvent};

/// The table of the gauntlet matches in `log` played under one setting: `preferred` if the log
/// has matches of it, else the last match's at `sims` simulations (at any count when none),
/// each checkpoint with the training time it took; none if there are no such matches.
pub fn gauntlet_table_from_log(
    log: &EventLog,
    preferred: Option<&GauntletSetting>,
    sims: Option<u32>,
) -> Option<GauntletTable> {
    let matches = gauntlet_matches(log);
    let setting = setting_to_show(&matches, preferred, sims)?;
    gauntlet_table_from_matches(&matches, &setting, &wall_time_by_step(log))
}

/// The gauntlet matches in `log`, in the order they were played.
pub fn gauntlet_matches(log: &EventLog) -> Vec<&GauntletMatch> {
    log.events
        .iter()
        .filter_map(|e| match e {
            RunEvent::Gauntlet(g) => Some(g),
            _ => None,
        })
        .collect()
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
        let table = gauntlet_table_from_log(&read_events(&text), None, Some(32)).unwrap();
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
        assert!(gauntlet_table_from_log(&read_events(&text), None, Some(4)).is_none(), "no match at 4 simulations");
        let last = gauntlet_table_from_log(&read_events(&text), None, None).unwrap();
        assert_eq!(last.setting.sims, 8, "the last match's count");
        assert!(table.rows.iter().all(|r| !r.partial), "no match was interrupted");
    }

    /// Matches of the same pairing under another ply limit or adjudication are another table:
    /// their games are not added to these.
    #[test]
    fn matches_under_another_ply_limit_or_adjudication_are_another_table() {
        let under = |max_plies, adjudicate_material| match result("step-000000000", "random", 2, 1.0) {
            RunEvent::Gauntlet(g) => RunEvent::Gauntlet(GauntletMatch { max_plies, adjudicate_material, ..g }),
            _ => unreachable!(),
        };
        let text: String = [under(40, 0.0), under(400, 0.0), under(40, 0.0001)].iter().map(event_line).collect();
        let log = read_events(&text);
        let table = gauntlet_table_from_log(&log, None, Some(32)).unwrap();
        assert_eq!((table.setting.max_plies, table.setting.adjudicate_material), (40, 0.0001), "the latest");
        assert_eq!(table.rows[0].games, 2, "one match's games, not three matches': {:?}", table.rows);
        let asked = GauntletSetting { max_plies: 400, adjudicate_material: 0.0, ..table.setting.clone() };
        let other = gauntlet_table_from_log(&log, Some(&asked), Some(32)).unwrap();
        assert_eq!((other.setting.max_plies, other.rows[0].games), (400, 2));
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
        let table = gauntlet_table_from_log(&read_events(&lines(&events)), None, Some(32)).unwrap();
        let partial: Vec<(&str, bool)> = table.rows.iter().map(|r| (r.name.as_str(), r.partial)).collect();
        assert_eq!(partial, [("step-000000000", true), ("greedy", true), ("random", false)]);
        let done = [&events[..], &[result("step-000000000", "greedy", 17, 8.0)]].concat();
        let table = gauntlet_table_from_log(&read_events(&lines(&done)), None, Some(32)).unwrap();
        assert!(table.rows.iter().all(|r| !r.partial), "{:?}", table.rows);
    }
}
