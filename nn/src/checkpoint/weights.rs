//! Saving and loading a network's weights alone, without ever leaving a half-written file.

use std::collections::HashMap;
use std::path::Path;

use tch::{TchError, Tensor};

use crate::net::PolicyValueNet;

/// Writes the weights to `path` through a temporary file and a rename
/// ([`durable::replace_with`]), so a crash mid-write leaves the previous file intact.
pub fn save_weights(net: &PolicyValueNet, path: &Path) -> Result<(), TchError> {
    let mut tch_error = None;
    let written = durable::replace_with(path, |tmp: &Path| {
        write_contiguous(net, tmp).map_err(|e| {
            let message = e.to_string();
            tch_error = Some(e); // returned as it is, not as the I/O error it must pass through
            std::io::Error::other(message)
        })
    });
    if let Some(e) = tch_error {
        return Err(e);
    }
    written.map_err(|e: std::io::Error| TchError::FileFormat(e.to_string()))
}

/// Writes `net`'s variables to `path` (safetensors) as contiguous copies, by name: a network
/// training in channels-last order holds weights safetensors cannot write as they are, and
/// the file is the same for either order.
pub(crate) fn write_contiguous(net: &PolicyValueNet, path: &Path) -> Result<(), TchError> {
    let mut named: Vec<(String, Tensor)> =
        net.var_store().variables().into_iter().map(|(name, t)| (name, t.contiguous())).collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    Tensor::write_safetensors(&named, path)
}

/// Loads weights saved by [`save_weights`] (safetensors) into a network of the same shape.
/// Every variable must be in the file with its own shape and kind, or the file is refused:
/// libtorch's loader would broadcast a tensor of another shape into a variable, or turn the
/// variable into the file's kind (a network of integers, whose forward pass then fails). A
/// weight that is not finite (a diverged network, whose checksums still match) is refused by
/// name: every prior it gave would be NaN, searched as uniform. Every checkpoint a command
/// loads comes through here.
pub fn load_weights(net: &mut PolicyValueNet, path: &Path) -> Result<(), TchError> {
    let loaded: HashMap<String, Tensor> = read_tensors(path)?.into_iter().collect();
    let mut variables = net.var_store().variables();
    for (name, var) in &variables {
        let Some(weight) = loaded.get(name) else {
            return Err(TchError::TensorNameNotFound(name.clone(), path.display().to_string()));
        };
        if weight.size() != var.size() || weight.kind() != var.kind() {
            return Err(TchError::Shape(format!(
                "{}: weight {name} is {:?} {:?}, the network needs {:?} {:?}",
                path.display(),
                weight.kind(),
                weight.size(),
                var.kind(),
                var.size()
            )));
        }
        if weight.isfinite().all().int64_value(&[]) == 0 {
            return Err(TchError::FileFormat(format!("weight {name} is not finite (training diverged)")));
        }
    }
    tch::no_grad(|| variables.iter_mut().try_for_each(|(name, var)| var.f_copy_(&loaded[name]).map(|_| ())))
}

/// Every tensor of the safetensors file `path`; a file that is not one whole (cut short or
/// overwritten, though its checksum may have been made to match) is refused in words, naming
/// what was expected, where libtorch's reader says only `MetadataIncompleteBuffer`.
pub(crate) fn read_tensors(path: &Path) -> Result<Vec<(String, Tensor)>, TchError> {
    Tensor::read_safetensors(path).map_err(|e| match e {
        TchError::Io(io) => TchError::Io(io),
        other => {
            let text = other.to_string();
            let detail = text.rsplit(": ").next().unwrap_or(&text);
            TchError::FileFormat(format!(
                "{}: not a whole safetensors file ({detail}): truncated or corrupted; expected the tensors vzero \
                 saved there",
                path.display()
            ))
        }
    })
}
