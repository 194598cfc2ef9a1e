//! The policy targets built from the search's values: completed-Q and residual targets equal
//! their formulas on a small tree, computed here by hand from the tree.

mod games;

use games::tictactoe::TicTacToe;
use mcts::tree::{Edge, NONE};
use mcts::{Judged, MoveJudge, PolicyTarget, RandomEvaluator, Search, SearchParams, SearchResult, Tactics};
use rules::Game;

/// The position both tests search: x to move, o in the centre.
const POSITION: &str = "x...o.... x";

/// A judge that values corners above edges: a tactical prior that differs from the evaluator's.
#[derive(Clone, Copy, Debug)]
struct CornerJudge;

impl CornerJudge {
    fn value(mv: u8) -> f32 {
        if [0, 2, 6, 8].contains(&mv) {
            0.6
        } else {
            0.4
        }
    }
}

impl MoveJudge<TicTacToe> for CornerJudge {
    fn judge_moves(&self, _: &TicTacToe, moves: &[u8], values: &mut [f32]) {
        for (v, &mv) in values.iter_mut().zip(moves) {
            *v = CornerJudge::value(mv);
        }
    }
}

/// Root noise on, so that a target built from the priors the search selected by would show it.
fn params(target: PolicyTarget, tactics: Tactics) -> SearchParams {
    SearchParams {
        simulations: 60,
        dirichlet_epsilon: 0.25,
        policy_target: target,
        tactics,
        ..SearchParams::for_tests_v1()
    }
}

/// Searches [`POSITION`] with the corner judge behind the random evaluator, seed fixed.
fn searched(params: SearchParams) -> (Search<TicTacToe>, SearchResult<u8>) {
    let mut search = Search::new(TicTacToe::from_text(POSITION).unwrap(), params, 5);
    search.run(&Judged { inner: RandomEvaluator { seed: 7 }, judge: CornerJudge });
    let result = search.result().unwrap();
    (search, result)
}

/// The completed-Q improved policy at the root with `prior` as each edge's prior:
/// pi(a) = prior(a) * exp(sigma(q(a))) / Z, sigma(q) = (c_visit + max N) * c_scale * q, and the
/// q of an unvisited move v_mix = (v + sum N * (sum_visited p q / sum_visited p)) / (1 + sum N).
fn improved_by_hand(search: &Search<TicTacToe>, prior: impl Fn(&Edge<u8>) -> f32) -> Vec<f64> {
    let tree = search.tree();
    let params = search.params();
    let root = tree.root();
    let mover = root.to_move as usize;
    let edges = tree.edges_of(0);
    let child = |e: &Edge<u8>| (e.child != NONE).then(|| &tree.nodes[e.child as usize]).filter(|c| c.visits > 0);
    let visited: Vec<(f32, f32, u32)> = edges
        .iter()
        .filter_map(|e| child(e).map(|c| (prior(e), c.value_sum[mover] / c.visits as f32, c.visits)))
        .collect();
    let child_visits: u32 = visited.iter().map(|v| v.2).sum();
    let child_sum: f32 = edges.iter().filter_map(child).map(|c| c.value_sum[mover]).sum();
    let own_value = (root.value_sum[mover] - child_sum) / (root.visits - child_visits) as f32;
    let prior_mass: f32 = visited.iter().map(|v| v.0).sum();
    let weighted_q: f32 = visited.iter().map(|v| v.0 * v.1).sum::<f32>() / prior_mass;
    let v_mix = (own_value + child_visits as f32 * weighted_q) / (child_visits as f32 + 1.0);
    let max_visits = visited.iter().map(|v| v.2).max().unwrap() as f32;
    let sigma = (params.c_visit + max_visits) * params.c_scale;
    let weight = |e: &Edge<u8>| {
        let q = child(e).map_or(v_mix, |c| c.value_sum[mover] / c.visits as f32);
        prior(e) as f64 * ((sigma * q) as f64).exp()
    };
    let z: f64 = edges.iter().map(weight).sum();
    edges.iter().map(|e| weight(e) / z).collect()
}

fn assert_close(policy: &[f32], expected: &[f64]) {
    for (&p, &x) in policy.iter().zip(expected) {
        assert!((p as f64 - x).abs() < 1e-4, "{policy:?} against the formula's {expected:?}");
    }
}

#[test]
fn completed_q_targets_equal_their_formula() {
    let (search, result) = searched(params(PolicyTarget::CompletedQ, Tactics::off()));
    assert_close(&result.policy, &improved_by_hand(&search, |e| e.own_prior));
    // The noise is in the priors the search selected by, not in the target's.
    let edges = search.tree().edges_of(0);
    assert!(edges.iter().any(|e| (e.prior - e.own_prior).abs() > 1e-3));
    let total: u32 = result.visits.iter().sum();
    let shares: Vec<f32> = result.visits.iter().map(|&v| v as f32 / total as f32).collect();
    assert_ne!(result.policy, shares, "the target is not the visit shares");
}

#[test]
fn residual_targets_take_the_tactical_prior_back_out() {
    let w = 0.5;
    let tactics = Tactics { tactical_prior: w, ..Tactics::off() };
    // A small sigma scale keeps the improved policy soft, where taking a share out shows.
    let soft = |target| SearchParams { c_scale: 0.1, ..params(target, tactics.clone()) };
    let (search, result) = searched(soft(PolicyTarget::Residual));
    let edges = search.tree().edges_of(0);
    // The root's prior before noise, mixed by hand: (1 - w) * own + w * softmax(logit(v) / T).
    let logit = |v: f32| (v / (1.0 - v)).ln() / tactics.tactical_temperature;
    let z: f32 = edges.iter().map(|e| logit(CornerJudge::value(e.mv)).exp()).sum();
    let mixed = |e: &Edge<u8>| (1.0 - w) * e.own_prior + w * logit(CornerJudge::value(e.mv)).exp() / z;
    let improved = improved_by_hand(&search, mixed);
    let residual: Vec<f64> = edges
        .iter()
        .zip(&improved)
        .map(|(e, &t)| (e.own_prior as f64 + (t - mixed(e) as f64) / (1.0 - w) as f64).max(0.0))
        .collect();
    let sum: f64 = residual.iter().sum();
    assert_close(&result.policy, &residual.iter().map(|r| r / sum).collect::<Vec<_>>());
    assert!(edges.iter().any(|e| (e.prior - mixed(e)).abs() > 1e-3), "root noise was mixed in");

    // The same search, read by completed-Q: another target, so the lever changes something.
    let (_, completed) = searched(soft(PolicyTarget::CompletedQ));
    assert_eq!(completed.visits, result.visits, "the lever changes the target, not the search");
    assert!(
        completed.policy.iter().zip(&result.policy).any(|(c, r)| (c - r).abs() > 1e-2),
        "{:?} against completed-Q's {:?}",
        result.policy,
        completed.policy
    );

    // With no tactical prior in the root's prior there is nothing to take out: completed-Q.
    let (_, plain) = searched(params(PolicyTarget::Residual, Tactics::off()));
    let (_, plain_completed) = searched(params(PolicyTarget::CompletedQ, Tactics::off()));
    assert_eq!(plain.policy, plain_completed.policy);
}
