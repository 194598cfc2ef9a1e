//! Helpers shared by the end-to-end tests of the `vzero` binary.

#![allow(dead_code)] // each test file uses its own subset

use std::path::Path;
use std::process::{Command, Output};

/// Runs `vzero` with `args` and returns what it printed and its status.
pub fn vzero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vzero")).args(args).output().expect("run vzero")
}

/// The path of a shipped config file.
pub fn config_path(name: &str) -> String {
    format!("{}/configs/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Trains a one-iteration Mini Hexchess run (tiny config, no evaluation) into `run`.
pub fn tiny_run(run: &Path) {
    let cfg = config_path("mini-hexchess-tiny.toml");
    let args = ["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    let out = vzero(&[&args[..], &["--set", "training.iterations=1", "--set", "evaluation.games=0"]].concat());
    assert!(out.status.success(), "vzero train: {}", String::from_utf8_lossy(&out.stderr));
}
