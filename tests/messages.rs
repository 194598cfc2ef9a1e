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
