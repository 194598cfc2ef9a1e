//! The hostile inputs of tests/hostile/inputs.txt, run against the binary: none may hang past
//! its timeout, panic or abort, or exit with another status than its line expects (above all 0
//! with a wrong result), and none may damage the run they are aimed at. The file's head says
//! how a line is written.
//!
//! Inputs that write into the shared run (`teach`, `gauntlet`, `selfplay` and `train` naming
//! `$RUN`) run one after another in the file's order, in a lane of their own; the others run
//! two at a time beside it, for the two cores the suite is sized for (the writers are few).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{copy_dir, finished_mini_hexchess, scratch, tiny_run, truncate_and_reseal, vzero_command};

/// The inputs, one a line.
const INPUTS: &str = include_str!("hostile/inputs.txt");

/// How long an input may run unless its line says otherwise.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How soon after a stop signal a command must exit.
const EXIT_AFTER_SIGNAL: Duration = Duration::from_secs(2);

/// One hostile input.
#[derive(Debug)]
struct Input {
    /// The line's number in the file, for messages.
    line: usize,
    /// The exit status it must end with.
    status: i32,
    timeout: Duration,
    stdin: Vec<u8>,
    /// A signal's name (`TERM`) and when to send it.
    signal: Option<(String, Duration)>,
    args: Vec<String>,
    needle: Option<String>,
    /// Whether it writes into the shared run, and so runs in order with the others that do.
    serial: bool,
}

/// The placeholders of the file and what they stand for.
struct Places(Vec<(&'static str, String)>);

impl Places {
    fn fill(&self, text: &str) -> String {
        self.0.iter().fold(text.to_string(), |t, (name, value)| t.replace(name, value))
    }
}

/// Reads `\n`, `\xHH` and `\C` (the character C) of a `stdin=` option into bytes.
fn unescape(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 == bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match bytes[i + 1] {
            b'n' => out.push(b'\n'),
            b'x' => {
                let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("two hex digits after \\x");
                out.push(u8::from_str_radix(hex, 16).expect("two hex digits after \\x"));
                i += 2;
            }
            other => out.push(other),
        }
        i += 2;
    }
    out
}

/// The inputs of `text`, placeholders filled from `places`.
fn parse(text: &str, places: &Places) -> Vec<Input> {
    let mut inputs = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, rest) = line.split_once(" --").unwrap_or_else(|| panic!("line {}: no ' --': {raw}", i + 1));
        let (args, needle) = match rest.rsplit_once(" =>") {
            Some((args, needle)) => (args, Some(needle.trim()).filter(|n| !n.is_empty())),
            None => (rest, None),
        };
        let head = shlex::split(&places.fill(head)).unwrap_or_else(|| panic!("line {}: bad quoting", i + 1));
        let status = match head[0].as_str() {
            "ok" => 0,
            "fail" => 1,
            "usage" => 2,
            "stopped" => 3,
            other => panic!("line {}: expected ok, fail, usage or stopped, not {other}", i + 1),
        };
        let mut input = Input {
            line: i + 1,
            status,
            timeout: DEFAULT_TIMEOUT,
            stdin: Vec::new(),
            signal: None,
            args: shlex::split(&places.fill(args)).unwrap_or_else(|| panic!("line {}: bad quoting", i + 1)),
            needle: needle.map(|n| places.fill(n)),
            serial: false,
        };
        for option in &head[1..] {
            match option.split_once('=') {
                Some(("timeout", s)) => input.timeout = Duration::from_secs(s.parse().unwrap()),
                Some(("stdin", text)) => input.stdin = unescape(text),
                Some(("signal", at)) => {
                    let (name, seconds) = at.split_once('@').expect("signal=NAME@SECONDS");
                    input.signal = Some((name.to_string(), Duration::from_secs(seconds.parse().unwrap())));
                }
                _ => panic!("line {}: unknown option {option}", i + 1),
            }
        }
        let writer = ["teach", "gauntlet", "selfplay", "train"].contains(&input.args.first().map_or("", |a| a));
        input.serial = writer && args.contains("$RUN");
        inputs.push(input);
    }
    inputs
}

