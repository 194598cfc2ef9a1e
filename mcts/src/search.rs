//! One game's search: a tree over its current position, driven in rounds of
//! gather leaves → evaluate → apply results, by one thread, a multi-game driver, or many threads.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Gamma};
use rules::wins_by;
use rules::{Game, Scores, MAX_PLAYERS};

use crate::batch::Batch;
use crate::draws::{repeats, tree_value};
use crate::error::SearchError;
use crate::evaluator::Evaluator;
use crate::gumbel::{improved_policy, select_interior, GumbelRoot};
use crate::params::{RootSearch, SearchParams};
use crate::result::{choose_by_temperature, SearchResult};
use crate::select::{select_edge, View};
use crate::solver::{allowed_root_moves, prove_ancestors};
use crate::tactics::choice::lcb_edge;
use crate::tactics::minimax::back_up_minimax;
use crate::tactics::prior::mix_priors;
use crate::tactics::{seat_vector, MoveChoice};
use crate::target::{policy_target, PolicyTarget};
use crate::tree::{most_visited_line, Status, Tree, NONE, ROOT};

/// The stop flag of a search nobody stops ([`Search::run`]).
static NEVER: AtomicBool = AtomicBool::new(false);

/// Where one simulation's descent ended.
enum Descent {
    /// A new position, handed to the batch for evaluation.
    Leaf,
    /// A finished game, backed up at once.
    Terminal,
    /// A position already waiting for its evaluation; the simulation was taken back.
    Collision,
}

/// The search for one game: the position to move from, its tree, and the random generator
/// (noise, playout caps, move choice), so one seed makes a single-threaded search repeatable.
#[derive(Debug)]
pub struct Search<G: Game> {
    params: SearchParams,
    root_state: G,
    tree: Tree<G::Move>,
    rng: Xoshiro256PlusPlus,
    ply: u32,
    /// The current move's search has begun (budget drawn, noise decided).
    started: bool,
    /// Not a playout-capped cheap search.
    full_search: bool,
    /// Root noise is wanted for this move and has been mixed into the root priors.
    noise_applied: bool,
    /// Under Gumbel search: the root's draws and halving schedule for this move.
    gumbel: GumbelRoot,
    /// The root's priors as its evaluation left them (the tactical prior mixed in, no decisive
    /// moves, no noise), by move: the residual policy target takes the tactical prior back out.
    /// Kept only under that target, so that play and analysis copy nothing per move.
    root_prior: Vec<(G::Move, f32)>,
    /// Leaves handed out and not yet applied.
    in_flight: u32,
    /// Hashes of the game's positions before the root that this search played through
    /// ([`Search::advance`]), oldest first: earlier positions for repetition draws.
    game_hashes: Vec<u64>,
    /// Scratch: the moves from the root to the current leaf.
    path: Vec<G::Move>,
    /// Scratch: hashes of the positions from the root to the current leaf's parent.
    path_hashes: Vec<u64>,
    /// Scratch: a leaf's legal moves.
    moves: Vec<G::Move>,
    /// Scratch: Gumbel selection's policy weights of one node's children.
    weights: Vec<f32>,
    /// Scratch batch for [`Search::run`].
    batch: Batch<G>,
}

impl<G: Game> Search<G> {
    /// A search from `game` with `params`; `seed` fixes every random choice it makes.
    pub fn new(game: G, params: SearchParams, seed: u64) -> Search<G> {
        Search {
            params,
            root_state: game,
            tree: Tree::new(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            ply: 0,
            started: false,
            full_search: true,
            noise_applied: false,
            gumbel: GumbelRoot::default(),
            root_prior: Vec::new(),
            in_flight: 0,
            game_hashes: Vec::new(),
            path: Vec::new(),
            path_hashes: Vec::new(),
            moves: Vec::new(),
            weights: Vec::new(),
            batch: Batch::new(),
        }
    }

    /// The parameters.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Changes the parameters, at once: raising `simulations` and running again searches the
    /// current move further. This move's playout-cap draw and root noise stay as they are.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// The position searched from.
    pub fn root_state(&self) -> &G {
        &self.root_state
    }

    /// Plies played since the search was created or reset (drives the temperature schedule).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Sets the ply count, for a search started mid-game (tests; feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    /// Under Gumbel search, the Gumbel draw of each root move (in the order of
    /// [`SearchResult::moves`]), scaled by the ply's temperature; empty before the root is
    /// expanded and under PUCT (tests; feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn root_gumbel(&self) -> &[f32] {
        self.gumbel.noise()
    }

