//! A search run against the clock as well as a visit count: the visit target is raised a chunk at
//! a time on the same tree (a search whose target is raised and run again goes on where it
//! stopped), and between chunks the stop flag, the deadline and the caller are asked whether to
//! go on. What `vzero uci`, `analyse` and the arena's timed players search with.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rules::Game;

use crate::evaluator::Evaluator;
use crate::search::Search;
use crate::tree::ROOT;

/// What ends a timed search; the first one reached ends it.
#[derive(Clone, Copy, Debug)]
pub struct Until<'a> {
    /// Root visits to reach, those kept from an earlier move included.
    pub visits: u32,
    /// When to stop, if ever.
    pub deadline: Option<Instant>,
    /// Ends the search once set.
    pub stop: Option<&'a AtomicBool>,
    /// Stop before the deadline once the most visited root move can no longer be overtaken
    /// in the time left at the speed so far (lc0's smart pruning): the time saved stays on a
    /// clock for later moves. Only worth it where time is banked, so a fixed time a move
    /// (`go movetime`, `mcts@MS`) leaves it off.
    pub early: bool,
    /// Tree edges at which the search stops growing ([`MAX_TREE_EDGES`] unless a test wants
    /// fewer), whatever the other limits say.
    pub max_edges: usize,
}

/// Why a timed search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The visit target was reached.
    Visits,
    /// The deadline passed.
    Deadline,
    /// The stop flag was set.
    Stopped,
    /// The best move could not change any more ([`Until::early`]).
    Decided,
    /// The tree reached [`Until::max_edges`].
    TreeFull,
    /// The caller's check between chunks said so.
    Caller,
}

/// Tree edges at which a timed search should stop growing (about 1 GB with its nodes), whatever
/// its limits: a long time a move with a fast evaluator would otherwise fill the memory.
pub const MAX_TREE_EDGES: usize = 80_000_000;

/// How long one chunk should take: short enough that a stop is answered within about this much,
/// long enough that checking between chunks costs nothing.
pub const CHUNK_TIME: Duration = Duration::from_millis(40);

/// Runs `search`'s current move with `evaluator` on `threads` threads until `until` says to stop
/// or `between` (asked before each chunk, with the search as it stands) breaks. The root is
/// always visited first, even with no time or a stop already requested, so that the search has
/// a move to answer.
pub fn run_until<G: Game, E: Evaluator<G> + Sync + ?Sized>(
    search: &mut Search<G>,
    evaluator: &E,
    threads: usize,
    until: &Until<'_>,
    mut between: impl FnMut(&Search<G>) -> ControlFlow<()>,
) -> Ended {
    let began = Instant::now();
    let first_visits = search.tree().root().visits;
    let target = until.visits.max(1);
    let mut params = search.params().clone();
    let mut chunk: u32 = 8;
    loop {
        let visits = search.tree().root().visits;
        let now = Instant::now();
        let ended = if until.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            Some(Ended::Stopped)
        } else if visits >= target {
            Some(Ended::Visits)
        } else if until.deadline.is_some_and(|d| now >= d) {
            Some(Ended::Deadline)
        } else if until.early && cannot_change(search, visits - first_visits, began, until.deadline, now) {
            Some(Ended::Decided)
        } else if search.tree().edges.len() >= until.max_edges {
            Some(Ended::TreeFull)
        } else {
            None
        };
        // Not before the root's own visit: without its edges there is no move to answer.
        if visits > 0 {
            if let Some(ended) = ended {
                return ended;
            }
            if between(search).is_break() {
                return Ended::Caller;
            }
        }
        let step = if ended.is_some() { 1 } else { chunk };
        params.simulations = visits.saturating_add(step).min(target);
        search.set_params(params.clone());
        let t = Instant::now();
        if threads > 1 {
            search.run_parallel(evaluator, threads);
        } else {
            search.run(evaluator);
        }
        chunk = next_chunk(chunk, t.elapsed(), until.deadline.map(|d| d.saturating_duration_since(Instant::now())));
    }
}

