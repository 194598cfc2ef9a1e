//! Exporting a network for use outside vzero: a traced TorchScript module.

use std::path::Path;

use tch::{CModule, Kind, TchError, Tensor};

use crate::net::PolicyValueNet;

/// Traces the network in inference mode (batch-norm running statistics, weights frozen, which
/// this leaves them) and saves it as TorchScript. A traced method returns one tensor, so the
/// module's `forward(x)` returns `[B, policy_size + players]`: the policy logits, then the values.
pub fn export_torchscript(net: &mut PolicyValueNet, path: &Path) -> Result<(), TchError> {
    // Tracing records weights as constants, which must not require gradients.
    net.var_store_mut().freeze();
    let net = &*net;
    let mut shape = vec![1i64];
    shape.extend(net.config().input_shape.iter().map(|&d| d as i64));
    let example = Tensor::zeros(&shape, (Kind::Float, net.device()));
    let mut forward = |inputs: &[Tensor]| {
        let (policy, values) = net.forward(&inputs[0], false);
        vec![Tensor::cat(&[policy, values], 1)]
    };
    let module = tch::no_grad(|| CModule::create_by_tracing("VzeroNet", "forward", &[example], &mut forward))?;
    module.save(path)
}

/// Runs an exported TorchScript module on a batch (for checking an export; feature
/// `test-support`).
#[cfg(feature = "test-support")]
pub fn run_torchscript(path: &Path, input: &Tensor) -> Result<Tensor, TchError> {
    let mut module = CModule::load(path)?;
    module.set_eval();
    tch::no_grad(|| module.forward_ts(&[input]))
}
