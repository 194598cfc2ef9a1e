//! The tactical levers inside an `mcts` tree, with the alpha-beta player's judge, on positions
//! with known answers: the tactical prior finds a capture that uniform search at the same
//! simulations misses, and the judged values reach the move choice.

mod common;

use alphabeta::tactical_evaluator;
use common::hex_position;
use mcts::{Evaluator, MoveChoice, Search, SearchParams, Tactics, UniformEvaluator};
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

/// The root value and visits of a 64-simulation search from the hanging rook.
fn searched<E: Evaluator<Glinski>>(tactical_value: f32, evaluator: E) -> ([f32; 2], Vec<u32>) {
    let tactics = Tactics { tactical_value, ..Tactics::default() };
    let mut search = Search::new(hanging_rook(), SearchParams::playing(64, &tactics), 0);
    search.run(&tactical_evaluator(&tactics, evaluator));
    let result = search.result().unwrap();
    ([result.value[0], result.value[1]], result.visits)
}

/// A network that calls every position even: the uniform evaluator's answers, but an opinion.
struct Even;

impl Evaluator<Glinski> for Even {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut mcts::Batch<Glinski>) {
        UniformEvaluator.evaluate(batch)
    }
}

#[test]
fn a_search_without_a_network_takes_the_judged_value_whole() {
    // The uniform evaluator's 1/2 says nothing, so any share of the judged value is all of it.
    assert_eq!(searched(0.5, UniformEvaluator), searched(1.0, UniformEvaluator));
    // A network's 1/2 is an opinion, which keeps half of each new node's value: the rook White
    // wins is worth less to that search than to the judge alone.
    let (half, _) = searched(0.5, Even);
    let (whole, _) = searched(1.0, Even);
    assert_eq!(searched(1.0, UniformEvaluator).0, whole, "at a share of 1 the network's value is unread");
    assert!(half[0] < whole[0] - 0.05, "half {half:?} against whole {whole:?}");
}
