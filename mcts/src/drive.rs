//! Many searches sharing each evaluator call: self-play's loop ([`drive`]), and the same run to
//! the end of one move ([`run_many`]).

use std::sync::atomic::{AtomicBool, Ordering};

use rules::Game;

use crate::batch::Batch;
use crate::evaluator::Evaluator;
use crate::search::Search;

/// Runs every search in `searches` to the end of its current move, serving all of them with
/// shared evaluator calls of up to `evaluator.max_batch_size()` positions. See [`drive`].
pub fn run_many<G: Game, E: Evaluator<G> + ?Sized>(searches: &mut [Search<G>], evaluator: &E, batch: &mut Batch<G>) {
    drive(searches, evaluator, batch, |_, _| false);
}

/// Self-play's loop: many searches (one per game) share each evaluator call of up to
/// `evaluator.max_batch_size()` positions, so the network sees large batches. Whenever a search
/// finishes its move, `on_done(index, search)` is called; it typically reads
/// [`Search::result`] and plays the move with [`Search::advance`] (or starts a new game with
/// [`Search::reset`]) and returns true to keep that search going, or false to retire it. Returns
/// once every search is retired. Games never wait for each other's moves.
///
/// Each search's results are exactly those it gives alone with the same seed, as long as no
/// batch fills up (each search gathers at most its `max_in_flight` leaves per call).
pub fn drive<G: Game, E: Evaluator<G> + ?Sized>(
    searches: &mut [Search<G>],
    evaluator: &E,
    batch: &mut Batch<G>,
    on_done: impl FnMut(usize, &mut Search<G>) -> bool,
) {
    drive_until(searches, evaluator, batch, on_done, &AtomicBool::new(false));
}

/// [`drive`] that also returns, between two evaluator calls, once `stop` is set: searches
/// may then be left in the middle of a move. A stop request waits for one network batch, not
/// for every game's move to finish (which takes minutes with a large network on a CPU).
pub fn drive_until<G: Game, E: Evaluator<G> + ?Sized>(
    searches: &mut [Search<G>],
    evaluator: &E,
    batch: &mut Batch<G>,
    mut on_done: impl FnMut(usize, &mut Search<G>) -> bool,
    stop: &AtomicBool,
) {
    let cap = evaluator.max_batch_size().max(1);
    let mut active = vec![true; searches.len()];
    let mut ranges = vec![0..0; searches.len()];
    // Which search gathers first rotates, so none starves when the batch fills up.
    let mut first = 0;
    while !stop.load(Ordering::Relaxed) {
        for (i, search) in searches.iter_mut().enumerate() {
            // A search handed back still done was given nothing new to do: retire it.
            if active[i] && search.is_done() {
                active[i] = on_done(i, search) && !search.is_done();
            }
        }
        if !active.contains(&true) {
            return;
        }
        batch.clear();
        for k in 0..searches.len() {
            let i = (first + k) % searches.len();
            let room = cap - batch.len();
            ranges[i] =
                if room == 0 || !active[i] { batch.len()..batch.len() } else { searches[i].gather_leaves(batch, room) };
        }
        first = (first + 1) % searches.len();
        if !batch.is_empty() {
            evaluator.evaluate(batch);
        }
        for (search, range) in searches.iter_mut().zip(&ranges) {
            search.apply_results(batch, range.clone(), evaluator.knows_values());
        }
    }
}
