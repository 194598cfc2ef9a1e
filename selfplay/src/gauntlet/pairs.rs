//! The head-to-head lines of a run's gauntlet, from the matches in its event log.

use arena::gauntlet::{head_to_head, GauntletTable, HeadToHead};

use super::gauntlet_matches;
use crate::store::EventLog;

/// The pairings of two networks among the gauntlet matches in `log`
/// (each checkpoint against its predecessor, or against an anchor checkpoint), under the
/// setting of `table`.
pub fn head_to_head_from_log(log: &EventLog, table: &GauntletTable) -> Vec<HeadToHead> {
    head_to_head(&gauntlet_matches(log), table)
}