    fn gumbel(&self) -> bool {
        self.params.root == RootSearch::Gumbel
    }

    /// The tree, for inspection.
    pub fn tree(&self) -> &Tree<G::Move> {
        &self.tree
    }

    /// Whether the current move's search has reached its visit target with nothing in flight.
    pub fn is_done(&self) -> bool {
        self.started && self.in_flight == 0 && self.tree.root().visits >= self.target()
    }

    /// Root visits at which this move's search stops.
    fn target(&self) -> u32 {
        if self.full_search { self.params.simulations } else { self.params.fast_simulations }.max(1)
    }

    /// Whether proofs are made (and respected at the root): not in paranoid three-player search,
    /// whose values hold for one root player only.
    fn solving(&self) -> bool {
        self.params.solver && self.view().paranoid_root.is_none()
    }

    /// Whether repetitions are draws in the tree: two players only.
    fn repetition_draws(&self) -> bool {
        self.params.repetition_draws && G::NUM_PLAYERS == 2
    }

    fn view(&self) -> View {
        let paranoid = self.params.paranoid && G::NUM_PLAYERS > 2;
        View { paranoid_root: paranoid.then(|| self.root_state.to_move()), minimax: self.minimax_weight() }
    }

    /// The share of the judged minimax in a move's value: two players only.
    fn minimax_weight(&self) -> f32 {
        if G::NUM_PLAYERS == 2 {
            self.params.tactics.minimax_weight
        } else {
            0.0
        }
    }

    /// Begins the current move's search: draws the playout cap, mixes in noise if the root is
    /// already expanded (a reused tree). Called by the first gather; idempotent.
    pub fn start_move(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        self.full_search = !(self.params.fast_fraction > 0.0 && self.rng.random::<f32>() < self.params.fast_fraction);
        if self.tree.root().status == Status::Expanded {
            self.prepare_root();
        }
    }

    /// Root exploration, once the root's priors are known: decisive moves first, then
    /// Dirichlet noise (PUCT) or the Gumbel draws.
    fn prepare_root(&mut self) {
        self.root_prior.clear();
        if self.params.policy_target == PolicyTarget::Residual {
            self.root_prior.extend(self.tree.edges_of(ROOT).iter().map(|e| (e.mv, e.prior)));
        }
        self.favour_root_wins();
        self.add_root_noise();
        if self.gumbel() && !self.gumbel.is_drawn() {
            let scale = self.params.temperature_at(self.ply);
            self.gumbel.draw(self.tree.root().num_edges as usize, scale, &mut self.rng);
        }
    }

    /// With [`SearchParams::root_wins_first`]: moves the root's whole prior onto the moves that
    /// win at once, if there are any. Done before the noise, so exploration still sees others.
    fn favour_root_wins(&mut self) {
        if !self.params.root_wins_first {
            return;
        }
        // Most roots have no win: one fast test instead of playing every move.
        if self.root_state.winning_move().is_none() {
            return;
        }
        let range = self.tree.root().edge_range();
        let wins: Vec<bool> =
            self.tree.edges[range.clone()].iter().map(|e| wins_by(&self.root_state, e.mv).is_some()).collect();
        let count = wins.iter().filter(|&&w| w).count();
        if count == 0 {
            return;
        }
        let edges = &mut self.tree.edges[range];
        for (e, win) in edges.iter_mut().zip(wins) {
            e.prior = if win { 1.0 / count as f32 } else { 0.0 };
        }
        self.tree.sort_edges_by_prior(ROOT);
    }

