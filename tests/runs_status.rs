//! `vzero runs status` tells the truth: the iterations a resume extended the run to, games of
//! usable shards only, no error from a refused command, and `--json` for scripts.

mod common;

use std::path::{Path, PathBuf};

use common::{tiny_run, vzero};
use selfplay::Config;
use selfplay::RunDir;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-status-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `runs status` of `runs` as text.
fn status_text(runs: &[&Path]) -> String {
    let args: Vec<&str> = ["runs", "status"].into_iter().chain(runs.iter().map(|r| r.to_str().unwrap())).collect();
    let out = vzero(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// `runs status --json` of `runs`: one object per line.
fn status_json(runs: &[&Path]) -> Vec<serde_json::Value> {
    let mut args = vec!["runs", "status", "--json"];
    args.extend(runs.iter().map(|r| r.to_str().unwrap()));
    let out = vzero(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn a_resume_with_more_iterations_is_kept_in_the_run_and_shown_as_n_of_m() {
    let dir = fresh_dir("iterations");
    let run = dir.join("run");
    tiny_run(&run);
    assert!(status_text(&[&run]).contains("(iteration 1 of 1, finished)"), "{}", status_text(&[&run]));
    let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "training.iterations=2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("training.iterations: 1 -> 2"), "{}", stderr(&out));
    let text = status_text(&[&run]);
    assert!(text.contains("(iteration 2 of 2, finished)"), "{text}");
    let saved = Config::load(&RunDir::unchecked(&run).config(), &[]).unwrap();
    assert_eq!(saved.training.iterations, 2, "the extension is not in the run's config");
    let json = &status_json(&[&run])[0];
    assert_eq!((json["iteration"].as_u64(), json["iterations"].as_u64()), (Some(2), Some(2)), "{json}");
    // The run's config is the extended one: the same resume again has nothing to do.
    let again = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet"]);
    assert!(stdout(&again).contains("already complete (2 iterations)"), "{}", stdout(&again));
    assert!(again.status.success() && !stdout(&again).contains("signal"), "no signal was sent: {}", stdout(&again));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn foreign_or_broken_shards_are_not_counted() {
    let dir = fresh_dir("shards");
    let run = dir.join("run");
    tiny_run(&run);
    let healthy = status_json(&[&run]).remove(0);
    assert_eq!((healthy["games"].as_u64(), healthy["skipped_shards"].as_u64()), (Some(8), Some(0)), "{healthy}");
    common::plant_foreign_and_broken_shards(&run, 5);
    std::fs::write(run.join("replay/9999999999992-other-1-000003.shard"), b"VZSHARD2 not really").unwrap();

    let json = status_json(&[&run]).remove(0);
    assert_eq!(json["games"], healthy["games"], "{json}");
    assert_eq!(json["external_games"].as_u64(), Some(0), "{json}");
    assert_eq!(json["positions"], healthy["positions"], "{json}");
    assert_eq!((json["shards"].as_u64(), json["skipped_shards"].as_u64()), (Some(4), Some(3)), "{json}");
    let out = vzero(&["runs", "status", run.to_str().unwrap()]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(
        text.contains("games        8 (8 by the trainer, 0 by selfplay processes) in 4 shards, 3 skipped"),
        "{text}"
    );
    for name in ["000001.shard", "000002.shard", "000003.shard"] {
        assert!(err.contains(name), "the warnings do not name {name}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_refused_resume_writes_no_error_into_the_healthy_run() {
    let dir = fresh_dir("refused");
    let run = dir.join("run");
    tiny_run(&run);
    let rd = RunDir::unchecked(&run);
    let (metrics, config) = (std::fs::read(rd.metrics()).unwrap(), std::fs::read(rd.config()).unwrap());
    // A network of another shape than the run's checkpoints: refused before the run opens.
    let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "network.channels=16"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("the config asks for"), "{}", stderr(&out));
    assert!(std::fs::read(rd.metrics()).unwrap() == metrics, "the refusal was logged into the run");
    assert!(std::fs::read(rd.config()).unwrap() == config, "the refused change was saved in the run");
    let text = status_text(&[&run]);
    assert!(text.contains("last error   none"), "{text}");
    assert!(status_json(&[&run])[0]["last_error"].is_null());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_gives_one_object_per_run_with_the_documented_fields() {
    let dir = fresh_dir("json");
    let (a, b) = (dir.join("a"), dir.join("b"));
    tiny_run(&a);
    tiny_run(&b);
    let runs = status_json(&[&a, &b]);
    assert_eq!(runs.len(), 2);
    for (json, path) in runs.iter().zip([&a, &b]) {
        assert_eq!(json["run"].as_str(), path.to_str(), "{json}");
        assert_eq!(json["variant"].as_str(), Some("mini-hexchess"), "{json}");
        assert_eq!((json["blocks"].as_u64(), json["channels"].as_u64()), (Some(1), Some(8)), "{json}");
        assert_eq!((json["games"].as_u64(), json["trainer_games"].as_u64()), (Some(8), Some(8)), "{json}");
        assert_eq!((json["iteration"].as_u64(), json["iterations"].as_u64()), (Some(1), Some(1)), "{json}");
        assert!(json["step"].as_u64().is_some_and(|s| s > 0), "{json}");
        assert!(json["positions"].as_u64().is_some_and(|p| p > 0), "{json}");
        assert!(json["checkpoint"].as_str().is_some_and(|c| c.contains("step-")), "{json}");
        assert_eq!(json["finished"].as_bool(), Some(true), "{json}");
        assert!(json["last_iteration"]["games_per_hour"].as_f64().is_some_and(|g| g > 0.0), "{json}");
        assert!(json["last_error"].is_null(), "{json}");
    }
    // Two runs as text: two blocks.
    assert_eq!(status_text(&[&a, &b]).matches("run          ").count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_run_is_reported_and_a_bad_one_fails_the_command_at_the_end() {
    let dir = fresh_dir("several");
    let (run, empty) = (dir.join("run"), dir.join("empty"));
    tiny_run(&run);
    std::fs::create_dir_all(&empty).unwrap();
    // The same run before and after the bad folder: the one after it must be reported too.
    let paths = [run.to_str().unwrap(), empty.to_str().unwrap(), run.to_str().unwrap()];
    for json in [false, true] {
        let mut args = vec!["runs", "status"];
        args.extend(json.then_some("--json"));
        args.extend(paths);
        let out = vzero(&args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let (text, err) = (stdout(&out), stderr(&out));
        let reports = if json { text.lines().count() } else { text.matches("run          ").count() };
        assert_eq!(reports, 2, "both reports of the run: {text}");
        assert!(err.contains(&format!("{} is not a run directory", empty.display())), "{err}");
        assert!(err.contains("1 of the 3 run directories could not be read"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_with_a_config_but_no_run_gets_one_message_and_keeps_no_lock() {
    let dir = fresh_dir("not-a-run");
    let model = dir.join("mini-hexchess");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/mini-hexchess");
    common::copy_dir(&shipped, &model);
    let before: Vec<_> = std::fs::read_dir(&model).unwrap().map(|e| e.unwrap().file_name()).collect();
    let m = model.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["teach", "--run", m, "--positions", "10"],
        &["runs", "status", m],
        &["runs", "endings", m],
        &["selfplay", "--run", m, "--games", "1"],
        &["train", "--resume", m],
        &["gauntlet", m],
    ];
    let said = format!("{m} is not a run directory: it has no replay/ folder");
    for args in commands {
        let out = vzero(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(&said), "{args:?}: {err}");
        assert!(!err.contains("No such file"), "{args:?}: a bare OS error: {err}");
    }
    let after: Vec<_> = std::fs::read_dir(&model).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(after, before, "a command left a file in a folder that is not a run");
    std::fs::remove_dir_all(&dir).unwrap();
}
