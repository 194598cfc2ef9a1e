//! Helpers shared by the end-to-end tests of the `vzero` binary.

#![allow(dead_code)] // each test file uses its own subset

pub mod golden;
pub mod http;
pub mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// Runs `vzero` with `args` and returns what it printed and its status.
pub fn vzero(args: &[&str]) -> Output {
    vzero_command().args(args).output().expect("run vzero")
}

/// A `vzero` command that finds no shipped networks: without `--model` its searches use the
/// uniform evaluator, so tests keep their known answers whatever models/ holds.
pub fn vzero_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vzero"));
    command.env("VZERO_MODELS", NO_MODELS);
    command
}

/// `VZERO_MODELS` set to nothing: no shipped networks (see src/engine/shipped.rs).
pub const NO_MODELS: &str = "";

/// A fresh, empty folder for one test: `vzero-NAME-PID` in the temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the folder `from` (a run, a shipped model) at `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// What a command printed on standard error, as text.
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What a command printed on standard output, as text.
pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The path of a shipped config file.
pub fn config_path(name: &str) -> String {
    format!("{}/configs/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Trains a one-iteration Mini Hexchess run (tiny config, no evaluation) into `run`.
pub fn tiny_run(run: &Path) {
    tiny_run_with(run, &[]);
}

/// [`tiny_run`] with more `--set` overrides (`KEY=VALUE`).
pub fn tiny_run_with(run: &Path, overrides: &[&str]) {
    let cfg = config_path("mini-hexchess-tiny.toml");
    let args = ["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    let mut args = [&args[..], &["--set", "training.iterations=1", "--set", "evaluation.games=0"]].concat();
    args.extend(overrides.iter().flat_map(|o| ["--set", o]));
    let out = vzero(&args);
    assert!(out.status.success(), "vzero train: {}", String::from_utf8_lossy(&out.stderr));
}

/// Waits for `child`'s output at most `limit`; past it the child is killed and the test fails
/// with `what` (a hang must fail the test, not stall the suite).
pub fn output_within(child: Child, limit: Duration, what: &str) -> Output {
    let begun = Instant::now();
    let id = child.id();
    let waiter = std::thread::spawn(move || child.wait_with_output().expect("wait for vzero"));
    while !waiter.is_finished() {
        if begun.elapsed() > limit {
            let _ = Command::new("kill").args(["-KILL", &id.to_string()]).status();
            panic!("{what}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    waiter.join().expect("the waiting thread")
}

/// Waits (at most a minute) until process `pid` catches signal number `signal` (Linux: the
/// `SigCgt` mask of /proc/PID/status), so that a test's signal lands on the handler and not on
/// a process still starting up, however loaded the machine.
pub fn wait_for_handler(pid: u32, signal: u32) {
    let begun = Instant::now();
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (signal - 1)) != 0);
        if caught {
            return;
        }
        assert!(begun.elapsed() < Duration::from_secs(60), "process {pid} caught no signal {signal} within a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Plants two bad external shards in `run`'s replay folder, named `9999999999990-other-1-000001`
/// (another variant's game, as from a worker pointed at the wrong run) and `...1-000002` (this
/// Mini Hexchess run's variant, checksum intact, but a visit on a policy index no move has).
pub fn plant_foreign_and_broken_shards(run: &Path, seed: u64) {
    use rand::SeedableRng;
    use rules::hexchess::{Glinski, MiniHexchess};
    use selfplay::bench::random_game;
    use selfplay::replay::{write_shard, EXTERNAL_GAME};
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut foreign = random_game::<Glinski>(&mut rng, 4);
    foreign.number |= EXTERNAL_GAME;
    write_shard(&run.join("replay/9999999999990-other-1-000001.shard"), &[foreign]).unwrap();
    let mut broken = random_game::<MiniHexchess>(&mut rng, 4);
    broken.number |= EXTERNAL_GAME | 1;
    broken.moves[0].visits.push((u32::MAX - 1, 3));
    write_shard(&run.join("replay/9999999999991-other-1-000002.shard"), &[broken]).unwrap();
}

/// The position text of a finished Mini Hexchess game (random moves until it ends).
pub fn finished_mini_hexchess() -> String {
    use rand::{RngExt, SeedableRng};
    use rules::{Game, MiniHexchess};
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut moves = Vec::new();
    loop {
        let mut game = MiniHexchess::start();
        for _ in 0..400 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        let text = game.to_text();
        if MiniHexchess::from_text(&text).unwrap().outcome().is_some() {
            return text;
        }
    }
}

/// A run directory for the pages that show runs: the tiny Mini Hexchess config, the metrics of
/// tests/fixtures/gauntlet-metrics.jsonl (iterations and a gauntlet) and one shard of two
/// random games; no checkpoint.
pub fn fake_run(run: &Path) {
    use rand::SeedableRng;
    std::fs::create_dir_all(run.join("replay")).unwrap();
    std::fs::create_dir_all(run.join("checkpoints")).unwrap();
    std::fs::copy(config_path("mini-hexchess-tiny.toml"), run.join("config.toml")).unwrap();
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gauntlet-metrics.jsonl");
    std::fs::copy(fixture, run.join("metrics.jsonl")).unwrap();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
    let games: Vec<_> = (0..2).map(|_| selfplay::bench::random_game::<rules::MiniHexchess>(&mut rng, 3)).collect();
    selfplay::replay::write_shard(&run.join("replay/0000000000001-host-1-000001.shard"), &games).unwrap();
}

/// Cuts `checkpoint`'s weights off inside their header and recomputes the checksums of
/// state.json to match (as a tool that "repairs" checksums would), so that only reading the
/// tensors finds the file broken.
pub fn truncate_and_reseal(checkpoint: &Path) {
    let weights = checkpoint.join("weights.safetensors");
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..40]).unwrap();
    let state = nn::checkpoint::read_state(checkpoint).unwrap();
    let crc = |name: &str| crc32fast::hash(&std::fs::read(checkpoint.join(name)).unwrap());
    let files: Vec<(String, u32)> =
        ["weights.safetensors", "optimizer.safetensors"].iter().map(|n| (n.to_string(), crc(n))).collect();
    let crc32 = crc32fast::hash(&serde_json::to_vec(&(&state, &files)).unwrap());
    let sealed = serde_json::json!({ "state": state, "files": files, "crc32": crc32 });
    std::fs::write(checkpoint.join("state.json"), serde_json::to_vec_pretty(&sealed).unwrap()).unwrap();
}
