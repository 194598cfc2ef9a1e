//! `vzero teach` end to end: teacher games land in the run as shards, counted apart by `runs
//! status`; a teach killed (SIGKILL) mid-way resumes with no game stored twice; a run with a
//! `[teacher]` section teaches and trains on the positions before its first iteration.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{config_path, tiny_run, vzero, vzero_command};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-teach-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `runs status --json` of `run`.
fn status(run: &Path) -> serde_json::Value {
    let out = vzero(&["runs", "status", run.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Trains a one-iteration tiny run into `run` (no evaluation) whose teacher, alpha-beta at
/// depth 1, makes 300 positions first, with `steps` (`teacher.steps=N`) set.
fn train_with_teacher(run: &Path, steps: &str) {
    let cfg = config_path("mini-hexchess-tiny.toml");
    let mut args = vec!["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    for set in
        ["training.iterations=1", "evaluation.games=0", "teacher.positions=300", "teacher.player=alphabeta:1", steps]
    {
        args.extend(["--set", set]);
    }
    let out = vzero(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The numbers of the run's teacher games, with repeats.
fn teacher_numbers(run: &Path) -> Vec<u64> {
    let mut numbers = Vec::new();
    for entry in std::fs::read_dir(run.join("replay")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "shard") {
            let games = selfplay::replay::read_shard(&path).unwrap();
            numbers.extend(games.iter().filter(|g| g.is_teacher()).map(|g| g.number));
        }
    }
    numbers
}

#[test]
fn a_killed_teach_resumes_without_duplicates_and_is_counted_apart() {
    let run = fresh_dir("killed");
    tiny_run(&run);
    let before = status(&run);
    assert_eq!(before["teacher_games"], 0);
    let run_arg = run.to_str().unwrap();
    let args = ["teach", "--run", run_arg, "--teacher", "alphabeta:2", "--positions", "4000", "--threads", "1"];
    let mut child = vzero_command().args(args).args(["--set", "selfplay.flush_games=1", "--quiet"]).spawn().unwrap();
    // Killed once the first few teacher games are on disk.
    let begun = Instant::now();
    while teacher_numbers(&run).len() < 3 {
        assert!(begun.elapsed() < Duration::from_secs(120), "no teacher shard appeared");
        assert!(child.try_wait().unwrap().is_none(), "teach ended before it was killed");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let killed = teacher_numbers(&run).len();
    let out = vzero(&[&args[..2], &[run_arg, "--positions", "600", "--quiet"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let numbers = teacher_numbers(&run);
    let unique: BTreeSet<u64> = numbers.iter().copied().collect();
    assert_eq!(unique.len(), numbers.len(), "a game stored twice: {numbers:?}");
    let after = status(&run);
    assert_eq!(after["teacher_games"].as_u64().unwrap() as usize, numbers.len());
    assert!(numbers.len() >= killed);
    assert!(after["teacher_positions"].as_u64().unwrap() >= 600);
    assert_eq!(after["trainer_games"], before["trainer_games"], "self-play games are counted apart");
}

#[test]
fn a_run_with_a_teacher_trains_on_it_before_self_play() {
    let run = fresh_dir("section");
    train_with_teacher(&run, "teacher.steps=40");
    let events = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let kinds: Vec<String> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["event"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds[..3], ["teacher", "pretrain", "iteration"], "{kinds:?}");
    let pretrain: serde_json::Value = serde_json::from_str(events.lines().nth(1).unwrap()).unwrap();
    assert_eq!(pretrain["step"], 40);
    let iteration: serde_json::Value = serde_json::from_str(events.lines().nth(2).unwrap()).unwrap();
    assert!(iteration["sampled_teacher_positions"].as_u64().unwrap_or(0) > 0 || iteration["train_steps"] == 0);
    assert!(status(&run)["teacher_positions"].as_u64().unwrap() >= 300);
}

#[test]
fn a_teacher_without_training_steps_still_teaches_and_mixes_in() {
    let run = fresh_dir("no-steps");
    train_with_teacher(&run, "teacher.steps=0");
    let events = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    assert!(events.contains("\"event\":\"teacher\""), "{events}");
    assert!(!events.contains("\"event\":\"pretrain\""), "no steps asked for: {events}");
    assert!(status(&run)["teacher_positions"].as_u64().unwrap() >= 300);
}
