//! One optimisation step: policy cross-entropy against search visit distributions, value loss
//! against final scores, and weight decay in the optimizer.

use std::path::Path;

use tch::{Kind, TchError, Tensor};

use crate::config::NetConfig;
use crate::listed::ListedMoves;
use crate::net::PolicyValueNet;
use crate::optimizer::Sgd;
use crate::scaler::{self, LossScaler};

/// A batch of training samples in contiguous buffers.
#[derive(Clone, Debug, Default)]
pub struct TrainBatch {
    /// Encoded positions, `batch * input_len` values.
    pub inputs: Vec<f32>,
    /// Target move distributions (visit shares), `batch * policy_size` values, 0 off the legal
    /// moves; or, with `listed`, one share per listed move.
    pub policy: Vec<f32>,
    /// 1 for legal moves, 0 for the rest, `batch * policy_size` values; illegal logits are
    /// masked out before the softmax. Empty with `listed`.
    pub legal: Vec<f32>,
    /// Each position's legal moves by policy index, for policies too large to lay out whole
    /// (see [`crate::LISTED_POLICY_FROM`]): the network computes their logits alone and the
    /// softmax runs over each position's list.
    pub listed: Option<ListedMoves>,
    /// Final scores from the mover's seat on, `batch * players` values.
    pub values: Vec<f32>,
    /// Number of samples.
    pub len: usize,
}

impl TrainBatch {
    /// The losses of a predictor that knows nothing but this batch: every legal move equally
    /// likely, and each seat's value the batch's mean. A network that learned anything from
    /// these positions does better on them (tests; feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn baseline_losses(&self) -> TrainStats {
        let n = self.len;
        let players = self.values.len() / n.max(1);
        // Each position's (targets, legal-move count).
        let rows: Vec<(&[f32], usize)> = match &self.listed {
            Some(l) => {
                let mut from = 0;
                l.counts
                    .iter()
                    .map(|&c| {
                        from += c;
                        (&self.policy[from - c..from], c)
                    })
                    .collect()
            }
            None => {
                let moves = self.policy.len() / n.max(1);
                (0..n)
                    .map(|i| {
                        let row = i * moves..(i + 1) * moves;
                        (&self.policy[row.clone()], self.legal[row].iter().filter(|&&x| x > 0.0).count())
                    })
                    .collect()
            }
        };
        let mut policy_loss = 0.0;
        for (targets, legal) in rows {
            let mass: f64 = targets.iter().map(|&t| t as f64).sum();
            policy_loss += mass * (legal.max(1) as f64).ln();
        }
        let mut value_loss = 0.0;
        for seat in 0..players {
            let column = || (0..n).map(|i| self.values[i * players + seat] as f64);
            let mean = column().sum::<f64>() / n as f64;
            value_loss += column().map(|v| (v - mean).powi(2)).sum::<f64>();
        }
        TrainStats { policy_loss: policy_loss / n as f64, value_loss: value_loss / n as f64 }
    }
}

/// Losses of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainStats {
    /// Policy cross-entropy.
    pub policy_loss: f64,
    /// Value mean squared error.
    pub value_loss: f64,
}

/// Momentum of the SGD optimizer (the AlphaZero choice).
const MOMENTUM: f64 = 0.9;

/// How a CPU training step lays out and computes the network (`training.cpu_form`; `vzero
/// bench train` measures each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainForm {
    /// Inputs, convolution weights (and so their gradients and momentum) in channels-last
    /// memory order.
    pub channels_last: bool,
    /// Convolutions computed in bf16 from fp32 master weights (CPU autocast's choice of ops);
    /// batch norms, the value head, the losses and the update stay fp32.
    pub bf16: bool,
}

impl TrainForm {
    /// NCHW, fp32: the network as it is built.
    pub const PLAIN: TrainForm = TrainForm { channels_last: false, bf16: false };

    /// Every form, the plain one first.
    pub const ALL: [TrainForm; 4] = [
        TrainForm::PLAIN,
        TrainForm { channels_last: true, bf16: false },
        TrainForm { channels_last: false, bf16: true },
        TrainForm { channels_last: true, bf16: true },
    ];

