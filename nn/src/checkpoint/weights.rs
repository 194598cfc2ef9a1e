//! Saving and loading a network's weights alone, without ever leaving a half-written file.

use std::path::Path;

use crate::net::PolicyValueNet;

/// Writes the weights to `path` through a temporary file and a rename
/// ([`durable::replace_with`]), so a crash mid-write leaves the previous file intact.
pub fn save_weights(net: &PolicyValueNet, path: &Path) -> Result<(), tch::TchError> {
    let mut tch_error = None;
    let written = durable::replace_with(path, |tmp: &Path| {
        net.var_store().save(tmp).map_err(|e| {
            let message = e.to_string();
            tch_error = Some(e); // returned as it is, not as the I/O error it must pass through
            std::io::Error::other(message)
        })
    });
    if let Some(e) = tch_error {
        return Err(e);
    }
    written.map_err(|e: std::io::Error| tch::TchError::FileFormat(e.to_string()))
}

/// Loads weights saved by [`save_weights`] into a network of the same shape.
pub fn load_weights(net: &mut PolicyValueNet, path: &Path) -> Result<(), tch::TchError> {
    net.var_store_mut().load(path)
}