/// Runs `input` in `dir`: what went wrong, if anything, and how long it took.
fn run_one(input: &Input, dir: &Path) -> (Option<String>, Duration) {
    let began = Instant::now();
    let mut child = vzero_command()
        .args(&input.args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start vzero");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    // A command that reads no input closes it: the write may fail.
    let _ = stdin.write_all(&input.stdin);
    // Kept open until the signal where there is one: only the signal is to end the command.
    let open = input.signal.as_ref().map(|_| stdin);
    let waiter = std::thread::spawn(move || child.wait_with_output().expect("wait for vzero"));
    let mut signalled_at = None;
    while !waiter.is_finished() {
        let elapsed = began.elapsed();
        if let Some((name, at)) = &input.signal {
            if signalled_at.is_none() && elapsed >= *at {
                let _ = Command::new("kill").args([&format!("-{name}"), &pid.to_string()]).status();
                signalled_at = Some(Instant::now());
            }
        }
        let late = signalled_at.is_some_and(|at| at.elapsed() > EXIT_AFTER_SIGNAL);
        if elapsed > input.timeout || late {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            let _ = waiter.join();
            let why =
                if late { format!("still running {EXIT_AFTER_SIGNAL:?} after the signal") } else { "hung".into() };
            return (Some(format!("{why} ({:.1} s)", elapsed.as_secs_f64())), began.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(open);
    let out = waiter.join().unwrap();
    let took = began.elapsed();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let problem = match out.status.code() {
        None => Some(format!("killed by a signal ({:?})", out.status)),
        _ if ["panicked at", "stack backtrace", "RUST_BACKTRACE"].iter().any(|p| stderr.contains(p)) => {
            Some("panicked".to_string())
        }
        Some(code) if code != input.status => Some(format!("exit status {code}, expected {}", input.status)),
        _ => input.needle.as_ref().filter(|n| !text.contains(n.as_str())).map(|n| format!("no '{n}' in the output")),
    };
    let problem = problem.map(|p| format!("{p}; output:\n{}", tail(&text, 1500)));
    (problem, took)
}

/// The last `n` bytes of `text` or so (at a character boundary).
fn tail(text: &str, n: usize) -> &str {
    let mut start = text.len().saturating_sub(n);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Everything the inputs aim at: a trained run, its newest checkpoint and a shard, links into
/// them, files of the wrong kind, a run whose checkpoints were set aside and a checkpoint cut
/// short and resealed.
fn fixtures(dir: &Path) -> Places {
    let run = dir.join("run");
    tiny_run(&run);
    let mut checkpoints: Vec<PathBuf> =
        std::fs::read_dir(run.join("checkpoints")).unwrap().map(|e| e.unwrap().path()).collect();
    checkpoints.sort();
    let checkpoint = checkpoints.last().unwrap().clone();
    let shard = std::fs::read_dir(run.join("replay")).unwrap().next().unwrap().unwrap().path();
    let link = |name: &str, to: &Path| std::os::unix::fs::symlink(to, dir.join(name)).unwrap();
    for ext in ["jsonl", "svg", "html"] {
        link(&format!("link-config.{ext}"), &run.join("config.toml"));
    }
    link("link-state.jsonl", &checkpoint.join("state.json"));
    link("link-state.pt", &checkpoint.join("state.json"));
    link("link-metrics.jsonl", &run.join("metrics.jsonl"));
    link("link-link.jsonl", &dir.join("link-config.jsonl"));
    link("link-loop-a.jsonl", &dir.join("link-loop-b.jsonl"));
    link("link-loop-b.jsonl", &dir.join("link-loop-a.jsonl"));
    link("link-dangling.jsonl", &dir.join("missing/results.jsonl"));
    link("link-mine.jsonl", &dir.join("mine.jsonl"));
    std::fs::write(dir.join("notdir"), "a file, not a folder").unwrap();
    std::fs::write(dir.join("empty.toml"), "").unwrap();
    std::fs::write(dir.join("garbage.toml"), [0xff, 0x00, 0xfe, b'[', b'\n', 0x80]).unwrap();
    std::fs::write(dir.join("garbage.shard"), b"not a shard at all, not even close").unwrap();
    let set_aside = dir.join("set-aside-run");
    copy_dir(&run, &set_aside);
    for c in &checkpoints {
        let copy = set_aside.join("checkpoints").join(c.file_name().unwrap());
        std::fs::rename(&copy, copy.with_extension("bad")).unwrap();
    }
    let resealed = dir.join("resealed");
    copy_dir(&checkpoint, &resealed);
    truncate_and_reseal(&resealed);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = |p: &Path| p.to_str().unwrap().to_string();
    Places(vec![
        ("$RUN", text(&run)),
        ("$CKPT", text(&checkpoint)),
        ("$SHARD", text(&shard)),
        ("$TMP", text(dir)),
        ("$MODELS", text(&root.join("models"))),
        ("$CONFIGS", text(&root.join("configs"))),
        ("$FINISHED", finished_mini_hexchess()),
    ])
}

/// The files of the run that must come out of the inputs as they went in: its config and
/// every checkpoint's state (the links aimed at them).
fn guarded(run: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = vec![run.join("config.toml")];
    for entry in std::fs::read_dir(run.join("checkpoints")).unwrap() {
        files.push(entry.unwrap().path().join("state.json"));
    }
    files.sort();
    files.into_iter().map(|f| (f.clone(), std::fs::read(&f).unwrap())).collect()
}

#[test]
fn no_hostile_input_hangs_panics_or_succeeds_wrongly() {
    let began = Instant::now();
    let dir = scratch("hostile");
    let places = fixtures(&dir);
    let run = PathBuf::from(places.fill("$RUN"));
    let before = guarded(&run);
    let inputs = parse(INPUTS, &places);
    assert!(inputs.len() > 150, "only {} inputs", inputs.len());
    let (serial, parallel): (Vec<&Input>, Vec<&Input>) = inputs.iter().partition(|i| i.serial);
    let results = Mutex::new(Vec::new());
    let (serial, parallel) = (Mutex::new(serial.into_iter()), Mutex::new(parallel.into_iter()));
    std::thread::scope(|scope| {
        // One lane takes the run's writers in order; two take the rest as they come.
        for lane in [&serial, &parallel, &parallel] {
            let (results, dir) = (&results, &dir);
            scope.spawn(move || {
                while let Some(input) = lane.lock().unwrap().next() {
                    let (problem, took) = run_one(input, dir);
                    results.lock().unwrap().push((input.line, input.args.join(" "), problem, took));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let mut slowest: Vec<&(usize, String, Option<String>, Duration)> = results.iter().collect();
    slowest.sort_by_key(|r| std::cmp::Reverse(r.3));
    eprintln!("{} hostile inputs in {:.0} s; the slowest:", results.len(), began.elapsed().as_secs_f64());
    for (line, args, _, took) in slowest.iter().take(8) {
        eprintln!("  {:5.1} s  line {line}: vzero {args}", took.as_secs_f64());
    }
    let failures: Vec<String> = results
        .iter()
        .filter_map(|(line, args, problem, _)| problem.as_ref().map(|p| format!("line {line}: vzero {args}: {p}")))
        .collect();
    assert!(failures.is_empty(), "{} of {} inputs:\n\n{}", failures.len(), results.len(), failures.join("\n\n"));
    assert_eq!(guarded(&run), before, "an input changed the run's config or a checkpoint's state");
    let status = vzero_command().args(["runs", "status", run.to_str().unwrap()]).output().unwrap();
    assert!(status.status.success(), "the run is no run any more: {}", String::from_utf8_lossy(&status.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
