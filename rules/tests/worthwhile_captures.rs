//! `Material::worthwhile_captures` leaves out only captures a capture search skips: after the
//! search's own filter (a victim worth at least its capturer and more than the floor) it lists
//! exactly what the full captures list does, in the same order, and nothing that is not a legal
//! capture; checked at every position of random games on both hex boards, at floors from below
//! every victim to above the queen.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::hexchess::{GlinskiRules, HexChess, HexMove, HexRules, MiniRules};
use rules::{Game, Material};

/// Centipawn floors around each piece value (a pawn 100, a minor 300, a rook 500, a queen 900).
const FLOORS: [i32; 12] = [i32::MIN / 2, -500, 0, 99, 100, 250, 299, 300, 499, 500, 899, 900];

/// The captures of `moves` the search tries at `floor`.
fn tried<V: HexRules>(game: &HexChess<V>, moves: &[HexMove], floor: i32) -> Vec<HexMove> {
    moves
        .iter()
        .copied()
        .filter(|&mv| {
            let victim = game.capture_value(mv);
            victim > 0.0 && game.mover_value(mv) <= victim && (victim * 100.0) as i32 > floor
        })
        .collect()
}

/// Plays `games` random games (captures preferred half of the time) and compares the two lists
/// at every position and floor; returns how many positions had a capture the floor kept out.
fn compare<V: HexRules>(games: usize, seed: u64) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut moves, mut all, mut worthwhile) = (Vec::new(), Vec::new(), Vec::new());
    let mut cut = 0;
    for _ in 0..games {
        let mut game = HexChess::<V>::start();
        for _ in 0..300 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.legal_captures(&mut all);
            for floor in FLOORS {
                game.worthwhile_captures(&mut worthwhile, floor);
                assert!(worthwhile.iter().all(|mv| all.contains(mv)), "only legal captures, in {game:?}");
                assert_eq!(tried(&game, &worthwhile, floor), tried(&game, &all, floor), "at {floor} in {game:?}");
                cut += usize::from(worthwhile.len() < all.len());
            }
            let captures: Vec<HexMove> = moves.iter().copied().filter(|&m| game.capture_value(m) > 0.0).collect();
            let mv = if !captures.is_empty() && rng.random_bool(0.5) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            game.play(mv);
        }
    }
    cut
}

#[test]
fn glinski_worthwhile_captures_are_the_ones_a_capture_search_tries() {
    assert!(compare::<GlinskiRules>(40, 3) > 1_000);
}

#[test]
fn mini_hexchess_worthwhile_captures_are_the_ones_a_capture_search_tries() {
    assert!(compare::<MiniRules>(80, 4) > 1_000);
}
