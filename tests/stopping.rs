//! Every long search honours a stop signal within a second, whatever its depth or limit: a
//! teacher at `alphabeta:30`, `analyse` with a judge of depth 4 on Weltschach, `uci`'s `go
//! infinite`, arena, gauntlet and final-evaluation games against `alphabeta:30`, and `play`.
//! Each test times the exit after the signal and reads what was printed: the work so far,
//! marked partial where it is a report.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{scratch, stderr_of, stdout_of, tiny_run, vzero_command, wait_for_handler};

/// How long a command may take to exit after the signal: the searches look at their stop flag
/// every millisecond or so, and the rest (printing, saving) is small; the margin is for a
/// machine busy with the other tests.
const EXIT_WITHIN: Duration = Duration::from_secs(2);

/// The exit status of a command a stop signal ended after it kept its work (src/stop.rs).
const EXIT_STOPPED: i32 = 3;

/// Sends `signal` (`TERM`, `INT`) to `child` once its handler is in place and it has worked for
/// `after`, and returns its output with the time it took to exit after the signal.
fn signalled(child: Child, signal: &str, after: Duration) -> (Output, Duration) {
    let number = if signal == "INT" { 2 } else { 15 };
    wait_for_handler(child.id(), number);
    std::thread::sleep(after);
    signal_and_wait(child, signal)
}

/// `vzero ARGS` started with every standard stream piped (the input stays open until dropped).
fn spawn_piped(args: &[&str]) -> Child {
    let piped = || Stdio::piped();
    vzero_command().args(args).stdin(piped()).stdout(piped()).stderr(piped()).spawn().unwrap()
}

/// Reads `stream` until a line contains `wanted` (failing with `what` if it ends first), then
/// keeps reading the rest on a thread, whose lines the handle returns once the stream closes.
fn rest_after(stream: impl std::io::Read + Send + 'static, wanted: &str, what: &str) -> JoinHandle<Vec<String>> {
    let mut stream = BufReader::new(stream);
    let mut line = String::new();
    while !line.contains(wanted) {
        line.clear();
        assert!(stream.read_line(&mut line).unwrap() > 0, "{what}");
    }
    std::thread::spawn(move || stream.lines().map_while(Result::ok).collect())
}

/// Sends `signal` to `child` now and returns its output and how long it took to exit.
fn signal_and_wait(child: Child, signal: &str) -> (Output, Duration) {
    let sent = Instant::now();
    let status = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = common::output_within(child, Duration::from_secs(30), "still running 30 s after the signal");
    (out, sent.elapsed())
}

