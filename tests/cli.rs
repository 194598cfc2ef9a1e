//! End-to-end tests of the `vzero` command line: what users type and what they get back.

use std::process::{Command, Output};

fn vzero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vzero")).args(args).output().expect("run vzero")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_lists_the_subcommands() {
    let out = vzero(&["--help"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for sub in ["variants", "perft", "bench"] {
        assert!(text.contains(sub), "--help does not mention {sub}:\n{text}");
    }
}

#[test]
fn variants_lists_all_four_one_line_each() {
    let out = vzero(&["variants"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (line, name) in lines.iter().zip(["glinski", "mini-hexchess", "wellisch", "weltschach"]) {
        assert!(line.starts_with(name), "expected a line for {name}, got '{line}'");
    }
    assert!(lines[3].contains("reconstructed"), "Weltschach's setup must be labelled a reconstruction");
}

#[test]
fn a_bad_argument_is_one_line_and_exit_code_2() {
    for args in [&["perft", "chess", "3"][..], &["--frobnicate"], &["perft", "glinski", "deep"], &["nosuchcommand"]] {
        let out = vzero(args);
        assert_eq!(out.status.code(), Some(2), "vzero {args:?}");
        let err = stderr(&out);
        assert_eq!(err.trim_end().lines().count(), 1, "vzero {args:?} printed more than one line:\n{err}");
        assert!(err.starts_with("vzero: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn unknown_variant_names_the_choices() {
    let err = stderr(&vzero(&["perft", "chess", "1"]));
    assert!(err.contains("'chess'") && err.contains("glinski") && err.contains("weltschach"), "{err}");
}

fn config_path(name: &str) -> String {
    format!("{}/configs/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn train_runs_a_tiny_config_and_prints_the_evaluation_table() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.to_str().unwrap();
    let args = ["train", "--config", &cfg, "--run", run, "--set", "training.iterations=1", "--set", "evaluation.games=2", "--quiet"];
    let out = vzero(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("network vs") && text.contains("random") && text.contains("uniform-mcts"), "{text}");
    assert!(stderr(&out).contains("on cpu"), "the run must say which device it uses");
    // Starting a second run in the same directory is refused with a hint.
    let again = vzero(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("--resume"), "{}", stderr(&again));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_with_a_bad_config_says_which_file_and_key() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-badcfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("bad.toml");
    std::fs::write(&cfg, "variant = \"glinski\"\n[selfplay]\nworkerz = 2\n").unwrap();
    let out = vzero(&["train", "--config", cfg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("bad.toml") && err.contains("line 3") && err.contains("workerz"), "{err}");
    let missing = vzero(&["train", "--config", "/nonexistent/x.toml"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("/nonexistent/x.toml"));
    std::fs::remove_dir_all(&dir).unwrap();
}
