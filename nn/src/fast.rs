//! The network in the form inference runs fastest in: every batch norm folded into the
//! convolution before it (a frozen copy of the weights, as `torch.jit.freeze` and
//! `optimize_for_inference` make), the activations and weights in channels-last layout (oneDNN's
//! preferred one on CPUs), and optionally in bf16 where the CPU computes it natively.
//!
//! A folded layer computes `conv(x, w * s) + (beta - mean * s)` with `s = gamma / sqrt(var +
//! eps)` per output channel, which is the trained conv-then-batch-norm in inference mode to float
//! rounding. The copy is made from a [`PolicyValueNet`]'s variables and must be made again after
//! new weights are loaded into it.

use std::collections::HashMap;

use tch::{Device, Kind, Tensor};

use crate::config::{NetConfig, Trunk};
use crate::listed::{logits_at, ListedMoves};
use crate::net::PolicyValueNet;
use crate::trunk::{fold_cells, spread_cells};

/// The arithmetic of the fast form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// 32-bit floats throughout.
    Fp32,
    /// bfloat16 convolutions (oneDNN on CPUs with AVX512-BF16 or AMX); the value head and the
    /// outputs stay fp32.
    Bf16,
}

impl Precision {
    /// The libtorch element type of this arithmetic.
    pub fn kind(self) -> Kind {
        match self {
            Precision::Fp32 => Kind::Float,
            Precision::Bf16 => Kind::BFloat16,
        }
    }
}

/// How inference runs the network: the form of the weights and the layout of the activations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InferenceForm {
    /// Batch norms folded into the convolutions. Without it the network runs as trained.
    pub folded: bool,
    /// Activations and convolution weights in channels-last (NHWC) memory order.
    pub channels_last: bool,
    /// The arithmetic of the convolutions.
    pub precision: Precision,
}

impl InferenceForm {
    /// The network exactly as it trains: NCHW, fp32, separate batch norms.
    pub const PLAIN: InferenceForm = InferenceForm { folded: false, channels_last: false, precision: Precision::Fp32 };
    /// Folded, channels-last, fp32.
    pub const FAST_FP32: InferenceForm =
        InferenceForm { folded: true, channels_last: true, precision: Precision::Fp32 };
    /// Folded, channels-last, bf16.
    pub const FAST_BF16: InferenceForm =
        InferenceForm { folded: true, channels_last: true, precision: Precision::Bf16 };

    /// A short name for tables and logs (`plain`, `folded-nhwc-fp32`, ...).
    pub fn name(&self) -> String {
        if !self.folded && !self.channels_last && self.precision == Precision::Fp32 {
            return "plain".into();
        }
        let layout = if self.channels_last { "nhwc" } else { "nchw" };
        let precision = match self.precision {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
        };
        format!("{}{layout}-{precision}", if self.folded { "folded-" } else { "" })
    }
}

/// One folded convolution: weights with the batch norm's scale in them and its shift as bias.
struct FoldedConv {
    weight: Tensor,
    bias: Tensor,
    padding: i64,
}

/// The network as [`InferenceForm`] says, ready for forward passes.
pub struct FastNet {
    config: NetConfig,
    form: InferenceForm,
    stem: FoldedConv,
    /// A halved trunk's 1x1 layers into and out of its coarse grid.
    halving: Option<(FoldedConv, FoldedConv)>,
    blocks: Vec<(FoldedConv, FoldedConv)>,
    policy_conv: FoldedConv,
    policy_out: FoldedConv,
    value_conv: FoldedConv,
    value_fc1: (Tensor, Tensor),
    value_fc2: (Tensor, Tensor),
    outcomes: Tensor,
    mask: Option<Tensor>,
    device: Device,
}

/// The batch norms' epsilon (tch's default, which the network is built with).
const BN_EPS: f64 = 1e-5;

