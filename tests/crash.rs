//! `vzero train` killed at arbitrary moments (SIGKILL) and resumed loses no finished game,
//! leaves no unreadable file, and ends bit-identical to a run that was never interrupted.
//! Stopped with Ctrl-C (SIGINT), it saves and exits cleanly, keeping the games it finished.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::output_within;
use nn::checkpoint::{list_checkpoints, verify_checkpoint};
use selfplay::replay::read_shard;
use selfplay::store::events::{read_events, RunEvent};
use selfplay::RunDir;

const ITERATIONS: &str = "training.iterations=5";

fn config() -> String {
    format!("{}/configs/mini-hexchess-tiny.toml", env!("CARGO_MANIFEST_DIR"))
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-crash-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn start(dir: &Path) -> Child {
    let cfg = config();
    let run = dir.to_str().unwrap();
    Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--config", &cfg, "--run", run, "--set", ITERATIONS, "--set", "evaluation.games=0", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn resume(dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--resume", dir.to_str().unwrap(), "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Starts or resumes the run, as the state of the folder allows.
fn launch(dir: &Path) -> Child {
    if RunDir::unchecked(dir).config().exists() {
        resume(dir)
    } else {
        start(dir)
    }
}

/// Waits for a run sent a stop signal: it saved and exited with the "stopped early" status (3),
/// or had already finished (0).
fn finish_stopped(child: Child) -> String {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let expected = if text.contains("stopped early") { 3 } else { 0 };
    assert_eq!(out.status.code(), Some(expected), "{text}");
    text
}

fn finish(child: Child) -> String {
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "vzero failed: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned() + &err
}

fn own_games(dir: &Path) -> BTreeMap<u64, selfplay::replay::GameRecord> {
    let rd = RunDir::unchecked(dir);
    rd.shard_paths()
        .unwrap()
        .iter()
        .flat_map(|p| read_shard(p).unwrap_or_else(|e| panic!("unreadable shard: {e}")))
        .map(|g| (g.number, g))
        .collect()
}

fn last_weights(dir: &Path) -> BTreeMap<String, tch::Tensor> {
    let last = list_checkpoints(&RunDir::unchecked(dir).checkpoints()).unwrap().pop().unwrap();
    tch::Tensor::read_safetensors(last.join("weights.safetensors")).unwrap().into_iter().collect()
}

/// Games counted in metrics.jsonl must all be in the shards.
fn check_metrics_games_are_stored(dir: &Path) {
    let stored = own_games(dir).len() as u64;
    let metrics = std::fs::read_to_string(RunDir::unchecked(dir).metrics()).unwrap_or_default();
    let log = read_events(&metrics);
    assert_eq!(log.skipped_lines, 0, "bad metrics lines in '{metrics}'");
    for event in &log.events {
        let games = match event {
            RunEvent::Iteration(it) => Some(it.games),
            RunEvent::Evaluation(e) => Some(e.games as u64),
            RunEvent::Gating(g) => Some(g.games as u64),
            _ => None,
        };
        if let Some(games) = games {
            assert!(games <= stored, "metrics count {games} games, shards hold {stored}");
        }
    }
}

fn check_same_as(reference: &Path, dir: &Path) {
    let (a, b) = (own_games(reference), own_games(dir));
    assert_eq!(a.len(), 40);
    assert_eq!(a.len(), b.len());
    assert!(a == b, "the interrupted run played different games");
    let (wa, wb) = (last_weights(reference), last_weights(dir));
    for (name, t) in &wa {
        assert!(t.equal(&wb[name]), "weight {name} differs from the uninterrupted run");
    }
    for c in list_checkpoints(&RunDir::unchecked(dir).checkpoints()).unwrap() {
        verify_checkpoint(&c).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn sigkill_at_random_moments_then_resume_loses_nothing() {
    let reference = fresh_dir("reference");
    let begun = Instant::now();
    finish(start(&reference));
    let full_run = begun.elapsed();

    let dir = fresh_dir("killed");
    // Kill times spread over the run (fixed pseudo-random fractions, so failures reproduce):
    // early (before the first checkpoint), mid self-play, mid training, near the end.
    for fraction in [0.15, 0.55, 0.35, 0.8, 0.6, 0.45] {
        let child = launch(&dir);
        let deadline = Instant::now() + full_run.mul_f64(fraction);
        let mut child = child;
        while Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        if RunDir::unchecked(&dir).config().exists() {
            check_metrics_games_are_stored(&dir);
        }
    }
    finish(launch(&dir));
    check_metrics_games_are_stored(&dir);
    check_same_as(&reference, &dir);
    let rd = RunDir::unchecked(&dir);
    for sub in [rd.replay(), rd.checkpoints()] {
        for e in std::fs::read_dir(&sub).unwrap() {
            let p = e.unwrap().path();
            let ext = p.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
            assert!(ext != "tmp" && ext != "partial", "half-written file left behind: {}", p.display());
        }
    }

    // Ctrl-C: a clean stop after saving, with a hint how to continue.
    let stopped = fresh_dir("sigint");
    let child = start(&stopped);
    std::thread::sleep(full_run.mul_f64(0.5));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = finish_stopped(child);
    if !out.contains("stopped early") {
        // The run finished before the signal arrived; nothing to check for Ctrl-C then.
        assert!(out.contains("training steps"), "{out}");
    }
    finish(launch(&stopped));
    // Games finished before Ctrl-C are kept, so the rest of that iteration is played in
    // smaller batches, whose float rounding may differ: the same games are played, but
    // the run is not required to be bit-identical afterwards.
    let total: usize =
        RunDir::unchecked(&stopped).shard_paths().unwrap().iter().map(|p| read_shard(p).unwrap().len()).sum();
    let numbers: Vec<u64> = own_games(&stopped).into_keys().collect();
    assert_eq!(numbers, (0..40).collect::<Vec<u64>>(), "every game once");
    assert_eq!(total, 40, "no game stored twice");
    check_metrics_games_are_stored(&stopped);
    for c in list_checkpoints(&RunDir::unchecked(&stopped).checkpoints()).unwrap() {
        verify_checkpoint(&c).unwrap_or_else(|e| panic!("{e}"));
    }

    for d in [reference, dir, stopped] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_full_disk_is_reported_with_the_path() {
    // metrics.jsonl pointing at /dev/full: every write to it fails with ENOSPC.
    let dir = fresh_dir("full");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink("/dev/full", dir.join("metrics.jsonl")).unwrap();
    let cfg = config();
    let out = Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--config", &cfg, "--run", dir.to_str().unwrap(), "--quiet", "--set", "training.iterations=1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("metrics.jsonl") && err.contains("No space left on device"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Waits until the run has stored its first shard (so a signal lands mid-run), at most a minute.
fn wait_for_first_shard(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while RunDir::unchecked(dir).shard_paths().map_or(true, |s| s.is_empty()) {
        assert!(Instant::now() < deadline, "no shard after a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill").args([name, &child.id().to_string()]).status().unwrap();
    assert!(status.success(), "kill {name}");
}

#[test]
fn sigterm_stops_like_ctrl_c_and_the_run_resumes() {
    // What Slurm and Kubernetes send before they kill a job.
    let dir = fresh_dir("sigterm");
    let child = start(&dir);
    wait_for_first_shard(&dir);
    signal(&child, "-TERM");
    stops_early_and_resumes(child, &dir, "SIGTERM one iteration into a five-iteration run");
}

#[test]
fn two_signals_at_once_are_one_request_and_the_run_saves() {
    // `timeout` forwarding the SIGTERM that Slurm also sent vzero: two senders, one request.
    let dir = fresh_dir("twice");
    let child = start(&dir);
    wait_for_first_shard(&dir);
    // Held stopped while both arrive, so that they are handled together (two pending SIGINTs
    // would merge into one, hence TERM).
    signal(&child, "-STOP");
    signal(&child, "-INT");
    signal(&child, "-TERM");
    signal(&child, "-CONT");
    stops_early_and_resumes(child, &dir, "two signals together");
}

/// Checks that the signalled run `child` in `dir` stopped early after saving (`what` names the
/// case), then that resuming it completes with every game played once, and removes `dir`.
fn stops_early_and_resumes(child: Child, dir: &Path, what: &str) {
    let out = finish_stopped(child);
    assert!(out.contains("stopped early"), "{what}: {out}");
    finish(launch(dir));
    let numbers: Vec<u64> = own_games(dir).into_keys().collect();
    assert_eq!(numbers, (0..40).collect::<Vec<u64>>(), "every game once");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A run in the middle of a training step of seconds: a network of 12 blocks x 256 channels on
/// batches of 256, trained on a small teacher's positions. A first signal lets the step finish
/// (every search now ends at once, so a step is what still takes long), and libtorch's threads
/// are busy when a second one comes.
fn run_in_a_long_training_step(dir: &Path) -> Child {
    let sets = [
        "teacher.positions=64",
        "teacher.player=alphabeta:1",
        "teacher.steps=3",
        "network.blocks=12",
        "network.channels=256",
        "training.batch_size=256",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--config", &config(), "--run", dir.to_str().unwrap(), "--quiet"])
        .args(sets.iter().flat_map(|s| ["--set", s]))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let training = || {
        let metrics = std::fs::read_to_string(RunDir::unchecked(dir).metrics()).unwrap_or_default();
        read_events(&metrics).events.iter().any(|e| matches!(e, RunEvent::Teacher(_)))
    };
    while !training() {
        assert!(Instant::now() < deadline, "the run's teacher did not end within two minutes");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    child
}

#[test]
fn a_second_signal_later_aborts_at_once_without_crashing() {
    let dir = fresh_dir("abort-term");
    let child = run_in_a_long_training_step(&dir);
    signal(&child, "-INT");
    // Well past the window in which a second signal is taken for the same request.
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "-TERM");
    let out = output_within(child, Duration::from_secs(30), "a second signal did not end the run");
    // Exited with the documented status, not killed by a segfault (no code at all).
    assert_eq!(out.status.code(), Some(130), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_signal_later_says_it_aborts_and_releases_the_trainer_lock() {
    let dir = fresh_dir("abort");
    let child = run_in_a_long_training_step(&dir);
    signal(&child, "-INT");
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "-INT");
    let out = output_within(child, Duration::from_secs(30), "a second signal did not end the run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("vzero: aborted by a second signal"), "the abort says nothing: {err}");
    let lock = std::fs::read_to_string(dir.join("train.lock")).unwrap_or_default();
    assert!(lock.is_empty(), "the aborted trainer left its lock holding '{lock}'");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_trainer_on_a_run_is_refused_naming_the_holder() {
    let dir = fresh_dir("twotrainers");
    let first = start(&dir);
    wait_for_first_shard(&dir);
    let begun = Instant::now();
    let second = resume(&dir).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr).into_owned();
    assert_eq!(second.status.code(), Some(1), "the second trainer ran: {err}");
    assert!(err.contains("already running") && err.contains(&format!("process {}", first.id())), "{err}");
    assert!(begun.elapsed() < Duration::from_secs(20), "refused only after {:?}", begun.elapsed());
    let metrics = std::fs::read_to_string(RunDir::unchecked(&dir).metrics()).unwrap_or_default();
    assert!(!metrics.contains("\"error\""), "the refusal was logged into the healthy run: {metrics}");
    signal(&first, "-TERM");
    finish_stopped(first);
    // The lock went with its process: the run resumes and completes.
    finish(launch(&dir));
    assert_eq!(own_games(&dir).len(), 40);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn ctrl_c_during_the_final_evaluation_stops_it_with_the_results_so_far() {
    let dir = fresh_dir("evalstop");
    let cfg = config();
    let child = Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--config", &cfg, "--run", dir.to_str().unwrap(), "--quiet"])
        .args(["--set", "training.iterations=1", "--set", "evaluation.games=1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The iteration's metrics line is written before the evaluation starts.
    let deadline = Instant::now() + Duration::from_secs(120);
    while !std::fs::read_to_string(RunDir::unchecked(&dir).metrics()).unwrap_or_default().contains("\"iteration\"") {
        assert!(Instant::now() < deadline, "the iteration never ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "-INT");
    let out = output_within(child, Duration::from_secs(60), "the evaluation ignored Ctrl-C for a minute");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(3), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("evaluation was stopped by a signal, so the run is not finished"), "{text}");
    assert!(text.contains("network vs") && text.contains("/1000000") && text.contains("(interrupted)"), "{text}");
    // Partial is marked partial: not finished, the match logged as interrupted.
    let rd = RunDir::unchecked(&dir);
    assert!(!rd.finished().exists(), "a run whose evaluation was cut short is marked finished");
    let evaluations = || -> Vec<selfplay::store::events::EvaluationEvent> {
        let log = read_events(&std::fs::read_to_string(rd.metrics()).unwrap());
        log.events.into_iter().filter_map(|e| if let RunEvent::Evaluation(e) = e { Some(e) } else { None }).collect()
    };
    let first = evaluations();
    assert!(!first.is_empty() && first.iter().any(|e| e.interrupted && e.games_planned == 1_000_000), "{first:?}");
    // A resume plays the evaluation again (here with fewer games), then the run is finished.
    let out = Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--resume", dir.to_str().unwrap(), "--quiet", "--set", "evaluation.games=2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(!text.contains("already complete") && text.contains("mcts"), "{text}");
    let last: Vec<_> = evaluations().into_iter().skip(first.len()).collect();
    assert!(last.len() == 2 && last.iter().all(|e| !e.interrupted && e.games == 2), "{last:?}");
    assert!(rd.finished().exists());
    let again = Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["train", "--resume", dir.to_str().unwrap(), "--quiet"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("already complete"));
    std::fs::remove_dir_all(dir).unwrap();
}