    fn add_root_noise(&mut self) {
        let eps = self.params.dirichlet_epsilon;
        if !self.full_search || eps <= 0.0 || self.noise_applied || self.gumbel() {
            return;
        }
        self.noise_applied = true;
        let range = self.tree.root().edge_range();
        if range.len() < 2 {
            return;
        }
        let alpha = self.params.dirichlet_alpha_scale / range.len() as f32;
        let Ok(gamma) = Gamma::new(alpha, 1.0) else { return };
        let noise: Vec<f32> = range.clone().map(|_| gamma.sample(&mut self.rng)).collect();
        let sum: f32 = noise.iter().sum();
        if !(sum > 0.0 && sum.is_finite()) {
            return;
        }
        for (e, x) in self.tree.edges[range].iter_mut().zip(noise) {
            e.prior = (1.0 - eps) * e.prior + eps * x / sum;
        }
    }

    /// Descends from the root to a leaf, up to `max` times, adding new leaves to `batch` (with
    /// virtual loss on their paths) and backing up finished games at once. Stops early at the
    /// visit target, at the `max_in_flight` cap, or at a collision with a pending leaf. Returns the
    /// batch entries added, to hand back to [`Search::apply_results`] once evaluated.
    pub fn gather_leaves(&mut self, batch: &mut Batch<G>, max: usize) -> Range<usize> {
        self.start_move();
        let start = batch.len();
        let cap = (self.params.max_in_flight.max(1).saturating_sub(self.in_flight) as usize).min(max);
        let view = self.view();
        let target = self.target();
        if self.gumbel() && self.tree.root().status == Status::Expanded {
            // The root's own evaluation is one of the target's visits, not a simulation of the budget.
            self.gumbel.plan(target as usize - 1, self.tree.root().num_edges as usize, &self.params);
        }
        while batch.len() - start < cap && self.tree.root().visits + self.in_flight < target {
            match self.descend(batch, view) {
                Descent::Leaf => self.in_flight += 1,
                Descent::Terminal => {}
                Descent::Collision => break,
            }
        }
        start..batch.len()
    }

    fn descend(&mut self, batch: &mut Batch<G>, view: View) -> Descent {
        let forced_k = if self.full_search { self.params.forced_playout_k } else { 0.0 };
        let gumbel = self.params.root == RootSearch::Gumbel;
        let (solving, repetition_draws) = (self.solving(), self.repetition_draws());
        let minimax = self.minimax_weight() > 0.0;
        let tree = &mut self.tree;
        self.path.clear();
        let mut node = ROOT;
        tree.nodes[ROOT as usize].in_flight += 1;
        loop {
            let n = &tree.nodes[node as usize];
            match n.status {
                Status::Expanded => {
                    let e = match (gumbel, node) {
                        (false, _) => select_edge(tree, node, &self.params, view, forced_k),
                        (true, ROOT) => self.gumbel.select(tree, &self.params, view),
                        (true, _) => select_interior(tree, node, &self.params, view, &mut self.weights),
                    };
                    let child = match tree.edges[e].child {
                        NONE => tree.add_child(node, e),
                        c => c,
                    };
                    self.path.push(tree.edges[e].mv);
                    node = child;
                    tree.nodes[node as usize].in_flight += 1;
                }
                Status::Terminal => {
                    let visits = n.visits as f32;
                    let exact = n.value_sum.map(|s| s / visits);
                    tree.backup(node, &exact);
                    return Descent::Terminal;
                }
                Status::Pending => {
                    tree.revert(node);
                    return Descent::Collision;
                }
                Status::New => break,
            }
        }

        // Only the leaf needs a position: selection ran on tree statistics alone.
        let mut state = self.root_state.clone();
        self.path_hashes.clear();
        for &mv in &self.path {
            if repetition_draws {
                self.path_hashes.push(state.hash());
            }
            state.play(mv);
        }
        state.legal_moves(&mut self.moves);
        let outcome = if self.moves.is_empty() {
            Some(state.outcome().expect("no legal moves but the game is not over"))
        } else {
            None
        };

        // A leaf whose mover wins at once is worth exactly that win (the first one found: the mover
        // scores 1 whichever it plays). Not the root: it needs its moves expanded to choose one
        // (root_wins_first covers it).
        let outcome = outcome.or_else(|| {
            (self.params.wins_in_tree && node != ROOT)
                .then(|| state.winning_move())
                .flatten()
                .map(|mv| wins_by(&state, mv).expect("Game::winning_move returns a move that wins at once"))
        });
        // A position seen before on the way here is a draw, unless something exact comes first
        // (a mover who can win at once would not repeat). Not the root, which must be searched.
        let outcome = outcome.or_else(|| {
            (repetition_draws && node != ROOT && repeats(state.hash(), &self.game_hashes, &self.path_hashes))
                .then(|| Scores::draw(G::NUM_PLAYERS))
        });
        if let Some(scores) = outcome {
            tree.nodes[node as usize].status = Status::Terminal;
            tree.backup(node, &tree_value(&scores, self.params.draw_value));
            if solving {
                prove_ancestors(tree, node);
            }
            if minimax {
                let parent = tree.nodes[node as usize].parent;
                back_up_minimax(tree, parent, G::NUM_PLAYERS);
            }
            return Descent::Terminal;
        }
        tree.set_moves(node, &self.moves);
        let n = &mut tree.nodes[node as usize];
        n.to_move = state.to_move() as u8;
        n.status = Status::Pending;
        batch.push(state, &self.moves, node, self.path.len() as u32);
        if wants_judged_moves(&self.params, self.path.len(), minimax) {
            batch.judge_last();
        }
        Descent::Leaf
    }

