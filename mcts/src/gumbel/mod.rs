//! Gumbel search (Danihelka et al., "Policy improvement by planning with Gumbel", ICLR 2022),
//! after mctx's `gumbel_muzero_policy`: at the root, Gumbel-top-k sampling of
//! [`crate::SearchParams::gumbel_actions`] moves and sequential halving of the budget among them;
//! below it, the deterministic selection by the completed-Q improved policy, which is also the
//! policy target.
//!
//! The budget is the search's root visits less the root's own evaluation: `simulations = 3`
//! gives the paper's n = 2. Each move is searched from a fresh root (as mctx does), because the
//! halving schedule counts the root's visits from zero. Dirichlet noise is not used: the Gumbel
//! draws are the exploration. They are scaled by the ply's temperature (mctx's
//! `gumbel_scale`): 1 in the temperature plies of self-play, where the played move is the
//! survivor by `g + logits + sigma(q)`, a sample from the improved policy; 0 after them and in
//! analysis, where the search is deterministic and plays the survivor by `logits + sigma(q)`.

mod halving;
mod improved;

use rand::RngExt;

use crate::params::SearchParams;
use crate::select::View;
use crate::tree::{Tree, NONE, ROOT};
use halving::halving_schedule;
use improved::Completion;
pub(crate) use improved::{improved_policy, improved_policy_from, select_interior};

/// The root's part of one move's Gumbel search: a Gumbel draw per root move and the halving
/// schedule of the budget.
#[derive(Clone, Debug, Default)]
pub(crate) struct GumbelRoot {
    /// `g` of each root edge (in edge order), already scaled; empty until the root is expanded.
    noise: Vec<f32>,
    /// [`halving_schedule`] of `budget` simulations.
    schedule: Vec<u32>,
    budget: usize,
}

impl GumbelRoot {
    /// Forgets the move's draws and schedule (a new root).
    pub fn clear(&mut self) {
        self.noise.clear();
        self.schedule.clear();
        self.budget = 0;
    }

    /// Whether the root's moves have their draws.
    pub fn is_drawn(&self) -> bool {
        !self.noise.is_empty()
    }

    /// Draws a standard Gumbel variable times `scale` for each of `moves` root moves.
    pub fn draw(&mut self, moves: usize, scale: f32, rng: &mut impl rand::Rng) {
        self.noise.clear();
        self.noise.extend((0..moves).map(|_| {
            // Uniform in (0, 1): never exactly 0, whose logarithm is infinite.
            let u = rng.random::<f64>().max(f64::MIN_POSITIVE);
            scale * (-(-u.ln()).ln()) as f32
        }));
    }

    /// The draws, one per root edge in edge order (that of [`crate::SearchResult::moves`]).
    #[cfg(feature = "test-support")]
    pub fn noise(&self) -> &[f32] {
        &self.noise
    }

    /// Makes the halving schedule fit a budget of `budget` simulations among the root's
    /// `moves` moves (recomputed only when the budget changes, e.g. by `set_params`).
    pub fn plan(&mut self, budget: usize, moves: usize, params: &SearchParams) {
        if self.budget != budget || self.schedule.len() != budget {
            let considered = (params.gumbel_actions as usize).min(moves);
            self.schedule = halving_schedule(considered, budget);
            self.budget = budget;
        }
    }

    /// The root edge (an index into `tree.edges`) the next simulation follows: among the moves
    /// whose visits, pending ones included, are the schedule's count for this simulation, the one
    /// with the highest `g + logits + sigma(completed Q)`. Past the schedule (or if no move has
    /// that count), the best of the most visited.
    pub fn select<M: Copy>(&self, tree: &Tree<M>, params: &SearchParams, view: View) -> usize {
        let range = tree.root().edge_range();
        let edges = &tree.edges[range.clone()];
        let visits = |i: usize| match edges[i].child {
            NONE => 0,
            c => tree.nodes[c as usize].visits + tree.nodes[c as usize].in_flight,
        };
        let simulation: u32 = (0..edges.len()).map(visits).sum();
        let level = match self.schedule.get(simulation as usize) {
            Some(&l) if (0..edges.len()).any(|i| visits(i) == l) => l,
            _ => (0..edges.len()).map(visits).max().unwrap_or(0),
        };
        range.start + self.best_scored(tree, params, view, |i| visits(i) == level)
    }

    /// The move to play (an index into `tree.edges`): among the most visited root moves (the
    /// last halving phase's survivors), the one with the highest `g + logits + sigma(completed Q)`.
    /// Only the moves (by position among the root's edges) that pass `allowed` are candidates.
    pub fn choose<M: Copy>(
        &self,
        tree: &Tree<M>,
        params: &SearchParams,
        view: View,
        allowed: impl Fn(usize) -> bool,
    ) -> usize {
        let range = tree.root().edge_range();
        let visits: Vec<u32> = tree.edges[range.clone()].iter().map(|e| tree.child_visits(e)).collect();
        let most = (0..visits.len()).filter(|&i| allowed(i)).map(|i| visits[i]).max().unwrap_or(0);
        range.start + self.best_scored(tree, params, view, |i| allowed(i) && visits[i] == most)
    }

    /// Among the root edges (indices relative to the root's first) that pass `candidate`, the
    /// one with the highest `g + logits + sigma(completed Q)`, the first on ties (0 if none).
    fn best_scored<M: Copy>(
        &self,
        tree: &Tree<M>,
        params: &SearchParams,
        view: View,
        candidate: impl Fn(usize) -> bool,
    ) -> usize {
        let edges = tree.edges_of(ROOT);
        let c = Completion::unnormalised(tree, ROOT, params, view);
        let mut best: Option<(usize, f32)> = None;
        for (i, e) in edges.iter().enumerate().filter(|&(i, _)| candidate(i)) {
            let g = self.noise.get(i).copied().unwrap_or(0.0);
            let score = g + log_prior(e.prior) + c.sigma(c.q(tree, e));
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        best.map_or(0, |(i, _)| i)
    }
}

/// The logit of a prior (up to a constant, which no softmax or argmax sees); a prior of 0 gives
/// the most negative finite logit rather than minus infinity, so sums with it still compare.
fn log_prior(prior: f32) -> f32 {
    prior.max(f32::MIN_POSITIVE).ln()
}