#[test]
fn a_teacher_at_depth_30_stops_at_sigterm() {
    let dir = scratch("stopping-teach");
    let run = dir.join("run");
    tiny_run(&run);
    let args = ["teach", "--run", run.to_str().unwrap(), "--positions", "5", "--teacher", "alphabeta:30", "--quiet"];
    let child = vzero_command().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let (out, took) = signalled(child, "TERM", Duration::from_secs(1));
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM: {}", stderr_of(&out));
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("stopped early"), "{}", stdout_of(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_deep_judge_stops_at_sigint_with_a_partial_analysis() {
    let args = ["analyse", "--variant", "weltschach", "--model", "none", "--sims", "800", "--json"];
    let deep = ["--tactics", "1", "--tactics-depth", "4"];
    let child = vzero_command().args(args).args(deep).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let (out, took) = signalled(child, "INT", Duration::from_secs(2));
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGINT: {}", stderr_of(&out));
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{}", stderr_of(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the analysis so far, as JSON");
    assert_eq!(json["partial"], true, "{json}");
    assert!(json["bestmove"].is_string() && json["nodes"].as_u64().unwrap() < 800, "{json}");
    assert!(stderr_of(&out).contains("partial"), "{}", stderr_of(&out));
    // Without a signal, the report says nothing of it.
    let quick = common::vzero(&["analyse", "--variant", "mini-hexchess", "--model", "none", "--sims", "8", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&quick.stdout).unwrap();
    assert!(json.get("partial").is_none(), "{json}");
}

#[test]
fn analyse_prints_its_table_marked_partial_at_sigterm() {
    let args = ["analyse", "--variant", "mini-hexchess", "--model", "none", "--sims", "100000000"];
    let child = vzero_command().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let (out, took) = signalled(child, "TERM", Duration::from_secs(1));
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM");
    let table = stdout_of(&out);
    let first = table.lines().next().unwrap_or_default();
    assert!(first.contains("(partial: stopped at ") && first.contains(" of 100000000)"), "{table}");
    assert!(table.lines().count() > 2, "no moves listed: {table}");
}

#[test]
fn uci_answers_a_signal_with_its_bestmove_and_exits() {
    let mut child = spawn_piped(&["uci", "--model", "none", "--variant", "mini-hexchess"]);
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "position startpos\ngo infinite").unwrap();
    input.flush().unwrap();
    // Signalled once it is searching; the input stays open, so only the signal can end it.
    let reader = rest_after(child.stdout.take().unwrap(), "info depth", "the engine ended before searching");
    let (out, took) = signal_and_wait(child, "TERM");
    drop(input);
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM: {}", stderr_of(&out));
    let rest = reader.join().unwrap();
    assert!(rest.last().is_some_and(|l| l.starts_with("bestmove ")), "{rest:?}");
    assert_eq!(out.status.code(), Some(EXIT_STOPPED));
}

#[test]
fn an_arena_abandons_its_games_in_progress_at_sigterm() {
    // Neither game could end for hours: an alpha-beta player at depth 30 and a search of a
    // hundred million simulations each hold a move when the signal comes.
    let dir = scratch("stopping-arena");
    let out_file = dir.join("result.jsonl");
    let players = ["alphabeta:30", "mcts:100000000"];
    let match_args = ["--games", "4", "--threads", "2", "--out", out_file.to_str().unwrap()];
    let child = spawn_piped(&[&["arena", "--variant", "glinski"], &players[..], &match_args].concat());
    let (out, took) = signalled(child, "TERM", Duration::from_secs(1));
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM: {}", stderr_of(&out));
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{}", stderr_of(&out));
    let table = stdout_of(&out);
    assert!(table.contains("stopped by a signal after 0 of 4 games (2 in progress abandoned)"), "{table}");
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!((record["interrupted"].as_bool(), record["abandoned"].as_u64()), (Some(true), Some(2)), "{record}");
    assert_eq!(record["games"], 0, "an abandoned game is scored nowhere: {record}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_leaves_the_game_at_sigint_while_the_model_thinks_and_saves_it() {
    let dir = scratch("stopping-play-thinking");
    let saved = dir.join("game.vgn");
    let args = ["play", "--variant", "mini-hexchess", "--model", "none", "--sims", "100000000", "--as", "black"];
    let child = spawn_piped(&[&args[..], &["--save", saved.to_str().unwrap()]].concat());
    let (out, took) = signalled(child, "INT", Duration::from_secs(1));
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGINT: {}", stderr_of(&out));
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{}", stderr_of(&out));
    let printed = stdout_of(&out);
    assert!(printed.contains("Stopped by a signal: leaving the game unfinished."), "{printed}");
    assert!(!printed.contains("(model) plays"), "a hurried move was played: {printed}");
    let text = std::fs::read_to_string(&saved).expect("the game so far is saved");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_leaves_the_game_at_sigterm_while_the_prompt_waits() {
    let dir = scratch("stopping-play-prompt");
    let saved = dir.join("game.vgn");
    let args = ["play", "--variant", "mini-hexchess", "--model", "none", "--sims", "8", "--as", "white"];
    let mut child = spawn_piped(&[&args[..], &["--save", saved.to_str().unwrap()]].concat());
    // One move each, then the prompt waits on an input that stays open.
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "c2-c3").unwrap();
    input.flush().unwrap();
    let reader = rest_after(child.stdout.take().unwrap(), "(model) plays", "play ended before the model's move");
    let (out, took) = signal_and_wait(child, "TERM");
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM: {}", stderr_of(&out));
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{}", stderr_of(&out));
    let rest = reader.join().unwrap().join("\n");
    assert!(rest.contains("Stopped by a signal: leaving the game unfinished."), "{rest}");
    drop(input);
    let text = std::fs::read_to_string(&saved).expect("the game so far is saved");
    assert!(text.contains("1. c2-c3 "), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_gauntlet_against_a_deep_alpha_beta_stops_at_sigint() {
    let dir = scratch("stopping-gauntlet");
    let run = dir.join("run");
    tiny_run(&run);
    let args = ["gauntlet", run.to_str().unwrap(), "--against", "alphabeta:30", "--games", "2", "--sims", "8"];
    let child = spawn_piped(&args);
    let (out, took) = signalled(child, "INT", Duration::from_secs(2));
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGINT: {}", stderr_of(&out));
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("the games in progress are abandoned"), "{}", stderr_of(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_runs_final_evaluation_against_a_deep_alpha_beta_stops_at_sigterm() {
    let dir = scratch("stopping-evaluation");
    let run = dir.join("run");
    let cfg = common::config_path("mini-hexchess-tiny.toml");
    let sets = ["training.iterations=1", "evaluation.games=2", "evaluation.against=[\"alphabeta:30\"]"];
    let train = ["train", "--config", &cfg, "--run", run.to_str().unwrap()];
    let mut child = spawn_piped(&[&train[..], &sets.iter().flat_map(|s| ["--set", *s]).collect::<Vec<_>>()].concat());
    // Signalled once the evaluation has begun (its first line); the rest of stderr is kept.
    let reader = rest_after(child.stderr.take().unwrap(), "evaluation games", "the run ended before its evaluation");
    std::thread::sleep(Duration::from_millis(500));
    let (out, took) = signal_and_wait(child, "TERM");
    let rest = reader.join().unwrap().join("\n");
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM: {rest}");
    assert_eq!(out.status.code(), Some(EXIT_STOPPED), "{rest}");
    assert!(rest.contains("the evaluation, cut short, is played again on resume"), "{rest}");
    std::fs::remove_dir_all(&dir).unwrap();
}
