//! Value targets: the game's final scores from the mover's seat on, blended with the search's
//! root value by `training.search_value_weight` where a move recorded one.

use rand::{RngExt, SeedableRng};
use rules::wellisch::Wellisch;
use rules::{Encoding, Game};
use selfplay::replay::{Example, GameRecord, MoveRecord};

/// A random Wellisch game of `plies` moves with made-up root values (seat s at ply i:
/// 0.1 * s + 0.01 * i), every third move without one.
fn record(plies: usize) -> GameRecord {
    let mut game = Wellisch::start();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(4);
    let mut record = GameRecord {
        variant: Wellisch::NAME.into(),
        number: 0,
        start: game.to_text(),
        moves: Vec::new(),
        scores: vec![1.0, 0.0, 0.5],
    };
    let mut moves = Vec::new();
    for i in 0..plies {
        game.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        let index = game.policy_index(mv) as u32;
        let root = [0.0, 0.1, 0.2].map(|v| v + 0.01 * i as f32);
        record.moves.push(MoveRecord {
            played: index,
            visits: vec![(index, 1)],
            policy_target: true,
            root_value: (i % 3 != 2).then_some(root),
        });
        game.play(mv);
    }
    record
}

#[test]
fn value_targets_blend_final_scores_with_root_values() {
    let r = record(12);
    let mut game = Wellisch::start();
    let mut moves = Vec::new();
    for (ply, m) in r.moves.iter().enumerate() {
        let mover = game.to_move();
        for w in [0.0f32, 0.3, 1.0] {
            let ex = Example::decode::<Wellisch>(&r, ply, 0, w).unwrap();
            for k in 0..3 {
                let seat = (mover + k) % 3;
                let want = match m.root_value {
                    Some(q) => (1.0 - w) * r.scores[seat] + w * q[seat],
                    None => r.scores[seat],
                };
                assert!(
                    (ex.values[k] - want).abs() < 1e-6,
                    "ply {ply}, weight {w}, seat {seat}: {} vs {want}",
                    ex.values[k]
                );
            }
        }
        game.legal_moves(&mut moves);
        let mv = *moves.iter().find(|&&mv| game.policy_index(mv) as u32 == m.played).unwrap();
        game.play(mv);
    }
    // At ply 1 seat 1 moves: its targets start from seat 1's score.
    let second = Example::decode::<Wellisch>(&r, 1, 0, 0.0).unwrap();
    assert_eq!(second.values, vec![0.0, 0.5, 1.0]);
}
