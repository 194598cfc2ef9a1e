//! Gumbel search with known answers: the paper's choice rule, policy improvement on a mate the
//! prior misses, sequential halving's exact budget, and three players on the mover's own value.

mod games;

use games::three::{Three, MAXN_MOVE, PARANOID_MOVE};
use games::tictactoe::TicTacToe;
use mcts::{Batch, Evaluator, RootSearch, Search, SearchParams, UniformEvaluator};
use rules::hexchess::Glinski;
use rules::{Game, MAX_PLAYERS};

/// Gumbel search on the frozen test preset (no win checks, no noise).
fn gumbel(simulations: u32, actions: u32) -> SearchParams {
    SearchParams { simulations, root: RootSearch::Gumbel, gumbel_actions: actions, ..SearchParams::for_tests_v1() }
}

/// A test evaluator with unequal priors (growing with the move's number) and a value for the
/// mover that depends on the position, both known to the test.
struct Skewed;

fn skewed_prior(mv: u8) -> f32 {
    mv as f32 + 1.0
}

/// The mover's value of `state`: 0.5 give or take 0.05, a function of its hash.
fn skewed_value(state: &TicTacToe) -> f32 {
    0.45 + 0.1 * (state.hash() % 101) as f32 / 100.0
}

impl Evaluator<TicTacToe> for Skewed {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut Batch<TicTacToe>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                *p = skewed_prior(mv);
            }
            let v = skewed_value(slot.state);
            let mover = slot.state.to_move();
            *slot.value = [0.0; MAX_PLAYERS];
            slot.value[mover] = v;
            slot.value[1 - mover] = 1.0 - v;
        }
    }
}

/// With n = 2 simulations and m = 2, the search visits the two moves with the highest
/// `g + logits` once each and plays the one with the highest `g + logits + sigma(q)`,
/// `sigma(q) = (c_visit + 1) * c_scale * q` (Danihelka et al. 2022, section 3): checked against
/// the evaluator's own numbers, over seeds where that differs from both `g + logits` and `q`.
#[test]
fn two_simulations_two_actions_play_the_papers_argmax() {
    let start = TicTacToe::start();
    let total_prior: f32 = (0..9).map(skewed_prior).sum();
    let (mut q_mattered, mut g_mattered) = (false, false);
    for seed in 0..200 {
        // Three root visits: the root's evaluation and the paper's n = 2 simulations.
        let params = SearchParams { temperature: 1.0, temperature_plies: 1, ..gumbel(3, 2) };
        let mut search = Search::new(start.clone(), params.clone(), seed);
        search.run(&Skewed);
        let result = search.result().unwrap();
        let g = search.root_gumbel().to_vec();
        assert_eq!(g.len(), result.moves.len());
        let logit = |i: usize| (skewed_prior(result.moves[i]) / total_prior).ln();
        let q = |i: usize| {
            let mut child = start.clone();
            child.play(result.moves[i]);
            1.0 - skewed_value(&child)
        };
        let by = |f: &dyn Fn(usize) -> f32| {
            let mut order: Vec<usize> = (0..result.moves.len()).collect();
            order.sort_by(|&a, &b| f(b).total_cmp(&f(a)));
            order
        };
        let sampled = by(&|i| g[i] + logit(i));
        let top2 = [sampled[0], sampled[1]];
        for (i, &n) in result.visits.iter().enumerate() {
            assert_eq!(n, u32::from(top2.contains(&i)), "seed {seed}: visits {:?}, sampled {top2:?}", result.visits);
        }
        let sigma = |i: usize| (params.c_visit + 1.0) * params.c_scale * q(i);
        let score = |i: usize| g[i] + logit(i) + sigma(i);
        let expected = if score(top2[1]) > score(top2[0]) { top2[1] } else { top2[0] };
        assert_eq!(result.chosen, result.moves[expected], "seed {seed}");
        q_mattered |= expected != top2[0];
        g_mattered |= q(expected) < q(top2[0]).max(q(top2[1]));
    }
    assert!(q_mattered && g_mattered, "the seeds never told the rule apart from its parts");
}

/// Priors that all but hide the winning moves.
struct HidesTheMates {
    mates: Vec<String>,
}

impl Evaluator<Glinski> for HidesTheMates {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut Batch<Glinski>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                *p = if self.mates.contains(&slot.state.move_text(mv)) { 0.001 } else { 1.0 };
            }
            *slot.value = [0.5; MAX_PLAYERS];
        }
    }
}

