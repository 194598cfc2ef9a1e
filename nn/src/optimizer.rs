//! SGD with Nesterov momentum and L2 weight decay, written out so that its state can be saved
//! and restored exactly (tch's built-in optimizers keep their state inside libtorch).

use std::collections::BTreeMap;
use std::path::Path;

use tch::nn::VarStore;
use tch::{TchError, Tensor};

/// Stochastic gradient descent with momentum, one momentum buffer per trainable weight,
/// keyed by the weight's name.
pub struct Sgd {
    /// Step size.
    pub learning_rate: f64,
    /// Momentum coefficient mu.
    pub momentum: f64,
    /// L2 coefficient added to each gradient (`g + wd * w`).
    pub weight_decay: f64,
    weights: BTreeMap<String, Tensor>,
    buffers: BTreeMap<String, Tensor>,
}

impl Sgd {
    /// An optimizer for every trainable weight of `vs`, with zeroed momentum.
    pub fn new(vs: &VarStore, learning_rate: f64, momentum: f64, weight_decay: f64) -> Sgd {
        let weights: BTreeMap<String, Tensor> = vs.variables().into_iter().filter(|(_, t)| t.requires_grad()).collect();
        let buffers = weights.iter().map(|(k, w)| (k.clone(), w.zeros_like())).collect();
        Sgd { learning_rate, momentum, weight_decay, weights, buffers }
    }

    /// Clears the weights' gradients before a backward pass.
    pub fn zero_grad(&mut self) {
        for w in self.weights.values_mut() {
            w.zero_grad();
        }
    }

    /// Applies one update from the gradients of the last backward pass:
    /// `d = g + wd*w; v = mu*v + d; w -= lr * (d + mu*v)` (Nesterov).
    pub fn step(&mut self) {
        tch::no_grad(|| {
            for (name, w) in self.weights.iter_mut() {
                let g = w.grad();
                if !g.defined() {
                    continue;
                }
                let buf = self.buffers.get_mut(name).expect("a buffer per weight");
                let d = g + &*w * self.weight_decay;
                let _ = buf.g_mul_scalar_(self.momentum).g_add_(&d);
                let update = (d + &*buf * self.momentum) * self.learning_rate;
                let _ = w.g_sub_(&update);
            }
        });
    }

    /// Multiplies every gradient by `factor` (undoing loss scaling); returns whether all of
    /// them are finite afterwards.
    pub fn unscale_grads(&mut self, factor: f64) -> bool {
        tch::no_grad(|| {
            let mut bad = Vec::new();
            for w in self.weights.values_mut() {
                let mut g = w.grad();
                if g.defined() {
                    let _ = g.g_mul_scalar_(factor);
                    bad.push(g.isfinite().logical_not().any());
                }
            }
            // One device synchronisation for all weights, not one per weight.
            bad.is_empty() || Tensor::stack(&bad, 0).any().int64_value(&[]) == 0
        })
    }

    /// Writes the momentum buffers and the `extra` named tensors to `path` (safetensors).
    pub fn save(&self, path: &Path, extra: &[(&str, &Tensor)]) -> Result<(), TchError> {
        // Contiguous copies: buffers of channels-last weights are channels-last too, which
        // safetensors cannot write as they are.
        let mut named: Vec<(&str, Tensor)> = self.buffers.iter().map(|(k, v)| (k.as_str(), v.contiguous())).collect();
        named.extend(extra.iter().map(|&(k, t)| (k, t.contiguous())));
        Tensor::write_safetensors(&named, path)
    }

    /// Reads momentum buffers written by [`Sgd::save`]; every buffer must be present with the
    /// same shape, else nothing changes and the error names the first mismatch. Returns every
    /// tensor of the file, for the caller's extras.
    pub fn load(&mut self, path: &Path) -> Result<BTreeMap<String, Tensor>, TchError> {
        let loaded: BTreeMap<String, Tensor> = crate::checkpoint::read_tensors(path)?.into_iter().collect();
        for (name, buf) in &self.buffers {
            match loaded.get(name) {
                Some(t) if t.size() == buf.size() => {}
                Some(t) => {
                    return Err(TchError::Shape(format!(
                        "{}: optimizer buffer {name} has shape {:?}, the network needs {:?}",
                        path.display(),
                        t.size(),
                        buf.size()
                    )))
                }
                None => return Err(TchError::FileFormat(format!("{}: no optimizer buffer {name}", path.display()))),
            }
        }
        for (name, buf) in self.buffers.iter_mut() {
            tch::no_grad(|| buf.copy_(&loaded[name]));
        }
        Ok(loaded)
    }
}
