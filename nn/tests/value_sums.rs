//! One position's values sum to the game's constant by construction: 1 for two players and
//! 1.5 for three (Wellisch's outcomes), for a fresh network and one trained a few steps.

mod common;

use common::{batch, hex_config};
use nn::{NetConfig, PolicyValueNet, Trainer};
use tch::Device;

/// The largest distance of a position's value sum from `total` over `positions` inputs.
fn worst_sum(net: &PolicyValueNet, positions: usize, total: f32) -> f32 {
    let cfg = net.config();
    let inputs: Vec<f32> = (0..positions * cfg.input_len()).map(|i| ((i * 31) % 17) as f32 / 17.0).collect();
    let (_, values) = net.predict(&inputs, positions);
    let values: Vec<f32> = Vec::try_from(values.flatten(0, -1)).unwrap();
    assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{values:?}");
    values.chunks_exact(cfg.players).map(|v| (v.iter().sum::<f32>() - total).abs()).fold(0.0, f32::max)
}

/// Checks `cfg`'s network fresh and after training steps on targets that sum to `total`.
fn sums_hold(cfg: &NetConfig, total: f32) {
    let net = PolicyValueNet::seeded(cfg, Device::Cpu, 5);
    assert!(worst_sum(&net, 8, total) < 1e-5, "fresh");
    let mut b = batch(cfg, 8);
    if cfg.players == 3 {
        b.values = (0..8).flat_map(|i| cfg.outcomes[i % cfg.outcomes.len()].clone()).collect();
    }
    let mut trainer = Trainer::new(&net, 0.05, 1e-4);
    for _ in 0..20 {
        trainer.step(&net, &b);
    }
    assert!(worst_sum(&net, 8, total) < 1e-5, "trained");
}

#[test]
fn two_player_values_sum_to_one() {
    sums_hold(&hex_config(), 1.0);
}

#[test]
fn three_player_values_sum_to_one_and_a_half() {
    let mut outcomes = vec![vec![0.5, 0.5, 0.5]];
    for rank in [[1.0, 0.5, 0.0], [1.0, 0.0, 0.5], [0.0, 0.75, 0.75]] {
        for k in 0..3 {
            outcomes.push((0..3).map(|i| rank[(i + k) % 3]).collect());
        }
    }
    let cfg = NetConfig { players: 3, outcomes, ..hex_config() };
    sums_hold(&cfg, 1.5);
}
