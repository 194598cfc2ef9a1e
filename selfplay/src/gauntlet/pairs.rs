//! The head-to-head lines of a run's gauntlet, from the matches in its event log.

use arena::gauntlet::{head_to_head, GauntletTable, HeadToHead};

use super::logged_matches;
use crate::store::EventLog;

/// The pairings of two networks among the gauntlet matches in `log`, in the search of `table`
/// (each checkpoint against its predecessor, or against an anchor checkpoint).
pub fn head_to_head_from_log(log: &EventLog, table: &GauntletTable) -> Vec<HeadToHead> {
    head_to_head(&logged_matches(log), table)
}
