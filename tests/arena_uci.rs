//! `uci:COMMAND` arena players: engines that crash, answer an illegal move or never answer
//! forfeit their games, the match ends and reports why, and no engine process is left behind;
//! a real `vzero uci` plays a checkpoint to the end.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{output_within, tiny_run};

/// The longest a test's match may take before the test fails as a hang.
const MATCH_LIMIT: Duration = Duration::from_secs(120);

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-arena-uci-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `vzero arena ARGS`, failing the test if it does not end within [`MATCH_LIMIT`].
fn arena(args: &[&str]) -> Output {
    let child = common::vzero_command()
        .arg("arena")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start vzero arena");
    output_within(child, MATCH_LIMIT, "the arena did not end: a uci player hung it")
}

/// Writes an executable script `name` into `dir` and returns its path.
fn script(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let status = Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    assert!(status.success());
    path.display().to_string()
}

/// A shell engine that logs its pid to `DIR/pids`, answers `uci` and `isready`, and answers
/// `go` with `on_go` (shell commands).
fn shell_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let text = format!(
        "#!/bin/sh\necho $$ >> \"$(dirname \"$0\")/pids\"\n\
         while read -r cmd rest; do\n  case \"$cmd\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    \
         isready) echo readyok ;;\n    go) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    script(dir, name, &text)
}

/// The process ids the fake engines of `dir` logged.
fn logged_pids(dir: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
    text.split_whitespace().map(|p| p.parse().expect("a pid")).collect()
}

