//! The CPU training forms `vzero bench train` measures step as the plain form steps:
//! channels-last to float tolerance, bf16 convolutions to bf16's precision (where the CPU has
//! it), with the weights kept fp32 either way.

use nn::{NetConfig, PolicyValueNet, TrainForm, TrainStats, Trainer};
use tch::{Device, Kind};

mod common;

use common::{batch, hex_config};

/// Losses of three steps from the same seeded network in `form`, and the network after them.
fn three_steps(cfg: &NetConfig, form: TrainForm) -> (Vec<TrainStats>, PolicyValueNet) {
    let net = PolicyValueNet::seeded(cfg, Device::Cpu, 5);
    let mut trainer = Trainer::in_form(&net, 0.05, 1e-4, form);
    let b = batch(cfg, 16);
    let stats = (0..3).map(|_| trainer.step(&net, &b)).collect();
    (stats, net)
}

/// How far `other`'s three steps from `init` land from `plain`'s, as a share of the length of
/// `plain`'s steps (L2 over every trained weight; the batch norms' running statistics are not
/// trained): 0 for the same steps, about 1.4 for steps in unrelated directions.
fn step_deviation(init: &PolicyValueNet, plain: &PolicyValueNet, other: &PolicyValueNet) -> f64 {
    let (plain, other) = (plain.var_store().variables(), other.var_store().variables());
    let (mut moved, mut apart) = (0.0, 0.0);
    for (name, start) in init.var_store().variables().iter().filter(|(name, _)| !name.contains("running")) {
        moved += (&plain[name] - start).square().sum(Kind::Double).double_value(&[]);
        apart += (&plain[name] - &other[name]).square().sum(Kind::Double).double_value(&[]);
    }
    (apart / moved).sqrt()
}

/// The largest difference between the two networks' weights, and the largest weight.
fn weight_difference(a: &PolicyValueNet, b: &PolicyValueNet) -> (f64, f64) {
    let theirs = b.var_store().variables();
    let (mut diff, mut size) = (0.0f64, 0.0f64);
    for (name, t) in a.var_store().variables() {
        assert_eq!(t.kind(), Kind::Float, "{name} stays an fp32 master weight");
        let other = &theirs[&name];
        diff = diff.max((&t - other).abs().max().double_value(&[]));
        size = size.max(t.abs().max().double_value(&[]));
    }
    (diff, size)
}

fn check_channels_last(cfg: &NetConfig) {
    let (plain, plain_net) = three_steps(cfg, TrainForm::PLAIN);
    let (last, last_net) = three_steps(cfg, TrainForm { channels_last: true, bf16: false });
    for (p, l) in plain.iter().zip(&last) {
        assert!((p.policy_loss - l.policy_loss).abs() < 1e-4, "policy loss {} vs {}", p.policy_loss, l.policy_loss);
        assert!((p.value_loss - l.value_loss).abs() < 1e-5, "value loss {} vs {}", p.value_loss, l.value_loss);
    }
    assert!(plain[2].policy_loss < plain[0].policy_loss, "the steps learn ({:?})", plain);
    let (diff, size) = weight_difference(&plain_net, &last_net);
    assert!(size > 0.01 && diff < 1e-4, "weights differ by {diff:e} (largest {size})");
}

#[test]
fn channels_last_steps_as_the_plain_form_does() {
    check_channels_last(&hex_config());
}

#[test]
fn channels_last_steps_a_three_dimensional_board_too() {
    check_channels_last(&NetConfig {
        input_shape: vec![4, 3, 4, 4],
        policy_size: 70,
        board_mask: None,
        ..hex_config()
    });
}

#[test]
fn bf16_convolutions_step_within_their_precision() {
    if !nn::fast::cpu_has_bf16() {
        println!("SKIPPED: this CPU has no native bf16 (avx512_bf16 or amx_bf16)");
        return;
    }
    let cfg = hex_config();
    let init = PolicyValueNet::seeded(&cfg, Device::Cpu, 5);
    let (plain, plain_net) = three_steps(&cfg, TrainForm::PLAIN);
    for channels_last in [false, true] {
        let (bf16, bf16_net) = three_steps(&cfg, TrainForm { channels_last, bf16: true });
        let first = (plain[0].policy_loss - bf16[0].policy_loss).abs() / plain[0].policy_loss;
        assert!(first < 0.02, "first policy loss {} vs {}", plain[0].policy_loss, bf16[0].policy_loss);
        assert!(bf16[2].policy_loss < bf16[0].policy_loss, "bf16 steps learn ({bf16:?})");
        let (diff, _) = weight_difference(&plain_net, &bf16_net);
        assert!(diff > 0.0, "bf16 arithmetic was used (the weights differ from fp32's at all)");
        // bf16 gradients of this small batch are noisy (0.32 on an AMX machine), but the steps
        // go where fp32's go: wrong gradients would land about as far away as the steps are long.
        let deviation = step_deviation(&init, &plain_net, &bf16_net);
        assert!(deviation < 0.5, "bf16 steps land {deviation:.2} of their length from fp32's");
    }
}

#[test]
fn a_channels_last_network_saves_as_a_plain_one() {
    let cfg = hex_config();
    let net = PolicyValueNet::seeded(&cfg, Device::Cpu, 5);
    let mut trainer = Trainer::in_form(&net, 0.05, 1e-4, TrainForm { channels_last: true, bf16: false });
    let b = batch(&cfg, 16);
    trainer.step(&net, &b);
    let dir = std::env::temp_dir().join(format!("vzero-train-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    nn::checkpoint::save_weights(&net, &dir.join("w.safetensors")).expect("channels-last weights save");
    trainer.save_state(&dir.join("opt.safetensors")).expect("channels-last momentum saves");
    let mut plain = PolicyValueNet::seeded(&cfg, Device::Cpu, 6);
    nn::checkpoint::load_weights(&mut plain, &dir.join("w.safetensors")).unwrap();
    let (diff, _) = weight_difference(&net, &plain);
    assert_eq!(diff, 0.0, "the saved weights are the trained ones, in either layout");
    let mut resumed = Trainer::new(&plain, 0.05, 1e-4);
    resumed.load_state(&dir.join("opt.safetensors")).expect("the momentum loads into a plain network's trainer");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forms_are_named_as_configs_write_them() {
    use nn::TrainFormChoice;
    for name in ["auto", "nchw-fp32", "nhwc-fp32", "nchw-bf16", "nhwc-bf16"] {
        let choice: TrainFormChoice = name.parse().unwrap();
        assert_eq!(choice.to_string(), name);
    }
    assert_eq!("nhwc-bf16".parse::<TrainForm>(), Ok(TrainForm { channels_last: true, bf16: true }));
    let net = |channels, trunk| nn::NetConfig { channels, trunk, ..common::hex_config() };
    let auto = TrainFormChoice::Auto.resolve(&net(32, nn::Trunk::Full));
    assert!(auto.channels_last && auto.bf16 == nn::fast::cpu_has_bf16(), "{auto:?}");
    assert!(!TrainFormChoice::Auto.resolve(&net(8, nn::Trunk::Full)).bf16, "a narrow network trains in fp32");
    for bad in ["nhwc", "fp32", "nhwc-fp16", ""] {
        let err = bad.parse::<TrainFormChoice>().unwrap_err();
        assert_eq!(err.text, bad);
        assert_eq!(
            err.to_string(),
            format!("training form '{bad}': expected auto, nchw-fp32, nhwc-fp32, nchw-bf16 or nhwc-bf16")
        );
    }
}
