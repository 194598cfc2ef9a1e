//! What the nn tests share: a small network shape and a batch it can fit.

use nn::{NetConfig, TrainBatch};

/// A small hex-like network: a 7x7 grid with corners masked off.
pub fn hex_config() -> NetConfig {
    // A 7x7 grid with the corners masked off, like a small hexagon embedded in a square.
    let mask: Vec<f32> = (0..49).map(|i| if i % 7 + i / 7 < 3 || i % 7 + i / 7 > 9 { 0.0 } else { 1.0 }).collect();
    NetConfig {
        input_shape: vec![5, 7, 7],
        policy_size: 30,
        players: 2,
        outcomes: win_draw_loss(),
        blocks: 2,
        channels: 16,
        trunk: nn::Trunk::Full,
        board_mask: Some(mask),
    }
}

/// A two-player game's outcome classes seen from the mover: win, draw, loss.
pub fn win_draw_loss() -> Vec<Vec<f32>> {
    vec![vec![1.0, 0.0], vec![0.5, 0.5], vec![0.0, 1.0]]
}

/// A fixed batch whose targets the network can fit: each position's policy target and value
/// depend on its input.
pub fn batch(cfg: &NetConfig, len: usize) -> TrainBatch {
    let mut b = TrainBatch { len, ..Default::default() };
    for i in 0..len {
        b.inputs.extend((0..cfg.input_len()).map(|j| ((i * 13 + j * 7) % 29) as f32 / 29.0));
        let mut p = vec![0.0; cfg.policy_size];
        p[i % cfg.policy_size] = 1.0;
        b.policy.extend(&p);
        b.legal.extend((0..cfg.policy_size).map(|j| if j % 2 == i % 2 { 1.0 } else { 0.0 }));
        let v = if i % 2 == 0 { [1.0, 0.0] } else { [0.0, 1.0] };
        b.values.extend(v);
    }
    b
}
