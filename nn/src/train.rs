//! One optimisation step: policy cross-entropy against search visit distributions, value loss
//! against final scores, and weight decay in the optimizer.

use std::path::Path;

use tch::{Kind, TchError, Tensor};

use crate::net::PolicyValueNet;
use crate::optimizer::Sgd;

/// A batch of training samples in contiguous buffers.
#[derive(Clone, Debug, Default)]
pub struct TrainBatch {
    /// Encoded positions, `batch * input_len` values.
    pub inputs: Vec<f32>,
    /// Target move distributions (visit shares), `batch * policy_size` values, 0 off the legal moves.
    pub policy: Vec<f32>,
    /// 1 for legal moves, 0 for the rest, `batch * policy_size` values; illegal logits are
    /// masked out before the softmax.
    pub legal: Vec<f32>,
    /// Final scores from the mover's seat on, `batch * players` values.
    pub values: Vec<f32>,
    /// Number of samples.
    pub len: usize,
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

/// The optimizer of one network, with state that can be saved and restored exactly.
pub struct Trainer {
    opt: Sgd,
}

impl Trainer {
    /// An SGD-with-Nesterov-momentum trainer with L2 weight decay.
    pub fn new(net: &PolicyValueNet, learning_rate: f64, weight_decay: f64) -> Trainer {
        Trainer { opt: Sgd::new(net.var_store(), learning_rate, MOMENTUM, weight_decay) }
    }

    /// Sets the learning rate (for schedules).
    pub fn set_learning_rate(&mut self, lr: f64) {
        self.opt.learning_rate = lr;
    }

    /// Saves the optimizer state (momentum buffers) to `path`.
    pub fn save_state(&self, path: &Path) -> Result<(), TchError> {
        self.opt.save(path)
    }

    /// Restores optimizer state saved by [`Trainer::save_state`].
    pub fn load_state(&mut self, path: &Path) -> Result<(), TchError> {
        self.opt.load(path)
    }

    /// One gradient step on `batch`; returns its losses before the step.
    pub fn step(&mut self, net: &PolicyValueNet, batch: &TrainBatch) -> TrainStats {
        let cfg = net.config();
        let dev = net.device();
        let n = batch.len as i64;
        let x = net.input_tensor(&batch.inputs, batch.len);
        let target_p = Tensor::from_slice(&batch.policy).reshape([n, cfg.policy_size as i64]).to_device(dev);
        let legal = Tensor::from_slice(&batch.legal).reshape([n, cfg.policy_size as i64]).to_device(dev);
        let target_v = Tensor::from_slice(&batch.values).reshape([n, cfg.players as i64]).to_device(dev);
        let (logits, values) = net.forward(&x, true);
        let masked = logits.masked_fill(&legal.eq(0.0), -1e9);
        let log_p = masked.log_softmax(-1, Kind::Float);
        let policy_loss = -(target_p * log_p).sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float);
        let value_loss = (values - target_v).square().sum_dim_intlist(-1, false, Kind::Float).mean(Kind::Float);
        let loss = &policy_loss + &value_loss;
        self.opt.zero_grad();
        loss.backward();
        self.opt.step();
        TrainStats { policy_loss: policy_loss.double_value(&[]), value_loss: value_loss.double_value(&[]) }
    }
}
