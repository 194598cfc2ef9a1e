//! Dynamic loss scaling for mixed-precision training (PyTorch's `GradScaler`): fp16 gradients
//! of small losses underflow to zero, so the loss is multiplied by a large power of two before
//! the backward pass and the gradients divided by it before the step. A step whose gradients
//! overflowed is skipped and the scale halved; after `GROWTH_INTERVAL` good steps in a row it
//! doubles. Powers of two make scaling and unscaling exact wherever nothing overflows.

use tch::{Kind, Tensor};

/// Scale of the first step (PyTorch's default).
const INITIAL_SCALE: f64 = 65536.0;
/// Good steps in a row before the scale doubles.
const GROWTH_INTERVAL: u64 = 2000;
/// Name of the scaler's state among the optimizer's saved tensors (no weight has it).
pub(crate) const STATE_NAME: &str = "__loss_scaler";

/// The current loss scale and the good steps since it last changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossScaler {
    /// What the loss is multiplied by before the backward pass.
    pub scale: f64,
    /// Steps with finite gradients since the scale last changed.
    pub good_steps: u64,
}

impl Default for LossScaler {
    fn default() -> Self {
        LossScaler { scale: INITIAL_SCALE, good_steps: 0 }
    }
}

impl LossScaler {
    /// Moves the scale on after a step whose gradients were finite (`finite`) or not.
    pub fn update(&mut self, finite: bool) {
        if !finite {
            self.scale = (self.scale * 0.5).max(1.0);
            self.good_steps = 0;
        } else {
            self.good_steps += 1;
            if self.good_steps >= GROWTH_INTERVAL {
                self.scale *= 2.0;
                self.good_steps = 0;
            }
        }
    }

    /// The state as a tensor for the optimizer's file.
    pub(crate) fn to_tensor(self) -> Tensor {
        Tensor::from_slice(&[self.scale, self.good_steps as f64])
    }

    /// The state from [`LossScaler::to_tensor`]'s tensor; `None` if it has the wrong shape.
    pub(crate) fn from_tensor(t: &Tensor) -> Option<LossScaler> {
        let v = Vec::<f64>::try_from(t.to_kind(Kind::Double).flatten(0, -1)).ok()?;
        match v[..] {
            [scale, good] if scale >= 1.0 && good >= 0.0 => Some(LossScaler { scale, good_steps: good as u64 }),
            _ => None,
        }
    }
}
