//! From every start position the search returns a legal move at each depth, the same one for
//! the same seed, and the iterations it reports are complete.

use alphabeta::{search, SearchLimits};
use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Game, Glinski, Material, MiniHexchess};

fn legal_at_each_depth<G: Material>(max_depth: u32) {
    let game = G::start();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    for depth in 1..=max_depth {
        let report = search(&game, &SearchLimits::depth(depth), 3).expect("moves at the start");
        assert!(legal.contains(&report.best), "{} depth {depth}: {:?} is not legal", G::NAME, report.best);
        assert_eq!(report.depth, depth, "{}", G::NAME);
        assert_eq!(report.iterations.len(), depth as usize, "{}", G::NAME);
        assert!(!report.stopped);
        let again = search(&game, &SearchLimits::depth(depth), 3).unwrap();
        assert_eq!((again.best, again.value, again.nodes), (report.best, report.value, report.nodes), "{}", G::NAME);
    }
}

#[test]
fn glinski_start() {
    legal_at_each_depth::<Glinski>(3);
}

#[test]
fn mini_hexchess_start() {
    legal_at_each_depth::<MiniHexchess>(4);
}

#[test]
fn wellisch_start() {
    legal_at_each_depth::<Wellisch>(3);
}

#[test]
fn weltschach_start() {
    // Depth 3 takes seconds here (`vzero bench alphabeta`).
    legal_at_each_depth::<Weltschach>(2);
}

#[test]
fn seeds_vary_the_choice_among_equal_moves() {
    let game = MiniHexchess::start();
    let chosen: std::collections::HashSet<_> =
        (0..16).map(|seed| search(&game, &SearchLimits::depth(1), seed).unwrap().best).collect();
    assert!(chosen.len() > 1, "sixteen seeds chose one move");
}

#[test]
fn a_finished_game_has_no_search() {
    // Play the first legal move until the game ends (by mate, stalemate or a draw rule).
    let mut game = MiniHexchess::start();
    let mut moves = Vec::new();
    while game.outcome().is_none() {
        game.legal_moves(&mut moves);
        game.play(moves[0]);
    }
    assert!(search(&game, &SearchLimits::depth(2), 0).is_none());
}

#[test]
fn a_tiny_time_limit_still_returns_a_legal_move() {
    let game = Glinski::start();
    let settings = SearchLimits { time: Some(std::time::Duration::from_millis(1)), ..SearchLimits::depth(12) };
    let report = search(&game, &settings, 0).unwrap();
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    assert!(legal.contains(&report.best));
    assert!(report.stopped && report.depth < 12);
}