    /// A short name for tables and configs (`nchw-fp32`, `nhwc-bf16`, ...).
    pub fn name(&self) -> String {
        let layout = if self.channels_last { "nhwc" } else { "nchw" };
        format!("{layout}-{}", if self.bf16 { "bf16" } else { "fp32" })
    }
}

impl std::fmt::Display for TrainForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A name that names no training form, with the names that would have been read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("training form '{text}': expected {expected}")]
pub struct UnknownTrainForm {
    /// The name as written.
    pub text: String,
    /// The names read, as a list for people.
    pub expected: &'static str,
}

impl std::str::FromStr for TrainForm {
    type Err = UnknownTrainForm;

    fn from_str(text: &str) -> Result<TrainForm, UnknownTrainForm> {
        TrainForm::ALL.into_iter().find(|form| form.name() == text).ok_or_else(|| UnknownTrainForm {
            text: text.to_string(),
            expected: "nchw-fp32, nhwc-fp32, nchw-bf16 or nhwc-bf16",
        })
    }
}

/// Narrowest network `auto` trains with bf16 convolutions: measured on a 2-core AVX512-BF16
/// machine, channels-last bf16 steps 4x32 and 10x128 Glinski networks 1.03-1.54x and
/// 1.93-2.12x faster than NCHW fp32, but a 1x8 network 0.75x as fast (its convolutions are too
/// small to outweigh the conversions).
pub const BF16_TRAINING_CHANNELS: usize = 32;

/// The training form a config asks for (`training.cpu_form`): one form, or `auto`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TrainFormChoice {
    /// Channels-last, with bf16 convolutions where the CPU computes bf16 natively and the
    /// network has at least [`BF16_TRAINING_CHANNELS`] channels, else fp32: each trained as
    /// well as the plain form and faster (`vzero bench train`).
    #[default]
    Auto,
    /// This form, on any CPU (bf16 is emulated, and slow, where the CPU lacks it).
    Fixed(TrainForm),
}

impl TrainFormChoice {
    /// The form to train `net` in on this CPU.
    pub fn resolve(self, net: &NetConfig) -> TrainForm {
        match self {
            TrainFormChoice::Auto => TrainForm {
                channels_last: true,
                bf16: net.channels >= BF16_TRAINING_CHANNELS && crate::fast::cpu_has_bf16(),
            },
            TrainFormChoice::Fixed(form) => form,
        }
    }
}

impl std::fmt::Display for TrainFormChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainFormChoice::Auto => f.write_str("auto"),
            TrainFormChoice::Fixed(form) => form.fmt(f),
        }
    }
}

impl std::str::FromStr for TrainFormChoice {
    type Err = UnknownTrainForm;

    fn from_str(text: &str) -> Result<TrainFormChoice, UnknownTrainForm> {
        match text {
            "auto" => Ok(TrainFormChoice::Auto),
            _ => text.parse().map(TrainFormChoice::Fixed).map_err(|unknown: UnknownTrainForm| UnknownTrainForm {
                expected: "auto, nchw-fp32, nhwc-fp32, nchw-bf16 or nhwc-bf16",
                ..unknown
            }),
        }
    }
}

/// Puts `net`'s convolution weights in channels-last memory order, in place (their values
/// unchanged), for [`TrainForm::channels_last`].
fn to_channels_last(net: &PolicyValueNet) {
    let _guard = tch::no_grad_guard();
    for (_, mut t) in net.var_store().variables() {
        if t.dim() >= 4 {
            t.set_data(&crate::fast::channels_last(&t));
        }
    }
}

/// The optimizer of one network, with state that can be saved and restored exactly.
pub struct Trainer {
    opt: Sgd,
    /// Loss scaling, when the forward pass runs in reduced precision.
    scaler: Option<LossScaler>,
    form: TrainForm,
}

