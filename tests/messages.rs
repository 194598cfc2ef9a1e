//! Messages people read: an OS error said once, a checkpoint not called a "player", a bad
//! `--device` a usage error like a bad `--variant`, numbers with sensible digits, tables that
//! stay aligned with long names, and the documentation's render example working as written.

mod common;

use common::{scratch, stderr_of, stdout_of, tiny_run, vzero};

#[test]
fn an_os_error_is_said_once() {
    // Not an OS error at all: a folder that is not a run is said to be one, in one line.
    let out = vzero(&["runs", "status", "/nonexistent"]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("/nonexistent is not a run directory") && !err.contains("os error"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for args in [
        vec!["render", "--game", "/nonexistent/g.shard", "--ply", "0", "--out", "/tmp/x.svg"],
        vec!["train", "--config", "/nonexistent/c.toml", "--run", "/tmp/nonexistent-run"],
    ] {
        let out = vzero(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr_of(&out);
        assert_eq!(err.matches("os error 2").count(), 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn export_of_a_folder_that_is_no_checkpoint_speaks_of_a_checkpoint() {
    let dir = scratch("messages-export");
    let out = vzero(&["export", dir.to_str().unwrap(), "--out", dir.join("m.pt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(err.contains("neither a checkpoint nor a run directory") && !err.contains("player"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_device_or_precision_is_a_usage_error_as_a_bad_variant_is() {
    for args in [
        vec!["arena", "--variant", "bogus", "random", "random"],
        vec!["arena", "--variant", "mini-hexchess", "random", "random", "--device", "bogus"],
        vec!["analyse", "--variant", "mini-hexchess", "--device", "bogus"],
        vec!["analyse", "--variant", "mini-hexchess", "--precision", "fp8"],
    ] {
        let out = vzero(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr_of(&out));
        let err = stderr_of(&out);
        assert!(err.contains("bogus") || err.contains("fp8"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn runs_status_prints_losses_with_sensible_digits() {
    let dir = scratch("messages-status");
    let run = dir.join("run");
    tiny_run(&run);
    let text = stdout_of(&vzero(&["runs", "status", run.to_str().unwrap()]));
    let line = text.lines().find(|l| l.starts_with("last iter.")).unwrap_or_else(|| panic!("{text}"));
    for loss in ["policy loss ", "value loss "] {
        let value = line.split(loss).nth(1).unwrap().split(',').next().unwrap();
        let decimals = value.split('.').nth(1).map_or(0, str::len);
        assert!(decimals <= 3, "{loss}{value}: {line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_arena_table_fits_long_player_names() {
    let dir = scratch("messages-arena-a-folder-name-long-enough-to-push-the-columns");
    let run = dir.join("run");
    tiny_run(&run);
    let player = format!("{}:4", run.display());
    let out = vzero(&["arena", "--variant", "mini-hexchess", &player, "random", "--games", "2"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    let header = text.lines().find(|l| l.starts_with("player")).unwrap_or_else(|| panic!("{text}"));
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with(&player) || l.starts_with("random ")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert_eq!(row.len(), header.len(), "columns moved:\n{header}\n{row}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/pictures.md's render of a recorded game, run as written (on a run's first shard,
/// which the first iteration writes whatever the number of iterations).
#[test]
fn the_documented_render_of_a_recorded_game_works() {
    let dir = scratch("messages-render-doc");
    let run = dir.join("run");
    tiny_run(&run);
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/pictures.md")).unwrap();
    let line = doc.lines().find(|l| l.starts_with("vzero render --game")).expect("the example is in the page");
    // The example's paths first: the binary's own path may hold them (a clone in /tmp/x).
    let command = line
        .replace("/tmp/x", run.to_str().unwrap())
        .replace("docs/img/mini-hexchess.svg", dir.join("m.svg").to_str().unwrap())
        .replacen("vzero", env!("CARGO_BIN_EXE_vzero"), 1);
    let out = std::process::Command::new("bash").args(["-c", &command]).output().unwrap();
    assert!(out.status.success(), "{line}: {}", stderr_of(&out));
    assert!(dir.join("m.svg").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A config key out of range names the key and its range, wherever it was given: a network of
/// a million channels pointed the user to selfplay/src/config.rs.
#[test]
fn a_size_out_of_range_names_its_key_and_range() {
    let dir = scratch("messages-channels");
    let cfg = common::config_path("mini-hexchess-tiny.toml");
    let file = dir.join("big.toml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    let big: Vec<String> = text
        .lines()
        .map(|l| if l.starts_with("channels") { "channels = 1000000".into() } else { l.to_string() })
        .collect();
    assert!(big.iter().any(|l| l == "channels = 1000000"), "{text}");
    std::fs::write(&file, big.join("\n")).unwrap();
    let run = dir.join("run");
    for args in [
        vec!["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--set", "network.channels=1000000"],
        vec!["train", "--config", file.to_str().unwrap(), "--run", run.to_str().unwrap()],
    ] {
        let out = vzero(&args);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("network.channels") && err.contains("from 1 to 4096"), "{err}");
        assert!(!err.contains("config.rs"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A config file is read up to a size no config comes near: `--config /dev/zero` read until
/// memory ran out.
#[test]
fn an_endless_config_file_is_refused_by_its_size() {
    let dir = scratch("messages-dev-zero");
    let child = common::vzero_command()
        .args(["train", "--config", "/dev/zero", "--run", dir.join("run").to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::output_within(child, std::time::Duration::from_secs(60), "--config /dev/zero read on");
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("/dev/zero") && err.contains("larger than"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Opponents are judged for what they are: a text that names no player is not called a
/// checkpoint (`evaluation.against = bogus`, `--against ''`), and one named twice is refused.
#[test]
fn an_opponent_that_names_no_player_is_not_called_a_checkpoint() {
    let cfg = common::config_path("mini-hexchess-tiny.toml");
    let out =
        vzero(&["train", "--config", &cfg, "--run", "/nonexistent/run", "--set", "evaluation.against=[\"bogus\"]"]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("evaluation.against") && err.contains("random, greedy"), "{err}");
    assert!(!err.contains("not a checkpoint"), "{err}");
    let out = vzero(&[
        "train",
        "--config",
        &cfg,
        "--run",
        "/nonexistent/run",
        "--set",
        "evaluation.against=[\"random\", \"random\"]",
    ]);
    let err = stderr_of(&out);
    assert!(err.contains("evaluation.against") && err.contains("twice"), "{err}");

    let out = vzero(&["gauntlet", "runs/none", "--against", ""]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--against") && err.contains("names no fixed player") && !err.contains("is a run"), "{err}");
    let out = vzero(&["gauntlet", "runs/none", "--against", "random,greedy,random"]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--against") && err.contains("'random'") && err.contains("twice"), "{err}");
}

/// `--teacher` is reported as the flag the user typed, not as the config key it overrides.
#[test]
fn a_bad_teacher_is_reported_as_the_flag() {
    let out = vzero(&["teach", "--run", "runs/none", "--teacher", "alphabeta:0"]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--teacher") && err.contains("alphabeta:0") && !err.contains("--set"), "{err}");
}

/// A `--position` whose game is over has nothing to play, analyse or match: `arena` played
/// games of no moves and `play` waited for one.
#[test]
fn a_finished_position_is_refused_by_play_analyse_and_arena() {
    let finished = common::finished_mini_hexchess();
    for args in [
        vec!["play", "--variant", "mini-hexchess", "--model", "none", "--position", &finished],
        vec!["analyse", "--variant", "mini-hexchess", "--model", "none", "--position", &finished],
        vec!["arena", "--variant", "mini-hexchess", "random", "random", "--games", "2", "--position", &finished],
    ] {
        let out = common::vzero_command().args(&args).stdin(std::process::Stdio::null()).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--position") && err.contains("the game is over"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

/// The shipped model's folder (`models/NAME`) is taken as `--model`; its export, a missing
/// checkpoint path and a folder that is no checkpoint are each answered with what was expected
/// (they were all "neither a checkpoint nor a run directory", or a missing path the generic
/// list of players).
#[test]
fn model_paths_that_name_no_checkpoint_say_what_was_expected() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/mini-hexchess");
    let folder = shipped.to_str().unwrap();
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--sims", "2", "--model", folder]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains(&format!("searching with {folder}/checkpoint")), "{}", stderr_of(&out));
    let export = shipped.join("model.safetensors");
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--sims", "2", "--model", export.to_str().unwrap()]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("a file, not a folder") && err.contains(&format!("its checkpoint is likely {folder}/checkpoint"))
    );
    let expected = "expected a checkpoint folder (holding state.json), a run directory (holding checkpoints/) or a \
                    shipped model's folder (holding checkpoint/)";
    for (player, said) in [("runs/missing", "no such file or folder"), ("./missing:8", "no such file or folder")] {
        let out = vzero(&["arena", "--variant", "mini-hexchess", "random", player, "--games", "2"]);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(&format!("player '{}': {said}; {expected}", player.trim_end_matches(":8"))), "{err}");
    }
    let empty = scratch("messages-no-checkpoint");
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--model", empty.to_str().unwrap()]);
    assert!(stderr_of(&out).contains(&format!("neither a checkpoint nor a run directory; {expected}")));
    std::fs::remove_dir_all(&empty).unwrap();
}

/// `train --run` inside a checkpoint folder or inside a run's replay/ was accepted, its shards
/// and checkpoints written among the other's files.
#[test]
fn a_new_run_inside_a_checkpoint_or_another_run_is_refused() {
    let dir = scratch("messages-nested-run");
    let run = dir.join("run");
    tiny_run(&run);
    let checkpoint = std::fs::read_dir(run.join("checkpoints")).unwrap().next().unwrap().unwrap().path();
    let config = common::config_path("mini-hexchess-tiny.toml");
    for (inside, said) in
        [(checkpoint.join("new"), "inside the checkpoint"), (run.join("replay/new"), "inside the run")]
    {
        let out = vzero(&["train", "--config", &config, "--run", inside.to_str().unwrap(), "--quiet"]);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(said) && err.contains("expected a folder outside any run or checkpoint"), "{err}");
        assert!(!inside.exists(), "{} was made", inside.display());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
