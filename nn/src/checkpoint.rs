//! Saving and loading network weights without ever leaving a half-written file.

use std::path::Path;

use crate::net::PolicyValueNet;

/// Writes the weights to `path` through a temporary file and a rename, so a crash mid-write
/// leaves the previous file intact.
pub fn save_weights(net: &PolicyValueNet, path: &Path) -> Result<(), tch::TchError> {
    // The temporary name keeps the extension: tch picks the file format from it.
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("pt");
    let tmp = path.with_extension(format!("partial.{ext}"));
    net.var_store().save(&tmp)?;
    std::fs::rename(&tmp, path).map_err(|e| tch::TchError::FileFormat(format!("{}: {e}", path.display())))?;
    Ok(())
}

/// Loads weights saved by [`save_weights`] into a network of the same shape.
pub fn load_weights(net: &mut PolicyValueNet, path: &Path) -> Result<(), tch::TchError> {
    net.var_store_mut().load(path)
}
