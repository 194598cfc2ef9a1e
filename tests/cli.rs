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
