//! `vzero uci` driven as a GUI would: transcripts per variant kind, `stop` and `quit` during a
//! search, bad input of every kind, the end of input, and a real checkpoint.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use rules::wellisch::Wellisch;
use rules::{Game, Glinski, MiniHexchess};

/// A running `vzero uci`, its input, and its output lines as they arrive.
struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = common::vzero_command()
            .arg("uci")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start vzero uci");
        let input = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, input, lines, seen: Vec::new() }
    }

    fn send(&mut self, text: &str) {
        let input = self.input.as_mut().expect("input still open");
        writeln!(input, "{text}").expect("write to the engine");
        input.flush().unwrap();
    }

    /// Reads lines until one satisfies `done` (returned with those before it), failing after `within`.
    fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let end = done(&line);
                    got.push(line);
                    if end {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no expected line within {within:?}; output:\n{}", self.seen.join("\n"))
                }
                Err(RecvTimeoutError::Disconnected) => panic!("the engine ended; output:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// Sends `isready` and waits for `readyok`, returning the lines before it.
    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(Duration::from_secs(10), |l| l == "readyok")
    }

    /// Sends `text` (bad input) and returns the error it is answered with, checking the engine
    /// still answers afterwards.
    fn error_for(&mut self, text: &str) -> String {
        self.send(text);
        let lines = self.ready();
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error: ")).collect();
        assert_eq!(errors.len(), 1, "'{text}' answered {lines:?}");
        errors[0].clone()
    }

    /// The move of a `bestmove` line arriving within `within`, with the lines before it.
    fn bestmove(&mut self, within: Duration) -> (String, Vec<String>) {
        let lines = self.until(within, |l| l.starts_with("bestmove "));
        let mv = lines.last().unwrap()["bestmove ".len()..].to_string();
        (mv, lines)
    }

    /// Closes the input and waits for the engine to exit, at most `within`.
    fn exits_within(&mut self, close_input: bool, within: Duration) -> Vec<String> {
        if close_input {
            self.input = None;
        }
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                // The output thread drains what is left.
                return self.lines.iter().collect();
            }
            assert!(Instant::now() < deadline, "still running after {within:?}; output:\n{}", self.seen.join("\n"));
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `mv` is legal after `moves` from `G`'s start position (or `text`).
fn legal<G: Game>(text: Option<&str>, moves: &[&str], mv: &str) -> bool {
    let mut game = text.map_or_else(G::start, |t| G::from_text(t).unwrap());
    for m in moves {
        let m = game.parse_move(m).unwrap();
        game.play(m);
    }
    game.parse_move(mv).is_ok()
}

/// The numbers after `key` in an info line.
fn numbers_after(line: &str, key: &str, count: usize) -> Vec<f64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == key).unwrap_or_else(|| panic!("no '{key}' in '{line}'"));
    words[i + 1..i + 1 + count].iter().map(|w| w.parse().unwrap()).collect()
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn the_issue_check_answers_and_exits_when_its_input_ends() {
    let input = "uci\nsetoption name UCI_Variant value glinski\nisready\nposition startpos moves f5-f6\ngo nodes 800\n";
    let mut child = common::vzero_command().arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = |want: &str| lines.iter().position(|l| *l == want).unwrap_or_else(|| panic!("no '{want}' in\n{text}"));
    assert!(at("uciok") < at("readyok"), "{text}");
    assert!(lines[0].starts_with("id name vzero"), "{text}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("option name ")).count(), 5, "{text}");
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).expect("an info line");
    assert_eq!(numbers_after(info, "nodes", 1), [800.0], "{info}");
    for key in ["depth", "multipv", "nps", "time"] {
        numbers_after(info, key, 1);
    }
    numbers_after(info, "cp", 1);
    assert!(!info.contains(" wdl "), "no network, no draw share: {info}");
    let best =
        lines.last().unwrap().strip_prefix("bestmove ").unwrap_or_else(|| panic!("last line not bestmove:\n{text}"));
    assert!(legal::<Glinski>(None, &["f5-f6"], best), "{best}");
    let pv_first = info.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
    assert_eq!(pv_first, best, "the principal variation starts with the best move");
}