    /// Stores the evaluator's answers for the entries `range` of `batch` (as returned by
    /// [`Search::gather_leaves`]) and backs their values up the tree; `knows_values` is the
    /// evaluator's [`Evaluator::knows_values`].
    pub fn apply_results(&mut self, batch: &Batch<G>, range: Range<usize>, knows_values: bool) {
        let n = G::NUM_PLAYERS;
        for i in range {
            let node = batch.node(i);
            let (priors, value) = batch.answer(i);
            // Normalised here so evaluators may hand over raw (e.g. masked softmax) weights; a
            // broken answer (negative, NaN) must not poison the tree, so it becomes uniform.
            let sum: f32 = priors.iter().sum();
            let sane = sum > 0.0 && sum.is_finite() && priors.iter().all(|&p| p >= 0.0);
            let uniform = 1.0 / priors.len() as f32;
            let judged = batch.move_values(i);
            let mixes_prior = judged.is_some() && self.mixes_tactical_prior(node);
            let range = self.tree.nodes[node as usize].edge_range();
            let edges = &mut self.tree.edges[range.clone()];
            for (e, &p) in edges.iter_mut().zip(priors) {
                e.prior = if sane { p / sum } else { uniform };
                e.own_prior = e.prior;
            }
            let mut best_judged = None;
            if let Some(values) = judged {
                let kept = &mut self.tree.judged[range];
                for (k, &v) in kept.iter_mut().zip(values) {
                    *k = v.clamp(0.0, 1.0);
                }
                if mixes_prior {
                    let mut mixed: Vec<f32> = edges.iter().map(|e| e.prior).collect();
                    mix_priors(&mut mixed, values, &self.params.tactics);
                    edges.iter_mut().zip(mixed).for_each(|(e, p)| e.prior = p);
                }
                best_judged = kept.iter().copied().reduce(f32::max);
            }
            // Highest prior first, which lets selection stop at the first unvisited edge. Stable,
            // so equal priors keep generation order (and the uniform evaluator costs no sort).
            self.tree.sort_edges_by_prior(node);
            self.tree.nodes[node as usize].status = Status::Expanded;
            // Clamped to the score range, NaN read as a draw: one bad value would otherwise
            // spread to every ancestor's mean.
            let mut v = [0.0; MAX_PLAYERS];
            for (v, &x) in v[..n].iter_mut().zip(&value[..n]) {
                *v = if x.is_nan() { 0.5 } else { x.clamp(0.0, 1.0) };
            }
            let share = self.params.tactics.tactical_value;
            let knows = knows_values && batch.known(i);
            let tactical = if knows || share == 0.0 { share } else { 1.0 };
            if let Some(best) = best_judged.filter(|_| tactical > 0.0) {
                let mover = self.tree.nodes[node as usize].to_move as usize;
                let judged = seat_vector(n, mover, best);
                for (v, j) in v[..n].iter_mut().zip(&judged[..n]) {
                    *v = (1.0 - tactical) * *v + tactical * j;
                }
            }
            self.tree.backup(node, &v);
            if best_judged.is_some() && self.minimax_weight() > 0.0 {
                back_up_minimax(&mut self.tree, node, n);
            }
            self.in_flight -= 1;
            if node == ROOT {
                self.prepare_root();
            }
        }
    }