impl Trainer {
    /// An SGD-with-Nesterov-momentum trainer with L2 weight decay, in full precision.
    pub fn new(net: &PolicyValueNet, learning_rate: f64, weight_decay: f64) -> Trainer {
        Trainer {
            opt: Sgd::new(net.var_store(), learning_rate, MOMENTUM, weight_decay),
            scaler: None,
            form: TrainForm::PLAIN,
        }
    }

    /// A trainer like [`Trainer::new`]'s stepping in `form` (a CPU form: see [`TrainForm`]).
    /// A channels-last form puts `net`'s weights in that order first, so that the momentum
    /// buffers are made in it too.
    pub fn in_form(net: &PolicyValueNet, learning_rate: f64, weight_decay: f64, form: TrainForm) -> Trainer {
        if form.channels_last {
            to_channels_last(net);
        }
        Trainer { form, ..Trainer::new(net, learning_rate, weight_decay) }
    }

    /// Mixed precision: the forward pass under fp16 autocast (on CUDA; elsewhere autocast does
    /// nothing) with dynamic loss scaling. Weights, optimizer state and losses stay fp32.
    pub fn with_mixed_precision(mut self) -> Trainer {
        self.scaler = Some(LossScaler::default());
        self
    }

    /// The loss scaler's state, if mixed precision is on.
    pub fn loss_scaler(&self) -> Option<LossScaler> {
        self.scaler
    }

    /// Replaces the loss scaler's state (mixed precision only; tests; feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn set_loss_scaler(&mut self, scaler: LossScaler) {
        if self.scaler.is_some() {
            self.scaler = Some(scaler);
        }
    }

    /// Sets the learning rate (for schedules).
    pub fn set_learning_rate(&mut self, lr: f64) {
        self.opt.learning_rate = lr;
    }

    /// Saves the optimizer state (momentum buffers, loss scale) to `path`.
    pub fn save_state(&self, path: &Path) -> Result<(), TchError> {
        let scaler = self.scaler.map(LossScaler::to_tensor);
        let extra: Vec<(&str, &Tensor)> = scaler.iter().map(|t| (scaler::STATE_NAME, t)).collect();
        self.opt.save(path, &extra)
    }

    /// Restores optimizer state saved by [`Trainer::save_state`]. A file from a full-precision
    /// run starts mixed precision at the initial loss scale.
    pub fn load_state(&mut self, path: &Path) -> Result<(), TchError> {
        let loaded = self.opt.load(path)?;
        if let Some(scaler) = &mut self.scaler {
            *scaler = match loaded.get(scaler::STATE_NAME) {
                Some(t) => LossScaler::from_tensor(t)
                    .ok_or_else(|| TchError::FileFormat(format!("{}: bad {}", path.display(), scaler::STATE_NAME)))?,
                None => LossScaler::default(),
            };
        }
        Ok(())
    }

    /// One gradient step on `batch`; returns its losses before the step.
    pub fn step(&mut self, net: &PolicyValueNet, batch: &TrainBatch) -> TrainStats {
        let (x, targets, target_v) = tensors(net, batch);
        let x = if self.form.channels_last { crate::fast::channels_last(&x) } else { x };
        let compute = self.form.bf16.then_some(Kind::BFloat16);
        let cuda_autocast = self.scaler.is_some() && net.device().is_cuda();
        let (logits, values) =
            tch::autocast(cuda_autocast, || net.forward_listed_in(&x, true, compute, batch.listed.as_ref()));
        let (policy_loss, value_loss) = losses(&logits, &values, &targets, &target_v);
        let loss = &policy_loss + &value_loss;
        self.opt.zero_grad();
        match &mut self.scaler {
            None => {
                loss.backward();
                self.opt.step();
            }
            Some(scaler) => {
                (&loss * scaler.scale).backward();
                let finite = self.opt.unscale_grads(1.0 / scaler.scale);
                if finite {
                    self.opt.step();
                }
                scaler.update(finite);
            }
        }
        TrainStats { policy_loss: policy_loss.double_value(&[]), value_loss: value_loss.double_value(&[]) }
    }
}

