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
fn bench_train_times_each_cpu_form_of_the_configs_network() {
    let cfg = config_path("mini-hexchess-tiny.toml");
    let out = vzero(&["bench", "train", "--config", &cfg, "--seconds", "0.3", "--set", "training.batch_size=8"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    // The override reached the benchmark; the CPU never trains in mixed precision, and every
    // form a CPU step can take is timed against the plain one.
    assert!(text.starts_with("mini-hexchess (1 blocks x 8 channels, batch 8):"), "{text}");
    let forms: &[&str] = if text.contains("no bf16 forms") {
        &["nchw-fp32", "nhwc-fp32"]
    } else {
        &["nchw-fp32", "nhwc-fp32", "nchw-bf16", "nhwc-bf16"]
    };
    for form in forms {
        let steps = figure(&text, &format!("  {form} "), "steps/s");
        let positions = figure(&text, &format!("  {form} "), "positions/s");
        assert!(steps > 0.0, "{text}");
        assert!((positions - 8.0 * steps).abs() <= 0.01 * positions + 1.0, "8 positions a step: {text}");
    }
    assert!(figure(&text, "  nchw-fp32 ", "x") == 1.0, "ratios are to the plain form: {text}");
    let marked: Vec<&str> = text.lines().filter(|l| l.contains("<- training.cpu_form = auto")).collect();
    assert_eq!(marked.len(), 1, "the form a run would train in is marked once: {text}");
}

#[test]
fn bench_overrides_are_checked_like_the_configs_keys() {
    let cfg = config_path("mini-hexchess-tiny.toml");
    for what in ["selfplay", "train"] {
        let out = vzero(&["bench", what, "--config", &cfg, "--set", "network.blocks=0"]);
        assert_eq!(out.status.code(), Some(1), "bench {what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("network.blocks") && err.contains("must be from 1 to 256"), "{err}");
    }
}

/// `bench replay --run` sampled a run's shards without the check training makes, so a game
/// recording a visit on a policy index past the policy's end made the sampler index out of
/// bounds (a panic); the shard is now refused with a one-line error.
#[test]
fn bench_replay_refuses_a_shard_that_training_would_skip() {
    use rules::{Encoding, Game, MiniHexchess};
    use selfplay::replay::{write_shard, GameRecord, MoveRecord};

    let run = std::env::temp_dir().join(format!("vzero-bench-checked-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&run);
    std::fs::create_dir_all(run.join("replay")).unwrap();
    std::fs::copy(config_path("mini-hexchess-tiny.toml"), run.join("config.toml")).unwrap();
    let mut game = MiniHexchess::start();
    let mut record = GameRecord {
        variant: "mini-hexchess".into(),
        number: 1,
        start: game.to_text(),
        moves: vec![],
        scores: vec![0.5; 2],
    };
    let mut legal = Vec::new();
    for _ in 0..6 {
        game.legal_moves(&mut legal);
        let played = game.policy_index(legal[0]) as u32;
        let visits = vec![(played, 5), (u32::MAX, 1)];
        record.moves.push(MoveRecord { played, visits, policy_target: true, root_value: None });
        game.play(legal[0]);
    }
    write_shard(&run.join("replay/a.shard"), &[record]).unwrap();
    let out = vzero(&["bench", "replay", "--run", run.to_str().unwrap(), "--seconds", "0.5", "--batch", "4"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains("a.shard") && err.contains("4294967295"), "{err}");
    std::fs::remove_dir_all(&run).unwrap();
}

/// Without `--config`, the benchmarks measure the built-in default config, so that `vzero bench`
/// works from any folder (it read `configs/mini-hexchess.toml` relative to the current one).
#[test]
fn bench_without_config_works_from_any_folder() {
    let elsewhere = common::scratch("bench-elsewhere");
    let out = common::vzero_command()
        .current_dir(&elsewhere)
        .args(["bench", "train", "--seconds", "0.1", "--set", "training.batch_size=4"])
        .args(["--set", "network.blocks=1", "--set", "network.channels=8"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.starts_with("mini-hexchess (1 blocks x 8 channels, batch 4):"), "{text}");
    std::fs::remove_dir_all(&elsewhere).unwrap();
}
