//! The head-to-head lines of a run's gauntlet, from the matches in its event log.

use arena::gauntlet::{head_to_head, GauntletMatch, GauntletTable, HeadToHead};

use crate::store::{EventLog, RunEvent};

/// The pairings of two networks among the gauntlet matches in `log`, in the search of `table`
/// (each checkpoint against its predecessor, or against an anchor checkpoint).
pub fn head_to_head_from_log(log: &EventLog, table: &GauntletTable) -> Vec<HeadToHead> {
    let matches: Vec<&GauntletMatch> = log
        .events
        .iter()
        .filter_map(|e| match e {
            RunEvent::Gauntlet(g) => Some(g),
            _ => None,
        })
        .collect();
    head_to_head(&matches, table)
}
