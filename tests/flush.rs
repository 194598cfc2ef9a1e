//! Self-play stores games as they finish (every `selfplay.flush_games`), not once per
//! iteration: `vzero train` stopped (SIGTERM) or killed (SIGKILL) in the middle of an
//! iteration keeps what it wrote, and the resumed run plays only the rest, each game once.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{config_path, output_within};
use selfplay::replay::read_shard;
use selfplay::store::events::read_events;
use selfplay::RunDir;

/// Games of the one iteration: many more than a flush, so a signal after the first flush lands
/// in the middle of self-play.
const GAMES: u64 = 32;
const FLUSH: u64 = 4;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-flush-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `vzero train` of one 32-game iteration flushing every 4 games, with `extra` settings.
fn train(dir: &Path, resume: bool, extra: &[&str]) -> Child {
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.to_str().unwrap();
    let start: &[&str] = if resume { &["train", "--resume", run] } else { &["train", "--config", &cfg, "--run", run] };
    let (games, flush) = (format!("selfplay.games_per_iteration={GAMES}"), format!("selfplay.flush_games={FLUSH}"));
    Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(start)
        .args(["--quiet", "--set", "training.iterations=1", "--set", "evaluation.games=0"])
        .args(["--set", &games, "--set", &flush])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The numbers of every stored game, one entry per stored copy, sorted.
fn stored_numbers(dir: &Path) -> Vec<u64> {
    let shards = RunDir::unchecked(dir).shard_paths().unwrap();
    let mut numbers: Vec<u64> = shards.iter().flat_map(|p| read_shard(p).unwrap()).map(|g| g.number).collect();
    numbers.sort();
    numbers
}

/// Waits until the run has flushed its first games, at most two minutes.
fn wait_for_first_flush(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while RunDir::unchecked(dir).shard_paths().map_or(true, |s| s.is_empty()) {
        assert!(Instant::now() < deadline, "no shard after two minutes");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill").args([name, &child.id().to_string()]).status().unwrap();
    assert!(status.success(), "kill {name}");
}

/// Resumes the run to its end; returns the games its (only) iteration event says it played.
fn resume_to_the_end(dir: &Path, extra: &[&str]) -> u64 {
    let out = output_within(train(dir, true, extra), Duration::from_secs(300), "the resumed run hung");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = read_events(&std::fs::read_to_string(RunDir::unchecked(dir).metrics()).unwrap());
    let iterations: Vec<_> = log.iterations().collect();
    assert_eq!(iterations.len(), 1, "one iteration, logged once");
    assert_eq!(iterations[0].games, GAMES, "the trainer's games stored at the end");
    iterations[0].iteration_games as u64
}

#[test]
fn sigterm_mid_selfplay_keeps_the_finished_games_and_the_resume_plays_only_the_rest() {
    let dir = fresh_dir("sigterm");
    // As many games in progress as a flush holds: a stop then drops at most `FLUSH` games.
    let in_progress = format!("selfplay.games_per_worker={FLUSH}");
    let child = train(&dir, false, &["--set", &in_progress]);
    wait_for_first_flush(&dir);
    signal(&child, "-TERM");
    let out = output_within(child, Duration::from_secs(120), "SIGTERM did not stop the run");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(3), "{err}");
    let kept = stored_numbers(&dir);
    assert!(kept.len() as u64 >= FLUSH && (kept.len() as u64) < GAMES, "{} games on disk at the stop", kept.len());
    // The run says what the stop cost: the games in progress, which the resume plays again.
    let report = err.lines().find(|l| l.contains("stopped during self-play")).unwrap_or_else(|| panic!("{err}"));
    let words: Vec<&str> = report.split_whitespace().collect();
    let number_before = |word: &str| -> u64 {
        let at = words.iter().position(|w| w.starts_with(word)).unwrap_or_else(|| panic!("{report}"));
        words[at - 1].parse().unwrap_or_else(|_| panic!("{report}"))
    };
    assert_eq!(number_before("games"), kept.len() as u64, "{report}");
    let dropped = number_before("in");
    assert!(dropped <= FLUSH, "{dropped} games dropped by the stop: {report}");

    let played = resume_to_the_end(&dir, &["--set", &in_progress]);
    assert_eq!(played, GAMES - kept.len() as u64, "the resumed run played again games already stored");
    assert_eq!(stored_numbers(&dir), (0..GAMES).collect::<Vec<u64>>(), "every game exactly once");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn sigkill_mid_iteration_leaves_the_flushed_games_on_disk() {
    let dir = fresh_dir("sigkill");
    let mut child = train(&dir, false, &[]);
    wait_for_first_flush(&dir);
    let flushed_before_the_kill = stored_numbers(&dir).len() as u64;
    child.kill().unwrap(); // SIGKILL: no chance to write anything more
    child.wait().unwrap();
    let kept = stored_numbers(&dir);
    assert!(flushed_before_the_kill >= FLUSH, "the first flush held {flushed_before_the_kill} games");
    assert!(kept.len() as u64 >= flushed_before_the_kill, "flushed games vanished with the process");
    assert!((kept.len() as u64) < GAMES, "the kill came after the iteration's games were all stored");
    let mut unique = kept.clone();
    unique.dedup();
    assert_eq!(unique, kept, "a game stored twice");

    let played = resume_to_the_end(&dir, &[]);
    assert_eq!(played, GAMES - kept.len() as u64, "the resumed run played again games already stored");
    assert_eq!(stored_numbers(&dir), (0..GAMES).collect::<Vec<u64>>(), "every game exactly once");
    for e in std::fs::read_dir(RunDir::unchecked(&dir).replay()).unwrap() {
        let p = e.unwrap().path();
        assert!(p.extension().is_some_and(|e| e == "shard"), "left behind: {}", p.display());
    }
    std::fs::remove_dir_all(dir).unwrap();
}
