//! One replay path: a record replays move by move with a clear error where it stops being
//! legal, and the sampler's snapshots rebuild exactly the positions a replay from ply 0 reaches,
//! so a seed samples the same batch as before.

use std::sync::Arc;

use rand::SeedableRng;
use rules::hexchess::{Glinski, MiniHexchess};
use rules::wellisch::Wellisch;
use rules::{Encoding, Game};
use selfplay::bench::random_game;
use selfplay::replay::sampler::sample_batch;
use selfplay::replay::snapshots::{Snapshots, SNAPSHOT_PLIES};
use selfplay::replay::{record_to_text, replay_to, DecodeError, Example, ReplayWindow, WindowSize};

fn rng(seed: u64) -> rand::rngs::Xoshiro256PlusPlus {
    rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed)
}

fn snapshots_match_replay<G: Encoding>() {
    let mut r = rng(7);
    for _ in 0..3 {
        let record = random_game::<G>(&mut r, 5);
        assert!(record.moves.len() > 2 * SNAPSHOT_PLIES, "a game long enough to cross snapshots");
        let snapshots = Snapshots::<G>::build(&record).unwrap();
        let mut replay = record.replay::<G>().unwrap();
        let mut plies = 0;
        while let Some(step) = replay.step() {
            let step = step.unwrap();
            assert_eq!(step.ply, plies);
            let rebuilt = snapshots.position(step.ply);
            assert_eq!(rebuilt.to_text(), step.position.to_text(), "{} ply {}", G::NAME, step.ply);
            assert_eq!(rebuilt.hash(), step.position.hash());
            let slow: G = replay_to(&record, step.ply).unwrap();
            assert_eq!(slow.hash(), step.position.hash());
            assert_eq!(step.position.policy_index(step.mv) as u32, step.record.played);
            assert!(step.legal.contains(&step.mv));
            plies += 1;
        }
        assert_eq!(plies, record.moves.len());
        let last: G = replay_to(&record, plies).unwrap();
        assert_eq!(replay.into_position().hash(), last.hash());
    }
}

#[test]
fn snapshots_rebuild_the_replayed_positions() {
    snapshots_match_replay::<Glinski>();
    snapshots_match_replay::<MiniHexchess>();
    snapshots_match_replay::<Wellisch>();
}

#[test]
fn a_record_that_does_not_replay_says_where() {
    let mut record = random_game::<Glinski>(&mut rng(3), 5);
    record.moves[5].played = u32::MAX;
    let mut replay = record.replay::<Glinski>().unwrap();
    for ply in 0..5 {
        assert_eq!(replay.step().unwrap().unwrap().ply, ply);
    }
    assert_eq!(replay.step().unwrap().err(), Some(DecodeError::IllegalMove { ply: 5, index: u32::MAX }));
    assert!(replay.step().is_none(), "a replay ends at its first illegal move");
    assert_eq!(record_to_text::<Glinski>(&record), Err(DecodeError::IllegalMove { ply: 5, index: u32::MAX }));
    assert!(Snapshots::<Glinski>::build(&record).is_err());

    assert!(matches!(record.replay::<Wellisch>(), Err(DecodeError::WrongVariant { .. })));
    record.start = "not a position".into();
    assert!(matches!(record.replay::<Glinski>(), Err(DecodeError::Start(_))));
}

#[test]
fn the_sampler_draws_what_a_replay_from_the_start_decodes() {
    let mut window = ReplayWindow::new(WindowSize { min: 5000, max: 5000, alpha: 0.75, beta: 0.4 });
    let mut r = rng(11);
    while window.len() < 2000 {
        window.push(Arc::new(random_game::<Glinski>(&mut r, 20)));
    }
    let mut batch = nn::TrainBatch::default();
    // Twice: the first batch builds the snapshots, the second uses them.
    for seed in [1, 2] {
        let size = 64;
        sample_batch::<Glinski>(&window, size, 0.25, &mut rng(seed), &mut batch).unwrap();
        let mut again = rng(seed);
        let (input, policy) = (Glinski::input_len(), Glinski::POLICY_SIZE);
        for i in 0..size {
            let (game, ply) = window.sample(&mut again);
            let sym = rand::RngExt::random_range(&mut again, 0..Glinski::NUM_SYMMETRIES);
            let ex = Example::decode::<Glinski>(&game, ply, sym, 0.25).unwrap();
            assert_eq!(ex.planes, batch.inputs[i * input..(i + 1) * input]);
            assert_eq!(ex.policy, batch.policy[i * policy..(i + 1) * policy]);
            assert_eq!(ex.legal, batch.legal[i * policy..(i + 1) * policy]);
            assert_eq!(ex.values, batch.values[i * Glinski::NUM_PLAYERS..(i + 1) * Glinski::NUM_PLAYERS]);
        }
    }
}

/// For a policy too large to lay out whole, the sampler lists each position's legal moves with
/// their shares: exactly the whole example's nonzero mask and targets, in the same order as
/// the legal moves' policy indices.
#[test]
fn a_listed_batch_holds_the_whole_examples_legal_moves_and_shares() {
    let mut window = ReplayWindow::new(WindowSize { min: 5000, max: 5000, alpha: 0.75, beta: 0.4 });
    let mut r = rng(12);
    while window.len() < 600 {
        window.push(Arc::new(random_game::<Wellisch>(&mut r, 20)));
    }
    let mut batch = nn::TrainBatch::default();
    let size = 16;
    sample_batch::<Wellisch>(&window, size, 0.25, &mut rng(3), &mut batch).unwrap();
    let listed = batch.listed.as_ref().expect("Wellisch's policy is listed");
    assert!(batch.legal.is_empty() && listed.positions() == size);
    assert_eq!(batch.policy.len(), listed.indices.len());
    let mut again = rng(3);
    let (input, mut from) = (Wellisch::input_len(), 0);
    for i in 0..size {
        let (game, ply) = window.sample(&mut again);
        let sym = rand::RngExt::random_range(&mut again, 0..Wellisch::NUM_SYMMETRIES);
        let ex = Example::decode::<Wellisch>(&game, ply, sym, 0.25).unwrap();
        assert_eq!(ex.planes, batch.inputs[i * input..(i + 1) * input]);
        let n = listed.counts[i];
        let (indices, shares) = (&listed.indices[from..from + n], &batch.policy[from..from + n]);
        let mut legal: Vec<i64> = (0..ex.legal.len()).filter(|&j| ex.legal[j] > 0.0).map(|j| j as i64).collect();
        let mut sorted = indices.to_vec();
        sorted.sort_unstable();
        legal.sort_unstable();
        assert_eq!(sorted, legal, "position {i}: the legal moves");
        for (&j, &share) in indices.iter().zip(shares) {
            assert_eq!(share, ex.policy[j as usize], "position {i}, index {j}");
        }
        let mass: f32 = shares.iter().sum();
        assert!((mass - 1.0).abs() < 1e-4, "position {i}: the shares sum to {mass}");
        assert_eq!(ex.values, batch.values[i * 3..(i + 1) * 3]);
        from += n;
    }
}
