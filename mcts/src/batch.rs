//! A batch of leaf positions on their way to an evaluator, with the slots its answers go into
//! (the drivers that serve many searches from one batch: [`crate::drive`]).

use std::ops::Range;

use rules::{Game, MAX_PLAYERS};

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
    /// Plies below its search's root of the node entry `i` expands (0 the root).
    depths: Vec<u32>,
    /// Whether entry `i`'s value carries an opinion of the position: false where an evaluator
    /// left it at the uninformed 1/2 ([`crate::NearRoot`] past its plies).
    known: Vec<bool>,
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
            depths: Vec::new(),
            known: Vec::new(),
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
        self.depths.clear();
        self.known.clear();
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

    /// Plies below its search's root of the node entry `i` expands (0 the root).
    pub fn depth(&self, i: usize) -> u32 {
        self.depths[i]
    }

    /// Whether entry `i`'s value carries an opinion of the position (true unless an evaluator
    /// said otherwise with [`Batch::set_known`]).
    pub fn known(&self, i: usize) -> bool {
        self.known[i]
    }

    /// Says whether entry `i`'s value carries an opinion of the position: where it does not,
    /// the search gives the node its judged value whole, as for an evaluator that
    /// [`crate::Evaluator::knows_values`] nothing.
    pub fn set_known(&mut self, i: usize, known: bool) {
        self.known[i] = known;
    }

    fn span(&self, i: usize) -> Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        start..self.ends[i] as usize
    }

    /// Entries `picks` of this batch as a batch of their own (states, moves and depths), for an
    /// evaluator that hands only some entries on; [`Batch::take_answers`] brings them back.
    pub(crate) fn subset(&self, picks: &[usize]) -> Batch<G> {
        let mut sub = Batch::new();
        for &i in picks {
            sub.push(self.states[i].clone(), self.moves(i), i as u32, self.depths[i]);
        }
        sub
    }

    /// Copies the answers of `sub`, made by [`Batch::subset`] of `picks`, into their entries.
    pub(crate) fn take_answers(&mut self, sub: &Batch<G>, picks: &[usize]) {
        for (j, &i) in picks.iter().enumerate() {
            let (priors, value) = sub.answer(j);
            let slot = self.slot_mut(i);
            slot.priors.copy_from_slice(priors);
            *slot.value = *value;
            self.known[i] = sub.known[j];
        }
    }

    /// Adds a position to evaluate for tree node `node`, `depth` plies below its search's root.
    pub(crate) fn push(&mut self, state: G, moves: &[G::Move], node: u32, depth: u32) {
        self.states.push(state);
        self.nodes.push(node);
        self.depths.push(depth);
        self.known.push(true);
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
