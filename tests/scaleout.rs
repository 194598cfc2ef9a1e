//! A trainer and a second, self-play-only process share a run directory: the trainer samples
//! the other process's games, and nothing collides.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use selfplay::events::read_events;
use selfplay::replay::{read_shard, EXTERNAL_GAME};
use selfplay::rundir::RunDir;

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
    while !RunDir::open(&dir).config().exists() {
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
        read_events(&std::fs::read_to_string(RunDir::open(&dir).metrics()).unwrap_or_default())
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

    let rd = RunDir::open(&dir);
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
