//! One optimisation step: policy cross-entropy against search visit distributions, value loss
//! against final scores, and weight decay in the optimizer.

use tch::nn::{self, OptimizerConfig};
use tch::{Kind, Tensor};

use crate::net::PolicyValueNet;

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

/// A network with its optimizer.
pub struct Trainer {
    opt: nn::Optimizer,
}

impl Trainer {
    /// An SGD-with-momentum trainer (the AlphaZero choice) with L2 weight decay.
    pub fn new(net: &PolicyValueNet, learning_rate: f64, weight_decay: f64) -> Result<Trainer, tch::TchError> {
        let opt = nn::Sgd { momentum: 0.9, dampening: 0.0, wd: weight_decay, nesterov: true }
            .build(net.var_store(), learning_rate)?;
        Ok(Trainer { opt })
    }

    /// Sets the learning rate (for schedules).
    pub fn set_learning_rate(&mut self, lr: f64) {
        self.opt.set_lr(lr);
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
        self.opt.backward_step(&loss);
        TrainStats { policy_loss: policy_loss.double_value(&[]), value_loss: value_loss.double_value(&[]) }
    }
}
