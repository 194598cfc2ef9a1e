//! Every long search honours a stop signal within a second, whatever its depth or limit: a
//! teacher at `alphabeta:30`, `analyse` with a judge of depth 4 on Weltschach, and `uci`'s
//! `go infinite`. Each test times the exit after the signal and reads what was printed: the
//! work so far, marked partial where it is a report.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
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
    let mut child = vzero_command()
        .args(["uci", "--model", "none", "--variant", "mini-hexchess"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "position startpos\ngo infinite").unwrap();
    input.flush().unwrap();
    // Signalled once it is searching; the input stays open, so only the signal can end it.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("info depth") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the engine ended before searching");
    }
    let reader = std::thread::spawn(move || stdout.lines().map_while(Result::ok).collect::<Vec<String>>());
    let (out, took) = signal_and_wait(child, "TERM");
    drop(input);
    assert!(took < EXIT_WITHIN, "exited {took:?} after SIGTERM: {}", stderr_of(&out));
    let rest = reader.join().unwrap();
    assert!(rest.last().is_some_and(|l| l.starts_with("bestmove ")), "{rest:?}");
    assert_eq!(out.status.code(), Some(EXIT_STOPPED));
}
