//! `vzero bench nn`: positions per second of each inference form of a network at several batch
//! sizes, its arithmetic rate from the network's own FLOP count, and the share of the machine's
//! practical peak (a large matrix product measured in the same run).

use std::time::Instant;

use tch::{Device, Kind, Tensor};

use crate::config::{NetConfig, Trunk};
use crate::fast::{FastNet, InferenceForm, Precision};
use crate::listed::ListedMoves;
use crate::net::PolicyValueNet;

/// Multiply-adds of one position's forward pass, counted as 2 FLOPs each: every convolution over
/// the whole grid (padding cells included: the hardware computes them), the heads' layers.
pub fn flops_per_position(config: &NetConfig) -> f64 {
    let cells = config.spatial_len() as f64;
    let coarse = config.trunk_shape().iter().product::<usize>() as f64;
    let k3 = 3f64.powi(config.spatial_dims() as i32);
    let c = config.channels as f64;
    let cin = config.input_shape[0] as f64;
    let planes = config.policy_size.div_ceil(config.spatial_len()) as f64;
    let conv = |cin: f64, cout: f64, k: f64, cells: f64| 2.0 * cin * cout * k * cells;
    let blocks = 2.0 * config.blocks as f64 * conv(c, c, k3, coarse);
    let value = conv(c, 2.0, 1.0, coarse) + 2.0 * (2.0 * coarse) * 128.0 + 2.0 * 128.0 * config.outcomes.len() as f64;
    let (stem, policy) = match config.trunk {
        Trunk::Full => (conv(cin, c, k3, cells), conv(c, c, k3, cells) + conv(c, planes, 1.0, cells)),
        Trunk::Halved => {
            let fine = (config.channels / 2).max(1) as f64;
            let folds =
                conv(fine * 2f64.powi(config.spatial_dims() as i32), c, 1.0, coarse) + conv(c, fine, 1.0, coarse);
            (conv(cin, fine, 1.0, cells) + folds, conv(fine, fine, 1.0, cells) + conv(fine, planes, 1.0, cells))
        }
    };
    stem + blocks + policy + value
}

/// A forward pass over `batch` positions: policy logits, outcome distribution, values.
type Forward<'a> = &'a dyn Fn(&[f32], usize) -> (Tensor, Tensor, Tensor);

/// Positions per second of `forward` at `batch`, over at least `seconds` after a warm-up,
/// outputs copied out to `f32` buffers as the inference service does.
fn rate(batch: usize, input_len: usize, seconds: f64, forward: Forward<'_>) -> f64 {
    let inputs: Vec<f32> = (0..batch * input_len).map(|i| ((i * 7919) % 13) as f32 / 13.0).collect();
    let run = || {
        let (p, o, v) = forward(&inputs, batch);
        for t in [p, o, v] {
            let t = t.to_kind(Kind::Float).to_device(Device::Cpu).flatten(0, -1);
            let out = Vec::<f32>::try_from(&t).expect("f32 output");
            std::hint::black_box(out);
        }
    };
    run();
    run();
    let begun = Instant::now();
    let mut positions = 0;
    while positions == 0 || begun.elapsed().as_secs_f64() < seconds {
        run();
        positions += batch;
    }
    positions as f64 / begun.elapsed().as_secs_f64()
}

/// One measurement of [`bench_forms`].
#[derive(Clone, Debug)]
pub struct FormRate {
    /// The form's name ([`InferenceForm::name`]).
    pub form: String,
    /// Positions per forward pass.
    pub batch: usize,
    /// Positions per second.
    pub positions_per_second: f64,
    /// Arithmetic rate from [`flops_per_position`], GFLOP/s.
    pub gflops: f64,
}

/// The forms `bench nn` compares on this machine: the network as trained, folded channels-last
/// fp32, and folded channels-last bf16 where the CPU has it (or on CUDA).
pub fn forms_available(device: Device) -> Vec<InferenceForm> {
    let mut forms = vec![InferenceForm::PLAIN, InferenceForm::FAST_FP32];
    if device.is_cuda() || crate::fast::cpu_has_bf16() {
        forms.push(InferenceForm::FAST_BF16);
    }
    forms
}

/// Legal moves a position lists in the benchmark, where the policy is asked for at the legal
/// moves: about a Weltschach midgame's.
const BENCH_MOVES: usize = 300;

/// Positions per second of a randomly initialised network of `config` on `device`, in each of
/// `forms`, at each of `batches`, `seconds` per measurement.
pub fn bench_forms(
    config: &NetConfig,
    device: Device,
    forms: &[InferenceForm],
    batches: &[usize],
    seconds: f64,
) -> Vec<FormRate> {
    let net = PolicyValueNet::seeded(config, device, 1);
    let flops = flops_per_position(config);
    // Large policies are asked for at the legal moves, as the search does (crate::NetEvaluator).
    let listed = config.policy_size >= crate::LISTED_POLICY_FROM;
    let moves = |batch: usize| ListedMoves {
        indices: (0..batch * BENCH_MOVES).map(|i| ((i * 7919) % config.policy_size) as i64).collect(),
        counts: vec![BENCH_MOVES; batch],
    };
    let mut out = Vec::new();
    for &form in forms {
        let fast = form.folded.then(|| FastNet::new(&net, form));
        for &batch in batches {
            let l = moves(batch);
            let positions_per_second = match (&fast, listed) {
                (Some(f), false) => rate(batch, config.input_len(), seconds, &|x, b| f.predict_outcomes(x, b)),
                (Some(f), true) => rate(batch, config.input_len(), seconds, &|x, b| f.predict_outcomes_at(x, b, &l)),
                (None, false) => rate(batch, config.input_len(), seconds, &|x, b| net.predict_outcomes(x, b)),
                (None, true) => rate(batch, config.input_len(), seconds, &|x, b| net.predict_outcomes_at(x, b, &l)),
            };
            out.push(FormRate {
                form: form.name(),
                batch,
                positions_per_second,
                gflops: positions_per_second * flops / 1e9,
            });
        }
    }
    out
}

/// The machine's practical peak in GFLOP/s: the best of repeated `n x n` matrix products in
/// `precision` on `device` with libtorch's current threads, over about `seconds`.
pub fn matmul_peak_gflops(device: Device, precision: Precision, seconds: f64) -> f64 {
    let n = 1024i64;
    let kind = precision.kind();
    let a = Tensor::rand([n, n], (Kind::Float, device)).to_kind(kind);
    let b = Tensor::rand([n, n], (Kind::Float, device)).to_kind(kind);
    let _ = a.matmul(&b);
    let begun = Instant::now();
    let mut best = f64::INFINITY;
    while best.is_infinite() || begun.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        let c = a.matmul(&b);
        if device.is_cuda() {
            tch::Cuda::synchronize(0);
        }
        let _ = std::hint::black_box(c);
        best = best.min(t.elapsed().as_secs_f64());
    }
    2.0 * (n as f64).powi(3) / best / 1e9
}
