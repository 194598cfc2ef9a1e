//! The tactical levers inside an `mcts` tree, with the alpha-beta player's judge, on positions
//! with known answers: the tactical prior finds a capture that uniform search at the same
//! simulations misses, and the judged values reach the move choice.

mod common;

use alphabeta::tactical_evaluator;
use common::hex_position;
use mcts::{MoveChoice, Search, SearchParams, Tactics, UniformEvaluator};
use rules::{Game, Glinski};

/// White (king b1, queen f4, bishop f1, knights c2 and d3, pawns b2 and e3) to move, with Black's rook
/// hanging on f9 up the queen's file among some sixty quiet moves.
fn hanging_rook() -> Glinski {
    let pieces = [
        ("b1", 'K'),
        ("f4", 'Q'),
        ("f1", 'B'),
        ("c2", 'N'),
        ("d3", 'N'),
        ("b2", 'P'),
        ("e3", 'P'),
        ("f9", 'r'),
        ("k1", 'k'),
    ];
    Glinski::from_text(&hex_position(5, &pieces, "w - 0 30")).unwrap()
}

/// The move a search from `game` chooses at `simulations` with `tactics`.
fn chosen(game: &Glinski, simulations: u32, tactics: Tactics) -> <Glinski as Game>::Move {
    let mut search = Search::new(game.clone(), SearchParams::playing(simulations, &tactics), 0);
    search.run(&tactical_evaluator(&tactics, UniformEvaluator));
    search.result().unwrap().chosen
}

/// The queen's capture of the rook.
fn take(game: &Glinski) -> <Glinski as Game>::Move {
    game.parse_move("f4-f9").unwrap()
}

#[test]
fn the_tactical_prior_finds_the_capture_uniform_search_misses() {
    let game = hanging_rook();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.len() > 40, "a crowded choice: {} moves", moves.len());
    let uniform = chosen(&game, 32, Tactics::off());
    assert_ne!(uniform, take(&game), "uniform search at 32 simulations must miss it for the test to bite");
    let found = chosen(&game, 32, Tactics { tactical_prior: 1.0, ..Tactics::off() });
    assert_eq!(found, take(&game), "the tactical prior plays {}", game.move_text(found));
}

#[test]
fn the_recommended_levers_take_the_rook() {
    let game = hanging_rook();
    let tactics = Tactics::default();
    assert_eq!(tactics.choice, MoveChoice::Lcb);
    for simulations in [8, 64] {
        let found = chosen(&game, simulations, tactics.clone());
        assert_eq!(found, take(&game), "{} at {simulations} simulations", game.move_text(found));
    }
}
