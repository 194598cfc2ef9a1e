//! The tactical judge is bounded and stoppable at any depth: on Weltschach, whose several
//! hundred moves a node made a judge of depth 2 cost seconds a node and one of depth 4 hours, it
//! keeps the deepest values it completed within `JUDGE_NODES`; with its stop flag set it keeps
//! the quiescence values and returns at once.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use alphabeta::{move_values, TacticsJudge};
use mcts::LeafJudge;
use rules::weltschach::Weltschach;
use rules::{Game, Glinski, Material};

/// `G`'s position after 12 plies chosen by a fixed sequence: a middlegame of captures to come.
fn middlegame<G: Game>() -> G {
    let mut game = G::start();
    let mut moves = Vec::new();
    let mut state = 12345u64;
    for _ in 0..12 {
        game.legal_moves(&mut moves);
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        game.play(moves[(state >> 33) as usize % moves.len()]);
    }
    game
}

/// The judge's centipawns for every move of `game` at `depth`, with the time it took.
fn judged<G: Material>(game: &G, depth: u32, stop: Option<&AtomicBool>) -> (Vec<i32>, Duration) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut values = vec![0; moves.len()];
    let began = Instant::now();
    move_values(game, &moves, depth, &mut values, stop);
    (values, began.elapsed())
}

#[test]
fn a_deep_judge_on_weltschach_keeps_the_deepest_values_its_budget_completes() {
    let game = middlegame::<Weltschach>();
    let (one, _) = judged(&game, 1, None);
    // Depth 2 needs several times the budget here (about 7 s where depth 1 takes half a second).
    for depth in [2, 4] {
        assert_eq!(judged(&game, depth, None).0, one, "depth {depth} keeps depth 1's values");
    }
    let (zero, _) = judged(&game, 0, None);
    assert_ne!(zero, one, "depth 1 sees more than the quiescence values");
}

#[test]
fn a_stopped_judge_keeps_its_quiescence_values_and_returns_at_once() {
    let game = middlegame::<Weltschach>();
    let (zero, _) = judged(&game, 0, None);
    let stopped = AtomicBool::new(true);
    let (values, took) = judged(&game, 4, Some(&stopped));
    assert_eq!(values, zero);
    // The quiescence values alone take a few tens of milliseconds.
    assert!(took < Duration::from_secs(2), "{took:?}");
    let leaf = |stop| TacticsJudge { depth: 4, stop, cache: None }.judge(&game);
    assert_eq!(leaf(Some(&stopped)), TacticsJudge::default().judge(&game), "the leaf value falls back too");
}

#[test]
fn a_shallow_judge_on_a_small_board_is_not_cut_short() {
    // Glinski's judge at depth 2 stays well within the budget: its values differ from depth 1's
    // (a cut short judge would keep those).
    let game = middlegame::<Glinski>();
    assert_ne!(judged(&game, 2, None).0, judged(&game, 1, None).0);
}