impl FastNet {
    /// The fast form of `net`'s current weights. `form.folded` false is not a fast form: use
    /// the network itself ([`PolicyValueNet::predict_outcomes`]) for that.
    pub fn new(net: &PolicyValueNet, form: InferenceForm) -> FastNet {
        assert!(form.folded, "the fast form folds its batch norms");
        let vars: HashMap<String, Tensor> = net.var_store().variables();
        let get = |name: &str| -> Tensor {
            vars.get(name).unwrap_or_else(|| panic!("the network has a variable {name}")).detach()
        };
        let config = net.config().clone();
        let dims = config.spatial_dims() as i64;
        let kind = form.precision.kind();
        let layout = |w: Tensor| if form.channels_last { channels_last(&w) } else { w.contiguous() };
        let fold = |prefix: &str, kernel: i64| -> FoldedConv {
            let w = get(&format!("{prefix}.conv.weight"));
            let gamma = get(&format!("{prefix}.bn.weight"));
            let beta = get(&format!("{prefix}.bn.bias"));
            let mean = get(&format!("{prefix}.bn.running_mean"));
            let var = get(&format!("{prefix}.bn.running_var"));
            let scale = &gamma / (var + BN_EPS).sqrt();
            let mut shape = vec![-1i64];
            shape.extend(std::iter::repeat_n(1, dims as usize + 1));
            let weight = &w * scale.reshape(&shape);
            let bias = beta - mean * &scale;
            FoldedConv { weight: layout(weight.to_kind(kind)), bias: bias.to_kind(kind), padding: kernel / 2 }
        };
        let blocks =
            (0..config.blocks).map(|i| (fold(&format!("block{i}.a"), 3), fold(&format!("block{i}.b"), 3))).collect();
        let head_kernel = match config.trunk {
            Trunk::Full => 3,
            Trunk::Halved => 1,
        };
        let halving = (config.trunk == Trunk::Halved).then(|| (fold("down", 1), fold("up", 1)));
        let policy_out = FoldedConv {
            weight: layout(get("policy_out.weight").to_kind(kind)),
            bias: get("policy_out.bias").to_kind(kind),
            padding: 0,
        };
        let linear = |name: &str| (get(&format!("{name}.weight")), get(&format!("{name}.bias")));
        let device = net.device();
        // Copies, not views: a copy of the fast form may run on another thread than the network.
        let outcomes = net.outcome_matrix().copy();
        let mask = net.board_mask().map(|m| m.to_kind(kind).copy());
        FastNet {
            stem: fold("stem", head_kernel),
            halving,
            blocks,
            policy_conv: fold("policy_conv", head_kernel),
            policy_out,
            value_conv: fold("value_conv", 1),
            value_fc1: linear("value_fc1"),
            value_fc2: linear("value_fc2"),
            outcomes,
            mask,
            device,
            config,
            form,
        }
    }

    /// The form this copy runs in.
    pub fn form(&self) -> InferenceForm {
        self.form
    }

    fn conv(&self, x: &Tensor, layer: &FoldedConv) -> Tensor {
        let dims = self.config.spatial_dims();
        let (stride, dilation, padding) = (vec![1i64; dims], vec![1i64; dims], vec![layer.padding; dims]);
        if dims == 3 {
            x.conv3d(&layer.weight, Some(&layer.bias), stride, padding, dilation, 1)
        } else {
            x.conv2d(&layer.weight, Some(&layer.bias), stride, padding, dilation, 1)
        }
    }

    /// `relu(x)` with the cells off the board zeroed, in place: a small batch's time goes
    /// more to allocating activations than to computing them.
    fn relu_masked(&self, mut x: Tensor) -> Tensor {
        let _ = x.relu_();
        if let Some(m) = &self.mask {
            let _ = x.g_mul_(m);
        }
        x
    }

    /// [`FastNet::relu_masked`] on the trunk's grid, where only a full trunk masks.
    fn relu_masked_trunk(&self, mut x: Tensor) -> Tensor {
        if self.halving.is_some() {
            let _ = x.relu_();
            x
        } else {
            self.relu_masked(x)
        }
    }

    /// `x` in the form's memory layout.
    fn laid_out(&self, x: Tensor) -> Tensor {
        if self.form.channels_last {
            channels_last(&x)
        } else {
            x
        }
    }