/// Whether the move the search plays keeps its place whatever the time left brings: it is the
/// most visited root move, and the visits the search can still add at its speed so far (`added`
/// since `began`) are fewer than its lead over the second. A move the `lcb` choice prefers over
/// the most visited one is never decided early: more visits can still change the choice. A root
/// with one move is decided at once.
fn cannot_change<G: Game>(
    search: &Search<G>,
    added: u32,
    began: Instant,
    deadline: Option<Instant>,
    now: Instant,
) -> bool {
    let Some(deadline) = deadline else { return false };
    let tree = search.tree();
    let mut visits: Vec<u32> = tree.root().edge_range().map(|i| tree.child_visits(&tree.edges[i])).collect();
    if visits.len() < 2 {
        return true;
    }
    let most_visited = tree.best_edge(ROOT).map(|e| e - tree.root().first_edge as usize);
    if search.best_root_move() != most_visited {
        return false;
    }
    visits.sort_unstable_by(|a, b| b.cmp(a));
    let left = deadline.saturating_duration_since(now);
    out_of_reach(visits[0] - visits[1], added, now.duration_since(began), left)
}

/// Whether a lead of `lead` visits outlasts the visits still to come: `added` visits took
/// `spent`, and `left` remains. Nothing is out of reach before the speed is known.
fn out_of_reach(lead: u32, added: u32, spent: Duration, left: Duration) -> bool {
    if added == 0 || spent.is_zero() {
        return false;
    }
    let still = f64::from(added) / spent.as_secs_f64() * left.as_secs_f64();
    f64::from(lead) > still
}

/// The next chunk's size from how long this one took: aiming at [`CHUNK_TIME`], growing at
/// most fourfold, and no longer than the time `left` allows.
pub fn next_chunk(chunk: u32, took: Duration, left: Option<Duration>) -> u32 {
    let per_visit = took.as_secs_f64().max(1e-7) / chunk as f64;
    let mut aim = CHUNK_TIME.as_secs_f64();
    if let Some(left) = left {
        aim = aim.min(left.as_secs_f64());
    }
    ((aim / per_visit) as u32).clamp(1, chunk.saturating_mul(4).max(4))
}

#[cfg(test)]
mod tests {
    use rules::hexchess::MiniHexchess;
    use rules::Game;

    use super::*;
    use crate::{SearchParams, UniformEvaluator};

    fn search() -> Search<MiniHexchess> {
        Search::new(MiniHexchess::start(), SearchParams::analysis(1), 0)
    }

    #[test]
    fn chunks_aim_at_the_chunk_time_and_the_time_left() {
        let ms = Duration::from_millis;
        assert_eq!(next_chunk(100, ms(40), None), 100);
        assert_eq!(next_chunk(100, ms(4), None), 400, "grows at most fourfold");
        assert_eq!(next_chunk(100, ms(80), None), 50);
        assert_eq!(next_chunk(100, ms(40), Some(ms(10))), 25);
        assert_eq!(next_chunk(1, ms(500), None), 1, "never below one visit");
    }

    #[test]
    fn a_visit_target_is_reached_exactly_and_a_stop_still_visits_the_root() {
        let mut s = search();
        let until = Until { visits: 300, deadline: None, stop: None, early: false, max_edges: MAX_TREE_EDGES };
        assert_eq!(run_until(&mut s, &UniformEvaluator, 1, &until, |_| ControlFlow::Continue(())), Ended::Visits);
        assert_eq!(s.tree().root().visits, 300);
        let mut s = search();
        let stopped = AtomicBool::new(true);
        let until =
            Until { visits: u32::MAX, deadline: None, stop: Some(&stopped), early: false, max_edges: MAX_TREE_EDGES };
        assert_eq!(run_until(&mut s, &UniformEvaluator, 1, &until, |_| ControlFlow::Continue(())), Ended::Stopped);
        assert_eq!(s.tree().root().visits, 1, "the root's own visit and no more");
    }

    #[test]
    fn a_deadline_ends_the_search_soon_after_it_passes() {
        let mut s = search();
        let began = Instant::now();
        let until = Until {
            visits: u32::MAX,
            deadline: Some(began + Duration::from_millis(60)),
            stop: None,
            early: false,
            max_edges: MAX_TREE_EDGES,
        };
        assert_eq!(run_until(&mut s, &UniformEvaluator, 1, &until, |_| ControlFlow::Continue(())), Ended::Deadline);
        assert!(began.elapsed() < Duration::from_millis(60) + CHUNK_TIME * 3, "{:?}", began.elapsed());
        assert!(s.tree().root().visits > 8, "{} visits", s.tree().root().visits);
    }

