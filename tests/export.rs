//! `vzero export` writes a model that PyTorch and tch load and that computes exactly what the
//! network in vzero computes, with a sidecar that describes it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use nn::checkpoint::{load_checkpoint, read_state, resolve_checkpoint};
use nn::NetConfig;
use rand::{RngExt, SeedableRng};
use rules::hexchess::MiniHexchess;
use rules::{Encoding, Game};

fn vzero(args: &[&str]) {
    let out = common::vzero(args);
    assert!(out.status.success(), "vzero {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A few positions: the start and positions after random moves.
fn positions() -> Vec<MiniHexchess> {
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
    let mut out = vec![MiniHexchess::start()];
    let mut moves = Vec::new();
    let mut g = MiniHexchess::start();
    for _ in 0..9 {
        g.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        g.play(moves[rng.random_range(0..moves.len())]);
        out.push(g.clone());
    }
    out
}

fn f32_file(path: &Path, values: &[f32]) {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

const PYTHON_CHECK: &str = r#"
import sys, numpy as np, torch
model, inputs, expected, shape = sys.argv[1], sys.argv[2], sys.argv[3], [int(d) for d in sys.argv[4].split(",")]
m = torch.jit.load(model)
m.eval()
x = torch.from_numpy(np.fromfile(inputs, dtype="<f4").reshape(shape))
with torch.no_grad():
    y = m(x).numpy()
e = np.fromfile(expected, dtype="<f4").reshape(y.shape)
diff = float(np.abs(y - e).max())
print("max difference", diff)
sys.exit(0 if diff < 1e-4 else 1)
"#;

#[test]
fn an_exported_model_matches_the_network_in_python_and_tch() {
    let dir: PathBuf = std::env::temp_dir().join(format!("vzero-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    common::tiny_run(&run);
    let model = dir.join("model.pt");
    vzero(&["export", run.to_str().unwrap(), "--out", model.to_str().unwrap()]);
    // Both formats into one folder: each model file keeps a sidecar of its own.
    let weights = dir.join("model.safetensors");
    vzero(&["export", run.to_str().unwrap(), "--out", weights.to_str().unwrap(), "--format", "safetensors"]);

    // The sidecar says what the model is, and its checksum is the file's.
    let read_json =
        |path: PathBuf| -> serde_json::Value { serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap() };
    let sidecar = read_json(dir.join("model.pt.json"));
    assert_eq!(sidecar["file"], "model.pt");
    assert_eq!(sidecar["variant"], "mini-hexchess");
    assert_eq!(sidecar["format"], "torchscript");
    assert_eq!(sidecar["policy_size"], MiniHexchess::POLICY_SIZE);
    assert_eq!(sidecar["input_shape"], serde_json::json!(MiniHexchess::INPUT_SHAPE));
    assert_eq!(sidecar["players"], 2);
    assert_eq!(sidecar["version"], 2);
    assert_eq!(sidecar["policy_map"]["moves"].as_array().map(Vec::len), Some(MiniHexchess::POLICY_SIZE));
    assert_eq!(sidecar["policy_map"]["cells"].as_array().map(Vec::len), Some(2));
    let crc = format!("{:08x}", crc32fast::hash(&std::fs::read(&model).unwrap()));
    assert_eq!(sidecar["checksum"]["value"], crc);
    let raw = read_json(dir.join("model.safetensors.json"));
    assert_eq!((&raw["format"], &raw["file"]), (&"safetensors".into(), &"model.safetensors".into()));
    let crc = format!("{:08x}", crc32fast::hash(&std::fs::read(&weights).unwrap()));
    assert_eq!(raw["checksum"]["value"], crc);
    assert!(!dir.join("model.json").exists(), "no sidecar shared by the two");

    // The network as vzero runs it, on a few positions.
    let checkpoint = resolve_checkpoint(&run).unwrap();
    let state = read_state(&checkpoint).unwrap();
    assert_eq!(sidecar["training_step"], state.step);
    let mut net =
        nn::PolicyValueNet::new(&NetConfig::for_game::<MiniHexchess>(state.blocks, state.channels), nn::Device::Cpu);
    load_checkpoint(&checkpoint, &mut net, None).unwrap();
    let games = positions();
    let len = MiniHexchess::input_len();
    let mut inputs = vec![0.0; games.len() * len];
    for (g, planes) in games.iter().zip(inputs.chunks_exact_mut(len)) {
        g.encode(planes);
    }
    let (p, v) = net.predict(&inputs, games.len());
    let expected = tch::Tensor::cat(&[p, v], 1);

    // Through tch's CModule.
    let x = net.input_tensor(&inputs, games.len());
    let traced = nn::export::run_torchscript(&model, &x).unwrap();
    let diff = (&traced - &expected).abs().max().double_value(&[]);
    assert!(diff < 1e-5, "TorchScript through tch differs by {diff}");

    // Through PyTorch in Python (the project's own venv).
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if !python.exists() && std::env::var_os("VZERO_SKIP_PYTHON").is_some() {
        eprintln!("skipped the Python check: no .venv/bin/python and VZERO_SKIP_PYTHON is set");
    } else {
        f32_file(&dir.join("inputs.f32"), &inputs);
        let flat: Vec<f32> = Vec::try_from(&expected.flatten(0, -1)).unwrap();
        f32_file(&dir.join("expected.f32"), &flat);
        let mut shape = vec![games.len().to_string()];
        shape.extend(MiniHexchess::INPUT_SHAPE.iter().map(|d| d.to_string()));
        let out = Command::new(&python)
            .args(["-c", PYTHON_CHECK, model.to_str().unwrap()])
            .arg(dir.join("inputs.f32"))
            .arg(dir.join("expected.f32"))
            .arg(shape.join(","))
            .output()
            .unwrap_or_else(|e| {
                panic!("{}: {e} (set VZERO_SKIP_PYTHON=1 to skip with a custom LIBTORCH)", python.display())
            });
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "torch.jit.load check failed: {text}");
        assert!(text.contains("max difference"), "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
