//! Every variant lists the results its games end with: random games end in one of them, and
//! the value head's classes (seen from the mover) all sum to the game's constant.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Encoding, Glinski, MiniHexchess};

/// Plays `games` random games to their end and checks each result is listed; checks the
/// classes' count and sums.
fn check<G: Encoding>(games: usize, seed: u64, classes: usize, total: f32) {
    let listed = G::outcomes();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut game = G::start();
        let result = loop {
            if let Some(scores) = game.outcome() {
                break scores;
            }
            game.legal_moves(&mut moves);
            game.play(moves[rng.random_range(0..moves.len())]);
        };
        assert!(listed.contains(&result), "{} ended {result:?}, not in {listed:?}", G::NAME);
    }
    let seen = G::value_classes();
    assert_eq!(seen.len(), classes, "{seen:?}");
    for class in &seen {
        assert!((class.iter().sum::<f32>() - total).abs() < 1e-6, "{class:?}");
    }
    assert!(seen.windows(2).all(|w| w[0][0] >= w[1][0]), "best for the mover first: {seen:?}");
}

#[test]
fn random_games_end_in_a_listed_outcome() {
    check::<Glinski>(20, 1, 5, 1.0);
    check::<MiniHexchess>(40, 2, 3, 1.0);
    check::<Wellisch>(6, 3, 10, 1.5);
    check::<Weltschach>(2, 4, 3, 1.0);
}
