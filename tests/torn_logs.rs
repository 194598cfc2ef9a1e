//! Append-only logs with a torn last line (a crash or a full disk cut it short): the line is
//! set aside whole, named in a warning, before anything is appended, so the next record is not
//! glued onto it and lost.

mod common;

use common::{config_path, scratch, stderr_of, vzero};
use selfplay::store::events::read_events;

/// Every line of a JSON-lines file, parsed; a line that is not JSON fails the test.
fn json_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}: {l}", path.display()))).collect()
}

#[test]
fn a_resumed_run_sets_a_torn_metrics_line_aside_and_logs_every_iteration() {
    let dir = scratch("torn-metrics");
    let run = dir.join("run");
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run_text = run.to_str().unwrap();
    let first = vzero(&["train", "--config", &cfg, "--run", run_text, "--quiet", "--set", "training.iterations=3"]);
    assert!(first.status.success(), "{}", stderr_of(&first));
    let metrics = run.join("metrics.jsonl");
    let whole = std::fs::read(&metrics).unwrap();
    std::fs::write(&metrics, &whole[..whole.len() - 40]).unwrap();

    let resumed = vzero(&["train", "--resume", run_text, "--quiet", "--set", "training.iterations=4"]);
    assert!(resumed.status.success(), "{}", stderr_of(&resumed));
    let side = run.join("metrics.jsonl.torn");
    let warning = stderr_of(&resumed);
    assert!(warning.contains("warning") && warning.contains(side.to_str().unwrap()), "{warning}");
    let torn = std::fs::read(&side).unwrap();
    let start = whole[..whole.len() - 41].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    assert_eq!(torn, &whole[start..whole.len() - 40], "the side file holds the torn line whole");

    json_lines(&metrics);
    let log = read_events(&std::fs::read_to_string(&metrics).unwrap());
    assert_eq!(log.skipped_lines, 0);
    let iterations: Vec<u32> = log.iterations().map(|it| it.iteration).collect();
    assert_eq!(iterations, [1, 2, 3, 4], "every iteration is logged");
    let plot = vzero(&["plot", run_text, "--out", dir.join("c.svg").to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&plot.stdout).contains("(4 iterations)"), "{}", stderr_of(&plot));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_out_sets_a_torn_line_aside_before_appending() {
    let dir = scratch("torn-arena");
    let out = dir.join("results.jsonl");
    std::fs::write(&out, "{\"games\":2}\n{\"variant\":\"mini-hex").unwrap();
    let args = ["arena", "--variant", "mini-hexchess", "random", "random", "--games", "2", "--out"];
    let result = vzero(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert!(result.status.success(), "{}", stderr_of(&result));
    assert!(stderr_of(&result).contains("results.jsonl.torn"), "{}", stderr_of(&result));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["games"], 2);
    assert_eq!(std::fs::read_to_string(dir.join("results.jsonl.torn")).unwrap(), "{\"variant\":\"mini-hex");
    std::fs::remove_dir_all(&dir).unwrap();
}