    #[test]
    fn a_lead_is_out_of_reach_when_the_time_left_adds_fewer_visits() {
        let ms = Duration::from_millis;
        // 100 visits in 10 ms: 10 a millisecond, so 50 ms left add 500.
        assert!(out_of_reach(501, 100, ms(10), ms(50)));
        assert!(!out_of_reach(499, 100, ms(10), ms(50)));
        assert!(!out_of_reach(1000, 0, ms(10), ms(50)), "no speed known yet");
        assert!(out_of_reach(1, 100, ms(10), ms(0)), "no time left");
    }

    /// Every prior on the first legal move: the search's visits pile up there.
    struct Certain;

    impl<G: Game> Evaluator<G> for Certain {
        fn max_batch_size(&self) -> usize {
            64
        }

        fn evaluate(&self, batch: &mut crate::Batch<G>) {
            for i in 0..batch.len() {
                let slot = batch.slot_mut(i);
                slot.priors.fill(0.0);
                if let Some(p) = slot.priors.first_mut() {
                    *p = 1.0;
                }
                *slot.value = [0.5; rules::MAX_PLAYERS];
            }
        }
    }

    #[test]
    fn an_early_search_stops_long_before_its_deadline_once_one_move_leads_far() {
        // Nearly every visit goes to the first move, so its lead grows as fast as the visits
        // and outgrows what the time left can add at about half the time.
        let began = Instant::now();
        let deadline = Some(began + Duration::from_secs(2));
        let mut s = search();
        let until = Until { visits: u32::MAX, deadline, stop: None, early: true, max_edges: MAX_TREE_EDGES };
        assert_eq!(run_until(&mut s, &Certain, 1, &until, |_| ControlFlow::Continue(())), Ended::Decided);
        assert!(began.elapsed() < Duration::from_millis(1600), "{:?}", began.elapsed());
        // Without `early` the same search runs on to its visit target.
        let mut s = search();
        let until = Until { visits: 3000, early: false, ..until };
        assert_eq!(run_until(&mut s, &Certain, 1, &until, |_| ControlFlow::Continue(())), Ended::Visits);
    }

    #[test]
    fn a_move_the_lcb_choice_plays_with_fewer_visits_is_never_decided_early() {
        let tactics = crate::Tactics { choice: crate::MoveChoice::Lcb, lcb_width: 0.2, ..crate::Tactics::off() };
        let (began, now) = (Instant::now() - Duration::from_secs(1), Instant::now());
        // No time left: any lead is out of reach, so only the choice rule can keep it open.
        let decided = |s: &Search<MiniHexchess>| cannot_change(s, 100, began, Some(now), now);
        let (mut game, mut moves, mut seen) = (MiniHexchess::start(), Vec::new(), [false; 2]);
        for ply in 0..40 {
            let mut s = Search::new(game.clone(), SearchParams::playing(60, &tactics), ply);
            s.run(&UniformEvaluator);
            let report = crate::SearchReport::of(&s);
            let agree = report.best == report.most_visited;
            let mut visits: Vec<u32> = report.moves.iter().map(|m| m.visits).collect();
            visits.sort_unstable_by(|a, b| b.cmp(a));
            let leads = visits.len() < 2 || visits[0] > visits[1];
            // With no time left every lead is out of reach: decided exactly where the played
            // move is the most visited and leads (a tie is not decided).
            assert_eq!(decided(&s), agree && leads, "ply {ply}: {report:?}");
            seen[usize::from(agree)] |= leads;
            game.legal_moves(&mut moves);
            game.play(moves[(ply as usize * 7) % moves.len()]);
            if game.outcome().is_some() {
                break;
            }
        }
        assert_eq!(
            seen,
            [true, true],
            "the most visited move leading where the choice plays another, and where it plays it"
        );
    }

    #[test]
    fn a_tree_at_its_edge_cap_stops_growing() {
        let mut s = search();
        let until = Until { visits: u32::MAX, deadline: None, stop: None, early: false, max_edges: 500 };
        assert_eq!(run_until(&mut s, &UniformEvaluator, 1, &until, |_| ControlFlow::Continue(())), Ended::TreeFull);
        assert!(s.tree().edges.len() >= 500 && s.tree().root().visits < 1000, "{} visits", s.tree().root().visits);
    }

    #[test]
    fn the_caller_can_end_a_search_between_chunks() {
        let mut s = search();
        let until = Until { visits: u32::MAX, deadline: None, stop: None, early: false, max_edges: MAX_TREE_EDGES };
        let ended = run_until(&mut s, &UniformEvaluator, 1, &until, |s| {
            if s.tree().root().visits >= 100 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(ended, Ended::Caller);
        assert!(s.tree().root().visits >= 100);
    }
}
