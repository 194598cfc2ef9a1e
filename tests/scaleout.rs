//! A trainer and a second, self-play-only process share a run directory: the trainer samples
//! the other process's games, and nothing collides.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::output_within;
use nn::checkpoint::RUN_CHECKPOINTS;
use selfplay::replay::{read_shard, EXTERNAL_GAME};
use selfplay::store::events::read_events;
use selfplay::RunDir;

fn vzero() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_vzero"));
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

#[test]
fn the_trainer_samples_games_of_a_selfplay_process() {
    let dir: PathBuf = std::env::temp_dir().join(format!("vzero-scaleout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = format!("{}/configs/mini-hexchess-tiny.toml", env!("CARGO_MANIFEST_DIR"));
    let run = dir.to_str().unwrap().to_string();
    // The trainer runs until stopped, so however slow the machine, it is still training when
    // the other process's games arrive.
    let trainer = vzero()
        .args(["train", "--config", &cfg, "--run", &run, "--quiet"])
        .args(["--set", "training.iterations=100000", "--set", "evaluation.games=0"])
        .spawn()
        .unwrap();
    // The self-play process needs the trainer's config and first checkpoint.
    let begun = Instant::now();
    while !RunDir::unchecked(&dir).config().exists() {
        assert!(begun.elapsed() < Duration::from_secs(120), "the trainer never created its run");
        std::thread::sleep(Duration::from_millis(20));
    }
    let helper = vzero()
        .args(["selfplay", "--run", &run, "--games", "12", "--quiet", "--set", "selfplay.games_per_iteration=4"])
        .output()
        .unwrap();
    assert!(helper.status.success(), "{}", String::from_utf8_lossy(&helper.stderr));
    assert!(String::from_utf8_lossy(&helper.stdout).contains("12 games written"));
    // Wait until the trainer has sampled the new games, then stop it with Ctrl-C.
    let sampled = || -> u64 {
        read_events(&std::fs::read_to_string(RunDir::unchecked(&dir).metrics()).unwrap_or_default())
            .iterations()
            .map(|it| it.sampled_external_positions as u64)
            .sum()
    };
    let begun = Instant::now();
    while sampled() == 0 && begun.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = Command::new("kill").args(["-INT", &trainer.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = trainer.wait_with_output().unwrap();
    // Stopped by the signal after saving: the documented "stopped early" status.
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(sampled() > 0, "the trainer never sampled the self-play process's games");

    let rd = RunDir::unchecked(&dir);
    let games: Vec<_> = rd.shard_paths().unwrap().iter().flat_map(|p| read_shard(p).unwrap()).collect();
    let external = games.iter().filter(|g| g.number & EXTERNAL_GAME != 0).count();
    assert_eq!(external, 12);
    let mut numbers: Vec<u64> = games.iter().map(|g| g.number).collect();
    numbers.sort();
    numbers.dedup();
    assert_eq!(numbers.len(), games.len(), "game numbers collide");

    let status = vzero().args(["runs", "status", &run]).output().unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(text.contains("12 by selfplay processes"), "{text}");
    assert!(text.contains("of 100000") && text.contains("last error   none"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn train_tiny(run: &str, extra: &[&str]) {
    let cfg = format!("{}/configs/mini-hexchess-tiny.toml", env!("CARGO_MANIFEST_DIR"));
    let out = vzero()
        .args(["train", "--config", &cfg, "--run", run, "--quiet"])
        .args(["--set", "training.iterations=1", "--set", "evaluation.games=0"])
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_worker_waits_for_its_run_and_stops_when_the_trainer_finishes_it() {
    let dir: PathBuf = std::env::temp_dir().join(format!("vzero-scaleout-wait-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.to_str().unwrap().to_string();
    // Started before its trainer, with no game limit: it waits, then ends with the run.
    let worker = vzero().args(["selfplay", "--run", &run, "--wait", "120", "--quiet"]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    train_tiny(&run, &[]);
    let out = output_within(worker, Duration::from_secs(120), "the worker went on after the trainer finished the run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("waiting up to 120 s") && err.contains("has finished the run"), "{err}");
    // No run at all: a bounded wait, then a clear error.
    let nowhere = dir.join("nowhere");
    let out = vzero().args(["selfplay", "--run", nowhere.to_str().unwrap(), "--wait", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no run appeared within 1 s"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn with_gating_a_worker_plays_the_best_network_not_the_newest() {
    let dir: PathBuf = std::env::temp_dir().join(format!("vzero-scaleout-gating-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.to_str().unwrap().to_string();
    // A threshold only a clean sweep reaches, which these candidates never make: the first
    // network stays the best.
    train_tiny(&run, &["--set", "gating.games=2", "--set", "gating.threshold=1", "--set", "gating.simulations=4"]);
    let checkpoints: Vec<String> = std::fs::read_dir(dir.join(RUN_CHECKPOINTS))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(checkpoints.len() > 1, "{checkpoints:?}");
    std::fs::remove_file(RunDir::unchecked(&dir).finished()).unwrap(); // as if the trainer went on
    let out = vzero().args(["selfplay", "--run", &run, "--games", "2", "--quiet"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("playing with") && err.contains("step-000000000"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