#[test]
fn a_two_player_session_stops_mid_search_and_answers_meanwhile() {
    let mut e = Engine::start(&["--variant", "mini-hexchess"]);
    e.send("uci");
    let lines = e.until(10 * SECOND, |l| l == "uciok");
    assert!(
        lines.iter().any(|l| l.starts_with("option name UCI_Variant type combo default mini-hexchess")),
        "{lines:?}"
    );
    e.ready();
    e.send("ucinewgame");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos moves d3-d4");
    e.send("go infinite");
    // Progress at least once a second while searching; `isready` answered without stopping.
    let lines = e.until(3 * SECOND, |l| l.starts_with("info depth"));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    e.send("isready");
    e.until(SECOND, |l| l == "readyok");
    e.send("position startpos");
    e.until(SECOND, |l| l.contains("ignored while searching"));
    let sent = Instant::now();
    e.send("stop");
    let (best, lines) = e.bestmove(SECOND);
    assert!(sent.elapsed() < Duration::from_millis(700), "bestmove took {:?} after stop", sent.elapsed());
    assert!(legal::<MiniHexchess>(None, &["d3-d4"], &best), "{best}");
    let last: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(last.iter().any(|l| l.contains("multipv 2")), "two lines reported: {lines:?}");
    // The position was not changed by the command refused during the search.
    e.send("go nodes 50");
    let (best, _) = e.bestmove(10 * SECOND);
    assert!(legal::<MiniHexchess>(None, &["d3-d4"], &best), "{best}");
    // A time control for the side to move (Black) bounds the search.
    e.send("go wtime 100 btime 3000 winc 0 binc 100");
    let sent = Instant::now();
    e.bestmove(2 * SECOND);
    assert!(sent.elapsed() < Duration::from_millis(500), "3 s / 30 + 75 ms took {:?}", sent.elapsed());
    e.send("quit");
    e.exits_within(false, 2 * SECOND);
}

#[test]
fn a_wellisch_session_reports_every_seats_value() {
    let mut e = Engine::start(&[]);
    e.send("setoption name UCI_Variant value wellisch");
    e.send("position startpos moves D1-E1");
    e.send("go nodes 400");
    let (best, lines) = e.bestmove(10 * SECOND);
    assert!(legal::<Wellisch>(None, &["D1-E1"], &best), "{best}");
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    let values = numbers_after(info, "values", 3);
    assert!((values.iter().sum::<f64>() - 1.5).abs() < 0.01, "uniform values sum to 1.5: {info}");
    // The three-player clock: P3 is to move.
    e.send("position startpos moves D1-E1 A6-B5");
    e.send("go p1time 60000 p2time 60000 p3time 300 p3inc 0");
    let sent = Instant::now();
    let (best, _) = e.bestmove(2 * SECOND);
    assert!(sent.elapsed() < Duration::from_millis(400), "P3's 300 ms clock: {:?}", sent.elapsed());
    assert!(legal::<Wellisch>(None, &["D1-E1", "A6-B5"], &best), "{best}");
    e.send("go movetime 200");
    let sent = Instant::now();
    e.bestmove(2 * SECOND);
    assert!(sent.elapsed() >= Duration::from_millis(200) && sent.elapsed() < Duration::from_millis(600));
    e.exits_within(true, 2 * SECOND);
}