/// Mates in one whose priors are a thousandth of every other move's: the improved policy puts
/// nearly all its mass on them, and the search plays one.
#[test]
fn the_improved_policy_finds_the_mates_the_prior_hides() {
    let game = Glinski::from_text("1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60").unwrap();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mates: Vec<_> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let mut after = game.clone();
            after.play(mv);
            after.outcome().map(|s| s.get(0)) == Some(1.0)
        })
        .collect();
    assert!(!mates.is_empty() && mates.len() < 4, "{} mates", mates.len());
    let evaluator = HidesTheMates { mates: mates.iter().map(|&mv| game.move_text(mv)).collect() };
    // Every legal move considered, and enough simulations to visit each once.
    let mut search = Search::new(game.clone(), gumbel(2 * moves.len() as u32, 64), 0);
    search.run(&evaluator);
    let result = search.result().unwrap();
    let mass = |shares: &dyn Fn(usize) -> f32| {
        (0..result.moves.len()).filter(|&i| mates.contains(&result.moves[i])).map(shares).sum::<f32>()
    };
    let prior = mass(&|i| search.tree().edges_of(0)[i].prior);
    let improved = mass(&|i| result.policy[i]);
    assert!(improved > 0.99 && prior < 0.001, "improved {improved} vs prior {prior}");
    assert!(mates.contains(&result.chosen), "{}", game.move_text(result.chosen));
    assert!((result.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{:?}", result.policy);
}

/// Root children's visits, most first, after a search of `simulations` root visits from
/// Glinski's start (51 moves).
fn root_visits(simulations: u32, actions: u32, max_in_flight: u32) -> Vec<u32> {
    let params = SearchParams { max_in_flight, ..gumbel(simulations, actions) };
    let mut search = Search::new(Glinski::start(), params, 3);
    search.run(&UniformEvaluator);
    assert_eq!(search.tree().root().visits, simulations);
    let mut visits = search.result().unwrap().visits;
    visits.retain(|&n| n > 0);
    visits.sort_unstable_by(|a, b| b.cmp(a));
    visits
}

/// Sequential halving spends exactly the budget, phase by phase, one leaf at a time or with
/// many in flight: m = 4 and n = 8 give the four sampled moves one visit each, then the better
/// two two more; m = 16 and n = 99 give 16 moves one visit, 8 of them 3 more, 4 of those 6
/// more, and the last two 12 more rounds each, cut at the budget.
#[test]
fn sequential_halving_spends_exactly_the_budget() {
    for in_flight in [1, 4, 8] {
        assert_eq!(root_visits(9, 4, in_flight), [3, 3, 1, 1], "{in_flight} in flight");
        let wide = root_visits(100, 16, in_flight);
        assert_eq!(wide, [28, 27, 10, 10, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1], "{in_flight} in flight");
    }
}

/// Three players: each mover maximises its own component, so Gumbel search finds the max-n
/// answer (and the paranoid one when asked), as PUCT does.
#[test]
fn three_players_each_maximise_their_own_value() {
    for (paranoid, expected) in [(false, MAXN_MOVE), (true, PARANOID_MOVE)] {
        let params = SearchParams { paranoid, max_in_flight: 4, ..gumbel(600, 16) };
        let mut search = Search::new(Three::start(), params, 0);
        search.run(&UniformEvaluator);
        let result = search.result().unwrap();
        assert_eq!(result.chosen, expected, "paranoid {paranoid}: {result:?}");
        assert!(result.share(expected) > 0.99, "paranoid {paranoid}: {result:?}");
    }
}

/// Gumbel search keeps no tree between moves and draws no Dirichlet noise: the root's priors
/// stay the evaluator's, and a move starts from an unvisited root.
#[test]
fn each_move_starts_from_a_fresh_root_without_dirichlet_noise() {
    let params = SearchParams { dirichlet_epsilon: 0.25, ..gumbel(50, 8) };
    let mut search = Search::new(TicTacToe::start(), params, 1);
    search.run(&Skewed);
    let total: f32 = (0..9).map(skewed_prior).sum();
    for e in search.tree().edges_of(0) {
        assert!((e.prior - skewed_prior(e.mv) / total).abs() < 1e-6, "prior of {} is {}", e.mv, e.prior);
    }
    let chosen = search.result().unwrap().chosen;
    search.advance(chosen);
    assert_eq!((search.tree().root().visits, search.tree().nodes.len()), (0, 1));
}