/// Whether process `pid` still runs (a zombie waiting for its parent does not).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Fails unless every logged engine process has ended; one orphaned by a killed parent is given
/// a moment to be reaped by init.
fn assert_no_engine_left(dir: &Path, at_least: usize) {
    let pids = logged_pids(dir);
    assert!(pids.len() >= at_least, "expected at least {at_least} engine processes, logged {pids:?}");
    let until = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&p| running(p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<u32> = pids.into_iter().filter(|&p| running(p)).collect();
    assert!(left.is_empty(), "engine processes left running: {left:?}");
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Plays `games` games of `engine` against `random` and returns the arena's table.
fn match_against_random(engine: &str, games: &str, extra: &[&str]) -> String {
    let player = format!("uci:{engine}");
    let args = [&["--variant", "mini-hexchess", &player, "random", "--games", games][..], extra].concat();
    let out = arena(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn an_engine_answering_an_illegal_move_forfeits_every_game() {
    let dir = scratch("illegal");
    let engine = shell_engine(&dir, "illegal.sh", "echo 'info depth 1'; echo 'bestmove a1-a9'");
    let table = match_against_random(&engine, "3", &[]);
    assert!(table.contains("mini-hexchess: 3 games"), "{table}");
    assert!(table.contains("forfeited 3 games: illegal move 3 (first: illegal move 'a1-a9'"), "{table}");
    assert!(table.contains(" 0.0%") && table.contains("100.0%"), "the forfeits are losses: {table}");
    // One engine checked at the start and used for the first game, one started for each other.
    assert_no_engine_left(&dir, 3);
}

#[test]
fn an_engine_that_never_answers_go_times_out_and_is_replaced() {
    let dir = scratch("silent");
    let engine = shell_engine(&dir, "silent.sh", ":");
    let table = match_against_random(&engine, "2", &["--engine-movetime", "100"]);
    assert!(table.contains("forfeited 2 games: timed out 2 (first: no answer within 1100 ms)"), "{table}");
    assert_no_engine_left(&dir, 2);
}

#[test]
fn an_engine_crashing_mid_game_forfeits_and_its_own_children_end_too() {
    let dir = scratch("crash");
    // A real engine behind a relay that exits on the third `go`, mid-game.
    let relay = format!(
        r#"#!/usr/bin/env python3
import os, subprocess, sys
engine = subprocess.Popen([{vzero:?}, "uci", "--variant", "mini-hexchess"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
with open(os.path.join(os.path.dirname(sys.argv[0]), "pids"), "a") as log:
    log.write(f"{{os.getpid()}} {{engine.pid}}\n")
answers = {{"uci": "uciok", "isready": "readyok", "go": "bestmove"}}
goes = 0
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "go":
        goes += 1
        if goes == 3:
            os._exit(7)
    engine.stdin.write(line)
    engine.stdin.flush()
    if word in answers:
        for answer in engine.stdout:
            print(answer, end="", flush=True)
            if answer.startswith(answers[word]):
                break
"#,
        vzero = env!("CARGO_BIN_EXE_vzero")
    );
    let engine = script(&dir, "crash.py", &relay);
    let table = match_against_random(&engine, "2", &["--engine-nodes", "4"]);
    assert!(table.contains("forfeited 2 games: crashed 2 (first: crashed (exit status: 7))"), "{table}");
    // Each relay and the engine under it.
    assert_no_engine_left(&dir, 4);
}

#[test]
fn a_command_that_cannot_play_is_refused_before_the_match() {
    let out = arena(&["--variant", "mini-hexchess", "uci:/nonexistent/engine --flag", "random"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("player 'uci:/nonexistent/engine --flag': cannot run '/nonexistent/engine'"), "{err}");
    let out = arena(&["--variant", "mini-hexchess", "uci:'unclosed", "random"]);
    assert!(stderr(&out).contains("player 'uci:'unclosed': expected uci:COMMAND"), "{}", stderr(&out));
    let out = arena(&["--variant", "mini-hexchess", "uci:true", "random", "--engine-nodes", "0"]);
    assert_eq!(out.status.code(), Some(2), "a bad flag value is a usage error");
    assert!(stderr(&out).contains("invalid value '0' for '--engine-nodes <N>': 0 is not in 1.."), "{}", stderr(&out));
}

#[test]
fn vzero_uci_plays_a_checkpoint_to_the_end() {
    let dir = scratch("vzero");
    let run = dir.join("run");
    tiny_run(&run);
    let engine = format!("uci:{} uci --model '{}'", env!("CARGO_BIN_EXE_vzero"), run.display());
    let checkpoint = format!("{}:8", run.display());
    let args = ["--variant", "mini-hexchess", &engine, &checkpoint, "--games", "2", "--engine-nodes", "8"];
    let out = arena(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.contains("mini-hexchess: 2 games") && !table.contains("forfeited"), "{table}");
}

#[test]
fn a_three_player_match_seats_an_engine_in_every_order() {
    let engine = format!("uci:{} uci", env!("CARGO_BIN_EXE_vzero"));
    let args = [
        "--variant",
        "wellisch",
        &engine,
        "random",
        "greedy",
        "--games",
        "6",
        "--engine-nodes",
        "8",
        "--max-plies",
        "24",
    ];
    let out = arena(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.contains("wellisch: 6 games") && !table.contains("forfeited"), "{table}");
}

/// An engine that goes away before or after its handshake: a write into its closed input is an
/// error vzero handles (refused at the start, a forfeit later), never a SIGPIPE that ends vzero
/// with no word and no results.
#[test]
fn an_engine_gone_before_reading_is_refused_and_after_the_handshake_forfeits() {
    let out = arena(&["--variant", "mini-hexchess", "uci:true", "random", "--games", "2"]);
    assert_eq!(out.status.code(), Some(1), "refused, not killed by a signal: {}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("player 'uci:true'") && err.trim().lines().count() == 1, "{err}");

    let dir = scratch("gone");
    let text = "#!/bin/sh\necho $$ >> \"$(dirname \"$0\")/pids\"\nread -r a; echo uciok\nread -r b; read -r c; echo readyok\nexit 0\n";
    let engine = script(&dir, "gone.sh", text);
    let table = match_against_random(&engine, "2", &[]);
    assert!(table.contains("mini-hexchess: 2 games"), "{table}");
    assert!(table.contains("forfeited 2 games: crashed 2"), "{table}");
}
