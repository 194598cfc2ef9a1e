//! Every fast inference form computes what the network as trained computes: folded batch norms
//! and channels-last layout to float tolerance, bf16 to bf16's precision (where the CPU has it).

use nn::{FastNet, InferenceForm, NetConfig, PolicyValueNet, Precision};
use tch::{Device, Kind, Tensor};

mod common;

use common::{batch, hex_config};

/// A network whose batch norms have statistics and affine weights far from their initial 0/1,
/// so that folding them is tested for real.
fn trained_looking(cfg: &NetConfig, seed: u64) -> PolicyValueNet {
    let net = PolicyValueNet::seeded(cfg, Device::Cpu, seed);
    tch::no_grad(|| {
        for (name, mut t) in net.var_store().variables() {
            // Noise in [0, 1) from the index alone: the same network whatever other tests draw.
            let n = t.numel();
            let values: Vec<f32> = (0..n).map(|i| ((i * 7919 + name.len() * 31) % 101) as f32 / 101.0).collect();
            let noise = Tensor::from_slice(&values).reshape(t.size());
            if name.ends_with("running_var") {
                t.copy_(&(noise * 2.0 + 0.2));
            } else if name.ends_with("running_mean") || name.ends_with("bn.bias") {
                t.copy_(&(noise - 0.5));
            } else if name.ends_with("bn.weight") {
                t.copy_(&(noise + 0.5));
            }
        }
    });
    net
}

fn max_abs_diff(a: &Tensor, b: &Tensor) -> f64 {
    (a - b).abs().max().to_kind(Kind::Double).double_value(&[])
}

/// The largest differences of policy logits, outcome probabilities and values between `form`
/// and the network as trained, over a batch of 12 positions, and the largest logit's size.
fn differences(cfg: &NetConfig, form: InferenceForm) -> [f64; 4] {
    let net = trained_looking(cfg, 3);
    let b = batch(cfg, 12);
    let (p0, o0, v0) = net.predict_outcomes(&b.inputs, 12);
    let fast = FastNet::new(&net, form);
    let (p1, o1, v1) = fast.predict_outcomes(&b.inputs, 12);
    assert_eq!(p1.size(), p0.size());
    assert_eq!(v1.size(), v0.size());
    let logits = p0.abs().max().double_value(&[]);
    assert!(logits > 0.1, "the test network has logits to compare ({logits})");
    [max_abs_diff(&p0, &p1), max_abs_diff(&o0, &o1), max_abs_diff(&v0, &v1), logits]
}

#[test]
fn folded_forms_match_the_network_to_float_tolerance() {
    let cfg = hex_config();
    for channels_last in [false, true] {
        let form = InferenceForm { folded: true, channels_last, precision: Precision::Fp32 };
        let [p, o, v, _] = differences(&cfg, form);
        assert!(p < 1e-4 && o < 1e-5 && v < 1e-5, "{}: policy {p:e}, outcomes {o:e}, values {v:e}", form.name());
    }
}

#[test]
fn a_three_dimensional_board_folds_too() {
    let cfg = NetConfig { input_shape: vec![4, 3, 4, 4], policy_size: 70, board_mask: None, ..hex_config() };
    let [p, o, v, _] = differences(&cfg, InferenceForm::FAST_FP32);
    assert!(p < 1e-4 && o < 1e-5 && v < 1e-5, "policy {p:e}, outcomes {o:e}, values {v:e}");
}

#[test]
fn bf16_stays_within_its_precision() {
    if !nn::fast::cpu_has_bf16() {
        println!("SKIPPED: this CPU has no native bf16 (avx512_bf16 or amx_bf16)");
        return;
    }
    let cfg = hex_config();
    let [p, o, v, logits] = differences(&cfg, InferenceForm::FAST_BF16);
    // bf16 keeps 8 bits of mantissa: about 0.4% of each activation, compounding over the
    // layers, so logits are compared relative to their size and probabilities absolutely.
    assert!(p < 0.03 * logits && o < 0.05 && v < 0.05, "policy {p} (largest logit {logits}), outcomes {o}, values {v}");
    assert!(p > 0.0, "bf16 arithmetic was used (the outputs differ from fp32 at all)");
}

#[test]
fn form_names_say_what_they_are() {
    assert_eq!(InferenceForm::PLAIN.name(), "plain");
    assert_eq!(InferenceForm::FAST_FP32.name(), "folded-nhwc-fp32");
    assert_eq!(InferenceForm::FAST_BF16.name(), "folded-nhwc-bf16");
}

/// A halved trunk ([`nn::Trunk::Halved`]) on a masked 6x6 board and on a 4x4x4 cube: the fast
/// form's folded 1x1 layers and rearrangements compute what the network does.
#[test]
fn a_halved_trunk_folds_too() {
    let mask: Vec<f32> = (0..36).map(|i| if i % 6 + i / 6 < 2 { 0.0 } else { 1.0 }).collect();
    let hex = NetConfig { input_shape: vec![5, 6, 6], policy_size: 80, board_mask: Some(mask), ..hex_config() };
    let cube = NetConfig { input_shape: vec![4, 4, 4, 4], policy_size: 150, board_mask: None, ..hex_config() };
    for cfg in [hex, cube] {
        let cfg = cfg.with_trunk(nn::Trunk::Halved);
        for form in [InferenceForm::FAST_FP32, InferenceForm { channels_last: false, ..InferenceForm::FAST_FP32 }] {
            let [p, o, v, _] = differences(&cfg, form);
            let what = format!("{:?} {}", cfg.input_shape, form.name());
            assert!(p < 1e-4 && o < 1e-5 && v < 1e-5, "{what}: policy {p:e}, outcomes {o:e}, values {v:e}");
        }
    }
}
