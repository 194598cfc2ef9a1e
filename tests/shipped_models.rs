//! The networks shipped in models/: each loads and plays its variant, carries what made it, and
//! is what `analyse`, `play` and `uci` use when no `--model` is named.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use nn::checkpoint::RUN_CHECKPOINTS;

/// `vzero analyse --json` of a variant's start position, with shipped networks looked for in
/// `models` (`None`: the repository's own models/ folder).
fn analyse(models: Option<&Path>, args: &[&str]) -> serde_json::Value {
    let mut command = common::vzero_command();
    match models {
        Some(dir) => command.env("VZERO_MODELS", dir),
        None => command.env_remove("VZERO_MODELS"),
    };
    let out: Output = command.args(["analyse", "--json", "--sims", "16"]).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The repository's models/ folder.
fn repo_models() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

#[test]
fn a_shipped_network_is_the_default_and_none_turns_it_off() {
    let dir = std::env::temp_dir().join(format!("vzero-shipped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    common::tiny_run(&run);
    let last = std::fs::read_dir(run.join(RUN_CHECKPOINTS)).unwrap().map(|e| e.unwrap().path()).max().unwrap();
    let shipped = dir.join("models/mini-hexchess/checkpoint");
    std::fs::create_dir_all(&shipped).unwrap();
    for file in std::fs::read_dir(&last).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(&file, shipped.join(file.file_name().unwrap())).unwrap();
    }
    let models = dir.join("models");
    let json = analyse(Some(&models), &["--variant", "mini-hexchess"]);
    assert_eq!(json["model"].as_str(), Some(shipped.to_str().unwrap()), "{json}");
    let json = analyse(Some(&models), &["--variant", "mini-hexchess", "--model", "none"]);
    assert!(json["model"].is_null(), "{json}");
    let json = analyse(Some(&models), &["--variant", "glinski"]);
    assert!(json["model"].is_null(), "a variant without a shipped network searches uniformly: {json}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_shipped_network_loads_plays_and_says_what_made_it() {
    let mut shipped = Vec::new();
    for entry in std::fs::read_dir(repo_models()).expect("the repository ships models/") {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let variant = dir.file_name().unwrap().to_str().unwrap().to_string();
        for file in [
            "checkpoint/state.json",
            "checkpoint/weights.safetensors",
            "model.safetensors.json",
            "config.toml",
            "README.md",
        ] {
            assert!(dir.join(file).is_file(), "{variant}: no {file}");
        }
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        assert!(readme.contains("vzero train") && readme.contains("vzero gauntlet"), "{variant}: command and table");
        let json = analyse(None, &["--variant", &variant]);
        assert_eq!(json["model"].as_str(), Some(dir.join("checkpoint").to_str().unwrap()), "{json}");
        assert!(!json["moves"].as_array().unwrap().is_empty(), "{json}");
        shipped.push(variant);
    }
    shipped.sort();
    for variant in ["glinski", "mini-hexchess"] {
        assert!(shipped.iter().any(|v| v == variant), "models/ ships no {variant} network: {shipped:?}");
    }
}