    /// Policy logits, the outcome distribution and the values (all fp32) for `batch` positions
    /// encoded one after another in `inputs`, as [`PolicyValueNet::predict_outcomes`] computes
    /// them.
    pub fn predict_outcomes(&self, inputs: &[f32], batch: usize) -> (Tensor, Tensor, Tensor) {
        self.predict_listed(inputs, batch, None)
    }

    /// Like [`FastNet::predict_outcomes`], with the policy logits at the `listed` indices only,
    /// as [`PolicyValueNet::predict_outcomes_at`] computes them.
    pub fn predict_outcomes_at(&self, inputs: &[f32], batch: usize, listed: &ListedMoves) -> (Tensor, Tensor, Tensor) {
        assert_eq!(listed.positions(), batch, "a move list for each of the {batch} positions");
        self.predict_listed(inputs, batch, Some(listed))
    }

    /// The forward pass: the whole policy, or the `listed` logits.
    fn predict_listed(&self, inputs: &[f32], batch: usize, listed: Option<&ListedMoves>) -> (Tensor, Tensor, Tensor) {
        assert_eq!(inputs.len(), batch * self.config.input_len(), "input buffer does not hold {batch} positions");
        let kind = self.form.precision.kind();
        let mut shape = vec![batch as i64];
        shape.extend(self.config.input_shape.iter().map(|&d| d as i64));
        let x = Tensor::from_slice(inputs).reshape(&shape).to_device(self.device).to_kind(kind);
        let x = self.laid_out(x);
        tch::no_grad(|| {
            let stem = self.relu_masked(self.conv(&x, &self.stem));
            let mut x = match &self.halving {
                Some((down, _)) => self.conv(&self.laid_out(fold_cells(&stem)), down).relu(),
                None => stem.shallow_clone(),
            };
            for (a, b) in &self.blocks {
                let y = self.relu_masked_trunk(self.conv(&x, a));
                let mut z = self.conv(&y, b);
                let _ = z.g_add_(&x);
                x = self.relu_masked_trunk(z);
            }
            let fine = match &self.halving {
                Some((_, up)) => {
                    let mut u = self.laid_out(spread_cells(&self.conv(&x, up)));
                    let _ = u.g_add_(&stem);
                    self.relu_masked(u)
                }
                None => x.shallow_clone(),
            };
            let p = self.relu_masked(self.conv(&fine, &self.policy_conv));
            let out = &self.policy_out;
            let policy = match listed {
                None => {
                    self.conv(&p, out).flatten(1, -1).narrow(1, 0, self.config.policy_size as i64).to_kind(Kind::Float)
                }
                Some(listed) => logits_at(&p, &out.weight, &out.bias, listed),
            };
            let v = self.conv(&x, &self.value_conv).relu().flatten(1, -1).to_kind(Kind::Float);
            let (w1, b1) = &self.value_fc1;
            let (w2, b2) = &self.value_fc2;
            let hidden = v.linear(w1, Some(b1)).relu();
            let logits = hidden.linear(w2, Some(b2));
            let probabilities = logits.softmax(-1, Kind::Float);
            let values = probabilities.matmul(&self.outcomes);
            (policy, probabilities, values)
        })
    }
}

/// `t` (`[N, C, ...spatial]`) with the same shape and values in channels-last memory order: the
/// channel varies fastest. libtorch picks the memory format of a convolution from the strides.
pub(crate) fn channels_last(t: &Tensor) -> Tensor {
    let dims = t.dim() as i64;
    // [N, C, S1.., Sk] -> [N, S1.., Sk, C], made contiguous, then viewed back as [N, C, S1..].
    let mut to_last: Vec<i64> = vec![0];
    to_last.extend(2..dims);
    to_last.push(1);
    let mut back: Vec<i64> = vec![0, dims - 1];
    back.extend(1..dims - 1);
    t.permute(&to_last).contiguous().permute(&back)
}

