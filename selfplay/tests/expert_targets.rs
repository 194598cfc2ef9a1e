//! Self-play with the tactical search as its expert: the policy targets it records carry the
//! judge's tactics while the tree levers are on, and lose them once `tree_levers_iterations` has
//! faded the levers out.

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use alphabeta::TacticsJudge;
use mcts::{Judged, SearchParams, Tactics, UniformEvaluator};
use rules::hexchess::Glinski;
use rules::{Encoding, Game};
use selfplay::config::SelfplayConfig;
use selfplay::play::play_games;

/// White's queen on f4 can take the black rook on f9, which nothing defends: one capture among
/// the queen's and king's 40-odd moves.
const HANGING_ROOK: &str = "1/3/2r2/7/9/11/11/5Q5/11/11/1K7k1 w - 0 30";

/// The share of the first move's policy target that goes to the capture, self-play searching
/// with `params` and the uniform evaluator (a network that knows nothing).
fn capture_share(params: &SearchParams) -> f32 {
    let start = Glinski::from_text(HANGING_ROOK).unwrap();
    let cfg = SelfplayConfig { games_per_worker: 1, max_plies: 1, ..SelfplayConfig::default() };
    let evaluator = Judged { inner: UniformEvaluator, judge: TacticsJudge { depth: 0, ..TacticsJudge::default() } };
    let queue = Mutex::new((0..1).collect());
    let mut records = Vec::new();
    play_games(&cfg, params, &evaluator, &start, 3, &queue, &AtomicBool::new(false), |r, _| records.push(r));
    let first = &records[0].moves[0];
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let capture = moves.iter().find(|&&m| start.move_text(m).ends_with("f9")).copied().expect("the capture");
    let index = start.policy_index(capture) as u32;
    let total: u32 = first.visits.iter().map(|&(_, n)| n).sum();
    let on_capture = first.visits.iter().find(|&&(i, _)| i == index).map_or(0, |&(_, n)| n);
    on_capture as f32 / total as f32
}

#[test]
fn the_expert_search_targets_the_hanging_rook_until_its_levers_fade() {
    let params = SearchParams {
        simulations: 64,
        dirichlet_epsilon: 0.0,
        fast_fraction: 0.0,
        tactics: Tactics { tree_levers_iterations: 10, ..Tactics::default() },
        ..SearchParams::default()
    };
    let expert = capture_share(&params.tree_levers_at(0));
    assert!(expert > 0.5, "the tactical search spends most visits on the capture: {expert}");
    let faded = capture_share(&params.tree_levers_at(10));
    assert!(faded < 0.2, "with the levers faded out the uniform prior spreads the visits: {faded}");
}
