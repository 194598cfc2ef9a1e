//! Policy logits at listed moves (the legal ones, in a search) are the whole policy head's
//! logits at those indices, in every inference form and through the inference service, for
//! hexagonal (2-D) and cubic (3-D) boards.

use std::time::Duration;

use nn::checkpoint::save_weights;
use nn::{BatchingConfig, FastNet, InferenceForm, InferenceService, ListedMoves, NetConfig, PolicyValueNet};
use tch::{Device, Tensor};

mod common;

use common::{batch, hex_config};

/// A small cube: 4 planes over 3x4x4 cells, a policy of 70 logits (two planes' worth of kinds
/// and part of a third, as Weltschach's policy does not fill its last plane either).
fn cube_config() -> NetConfig {
    NetConfig { input_shape: vec![4, 3, 4, 4], policy_size: 70, board_mask: None, ..hex_config() }
}

/// Move lists of uneven lengths (one empty) spread over the whole policy, the last index
/// included.
fn lists(cfg: &NetConfig, positions: usize) -> ListedMoves {
    let mut listed = ListedMoves::default();
    for i in 0..positions {
        let n = (i * 5) % 9;
        listed.indices.extend((0..n).map(|k| ((i * 31 + k * 17) % cfg.policy_size) as i64));
        listed.counts.push(n);
    }
    listed.indices.push(cfg.policy_size as i64 - 1);
    *listed.counts.last_mut().unwrap() += 1;
    listed
}

/// The whole logits `[B, policy_size]` at the listed indices, in order.
fn picked(whole: &Tensor, listed: &ListedMoves) -> Vec<f32> {
    let mut out = Vec::new();
    let mut at = listed.indices.iter();
    for (row, &n) in listed.counts.iter().enumerate() {
        out.extend(at.by_ref().take(n).map(|&i| whole.double_value(&[row as i64, i]) as f32));
    }
    out
}

