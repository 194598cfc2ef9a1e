//! The network builds, runs, learns and survives a save/load round trip on CPU.

use nn::checkpoint::{load_weights, save_weights};
use nn::{evaluate_losses, NetConfig, PolicyValueNet, Trainer};
use tch::Device;

mod common;

use common::{batch, hex_config};

#[test]
fn forward_pass_has_the_declared_shapes_and_ranges() {
    tch::manual_seed(1);
    let cfg = hex_config();
    let net = PolicyValueNet::new(&cfg, Device::Cpu);
    let b = batch(&cfg, 6);
    let (policy, value) = net.predict(&b.inputs, 6);
    assert_eq!(policy.size(), vec![6, 30]);
    assert_eq!(value.size(), vec![6, 2]);
    let vmin = value.min().double_value(&[]);
    let vmax = value.max().double_value(&[]);
    assert!((0.0..=1.0).contains(&vmin) && (0.0..=1.0).contains(&vmax), "values outside [0,1]: {vmin} {vmax}");
}

/// Sixty steps on one fixed batch halve both losses of `net`.
fn fits_a_fixed_batch(cfg: &NetConfig, net: &PolicyValueNet) {
    let mut trainer = Trainer::new(net, 0.05, 1e-4);
    let b = batch(cfg, 16);
    let first = trainer.step(net, &b);
    let mut last = first;
    for _ in 0..60 {
        last = trainer.step(net, &b);
    }
    assert!(last.policy_loss < 0.5 * first.policy_loss, "policy loss {} -> {}", first.policy_loss, last.policy_loss);
    assert!(last.value_loss < 0.5 * first.value_loss, "value loss {} -> {}", first.value_loss, last.value_loss);
}

#[test]
fn training_steps_reduce_the_loss() {
    tch::manual_seed(2);
    let cfg = hex_config();
    fits_a_fixed_batch(&cfg, &PolicyValueNet::new(&cfg, Device::Cpu));
}

#[test]
fn the_know_nothing_baseline_is_exact_and_a_trained_network_beats_it() {
    tch::manual_seed(4);
    let cfg = hex_config();
    let b = batch(&cfg, 16);
    // 15 legal moves each, one-hot targets: ln 15; scores alternate 1/0, so each seat's mean is
    // 1/2 and its squared error 1/4.
    let baseline = b.baseline_losses();
    assert!((baseline.policy_loss - 15f64.ln()).abs() < 1e-9, "{baseline:?}");
    assert!((baseline.value_loss - 0.5).abs() < 1e-9, "{baseline:?}");
    let net = PolicyValueNet::new(&cfg, Device::Cpu);
    let mut trainer = Trainer::new(&net, 0.05, 1e-4);
    for _ in 0..60 {
        trainer.step(&net, &b);
    }
    let trained = evaluate_losses(&net, &b);
    assert!(trained.policy_loss < baseline.policy_loss, "{trained:?} vs {baseline:?}");
    assert!(trained.value_loss < baseline.value_loss, "{trained:?} vs {baseline:?}");
}

#[test]
fn saved_weights_reload_to_identical_outputs() {
    tch::manual_seed(3);
    let cfg = NetConfig {
        input_shape: vec![3, 4, 4, 4],
        policy_size: 12,
        players: 2,
        outcomes: common::win_draw_loss(),
        blocks: 1,
        channels: 8,
        trunk: nn::Trunk::Full,
        board_mask: None,
    };
    let net = PolicyValueNet::new(&cfg, Device::Cpu);
    // One training step so the batch-norm running statistics differ from their defaults.
    let mut trainer = Trainer::new(&net, 0.01, 0.0);
    let b = batch(&cfg, 4);
    trainer.step(&net, &b);
    let dir = std::env::temp_dir().join(format!("vzero-nn-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("weights.safetensors");
    save_weights(&net, &path).unwrap();

    tch::manual_seed(99);
    let mut reloaded = PolicyValueNet::new(&cfg, Device::Cpu);
    let (p_fresh, _) = reloaded.predict(&b.inputs, 4);
    let (p_orig, v_orig) = net.predict(&b.inputs, 4);
    assert!(!p_fresh.equal(&p_orig), "a fresh network should differ before loading");
    load_weights(&mut reloaded, &path).unwrap();
    let (p_new, v_new) = reloaded.predict(&b.inputs, 4);
    assert!(p_new.equal(&p_orig) && v_new.equal(&v_orig), "outputs changed after reload");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn training_resumed_from_saved_state_is_bit_identical() {
    let cfg = hex_config();
    let b = batch(&cfg, 8);
    let dir = std::env::temp_dir().join(format!("vzero-nn-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // Two networks with the same initial weights: copied, not drawn twice from one seed, since
    // tests run in parallel threads that share libtorch's random generator.
    let straight = PolicyValueNet::new(&cfg, Device::Cpu);
    let mut first = PolicyValueNet::new(&cfg, Device::Cpu);
    first.var_store_mut().copy(straight.var_store()).unwrap();

    // Four steps in one go.
    let mut t = Trainer::new(&straight, 0.02, 1e-4);
    for _ in 0..4 {
        t.step(&straight, &b);
    }

    // Two steps, save everything, a fresh process-like restart, two more steps.
    let mut t1 = Trainer::new(&first, 0.02, 1e-4);
    for _ in 0..2 {
        t1.step(&first, &b);
    }
    save_weights(&first, &dir.join("w.safetensors")).unwrap();
    t1.save_state(&dir.join("opt.safetensors")).unwrap();
    drop((first, t1));
    tch::manual_seed(123);
    let mut resumed = PolicyValueNet::new(&cfg, Device::Cpu);
    load_weights(&mut resumed, &dir.join("w.safetensors")).unwrap();
    let mut t2 = Trainer::new(&resumed, 0.02, 1e-4);
    t2.load_state(&dir.join("opt.safetensors")).unwrap();
    for _ in 0..2 {
        t2.step(&resumed, &b);
    }

    let a = straight.var_store().variables();
    let r = resumed.var_store().variables();
    assert_eq!(a.len(), r.len());
    for (name, w) in &a {
        assert!(w.equal(&r[name]), "weight {name} differs after resume");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_non_finite_weight_is_found_by_name() {
    tch::manual_seed(5);
    let net = PolicyValueNet::new(&hex_config(), Device::Cpu);
    assert_eq!(net.non_finite_weight(), None);
    let (name, tensor) = net.var_store().variables().into_iter().max_by(|a, b| a.0.cmp(&b.0)).unwrap();
    tch::no_grad(|| {
        let _ = tensor.view(-1).get(0).fill_(f64::NAN);
    });
    assert_eq!(net.non_finite_weight(), Some(name));
}

/// A halved trunk on a cube learns the same fixed batch a full one does.
#[test]
fn a_halved_trunk_learns_on_a_cube() {
    tch::manual_seed(4);
    let cfg = NetConfig { input_shape: vec![5, 4, 4, 4], policy_size: 100, board_mask: None, ..hex_config() }
        .with_trunk(nn::Trunk::Halved);
    let net = PolicyValueNet::new(&cfg, Device::Cpu);
    let vars = net.var_store().variables();
    assert!(vars.contains_key("down.conv.weight") && vars.contains_key("up.conv.weight"), "it has its own layers");
    fits_a_fixed_batch(&cfg, &net);
}
