//! `vzero bench train` and the `--set` overrides of `bench selfplay` / `bench train`, on the CPU
//! (the GPU side of the same commands is scripts/gpu-check's job; no test needs a GPU).

mod common;

use common::{config_path, vzero};

/// The number before `unit` on the line that contains `label`.
fn figure(text: &str, label: &str, unit: &str) -> f64 {
    let line = text.lines().find(|l| l.contains(label)).unwrap_or_else(|| panic!("no '{label}' in:\n{text}"));
    let before = line.split(unit).next().expect("a figure");
    before.split_whitespace().last().expect("a number").parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn bench_train_times_fp32_steps_of_the_configs_network_on_the_cpu() {
    let cfg = config_path("mini-hexchess-tiny.toml");
    let out = vzero(&["bench", "train", "--config", &cfg, "--seconds", "0.3", "--set", "training.batch_size=8"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    // The override reached the benchmark, and the CPU never trains in mixed precision.
    assert!(text.starts_with("mini-hexchess (1 blocks x 8 channels, batch 8, fp32):"), "{text}");
    let steps = figure(&text, "training steps", "steps/s");
    let positions = figure(&text, "training positions", "positions/s");
    assert!(steps > 0.0, "{text}");
    assert!((positions - 8.0 * steps).abs() <= 0.01 * positions + 1.0, "8 positions a step: {text}");
}

#[test]
fn bench_overrides_are_checked_like_the_configs_keys() {
    let cfg = config_path("mini-hexchess-tiny.toml");
    for what in ["selfplay", "train"] {
        let out = vzero(&["bench", what, "--config", &cfg, "--set", "network.blocks=0"]);
        assert_eq!(out.status.code(), Some(1), "bench {what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("network.blocks") && err.contains("at least 1"), "{err}");
    }
}