#[test]
fn bad_input_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start(&["--variant", "glinski"]);
    // go before any position searches the start position.
    e.send("go nodes 20");
    let (best, _) = e.bestmove(10 * SECOND);
    assert!(legal::<Glinski>(None, &[], &best), "{best}");
    let cases = [
        ("frobnicate", "unknown command 'frobnicate'"),
        ("position startpos moves f5-f6 c7-c6 a1-a9", "move 3 ('a1-a9')"),
        ("position startpos moves f5-f6 zz", "'zz'"),
        ("position fen this is no position", "position 'this is no position'"),
        ("position sideways", "expected 'startpos' or 'fen TEXT'"),
        ("setoption name Hash value 16", "unknown option 'Hash'"),
        ("setoption name Threads value many", "option Threads"),
        ("setoption name UCI_Variant value chess", "'chess'"),
        ("setoption name Model value /no/such/checkpoint", "/no/such/checkpoint"),
        ("isready now", "'isready' takes no arguments"),
    ];
    for (input, names) in cases {
        let error = e.error_for(input);
        assert!(error.contains(names), "'{input}' answered '{error}', expected it to name {names}");
    }
    // The refused position changed nothing: the last good one is the start position.
    e.send("position startpos moves f5-f6");
    e.send("go nodes 30 ponder");
    let (best, lines) = e.bestmove(10 * SECOND);
    assert!(lines.iter().any(|l| l.contains("error: go: unknown 'ponder' ignored")), "{lines:?}");
    assert!(legal::<Glinski>(None, &["f5-f6"], &best), "{best}");
    // A finished game has nothing to search, and the answer says so.
    e.send("setoption name UCI_Variant value mini-hexchess");
    e.send(&format!("position fen {}", common::finished_mini_hexchess()));
    e.send("go nodes 10");
    let (best, lines) = e.bestmove(10 * SECOND);
    assert_eq!(best, "(none)");
    assert!(lines.iter().any(|l| l.starts_with("info string error: nothing to search: the game is over")), "{lines:?}");
    // Bytes that are not text are a bad command, not the end of the input.
    e.input.as_mut().unwrap().write_all(b"\xff\xfe\n").unwrap();
    let lines = e.ready();
    assert!(lines.iter().any(|l| l.starts_with("info string error: unknown command")), "{lines:?}");
    e.exits_within(true, 2 * SECOND);
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut e = Engine::start(&["--variant", "glinski"]);
    e.send("go infinite");
    e.until(3 * SECOND, |l| l.starts_with("info depth"));
    e.send("quit");
    e.exits_within(false, SECOND);
}

#[test]
fn the_end_of_input_stops_an_infinite_search_and_exits() {
    let mut e = Engine::start(&["--variant", "weltschach"]);
    e.send("go infinite");
    e.until(5 * SECOND, |l| l.starts_with("info depth"));
    let rest = e.exits_within(true, 2 * SECOND);
    assert!(rest.iter().any(|l| l.starts_with("bestmove ")), "{rest:?}");
    let mut idle = Engine::start(&[]);
    assert!(idle.exits_within(true, 2 * SECOND).is_empty());
}

#[test]
fn a_search_with_a_huge_limit_ends_soon_after_the_input_does() {
    // Nobody is left to send `stop`: each answers within the 10 s the engine waits (plus
    // the start-up), where it searched on for hours, its tree growing 8 MB a second.
    let mut engines: Vec<Engine> = ["go movetime 999999999999", "go nodes 100000000"]
        .iter()
        .map(|go| {
            let mut e = Engine::start(&["--variant", "mini-hexchess"]);
            e.send("position startpos");
            e.send(go);
            e.until(5 * SECOND, |l| l.starts_with("info depth"));
            e
        })
        .collect();
    let begun = Instant::now();
    for e in &mut engines {
        e.input = None;
    }
    for e in &mut engines {
        let rest = e.exits_within(false, 20 * SECOND);
        let said = |start: &str| rest.iter().any(|l| l.starts_with(start));
        assert!(said("info string the input ended: the search stops after 10 s"), "{rest:?}");
        assert!(rest.last().is_some_and(|l| l.starts_with("bestmove ")), "{rest:?}");
    }
    assert!(begun.elapsed() >= 9 * SECOND, "ended before its 10 s: {:?}", begun.elapsed());
}

