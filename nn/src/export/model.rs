//! A checkpoint as a TorchScript module or raw safetensors weights (`vzero export`), with a
//! sidecar JSON that says everything needed to use it elsewhere.

use std::path::{Path, PathBuf};

use rules::Encoding;
use serde_json::json;

use crate::checkpoint::{load_checkpoint, read_state, CheckpointError};
use crate::config::NetConfig;
use crate::net::PolicyValueNet;

/// The file formats `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// A traced TorchScript module (`torch.jit.load`, tch's `CModule`).
    TorchScript,
    /// The raw weights as safetensors, named as in vzero's network.
    Safetensors,
}

/// The sidecar's format version: 2 added `version`, the machine-readable `policy_map` and
/// `value_outcomes`.
pub const SIDECAR_VERSION: u32 = 2;

/// Where the variant's encoding and policy map are documented.
fn encoding_doc(variant: &str) -> &'static str {
    match variant {
        "wellisch" => "docs/notation-wellisch.md",
        "weltschach" => "docs/notation-weltschach.md (and rules/src/weltschach/encode.rs)",
        _ => "docs/notation-hex.md",
    }
}

/// The sidecar as pretty JSON with the policy map added as its last field on one line: one
/// line per entry would make Weltschach's sidecar 700,000 lines long.
fn with_policy_map<G: Encoding>(sidecar: &serde_json::Value) -> String {
    let text = serde_json::to_string_pretty(sidecar).expect("json");
    let open = text.strip_suffix("\n}").expect("a pretty JSON object ends with a closing brace");
    let map = serde_json::to_string(&super::policy_map_json::<G>()).expect("json");
    format!("{open},\n  \"policy_map\": {map}\n}}\n")
}

/// The sidecar of the model file `out`: its whole name with `.json` added (`model.pt.json`
/// beside `model.pt`), so that each model file in a folder has its own.
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(std::ffi::OsString::from).unwrap_or_default();
    name.push(".json");
    out.with_file_name(name)
}

/// Writes the checkpoint at `checkpoint` to `out` in `format`, and its sidecar
/// ([`sidecar_path`]); returns the sidecar's path. Both files are built in memory first and
/// written together ([`durable::write_all`]), so a failure (a full disk) leaves both as they
/// were, and libtorch never writes to the disk itself.
pub fn export_checkpoint<G: Encoding>(
    checkpoint: &Path,
    out: &Path,
    format: ExportFormat,
) -> Result<PathBuf, CheckpointError> {
    let state = read_state(checkpoint)?;
    let cfg = NetConfig::for_game::<G>(state.blocks, state.channels).with_trunk(state.trunk);
    let mut net = PolicyValueNet::new(&cfg, tch::Device::Cpu);
    load_checkpoint(checkpoint, &mut net, None)?;
    if let Some(name) = net.non_finite_weight() {
        let reason = format!("weight {name} is not finite (training diverged); refusing to export it");
        return Err(CheckpointError::Bad { path: checkpoint.to_path_buf(), reason });
    }
    // libtorch's messages carry a C++ stack trace after the first line; the user needs the line.
    let bad = |e: tch::TchError| {
        let reason = e.to_string().lines().next().unwrap_or("libtorch error").to_string();
        CheckpointError::Bad { path: out.to_path_buf(), reason }
    };
    let (bytes, output) = match format {
        ExportFormat::TorchScript => {
            let bytes = durable::in_memory(|path| super::export_torchscript(&mut net, path).map_err(bad))?;
            (bytes, format!("forward(x) returns one tensor [B, {p} + {n}]: columns 0..{p} are the policy logits, columns {p}..{t} the values", p = G::POLICY_SIZE, n = G::NUM_PLAYERS, t = G::POLICY_SIZE + G::NUM_PLAYERS))
        }
        ExportFormat::Safetensors => {
            let named: Vec<(String, tch::Tensor)> = net.var_store().variables().into_iter().collect();
            let bytes = durable::in_memory(|path| tch::Tensor::write_safetensors(&named, path).map_err(bad))?;
            (bytes, "raw weights of vzero's PolicyValueNet (nn/src/net.rs); run them with that network".to_string())
        }
    };
    let sidecar = json!({
        "version": SIDECAR_VERSION,
        "format": match format { ExportFormat::TorchScript => "torchscript", ExportFormat::Safetensors => "safetensors" },
        "file": out.file_name().map(|n| n.to_string_lossy().into_owned()),
        "variant": G::NAME,
        "players": G::NUM_PLAYERS,
        "input_shape": G::INPUT_SHAPE,
        "input": format!("float32 [B, {}]: positions encoded by rules::Encoding::encode from the point of view of the player to move; the planes are listed in {}", G::INPUT_SHAPE.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "), encoding_doc(G::NAME)),
        "policy_size": G::POLICY_SIZE,
        "policy": format!("logits by policy index (rules::Encoding::policy_index: a bijection on each position's legal moves, kind-major, documented in {}; policy_map below says what each index is); set illegal moves to -inf before the softmax", encoding_doc(G::NAME)),
        "values": format!("{} values in [0, 1]: value k is the expected final score of the player k seats after the player to move (k = 0: the mover); the network predicts a distribution over the final score vectors in value_outcomes (seen the same way) and the values are its expectation, so they sum to {} by construction", G::NUM_PLAYERS, G::outcomes()[0].sum()),
        "value_outcomes": G::value_classes(),
        "output": output,
        "network": { "blocks": state.blocks, "channels": state.channels, "trunk": state.trunk.name(), "board_mask": G::board_mask().is_some() },
        "training_step": state.step,
        "games": state.games,
        "checksum": { "algorithm": "crc32", "value": format!("{:08x}", crc32fast::hash(&bytes)) },
    });
    let path = sidecar_path(out);
    durable::write_all(&[(out, &bytes), (&path, with_policy_map::<G>(&sidecar).as_bytes())])?;
    Ok(path)
}