    /// Whether new node `node`'s prior gets the tactical prior.
    fn mixes_tactical_prior(&self, node: u32) -> bool {
        let mut depth = 0;
        let mut n = node;
        while n != ROOT {
            n = self.tree.nodes[n as usize].parent;
            depth += 1;
        }
        self.params.tactics.prior_at(depth)
    }

    /// Runs the current move's search to its visit target on this thread.
    pub fn run<E: Evaluator<G> + ?Sized>(&mut self, evaluator: &E) {
        self.run_or_stop(evaluator, &NEVER);
    }

    /// [`Search::run`] that also ends once `stop` is set, after the root's first visit (so there
    /// is a move to answer) and the batch in hand; unset, it is [`Search::run`] exactly, batch
    /// for batch, where [`crate::run_until`]'s chunks would change the search.
    pub fn run_or_stop<E: Evaluator<G> + ?Sized>(&mut self, evaluator: &E, stop: &AtomicBool) {
        let mut batch = std::mem::take(&mut self.batch);
        let max = evaluator.max_batch_size().max(1);
        self.start_move();
        // A stop ends the search once the root has been visited, so that there is a move.
        let stopped = |search: &Self| stop.load(Ordering::Relaxed) && search.tree.root().visits > 0;
        while !(self.is_done() || stopped(self)) {
            batch.clear();
            let range = self.gather_leaves(&mut batch, max);
            if !batch.is_empty() {
                evaluator.evaluate(&mut batch);
            }
            self.apply_results(&batch, range, evaluator.knows_values());
        }
        self.batch = batch;
    }

