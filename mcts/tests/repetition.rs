//! Repetition draws in the tree ([`SearchParams::repetition_draws`]) and contempt
//! ([`SearchParams::draw_value`]), on a game made to repeat (see `games/shuttle.rs`).

mod games;

use games::shuttle::{Judge, Shuttle, Spot, FAR, PLY_LIMIT, SHUTTLE};
use mcts::tree::{Node, Status, NONE, ROOT};
use mcts::{Search, SearchParams};
use rules::Game;

fn params(repetition_draws: bool, solver: bool) -> SearchParams {
    SearchParams { simulations: 400, repetition_draws, solver, ..SearchParams::for_tests_v1() }
}

/// The node reached from the root by `moves`.
fn node_at<'s>(search: &'s Search<Shuttle>, moves: &[u8]) -> &'s Node {
    let tree = search.tree();
    let mut node = ROOT;
    for &mv in moves {
        let edge = tree.edges_of(node).iter().find(|e| e.mv == mv).expect("a legal move");
        assert_ne!(edge.child, NONE, "move {mv} was searched");
        node = edge.child;
    }
    &tree.nodes[node as usize]
}

fn searched(game: Shuttle, params: SearchParams, judge: &Judge) -> Search<Shuttle> {
    let mut search = Search::new(game, params, 0);
    search.run(judge);
    search
}

/// Home after shuttle and back repeats the root: a draw, exactly, and never evaluated, however
/// good the evaluator thinks home is for the side to move.
#[test]
fn a_position_repeating_the_root_is_an_exact_draw() {
    let judge = Judge { home: 0.9, far: 0.2 };
    let search = searched(Shuttle::start(), params(true, false), &judge);
    let again = node_at(&search, &[SHUTTLE, 0]);
    assert_eq!(again.status, Status::Terminal);
    assert_eq!(again.num_edges, 0, "never expanded, so never evaluated");
    assert!(again.visits > 1, "{again:?}");
    assert_eq!((again.mean(0), again.mean(1)), (0.5, 0.5));

    let plain = searched(Shuttle::start(), params(false, false), &judge);
    let again = node_at(&plain, &[SHUTTLE, 0]);
    assert_eq!(again.status, Status::Expanded, "without the rule it is searched (the test bites)");
    assert_ne!(again.mean(0), 0.5, "{again:?}");
}

/// The shuttle's only answer is a repetition draw, so the solver proves the shuttle a draw.
#[test]
fn the_solver_proves_a_forced_repetition_a_draw() {
    let judge = Judge { home: 0.9, far: 0.2 };
    let search = searched(Shuttle::start(), params(true, true), &judge);
    let shuttled = node_at(&search, &[SHUTTLE]);
    assert_eq!(shuttled.status, Status::Terminal);
    assert!(shuttled.num_edges > 0 && shuttled.visits > 1, "proven, not scored at once: {shuttled:?}");
    assert_eq!((shuttled.mean(0), shuttled.mean(1)), (0.5, 0.5));
    assert_ne!(search.tree().root().status, Status::Terminal);
}

/// An evaluator that likes home more than the far region keeps the search shuttling, a
/// repetition it cannot see; scored as the draw it is, the shuttle loses to the far region.
#[test]
fn repetition_draws_stop_the_search_wandering() {
    let judge = Judge { home: 0.9, far: 0.6 };
    for solver in [false, true] {
        let mut plain = searched(Shuttle::start(), params(false, solver), &judge);
        assert_eq!(plain.result().unwrap().chosen, SHUTTLE, "without the rule it shuttles (solver {solver})");
        let mut search = searched(Shuttle::start(), params(true, solver), &judge);
        assert_eq!(search.result().unwrap().chosen, FAR, "solver {solver}");
    }
}

/// A position of the game before the root counts too: after the shuttle has been played, home
/// repeats the game's first position. A search started at the shuttled position knows no game
/// before it, and searches home.
#[test]
fn the_game_before_the_root_counts() {
    let judge = Judge { home: 0.9, far: 0.2 };
    let fresh = SearchParams { reuse_tree: false, ..params(true, false) };
    let mut search = searched(Shuttle::start(), fresh.clone(), &judge);
    search.advance(SHUTTLE);
    search.run(&judge);
    let home = node_at(&search, &[0]);
    assert_eq!((home.status, home.num_edges), (Status::Terminal, 0));
    assert_eq!((home.mean(0), home.mean(1)), (0.5, 0.5));

    let shuttled = Shuttle { spot: Spot::Shuttled, to_move: 1, plies: 1 };
    let unaware = searched(shuttled, fresh, &judge);
    assert_eq!(node_at(&unaware, &[0]).status, Status::Expanded);
}

/// Played moves lead into exact nodes: the proven shuttle becomes a root searched on from its
/// subtree, the repetition draw after it a root searched afresh (the game is not over).
#[test]
fn positions_scored_exactly_are_searched_again_as_roots() {
    let judge = Judge { home: 0.9, far: 0.2 };
    let mut game = Shuttle::start();
    let mut search = searched(game.clone(), params(true, true), &judge);
    for ply in 0..4 {
        let result = search.result().expect("a root with moves is searched");
        let mv = result.chosen;
        game.play(mv);
        search.advance(mv);
        assert!(game.outcome().is_none());
        assert_ne!(search.tree().root().status, Status::Terminal, "ply {ply}");
        if ply == 0 {
            assert_eq!(mv, SHUTTLE);
            assert!(search.tree().root().visits > 1, "the proven shuttle keeps its subtree");
            assert_eq!(search.tree().root().mean(0), 0.5);
        }
        search.run(&judge);
    }
}

/// Contempt: with a draw worth 0.25 to each side inside the search, the shuttle's proven draw is
/// worth exactly that, and the far region's 0.3 is preferred to it; without, the draw's 0.5 is.
#[test]
fn contempt_scores_the_search_draws() {
    let judge = Judge { home: 0.9, far: 0.3 };
    let mut fair = searched(Shuttle::start(), params(true, true), &judge);
    assert_eq!(fair.result().unwrap().chosen, SHUTTLE);
    let contempt = SearchParams { draw_value: 0.25, ..params(true, true) };
    let mut search = searched(Shuttle::start(), contempt.clone(), &judge);
    assert_eq!(search.result().unwrap().chosen, FAR);
    let shuttled = node_at(&search, &[SHUTTLE]);
    assert_eq!((shuttled.status, shuttled.mean(0), shuttled.mean(1)), (Status::Terminal, 0.25, 0.25));

    // A finished draw (here by the ply limit) scores the same.
    let last = Shuttle { spot: Spot::Far(2), to_move: 1, plies: PLY_LIMIT - 1 };
    let search = searched(last, contempt, &judge);
    for mv in [1, 2, 3] {
        let end = node_at(&search, &[mv]);
        assert_eq!((end.status, end.mean(0), end.mean(1)), (Status::Terminal, 0.25, 0.25));
    }
}
