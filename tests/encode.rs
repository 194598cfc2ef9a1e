//! `vzero encode` writes what the rules encode, in files Python reads; with an exported model,
//! Python alone picks the move that `vzero analyse --sims 1` (the prior's best) picks, and the
//! model's two values sum to 1.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::vzero;
use rules::{Encoding, Game, Glinski};

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-encode-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_ok(args: &[&str]) -> String {
    let out = vzero(args);
    assert!(out.status.success(), "vzero {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The shape and data of a little-endian float32 `.npy` file, checking its header (the format
/// as NumPy writes it; Python's `numpy.load` reads it in the test below).
fn read_npy(path: &Path) -> (String, Vec<f32>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "NumPy aligns the data to 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"), "{header}");
    let shape = header.split("'shape': ").nth(1).unwrap().split(')').next().unwrap().to_string() + ")";
    let data = bytes[10 + len..].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    (shape, data)
}

#[test]
fn the_files_hold_the_rules_encoding_and_every_legal_move() {
    let dir = scratch("glinski");
    let out = dir.join("pos");
    run_ok(&["encode", "--variant", "glinski", "--moves", "f5-f6 c7-c6", "--out", out.to_str().unwrap()]);
    let mut game = Glinski::start();
    for mv in ["f5-f6", "c7-c6"] {
        let mv = game.parse_move(mv).unwrap();
        game.play(mv);
    }
    let (shape, planes) = read_npy(&out.join("planes.npy"));
    assert_eq!(shape, "(1, 16, 11, 11)");
    let mut expected = vec![0.0; Glinski::input_len()];
    game.encode(&mut expected);
    assert_eq!(planes, expected);

    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let listed = read_json(&out.join("legal_moves.json"));
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), moves.len());
    for (entry, &mv) in listed.iter().zip(&moves) {
        assert_eq!(entry["move"], game.move_text(mv));
        assert_eq!(entry["policy_index"], game.policy_index(mv));
    }
    let about = read_json(&out.join("position.json"));
    assert_eq!(about["position"], game.to_text());
    assert_eq!(about["to_move"], 0);
    assert_eq!(about["variant"], "glinski");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_naming_it() {
    let dir = scratch("errors");
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = dir.join("out");
    // Bad text is a usage error (exit 2); a folder that cannot take the files is a failure (1).
    let cases: [(&[&str], &str, i32); 3] = [
        (&["--position", "not a position", "--out", out.to_str().unwrap()], "position 'not a position'", 2),
        (&["--moves", "f5-f6 a1-a9", "--out", out.to_str().unwrap()], "move 2 ('a1-a9')", 2),
        (&["--out", file.to_str().unwrap()], "is a file", 1),
    ];
    for (args, names, code) in cases {
        let result = vzero(&[&["encode", "--variant", "glinski"], args].concat());
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(names), "{args:?}: {err}");
    }
    assert!(!out.exists(), "nothing is written for bad input");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Python, given only vzero's files: the best legal move by the exported model's policy, and
/// the cells the sidecar's policy map names for it.
const PYTHON_BEST_MOVE: &str = r#"
import json, sys, numpy as np, torch
model, folder = sys.argv[1], sys.argv[2]
sidecar = json.load(open(model + ".json"))
planes = np.load(folder + "/planes.npy")
legal = json.load(open(folder + "/legal_moves.json"))
mover = json.load(open(folder + "/position.json"))["to_move"]
m = torch.jit.load(model)
m.eval()
with torch.no_grad():
    out = m(torch.from_numpy(planes))[0].numpy()
P = sidecar["policy_size"]
best = max(legal, key=lambda e: out[e["policy_index"]])
entry = sidecar["policy_map"]["moves"][best["policy_index"]]
cells = sidecar["policy_map"]["cells"][mover]
print(json.dumps({"move": best["move"], "from": cells[entry[0]], "to": cells[entry[1]], "values": out[P:].tolist()}))
"#;

#[test]
fn python_picks_the_move_analyse_picks_with_one_simulation() {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if !python.exists() && std::env::var_os("VZERO_SKIP_PYTHON").is_some() {
        eprintln!("skipped: no .venv/bin/python and VZERO_SKIP_PYTHON is set");
        return;
    }
    let dir = scratch("python");
    let run = dir.join("run");
    common::tiny_run(&run);
    let model = dir.join("model.pt");
    run_ok(&["export", run.to_str().unwrap(), "--out", model.to_str().unwrap()]);
    // Positions a few plies in, with both seats to move, none with a win in one (which the
    // search would prefer to the prior's choice).
    for (i, moves) in ["c2-c3", "c2-c3 c5-c4", "c2-c3 c5-c4 b1-b2"].iter().enumerate() {
        let folder = dir.join(format!("pos{i}"));
        run_ok(&["encode", "--variant", "mini-hexchess", "--moves", moves, "--out", folder.to_str().unwrap()]);
        let out = Command::new(&python)
            .args(["-c", PYTHON_BEST_MOVE, model.to_str().unwrap(), folder.to_str().unwrap()])
            .output()
            .unwrap_or_else(|e| panic!("{}: {e} (set VZERO_SKIP_PYTHON=1 to skip)", python.display()));
        assert!(out.status.success(), "python: {}", String::from_utf8_lossy(&out.stderr));
        let picked: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let analysed: serde_json::Value = serde_json::from_str(&run_ok(&[
            "analyse",
            "--variant",
            "mini-hexchess",
            "--moves",
            moves,
            "--model",
            run.to_str().unwrap(),
            "--sims",
            "1",
            "--json",
            "--device",
            "cpu",
            // Python runs the exported model in fp32; bf16 can round two close priors level.
            "--precision",
            "fp32",
            // The network's own prior decides, without the tactical judge's.
            "--tactical-prior",
            "0",
        ]))
        .unwrap();
        assert_eq!(picked["move"], analysed["bestmove"], "after {moves}: {picked} vs {analysed}");
        let values: Vec<f64> = picked["values"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert_eq!(values.len(), 2);
        assert!((values.iter().sum::<f64>() - 1.0).abs() < 1e-5, "the exported model's values sum to 1: {values:?}");
        let text = picked["move"].as_str().unwrap();
        let (from, to) = (picked["from"].as_str().unwrap(), picked["to"].as_str().unwrap());
        assert!(text.starts_with(from) && text.ends_with(to), "the policy map names {from} and {to} for {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