/// Whether this CPU computes bf16 natively (AVX512-BF16 or AMX), read from /proc/cpuinfo; bf16
/// elsewhere is emulated and slower than fp32.
pub fn cpu_has_bf16() -> bool {
    std::fs::read_to_string("/proc/cpuinfo")
        .map(|info| {
            info.lines()
                .filter(|l| l.starts_with("flags"))
                .take(1)
                .any(|l| l.split_whitespace().any(|f| f == "avx512_bf16" || f == "amx_bf16"))
        })
        .unwrap_or(false)
}

/// The arithmetic a user asks inference to run in (`inference.precision`, `--precision`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PrecisionChoice {
    /// bf16 where the CPU computes it natively, else fp32.
    #[default]
    Auto,
    /// fp32 always.
    Fp32,
    /// bf16 always (emulated, and slower than fp32, on CPUs without native bf16).
    Bf16,
}

impl std::str::FromStr for PrecisionChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<PrecisionChoice, String> {
        match text {
            "auto" => Ok(PrecisionChoice::Auto),
            "fp32" => Ok(PrecisionChoice::Fp32),
            "bf16" => Ok(PrecisionChoice::Bf16),
            _ => Err(format!("precision '{text}': expected auto, fp32 or bf16")),
        }
    }
}

impl std::fmt::Display for PrecisionChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PrecisionChoice::Auto => "auto",
            PrecisionChoice::Fp32 => "fp32",
            PrecisionChoice::Bf16 => "bf16",
        })
    }
}

/// Where and in which form inference runs a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inference {
    /// The device.
    pub device: Device,
    /// The form of the network on it.
    pub form: InferenceForm,
    /// libtorch threads of each forward pass.
    pub threads: usize,
    /// Forward passes each batch is split into, run at once ([`crate::BatchingConfig::passes`]).
    pub passes: usize,
}

impl Inference {
    /// The form for `device` and the user's `precision`: on a CPU, batch norms folded and
    /// channels-last in fp32 or bf16 (`auto`: bf16 where the CPU has it natively); on CUDA, the
    /// network as trained under fp16 autocast, as training runs it.
    pub fn choose(device: Device, precision: PrecisionChoice) -> Inference {
        if device.is_cuda() {
            return Inference { device, form: InferenceForm::PLAIN, threads: 1, passes: 1 };
        }
        let bf16 = match precision {
            PrecisionChoice::Auto => cpu_has_bf16(),
            PrecisionChoice::Fp32 => false,
            PrecisionChoice::Bf16 => true,
        };
        let form = if bf16 { InferenceForm::FAST_BF16 } else { InferenceForm::FAST_FP32 };
        Inference { device, form, threads: 1, passes: 1 }
    }

    /// The same with `threads` libtorch threads (at least 1).
    pub fn with_threads(self, threads: usize) -> Inference {
        Inference { threads: threads.max(1), ..self }
    }

    /// The same with each batch split into `passes` forward passes run at once (at least 1;
    /// fast forms only: see [`crate::BatchingConfig::passes`]).
    pub fn with_passes(self, passes: usize) -> Inference {
        Inference { passes: passes.max(1), ..self }
    }

    /// The network as trained on the CPU: what tests and tools that compare against training
    /// use.
    pub fn plain_cpu() -> Inference {
        Inference { device: Device::Cpu, form: InferenceForm::PLAIN, threads: 1, passes: 1 }
    }

    /// One line for logs: the form, the device, and what the CPU offers.
    pub fn describe(&self) -> String {
        if self.device.is_cuda() {
            return format!("{} (fp16 autocast) on {}", self.form.name(), crate::device::describe(self.device));
        }
        let native = if cpu_has_bf16() { "this CPU has native bf16" } else { "this CPU has no native bf16" };
        let (threads, passes) = (self.threads, self.passes);
        let split = if passes > 1 { format!(", batches split into {passes} passes at once") } else { String::new() };
        format!(
            "{} on {}, {threads} thread(s){split} ({native})",
            self.form.name(),
            crate::device::describe(self.device)
        )
    }
}
