//! `vzero teach` end to end: teacher games land in the run as shards, counted apart by `runs
//! status`; a teach killed (SIGKILL) mid-way resumes with no game stored twice; a run with a
//! `[teacher]` section teaches and trains on the positions before its first iteration.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{config_path, output_within, tiny_run, vzero, vzero_command, wait_for_handler};

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

#[test]
fn a_new_run_trains_on_teacher_shards_copied_into_its_folder_and_refuses_self_play_ones() {
    let first = fresh_dir("labelled-once");
    train_with_teacher(&first, "teacher.steps=10");
    let copy_shards = |to: &Path, teacher: bool| {
        std::fs::create_dir_all(to.join("replay")).unwrap();
        for entry in std::fs::read_dir(first.join("replay")).unwrap() {
            let path = entry.unwrap().path();
            let games = selfplay::replay::read_shard(&path).unwrap();
            if games.iter().all(|g| g.is_teacher()) == teacher {
                std::fs::copy(&path, to.join("replay").join(path.file_name().unwrap())).unwrap();
            }
        }
    };
    // Labelled once, trained on again: the second run makes no teacher game of its own.
    let second = fresh_dir("relabel-free");
    copy_shards(&second, true);
    train_with_teacher(&second, "teacher.steps=10");
    let events = std::fs::read_to_string(second.join("metrics.jsonl")).unwrap();
    assert!(!events.contains("\"event\":\"teacher\""), "no new teacher games: {events}");
    let pretrain = events.lines().find(|l| l.contains("\"event\":\"pretrain\"")).expect("pretrained on the copies");
    assert!(pretrain.contains("\"step\":10"), "{pretrain}");
    let mut numbers = teacher_numbers(&second);
    numbers.sort_unstable();
    let mut original = teacher_numbers(&first);
    original.sort_unstable();
    assert_eq!(numbers, original, "exactly the copied teacher games");
    // Self-play games without their run are not adopted.
    let third = fresh_dir("stray-games");
    copy_shards(&third, false);
    let cfg = config_path("mini-hexchess-tiny.toml");
    let out = vzero(&["train", "--config", &cfg, "--run", third.to_str().unwrap(), "--quiet"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds self-play games") && err.contains("--resume"), "{err}");
    assert!(!third.join("config.toml").exists(), "no run was started");
}

#[test]
fn a_stop_signal_ends_teaching_within_a_move_not_a_game() {
    // A Weltschach teacher game at depth 1 takes minutes (every root move of a 176-piece side
    // scored, up to 400 plies); one labelled move takes about half a second.
    let run = fresh_dir("stopped");
    let cfg = config_path("weltschach-tiny.toml");
    let sets = [
        "teacher.positions=1000",
        "teacher.player=alphabeta:1",
        "teacher.threads=1",
        "selfplay.max_plies=400",
        "evaluation.games=0",
    ];
    let mut command = vzero_command();
    command.args(["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"]);
    for set in sets {
        command.args(["--set", set]);
    }
    let child = command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    wait_for_handler(child.id(), 15);
    // Well into the first game (its random opening plies take no time).
    std::thread::sleep(Duration::from_secs(3));
    let term = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(term.success());
    let out = output_within(child, Duration::from_secs(90), "teaching went on long after SIGTERM");
    assert_eq!(out.status.code(), Some(3), "stopped, with its work saved: {}", String::from_utf8_lossy(&out.stderr));
    assert!(teacher_numbers(&run).is_empty(), "the game cut short is not stored");
    let events = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap_or_default();
    assert!(!events.contains("\"event\":\"iteration\""), "{events}");
}

/// `vzero` with `args`, which must fail within a minute (it ran on forever) naming `key`.
fn fails_naming(args: &[&str], key: &str) -> String {
    let child = vzero_command()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = output_within(child, Duration::from_secs(60), "still teaching a minute later");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains(key), "{args:?}: {err}");
    err
}

#[test]
fn random_plies_past_the_move_limit_are_refused_before_any_game() {
    // Every teacher game ended within its random plies, so no position was ever labelled and
    // teaching never ended (its memory growing past 8 GB in four minutes).
    let dir = fresh_dir("random-plies");
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.join("run");
    let sets = ["teacher.positions=10", "teacher.steps=1", "teacher.random_plies=100000"];
    let mut args = vec!["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    args.extend(sets.iter().flat_map(|s| ["--set", s]));
    let err = fails_naming(&args, "teacher.random_plies");
    assert!(err.contains("must be below selfplay.max_plies (60)"), "{err}");
    assert!(!run.exists(), "nothing was started");
    // `teach` refuses it whatever the config's own teacher says.
    tiny_run(&run);
    let teach = ["teach", "--run", run.to_str().unwrap(), "--positions", "10", "--quiet"];
    let err = fails_naming(&[&teach[..], &["--set", "teacher.random_plies=100000"]].concat(), "teacher.random_plies");
    assert!(err.contains("must be below selfplay.max_plies (60)"), "{err}");
    assert!(teacher_numbers(&run).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_teacher_whose_games_all_end_in_their_random_plies_gives_up() {
    // One quiet move from the start ends every game by the quiet-move rule (clock 99 of 100),
    // within the 2 random plies: a teacher waiting for labelled positions would wait forever.
    let dir = fresh_dir("unlabelled");
    let run = dir.join("run");
    tiny_run(&run);
    let start = "start_position=\"1/1kn/5/7/7/7/2NK3 w - 99 1\"";
    let teach = ["teach", "--run", run.to_str().unwrap(), "--positions", "10", "--quiet"];
    let sets = ["--set", "teacher.random_plies=2", "--set", start];
    let err = fails_naming(&[&teach[..], &sets[..]].concat(), "teacher.random_plies = 2");
    assert!(err.contains("teacher games all ended within their random plies"), "{err}");
    // A start position where the game is already over is refused as that.
    let over = format!("start_position=\"{}\"", common::finished_mini_hexchess());
    let err = fails_naming(&[&teach[..], &["--set", &over]].concat(), "start_position");
    assert!(err.contains("the game is over there"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