fn largest_difference(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn check_forms(cfg: &NetConfig) {
    let net = PolicyValueNet::seeded(cfg, Device::Cpu, 5);
    let b = batch(cfg, 7);
    let listed = lists(cfg, 7);
    let (whole, outcomes, values) = net.predict_outcomes(&b.inputs, 7);
    let (at, outcomes_at, values_at) = net.predict_outcomes_at(&b.inputs, 7, &listed);
    let (at, want) = (Vec::<f32>::try_from(&at).unwrap(), picked(&whole, &listed));
    assert!(largest_difference(&at, &want) < 1e-5, "the network as trained: {at:?} against {want:?}");
    assert_eq!(
        Vec::<f32>::try_from(&outcomes_at.flatten(0, -1)).unwrap(),
        Vec::<f32>::try_from(&outcomes.flatten(0, -1)).unwrap()
    );
    assert_eq!(
        Vec::<f32>::try_from(&values_at.flatten(0, -1)).unwrap(),
        Vec::<f32>::try_from(&values.flatten(0, -1)).unwrap()
    );
    let fast = FastNet::new(&net, InferenceForm::FAST_FP32);
    let (fast_whole, _, _) = fast.predict_outcomes(&b.inputs, 7);
    let (fast_at, _, _) = fast.predict_outcomes_at(&b.inputs, 7, &listed);
    let fast_at = Vec::<f32>::try_from(&fast_at).unwrap();
    assert!(largest_difference(&fast_at, &picked(&fast_whole, &listed)) < 1e-5, "the fast form");
    assert!(largest_difference(&fast_at, &want) < 1e-4, "the fast form against the network as trained");
}

#[test]
fn listed_logits_are_the_whole_heads_on_a_hex_board() {
    check_forms(&hex_config());
}

#[test]
fn listed_logits_are_the_whole_heads_on_a_cube() {
    check_forms(&cube_config());
}

#[test]
fn bf16_listed_logits_stay_within_its_precision() {
    if !nn::fast::cpu_has_bf16() {
        println!("SKIPPED: this CPU has no native bf16 (avx512_bf16 or amx_bf16)");
        return;
    }
    let cfg = cube_config();
    let net = PolicyValueNet::seeded(&cfg, Device::Cpu, 5);
    let (b, listed) = (batch(&cfg, 7), lists(&cfg, 7));
    let (whole, _, _) = net.predict_outcomes(&b.inputs, 7);
    let want = picked(&whole, &listed);
    let fast = FastNet::new(&net, InferenceForm::FAST_BF16);
    let got = Vec::<f32>::try_from(&fast.predict_outcomes_at(&b.inputs, 7, &listed).0).unwrap();
    let size = want.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(largest_difference(&got, &want) < 0.03 * size, "{got:?} against {want:?}");
}

/// Listed and whole requests in one batch, split over parallel passes or not: each listed
/// request gets its moves' logits, each whole one every logit, as the network computes them.
#[test]
fn the_service_answers_listed_and_whole_requests_alike() {
    let cfg = cube_config();
    let reference = PolicyValueNet::seeded(&cfg, Device::Cpu, 9);
    let dir = std::env::temp_dir().join(format!("vzero-listed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("w.safetensors");
    save_weights(&reference, &weights).unwrap();
    let positions = 12;
    let b = batch(&cfg, positions);
    let listed = lists(&cfg, positions);
    let (whole, _, values) = reference.predict_outcomes(&b.inputs, positions);
    let want = picked(&whole, &listed);
    let whole = Vec::<f32>::try_from(&whole.flatten(0, -1)).unwrap();
    let values = Vec::<f32>::try_from(&values.flatten(0, -1)).unwrap();
    for (form, passes) in [(InferenceForm::PLAIN, 1), (InferenceForm::FAST_FP32, 1), (InferenceForm::FAST_FP32, 3)] {
        // A long wait and two clients: both requests land in one batch.
        let batching = BatchingConfig { max_batch: 64, max_wait: Duration::from_millis(500), form, threads: 1, passes };
        let c = cfg.clone();
        let (service, client) = InferenceService::spawn(move || PolicyValueNet::new(&c, Device::Cpu), batching);
        client.load_weights(weights.clone()).unwrap().unwrap();
        let (only_listed, mixed_listed, mixed_whole) = std::thread::scope(|s| {
            let alone = client.evaluate_at(b.inputs.clone(), positions, listed.clone()).unwrap();
            let (x, client) = (&b.inputs, &client);
            let a = s.spawn(|| client.evaluate_at(x.clone(), positions, listed.clone()).unwrap());
            let w = s.spawn(|| client.evaluate(x.clone(), positions).unwrap());
            (alone, a.join().unwrap(), w.join().unwrap())
        });
        let what = format!("{} in {passes} pass(es)", form.name());
        assert!(largest_difference(&only_listed.policy, &want) < 1e-4, "{what}: listed alone");
        assert!(largest_difference(&mixed_listed.policy, &want) < 1e-4, "{what}: listed beside a whole request");
        assert!(largest_difference(&mixed_whole.policy, &whole) < 1e-4, "{what}: the whole request");
        for out in [&only_listed, &mixed_listed, &mixed_whole] {
            assert!(largest_difference(&out.values, &values) < 1e-5, "{what}: values");
        }
        drop(client);
        service.join();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `batch` with its policy listed at the legal moves: the form the trainer gets for large
/// policies.
fn listed_batch(cfg: &NetConfig, batch: &nn::TrainBatch) -> nn::TrainBatch {
    let mut listed = ListedMoves::default();
    let mut policy = Vec::new();
    for row in 0..batch.len {
        let at = |j: usize| row * cfg.policy_size + j;
        let legal: Vec<usize> = (0..cfg.policy_size).filter(|&j| batch.legal[at(j)] > 0.0).collect();
        listed.indices.extend(legal.iter().map(|&j| j as i64));
        listed.counts.push(legal.len());
        policy.extend(legal.iter().map(|&j| batch.policy[at(j)]));
    }
    nn::TrainBatch { policy, legal: Vec::new(), listed: Some(listed), ..batch.clone() }
}

/// A training step on listed targets computes the losses, and moves the weights, as the same
/// step on the whole policy with its legal-move mask does.
#[test]
fn a_listed_training_step_is_the_whole_policys_step() {
    for cfg in [hex_config(), cube_config()] {
        let whole = batch(&cfg, 9);
        let listed = listed_batch(&cfg, &whole);
        let (a, b) = (PolicyValueNet::seeded(&cfg, Device::Cpu, 2), PolicyValueNet::seeded(&cfg, Device::Cpu, 2));
        let first = nn::evaluate_losses(&a, &whole);
        let first_listed = nn::evaluate_losses(&b, &listed);
        assert!((first.policy_loss - first_listed.policy_loss).abs() < 1e-5, "{first:?} against {first_listed:?}");
        assert!((first.value_loss - first_listed.value_loss).abs() < 1e-6);
        let (mut ta, mut tb) = (nn::Trainer::new(&a, 0.05, 1e-4), nn::Trainer::new(&b, 0.05, 1e-4));
        for _ in 0..3 {
            let (sa, sb) = (ta.step(&a, &whole), tb.step(&b, &listed));
            assert!((sa.policy_loss - sb.policy_loss).abs() < 1e-4, "{sa:?} against {sb:?}");
        }
        let (wa, wb) = (a.var_store().variables(), b.var_store().variables());
        let moved = wa.iter().map(|(name, t)| (t - &wb[name]).abs().max().double_value(&[])).fold(0.0, f64::max);
        assert!(moved < 1e-4, "{:?}: the weights after three steps differ by {moved}", cfg.input_shape);
        let baseline = whole.baseline_losses();
        let baseline_listed = listed.baseline_losses();
        assert!((baseline.policy_loss - baseline_listed.policy_loss).abs() < 1e-9);
    }
}