    /// Runs the current move's search with `threads` threads sharing this tree (analysis, arena).
    /// The tree is locked while a thread selects or backs up, never while it evaluates; virtual
    /// loss keeps threads on different leaves. `max_in_flight` bounds the leaves of all threads
    /// together, so set it to at least `threads`.
    pub fn run_parallel<E: Evaluator<G> + Sync + ?Sized>(&mut self, evaluator: &E, threads: usize) {
        let threads = threads.max(1);
        let per_thread = (self.params.max_in_flight as usize / threads).max(1).min(evaluator.max_batch_size().max(1));
        self.start_move();
        let shared = Mutex::new(&mut *self);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut batch = Batch::new();
                    loop {
                        let range = {
                            let mut search = shared.lock().expect("a search thread panicked");
                            if search.is_done() {
                                break;
                            }
                            batch.clear();
                            search.gather_leaves(&mut batch, per_thread)
                        };
                        if range.is_empty() {
                            // Everything left to do is in other threads' hands.
                            std::thread::yield_now();
                            continue;
                        }
                        evaluator.evaluate(&mut batch);
                        let knows = evaluator.knows_values();
                        shared.lock().expect("a search thread panicked").apply_results(&batch, range, knows);
                    }
                });
            }
        });
    }

    /// The search's answer for the current move. Draws the move to play (temperature) from the
    /// search's random generator, with the solver among [`Search::playable_root_moves`] only: a
    /// proven win is played however many visits another move has.
    pub fn result(&mut self) -> Result<SearchResult<G::Move>, SearchError> {
        let root = *self.tree.root();
        match root.status {
            Status::Terminal => return Err(SearchError::GameOver),
            Status::Expanded => {}
            Status::New | Status::Pending => return Err(SearchError::NotSearched),
        }
        let edges = self.tree.edges_of(ROOT);
        let moves: Vec<G::Move> = edges.iter().map(|e| e.mv).collect();
        let visits: Vec<u32> = edges.iter().map(|e| self.tree.child_visits(e)).collect();
        if self.gumbel() {
            return Ok(self.gumbel_result(moves, visits));
        }
        // A playout-capped search is no policy target: its visit shares, for the record.
        let kind = if self.full_search { self.params.policy_target } else { PolicyTarget::Visits };
        let policy = policy_target(&self.tree, kind, &self.params, self.view(), &visits, &self.root_prior);
        let total: u32 = visits.iter().sum();

        let temperature = self.params.temperature_at(self.ply);
        let allowed = self.allowed_moves();
        let ok = |i: usize| allowed.as_ref().is_none_or(|a| a[i]);
        let chosen = if temperature < 1e-3 {
            moves[self.best_root_move().expect("an expanded root has moves")]
        } else {
            let weights: Vec<f32> = if total > 0 { visits.iter().map(|&v| v as f32).collect() } else { policy.clone() };
            let weights: Vec<f32> = weights.iter().enumerate().map(|(i, &w)| if ok(i) { w } else { 0.0 }).collect();
            if weights.iter().any(|&w| w > 0.0) {
                moves[choose_by_temperature(&weights, temperature, &mut self.rng)]
            } else {
                moves[highest_prior(edges, ok)]
            }
        };

        Ok(self.assemble(moves, visits, policy, chosen))
    }

    /// The root move (by position among the root's edges) [`Search::result`] plays at
    /// temperature 0: the best by the search's choice rule (`visits` or `lcb`) among the moves it
    /// may play ([`Search::playable_root_moves`]), the highest prior where none was visited;
    /// `None` before the root is expanded. Analysis lists it first, so that the engine's
    /// `bestmove` and an analysis's first line are the move the search plays.
    pub fn best_root_move(&self) -> Option<usize> {
        if self.tree.root().status != Status::Expanded {
            return None;
        }
        let allowed = self.allowed_moves();
        let ok = |i: usize| allowed.as_ref().is_none_or(|a| a[i]);
        let first = self.tree.root().first_edge as usize;
        let best = match self.params.tactics.choice {
            MoveChoice::Visits => self.tree.best_edge_where(ROOT, |e| ok(e - first)),
            MoveChoice::Lcb => {
                lcb_edge(&self.tree, ROOT, self.params.tactics.lcb_width, self.view(), |e| ok(e - first))
            }
        };
        Some(best.map_or_else(|| highest_prior(self.tree.edges_of(ROOT), ok), |e| e - first))
    }

    /// With the solver, the root moves (by position among the root's edges) the move choice may
    /// take (see [`allowed_root_moves`]); `None`: all of them.
    fn allowed_moves(&self) -> Option<Vec<bool>> {
        self.solving().then(|| allowed_root_moves(&self.tree))
    }

    /// For each root move (in the order of [`SearchResult::moves`]), whether [`Search::result`]
    /// may play it: with the solver only the proven wins if there are any, else every move but
    /// those proven worse than another and the proven losses while a move is open; without it,
    /// every move. Analysis lists these first, so that its best line is the move played.
    pub fn playable_root_moves(&self) -> Vec<bool> {
        self.allowed_moves().unwrap_or_else(|| vec![true; self.tree.root().num_edges as usize])
    }

    /// Gumbel search's answer: the improved policy as the policy target, and the halving's
    /// survivor as the move (see [`crate::gumbel`]).
    fn gumbel_result(&self, moves: Vec<G::Move>, visits: Vec<u32>) -> SearchResult<G::Move> {
        let policy = improved_policy(&self.tree, ROOT, &self.params, self.view());
        let allowed = self.allowed_moves();
        let ok = |i: usize| allowed.as_ref().is_none_or(|a| a[i]);
        let chosen = self.tree.edges[self.gumbel.choose(&self.tree, &self.params, self.view(), ok)].mv;
        self.assemble(moves, visits, policy, chosen)
    }

    /// A result with the root's value, principal variation and counters.
    fn assemble(
        &self,
        moves: Vec<G::Move>,
        visits: Vec<u32>,
        policy: Vec<f32>,
        chosen: G::Move,
    ) -> SearchResult<G::Move> {
        let root = self.tree.root();
        let mut value = [0.0; MAX_PLAYERS];
        for (p, v) in value.iter_mut().enumerate().take(G::NUM_PLAYERS) {
            *v = root.mean(p);
        }
        SearchResult {
            moves,
            visits,
            policy,
            value,
            chosen,
            pv: most_visited_line(&self.tree, ROOT),
            root_visits: root.visits,
            full_search: self.full_search,
        }
    }

    /// Plays `mv` at the root and moves on to the next move's search, keeping the subtree below
    /// `mv` if `reuse_tree` is set and the search had visited it (never under Gumbel search, whose
    /// halving schedule starts from an unvisited root, nor with `network_plies`, whose nodes past
    /// the network's plies were evaluated without it and would become the new root's top plies
    /// on equal priors). The position left is remembered as part of the game before the root,
    /// for repetition draws.
    ///
    /// # Panics
    /// If leaves are still in flight (apply every gathered batch first).
    pub fn advance(&mut self, mv: G::Move) {
        assert_eq!(self.in_flight, 0, "advance with leaves in flight");
        let edge = self.tree.root().edge_range().find(|&i| self.tree.edges[i].mv == mv);
        let keeps = self.params.reuse_tree && !self.gumbel() && self.params.tactics.network_plies.plies() == 0;
        match edge {
            Some(e) if keeps => {
                self.tree.reroot(e);
            }
            _ => self.tree.clear(),
        }
        self.game_hashes.push(self.root_state.hash());
        self.root_state.play(mv);
        // A node scored without its evaluation (a one-move win, a repetition draw) is not a
        // finished game: as the root it must be searched for a move. A node the solver proved has
        // its moves and subtree, and is searched on from them; its exact value stays exact, as the
        // game before the root counts for repetitions as the path above it did.
        let root = &mut self.tree.nodes[ROOT as usize];
        if root.status == Status::Terminal && self.root_state.outcome().is_none() {
            if root.num_edges > 0 {
                root.status = Status::Expanded;
            } else {
                self.tree.clear();
            }
        }
        self.ply += 1;
        self.started = false;
        self.noise_applied = false;
        self.gumbel.clear();
    }

    /// Starts over from `game` with an empty tree and ply 0 (a new game), keeping the random stream.
    pub fn reset(&mut self, game: G) {
        assert_eq!(self.in_flight, 0, "reset with leaves in flight");
        self.root_state = game;
        self.tree.clear();
        self.game_hashes.clear();
        self.ply = 0;
        self.started = false;
        self.noise_applied = false;
        self.gumbel.clear();
    }
}

/// Whether a new node `depth` plies below the root needs its moves judged: some tactical
/// lever reads them there ([`crate::tactics`]); `minimax`: the search minimaxes them.
fn wants_judged_moves(params: &SearchParams, depth: usize, minimax: bool) -> bool {
    params.tactics.prior_at(depth) || params.tactics.tactical_value > 0.0 || minimax
}

/// The root edge position (among the root's edges) with the highest prior that passes `ok`, the
/// first on ties; 0 if none does (the caller's mask always allows one).
fn highest_prior<M>(edges: &[crate::tree::Edge<M>], ok: impl Fn(usize) -> bool) -> usize {
    let mut best: Option<(usize, f32)> = None;
    for (i, e) in edges.iter().enumerate().filter(|&(i, _)| ok(i)) {
        if best.is_none_or(|(_, p)| e.prior > p) {
            best = Some((i, e.prior));
        }
    }
    best.map_or(0, |(i, _)| i)
}