#[test]
fn a_checkpoint_drives_uci_and_analyse() {
    let dir = std::env::temp_dir().join(format!("vzero-uci-model-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::tiny_run(&dir);
    let run = dir.to_str().unwrap();

    // The variant is the model's.
    let mut e = Engine::start(&["--model", run]);
    e.send("uci");
    let lines = e.until(10 * SECOND, |l| l == "uciok");
    assert!(lines.iter().any(|l| l.contains("UCI_Variant type combo default mini-hexchess")), "{lines:?}");
    assert!(lines.iter().any(|l| l == &format!("option name Model type string default {run}")), "{lines:?}");
    e.send("position startpos moves d3-d4");
    e.send("go nodes 64");
    let (best, lines) = e.bestmove(20 * SECOND);
    assert!(legal::<MiniHexchess>(None, &["d3-d4"], &best), "{best}");
    assert!(lines.iter().any(|l| l.contains(" nodes 64 ")), "{lines:?}");
    // With a network, `wdl` splits the line's score by the network's draw share.
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    let wdl = numbers_after(info, "wdl", 3);
    assert_eq!(wdl.iter().sum::<f64>(), 1000.0, "{info}");
    let cp = numbers_after(info, "cp", 1)[0];
    let q = 0.5 + (cp / 111.714640912).atan() / 1.5620688421 / 2.0;
    assert!(((wdl[0] + wdl[1] / 2.0) / 1000.0 - q).abs() < 0.005, "W + D/2 is the score: {info}");
    // A model for another variant is refused by name; the engine searches on, uniformly.
    let error = e.error_for("setoption name UCI_Variant value glinski");
    assert!(error.contains("plays mini-hexchess"), "{error}");
    e.send("go nodes 20");
    let (best, _) = e.bestmove(10 * SECOND);
    assert!(legal::<Glinski>(None, &[], &best), "{best}");
    // Back to the model's variant: the model is used again.
    e.send("setoption name UCI_Variant value mini-hexchess");
    assert!(!e.ready().iter().any(|l| l.contains("error")));
    e.exits_within(true, 5 * SECOND);

    let out = common::vzero(&["analyse", "--variant", "mini-hexchess", "--model", run, "--sims", "1", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = json["moves"].as_array().unwrap();
    let priors: Vec<f64> = moves.iter().map(|m| m["prior"].as_f64().unwrap()).collect();
    assert!(priors.windows(2).all(|w| w[0] >= w[1]), "one visit ranks by the network's prior: {priors:?}");
    let wrong = common::vzero(&["analyse", "--variant", "glinski", "--model", run]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("plays mini-hexchess"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `vzero uci ARGS` on `input` to its end and returns its standard output.
fn transcript(args: &[&str], input: &str) -> String {
    let mut child = common::vzero_command()
        .arg("uci")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start vzero uci");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = common::output_within(child, 20 * SECOND, "vzero uci did not end with its input");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// `bestmove (none)` tells a GUI there is no legal move: a search given no time, or ended by the
/// end of the input before its first visit, still answers the evaluator's favourite move.
#[test]
fn no_time_and_an_early_end_of_input_still_answer_a_legal_move() {
    for go in ["go movetime 0", "go infinite", "go wtime 0 btime 0"] {
        let text = transcript(&["--variant", "mini-hexchess"], &format!("position startpos\n{go}\n"));
        let best = text.lines().rfind(|l| l.starts_with("bestmove ")).unwrap_or_else(|| panic!("{go}: {text}"));
        let best = &best["bestmove ".len()..];
        assert!(legal::<MiniHexchess>(None, &[], best), "{go}: '{best}' in\n{text}");
    }
}

/// The peak resident memory of process `pid`, in kB (Linux: `VmHWM` of /proc/PID/status).
fn peak_memory_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).expect("a VmHWM line");
    line.trim().trim_end_matches("kB").trim().parse().unwrap()
}

/// A hostile line is neither held in memory (a 200 MB one took 700 MB) nor echoed back (a 1 MB
/// `position fen` came back whole): one too long is refused in a short line, one within the
/// limit is quoted by its first hundred characters.
#[test]
fn an_overlong_line_is_refused_in_a_short_answer_without_being_held() {
    let mut e = Engine::start(&["--variant", "mini-hexchess"]);
    e.ready();
    let before = peak_memory_kb(e.child.id());
    let input = e.input.as_mut().unwrap();
    input.write_all(b"position fen ").unwrap();
    let block = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        input.write_all(&block).unwrap();
    }
    input.write_all(b"\n").unwrap();
    let lines = e.ready();
    assert_eq!(lines.len(), 2, "one answer, then readyok: {lines:?}");
    let answer = &lines[0];
    let shown = &answer[..answer.len().min(300)];
    assert!(answer.starts_with("info string error: a line of 67108877 bytes is too long"), "{shown}");
    assert!(answer.len() < 200, "{} bytes: {shown}", answer.len());
    let grown = peak_memory_kb(e.child.id()).saturating_sub(before);
    assert!(grown < 16 * 1024, "reading a 64 MB line grew the peak memory by {grown} kB");
    let error = e.error_for(&format!("position fen {}", "y".repeat(5000)));
    assert!(error.contains(&"y".repeat(100)) && error.contains("(5000 characters)"), "{}", &error[..200]);
    assert!(error.len() < 600, "{} characters: {}", error.len(), &error[..300]);
    e.send("go nodes 10");
    let (best, _) = e.bestmove(10 * SECOND);
    assert!(legal::<MiniHexchess>(None, &[], &best), "{best}");
}

#[test]
fn numeric_options_name_the_value_and_why_it_is_refused() {
    let mut e = Engine::start(&["--variant", "mini-hexchess"]);
    let error = e.error_for("setoption name Threads value 5000");
    assert!(
        error.ends_with(
            "option Threads: 5000 is out of range: the search threads sharing the tree must be from 1 to 256"
        ),
        "{error}"
    );
    let error = e.error_for("setoption name MultiPV value 0");
    assert!(error.contains("MultiPV: 0 is out of range") && error.contains("from 1 to 5000"), "{error}");
}

#[test]
fn a_continued_game_searches_on_from_the_kept_subtree() {
    let mut engine = Engine::start(&["--model", "none", "--variant", "mini-hexchess"]);
    engine.send("uci");
    engine.until(10 * SECOND, |l| l == "uciok");
    engine.send("position startpos");
    engine.send("go nodes 2000");
    let (best, lines) = engine.bestmove(30 * SECOND);
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).expect("an info line").clone();
    let reply = info.split(" pv ").nth(1).unwrap().split_whitespace().nth(1).expect("a reply in the pv").to_string();
    // The best move and the reply the search expected: their subtree has many visits, and a
    // search of one node answers from it at once.
    let continued = format!("position startpos moves {best} {reply}");
    engine.send(&continued);
    engine.send("go nodes 1");
    let (_, lines) = engine.bestmove(30 * SECOND);
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).expect("an info line");
    let kept = numbers_after(info, "nodes", 1)[0];
    assert!(kept > 10.0, "the second search starts with the subtree's visits: {info}");
    // A new game, or a position that does not continue the game, starts from an empty tree.
    for reset in ["ucinewgame", "position fen k/3/5/2R1R2/7/7/3K3 w - 0 60"] {
        engine.send("position startpos");
        engine.send("go nodes 500");
        engine.bestmove(30 * SECOND);
        engine.send(reset);
        engine.send(&continued);
        engine.send("go nodes 1");
        let (_, lines) = engine.bestmove(30 * SECOND);
        let info = lines.iter().rfind(|l| l.starts_with("info depth")).expect("an info line");
        assert_eq!(numbers_after(info, "nodes", 1), [1.0], "after {reset}: {info}");
    }
}
