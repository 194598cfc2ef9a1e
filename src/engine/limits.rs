//! When a search stops: a node budget, a time budget (given, or taken from the clocks), or never;
//! and, whatever they say, when its tree is full.

use std::time::Duration;

/// What ends one search; the first limit reached ends it. With none set it runs until stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Root visits to reach.
    pub nodes: Option<u32>,
    /// Time to search.
    pub movetime: Option<Duration>,
    /// Search until told to stop, whatever else is set (UCI `go infinite`).
    pub infinite: bool,
    /// Stop before `movetime` once the best move can no longer change ([`mcts::Until::early`]):
    /// for a time budget taken from a clock, where the time saved is kept for later moves.
    pub early: bool,
}

/// Tree edges at which a search stops growing (about 1 GB with its nodes), whatever its limits:
/// `go infinite` with a fast evaluator would otherwise fill the memory.
pub(crate) const MAX_EDGES: usize = mcts::MAX_TREE_EDGES;

/// The players' clocks of a timed game (UCI `wtime`/`btime` and the three-seat `p1time`...).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// Time left per seat.
    pub time: [Option<Duration>; 3],
    /// Increment per move per seat.
    pub inc: [Duration; 3],
    /// Moves to the next time control, if the game has one.
    pub movestogo: Option<u32>,
}

/// Time kept back from the clock for the answer to travel (the GUI's and the pipe's delay).
const OVERHEAD: Duration = Duration::from_millis(50);
/// Moves the remaining time is shared over when no `movestogo` is given.
const DEFAULT_MOVES_TO_GO: u32 = 30;

impl Clock {
    /// The time `seat` may spend on this move, if its clock is given: an equal share of the
    /// time left over the moves to go (30 without `movestogo`) plus three quarters of the
    /// increment, never more than the time left less 50 ms (or less half of it, when under 100 ms),
    /// and never more than the time left at all.
    pub fn budget(&self, seat: usize) -> Option<Duration> {
        let time = (*self.time.get(seat)?)?;
        let inc = self.inc[seat];
        let moves = self.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, DEFAULT_MOVES_TO_GO);
        let share = time / moves + inc * 3 / 4;
        let most = time.saturating_sub(OVERHEAD.min(time / 2));
        Some(share.min(most).max(Duration::from_millis(1)).min(time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_to_go_with_most_of_the_increment() {
        let clock =
            Clock { time: [Some(ms(60_000)), Some(ms(1000)), None], inc: [ms(1000), ms(0), ms(0)], movestogo: None };
        assert_eq!(clock.budget(0), Some(ms(2000 + 750)));
        assert_eq!(clock.budget(2), None);
        let last = Clock { movestogo: Some(1), ..clock.clone() };
        assert_eq!(last.budget(1), Some(ms(950)), "the last move before the control keeps the overhead");
        let short = Clock { time: [Some(ms(40)), None, None], ..Clock::default() };
        assert_eq!(short.budget(0), Some(ms(1)).max(Some(ms(40) / 30)));
    }

    #[test]
    fn a_budget_never_exceeds_the_time_left() {
        for time in [0, 1, 2, 30, 49, 50, 99, 100, 101, 1000, 60_000, 3_600_000] {
            for inc in [0, 1, 100, 1000, 30_000, 3_600_000] {
                for movestogo in [None, Some(0), Some(1), Some(2), Some(40), Some(u32::MAX)] {
                    let clock = Clock { time: [Some(ms(time)), None, None], inc: [ms(inc); 3], movestogo };
                    let budget = clock.budget(0).unwrap();
                    assert!(budget <= ms(time), "{budget:?} of {time} ms with {inc} ms and {movestogo:?}");
                    if time >= 100 {
                        assert!(budget <= ms(time) - OVERHEAD, "the overhead is kept: {budget:?} of {time} ms");
                    }
                }
            }
        }
    }
}
