//! A batch of leaf positions on their way to an evaluator, with the slots its answers go into,
//! and a driver that serves many searches (one per game) from one evaluator call.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use rules::{Game, MAX_PLAYERS};

use crate::evaluator::Evaluator;
use crate::search::Search;

/// Positions to evaluate and the caller-provided slots for the answers (lc0's "compute once and
/// fill the caller's slots"): entry `i` has a state, its legal moves (in generation order), one
/// prior slot per move, and a value slot (one expected score per seat).
#[derive(Debug)]
pub struct Batch<G: Game> {
    states: Vec<G>,
    /// The tree node each entry expands, in whichever search gathered it.
    nodes: Vec<u32>,
    /// Entry `i`'s moves and priors are `ends[i - 1]..ends[i]` (0 for `i = 0`).
    ends: Vec<u32>,
    moves: Vec<G::Move>,
    priors: Vec<f32>,
    values: Vec<[f32; MAX_PLAYERS]>,
    /// One judged value per move, parallel to `priors` as far as the last entry the search
    /// wants judged (none past it): NaN unless a [`crate::MoveJudge`] filled it.
    move_values: Vec<f32>,
    /// Whether the search wants entry `i`'s moves judged (see [`Slot::move_values`]).
    judge: Vec<bool>,
}

/// One entry's question and answer slots, for an evaluator to fill.
#[derive(Debug)]
pub struct Slot<'a, G: Game> {
    /// The position.
    pub state: &'a G,
    /// Its legal moves; `priors[j]` belongs to `moves[j]`.
    pub moves: &'a [G::Move],
    /// To be filled with a probability per move (normalised by the search if they don't sum to 1).
    pub priors: &'a mut [f32],
    /// To be filled with each seat's expected score in [0, 1] (seats past the game's player count
    /// are ignored).
    pub value: &'a mut [f32; MAX_PLAYERS],
    /// When the search asks for them: one slot per move for the mover's expected score after
    /// it, filled by a [`crate::MoveJudge`] ([`crate::Judged`]); left NaN, they are not used.
    pub move_values: Option<&'a mut [f32]>,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Batch::new()
    }
}

impl<G: Game> Batch<G> {
    /// An empty batch.
    pub fn new() -> Batch<G> {
        Batch {
            states: Vec::new(),
            nodes: Vec::new(),
            ends: Vec::new(),
            moves: Vec::new(),
            priors: Vec::new(),
            values: Vec::new(),
            move_values: Vec::new(),
            judge: Vec::new(),
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// True when there is nothing to evaluate.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Empties the batch, keeping its allocations for the next round.
    pub fn clear(&mut self) {
        self.states.clear();
        self.nodes.clear();
        self.ends.clear();
        self.moves.clear();
        self.priors.clear();
        self.values.clear();
        self.move_values.clear();
        self.judge.clear();
    }

    /// All positions, in entry order (e.g. to encode them into one input tensor).
    pub fn states(&self) -> &[G] {
        &self.states
    }

    /// The legal moves of entry `i`.
    pub fn moves(&self, i: usize) -> &[G::Move] {
        &self.moves[self.span(i)]
    }

    /// Entry `i`'s question and answer slots.
    pub fn slot_mut(&mut self, i: usize) -> Slot<'_, G> {
        let span = self.span(i);
        Slot {
            state: &self.states[i],
            moves: &self.moves[span.clone()],
            priors: &mut self.priors[span.clone()],
            value: &mut self.values[i],
            move_values: self.judge[i].then(|| &mut self.move_values[span]),
        }
    }

    /// The judged value of each of entry `i`'s moves, if the search asked for them and a judge
    /// filled every one.
    pub fn move_values(&self, i: usize) -> Option<&[f32]> {
        if !self.judge[i] {
            return None;
        }
        let values = &self.move_values[self.span(i)];
        values.iter().all(|v| v.is_finite()).then_some(values)
    }

    /// The answer for entry `i`: priors and value vector.
    pub fn answer(&self, i: usize) -> (&[f32], &[f32; MAX_PLAYERS]) {
        (&self.priors[self.span(i)], &self.values[i])
    }

    fn span(&self, i: usize) -> Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        start..self.ends[i] as usize
    }

    /// Adds a position to evaluate for tree node `node`.
    pub(crate) fn push(&mut self, state: G, moves: &[G::Move], node: u32) {
        self.states.push(state);
        self.nodes.push(node);
        self.moves.extend_from_slice(moves);
        self.priors.resize(self.moves.len(), 0.0);
        self.ends.push(u32::try_from(self.moves.len()).expect("batch holds over 2^32 moves"));
        self.values.push([0.0; MAX_PLAYERS]);
        self.judge.push(false);
    }

    /// Asks for the moves of the entry pushed last to be judged (see [`Slot::move_values`]).
    pub(crate) fn judge_last(&mut self) {
        if let Some(last) = self.judge.last_mut() {
            *last = true;
            // The slots of entries no one asked about are never read: only these are written.
            self.move_values.resize(self.moves.len(), f32::NAN);
        }
    }

    /// The tree node entry `i` expands.
    pub(crate) fn node(&self, i: usize) -> u32 {
        self.nodes[i]
    }
}

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
            search.apply_results(batch, range.clone());
        }
    }
}
