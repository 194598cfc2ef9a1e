//! Mixed-precision training's loss scaling, checked on CPU (where autocast is off, so only the
//! scaling is exercised): exact where nothing overflows, a skipped step where something does,
//! and its state saved and restored with the optimizer's.

mod common;

use common::{batch, hex_config};
use nn::{LossScaler, PolicyValueNet, Trainer};
use tch::Device;

/// The trainable weights (batch-norm running statistics move with every forward pass, as in
/// PyTorch's skipped steps).
fn weights(net: &PolicyValueNet) -> Vec<(String, tch::Tensor)> {
    let mut v: Vec<_> = net
        .var_store()
        .variables()
        .into_iter()
        .filter(|(_, t)| t.requires_grad())
        .map(|(k, t)| (k, t.copy()))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

#[test]
fn scaled_steps_equal_unscaled_ones_bit_for_bit() {
    let cfg = hex_config();
    let b = batch(&cfg, 8);
    let plain = PolicyValueNet::new(&cfg, Device::Cpu);
    // A copy, not a second net from the same seed: tests run in parallel threads and share
    // libtorch's random generator.
    let mut scaled = PolicyValueNet::new(&cfg, Device::Cpu);
    scaled.var_store_mut().copy(plain.var_store()).unwrap();
    let mut tp = Trainer::new(&plain, 0.02, 1e-4);
    let mut ts = Trainer::new(&scaled, 0.02, 1e-4).with_mixed_precision();
    for _ in 0..5 {
        let a = tp.step(&plain, &b);
        let s = ts.step(&scaled, &b);
        assert_eq!(a, s, "the reported losses are unscaled");
    }
    assert_eq!(ts.loss_scaler(), Some(LossScaler { scale: 65536.0, good_steps: 5 }));
    for ((name, p), (_, s)) in weights(&plain).iter().zip(&weights(&scaled)) {
        assert!(p.equal(s), "weight {name} differs: scaling by a power of two must be exact");
    }
}

#[test]
fn an_overflowing_step_is_skipped_and_the_scale_halves() {
    let cfg = hex_config();
    let b = batch(&cfg, 8);
    tch::manual_seed(8);
    let net = PolicyValueNet::new(&cfg, Device::Cpu);
    let mut t = Trainer::new(&net, 0.02, 1e-4).with_mixed_precision();
    t.step(&net, &b);
    let before = weights(&net);
    // fp32 overflows at 3.4e38: a scaled loss near 1 times 2^200 is infinite, and so are the
    // gradients.
    t.set_loss_scaler(LossScaler { scale: 2f64.powi(200), good_steps: 7 });
    t.step(&net, &b);
    assert_eq!(t.loss_scaler(), Some(LossScaler { scale: 2f64.powi(199), good_steps: 0 }));
    for ((name, a), (_, b)) in before.iter().zip(&weights(&net)) {
        assert!(a.equal(b), "weight {name} changed in a skipped step");
    }
    // Halving goes on until the scaled gradients are finite again (below about 2^128 / loss),
    // then training proceeds.
    let mut skipped = 1;
    while t.loss_scaler().unwrap().good_steps == 0 {
        assert!(skipped < 200, "the scale never came down far enough");
        t.step(&net, &b);
        skipped += 1;
    }
    let scale = t.loss_scaler().unwrap().scale;
    assert!(skipped > 60 && scale < 2f64.powi(128) && scale > 2f64.powi(100), "{skipped} skipped, scale {scale}");
    let after: Vec<bool> = before.iter().zip(&weights(&net)).map(|((_, a), (_, b))| a.equal(b)).collect();
    assert!(after.contains(&false), "no weight moved once the scale was small enough");
}

#[test]
fn the_loss_scale_is_saved_with_the_optimizer_state() {
    let cfg = hex_config();
    tch::manual_seed(9);
    let net = PolicyValueNet::new(&cfg, Device::Cpu);
    let dir = std::env::temp_dir().join(format!("vzero-nn-scaler-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mixed, plain) = (dir.join("mixed.safetensors"), dir.join("plain.safetensors"));
    let mut t = Trainer::new(&net, 0.02, 1e-4).with_mixed_precision();
    let state = LossScaler { scale: 1024.0, good_steps: 33 };
    t.set_loss_scaler(state);
    t.save_state(&mixed).unwrap();
    Trainer::new(&net, 0.02, 1e-4).save_state(&plain).unwrap();

    let mut back = Trainer::new(&net, 0.02, 1e-4).with_mixed_precision();
    back.load_state(&mixed).unwrap();
    assert_eq!(back.loss_scaler(), Some(state));
    // A full-precision run's state turns mixed precision on at the initial scale; a
    // full-precision trainer reads a mixed run's file and ignores the scale.
    back.load_state(&plain).unwrap();
    assert_eq!(back.loss_scaler(), Some(LossScaler::default()));
    let mut full = Trainer::new(&net, 0.02, 1e-4);
    full.load_state(&mixed).unwrap();
    assert_eq!(full.loss_scaler(), None);
    std::fs::remove_dir_all(&dir).unwrap();
}