/// The losses of `net` on `batch` in inference mode, without a step: how well a network fits
/// data it is measured on (tests compare a trained network with a baseline that knows nothing).
pub fn evaluate_losses(net: &PolicyValueNet, batch: &TrainBatch) -> TrainStats {
    let _guard = tch::no_grad_guard();
    let (x, targets, target_v) = tensors(net, batch);
    let (logits, values) = net.forward_listed_in(&x, false, None, batch.listed.as_ref());
    let (policy_loss, value_loss) = losses(&logits, &values, &targets, &target_v);
    TrainStats { policy_loss: policy_loss.double_value(&[]), value_loss: value_loss.double_value(&[]) }
}

/// A batch's policy targets on the network's device.
enum PolicyTargets<'a> {
    /// `[B, policy_size]` shares and the legal-move mask beside them.
    Whole { shares: Tensor, legal: Tensor },
    /// `[M]` shares of the listed moves.
    Listed { shares: Tensor, listed: &'a ListedMoves },
}

/// The batch on the network's device: inputs, policy targets, value targets.
fn tensors<'a>(net: &PolicyValueNet, batch: &'a TrainBatch) -> (Tensor, PolicyTargets<'a>, Tensor) {
    let (cfg, dev, n) = (net.config(), net.device(), batch.len as i64);
    let x = net.input_tensor(&batch.inputs, batch.len);
    let targets = match &batch.listed {
        Some(listed) => PolicyTargets::Listed { shares: Tensor::from_slice(&batch.policy).to_device(dev), listed },
        None => PolicyTargets::Whole {
            shares: Tensor::from_slice(&batch.policy).reshape([n, cfg.policy_size as i64]).to_device(dev),
            legal: Tensor::from_slice(&batch.legal).reshape([n, cfg.policy_size as i64]).to_device(dev),
        },
    };
    let target_v = Tensor::from_slice(&batch.values).reshape([n, cfg.players as i64]).to_device(dev);
    (x, targets, target_v)
}

/// Each listed logit's log-probability within its position's list: the whole head's masked
/// softmax, laid out `[B, longest list]` with the short lists padded by the same mask value.
fn listed_log_softmax(logits: &Tensor, listed: &ListedMoves) -> Tensor {
    let (rows, device) = (listed.positions() as i64, logits.device());
    let width = listed.counts.iter().copied().max().unwrap_or(0).max(1) as i64;
    let slots: Vec<i64> =
        listed.counts.iter().enumerate().flat_map(|(r, &c)| (0..c as i64).map(move |k| r as i64 * width + k)).collect();
    let slots = Tensor::from_slice(&slots).to_device(device);
    let padded = Tensor::full([rows * width], MASKED_LOGIT, (Kind::Float, device));
    let padded = padded.index_put(&[Some(slots.shallow_clone())], logits, false);
    padded.reshape([rows, width]).log_softmax(-1, Kind::Float).reshape([-1]).index_select(0, &slots)
}

/// The logit illegal moves are given before the softmax: an fp16 logit cannot hold it, so the
/// losses are computed in fp32.
const MASKED_LOGIT: f64 = -1e9;

/// Policy cross-entropy over the legal moves and summed squared value error, batch means.
fn losses(logits: &Tensor, values: &Tensor, targets: &PolicyTargets<'_>, target_v: &Tensor) -> (Tensor, Tensor) {
    let (logits, values) = (logits.to_kind(Kind::Float), values.to_kind(Kind::Float));
    let rows = target_v.size()[0] as f64;
    let policy_loss = match targets {
        PolicyTargets::Whole { shares, legal } => {
            let log_p = logits.masked_fill(&legal.eq(0.0), MASKED_LOGIT).log_softmax(-1, Kind::Float);
            -(shares * log_p).sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float)
        }
        PolicyTargets::Listed { shares, listed } => {
            -(shares * listed_log_softmax(&logits, listed)).sum(Kind::Float) / rows
        }
    };
    let value_loss = (values - target_v).square().sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float);
    (policy_loss, value_loss)
}
