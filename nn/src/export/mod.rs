//! Networks for use outside vzero: a traced TorchScript module or raw safetensors weights, with
//! a sidecar JSON that says everything needed to run them.

mod model;
mod policy_json;
mod torchscript;

pub use model::{export_checkpoint, sidecar_path, ExportFormat, SIDECAR_VERSION};
pub use policy_json::policy_map_json;
pub use torchscript::export_torchscript;
#[cfg(feature = "test-support")]
pub use torchscript::run_torchscript;
