//! `vzero play` driven through standard input, as a script would: games played to their end, bad
//! input answered with a reason, and the commands that list, show and take back moves.

mod common;

use std::io::Write;
use std::process::Stdio;
use std::time::Duration;

use common::output_within;

/// Glinski, White to move: Rc6-a6 mates the black king on a1 (b7 rook, e6 bishop cover the rest).
const GLINSKI_MATE_IN_ONE: &str = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60";
/// Wellisch, P1 to move and in check from P2's rook on F1 (P3's rook on G2 covers row 2): P1
/// can only pass, then P2 takes the king on A1.
const WELLISCH_KING_HUNT: &str =
    "....../......./.......3K/2K......../........../.........../........../........./......../......3R/1K....2R 1 - - 0";

/// Runs `vzero play ARGS` with `input` on its standard input; returns its exit success and its
/// standard output and error.
fn play(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = common::vzero_command()
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start vzero play");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = output_within(child, Duration::from_secs(120), "vzero play did not end with its input");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn a_two_player_game_is_played_to_checkmate_with_undo_moves_and_show() {
    let input = "hello\nmoves c6\nmoves z9\nshow\nf1-f2\nundo\nc6-a6\nthis line is never read\n";
    let (ok, out, err) = play(&["--variant", "glinski", "--sims", "16", "--position", GLINSKI_MATE_IN_ONE], input);
    assert!(ok, "{err}");
    assert!(out.contains("no model, the uniform evaluator"), "{out}");
    // The board: a hexagon of labelled cells, the kings on f1 and a1.
    assert!(out.contains("f1 K") && out.contains("a1 k") && out.contains("f11 ."), "{out}");
    assert!(out.contains("Not played: cannot read move 'hello'"), "{out}");
    assert!(out.contains("17 legal moves:\nc6-a4 c6-a6"), "moves from c6: {out}");
    assert!(out.contains("There is no cell 'z9' on this board."), "{out}");
    let show = out.split("White to move> show").nth(1).unwrap();
    assert!(show.contains("16 nodes") && show.contains("c6-a6"), "{show}");
    // f1-f2, Black's reply, then both taken back: f1 holds the king again.
    let reply = out.split("Black (model) plays ").nth(1).unwrap().split_whitespace().next().unwrap();
    assert!(out.contains(&format!("Took back f1-f2 {reply}.")), "{out}");
    let after_undo = out.split("Took back").nth(1).unwrap();
    assert!(after_undo.contains("f1 K") && after_undo.contains("a1 k"), "{after_undo}");
    assert!(after_undo.contains("a6*R") && after_undo.contains("c6*."), "the mate is marked: {after_undo}");
    assert!(out.trim_end().ends_with("Game over: Checkmate: Black is mated, White wins."), "{out}");
    assert!(!out.contains("never read"));
}

#[test]
fn a_wellisch_game_ends_with_the_persons_king_capture() {
    let input = "moves F1\nF1-Z9\nF1-A1\n";
    let args = ["--variant", "wellisch", "--sims", "8", "--as", "p2", "--position", WELLISCH_KING_HUNT];
    let (ok, out, err) = play(&args, input);
    assert!(ok, "{err}");
    assert!(out.contains("You play P2.") && out.contains("The model plays P1 and P3"), "{out}");
    assert!(out.contains("P1 (model) plays pass"), "P1's only move: {out}");
    assert!(out.contains("A1 K1") && out.contains("C8 K2"), "pieces carry their seat: {out}");
    assert!(out.contains("16 legal moves:") && out.contains("F1-A1"), "{out}");
    assert!(out.contains("Not played: cannot read move 'F1-Z9': 'Z9' is not a Wellisch cell"), "{out}");
    assert!(
        out.trim_end().ends_with("Game over: King captured: P2 took P1's king, scores P1 0, P2 1, P3 0.5."),
        "{out}"
    );
}

#[test]
fn the_end_of_input_leaves_the_game_and_bad_flags_say_what_was_expected() {
    let (ok, out, _) = play(&["--variant", "mini-hexchess", "--sims", "4", "--as", "black"], "");
    assert!(ok);
    assert!(out.contains("Black to move>") && out.contains("White (model) plays"), "{out}");
    assert!(out.trim_end().ends_with("End of input: leaving the game unfinished."), "{out}");
    let (ok, _, err) = play(&["--variant", "mini-hexchess", "--as", "green"], "");
    assert!(!ok);
    assert!(err.contains("--as 'green': 'green' is not a seat: expected a seat name (white, black)"), "{err}");
    let (ok, _, err) = play(&["--variant", "glinski", "--position", "not a position"], "");
    assert!(!ok && err.contains("--position"), "{err}");
}

/// Bytes that are not UTF-8, or a line too long to read, are answered at the prompt and the
/// game goes on (it stopped with "stream did not contain valid UTF-8").
#[test]
fn a_line_that_is_not_text_is_answered_and_the_game_goes_on() {
    let mut input = b"\xff\xfe moves\n".to_vec();
    input.extend_from_slice(&vec![b'x'; 100_000]);
    input.extend_from_slice(b"\nc6-a6\n");
    let mut child = common::vzero_command()
        .args(["play", "--variant", "glinski", "--sims", "16", "--position", GLINSKI_MATE_IN_ONE])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start vzero play");
    // A play that stops early closes its input: what it printed says why.
    let _ = child.stdin.take().unwrap().write_all(&input);
    let out = output_within(child, Duration::from_secs(120), "vzero play did not end with its input");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Not read: that line is not UTF-8 text."), "{text}");
    assert!(text.contains("Not read: a line of 100000 bytes is too long to read"), "{text}");
    assert!(text.trim_end().ends_with("Game over: Checkmate: Black is mated, White wins."), "{text}");
}

#[test]
fn a_seat_named_twice_is_refused() {
    let (ok, _, err) = play(&["--variant", "wellisch", "--as", "p1,p1"], "");
    assert!(!ok);
    assert!(err.contains("--as 'p1,p1': seat 'p1' is named twice"), "{err}");
}

/// Control bytes a person (or a script) typed are quoted back escaped, never raw: a raw ESC in a
/// message would drive the terminal that shows it (clear it, recolour it, retitle it).
#[test]
fn control_bytes_in_quoted_input_are_escaped() {
    let raw = |text: &str| text.chars().any(|c| c.is_control() && c != '\n');
    let input = "f5\u{1b}[2J-f6\u{7}\nmoves \u{1b}]0;title\u{7}\nc6-a6\n";
    let (ok, out, err) = play(&["--variant", "glinski", "--sims", "16", "--position", GLINSKI_MATE_IN_ONE], input);
    assert!(ok, "{err}");
    assert!(!raw(&out) && !raw(&err), "raw control bytes in the output: {out:?} {err:?}");
    assert!(out.contains("Not played: ") && out.contains(r"f5\x1b[2J-f6\x07"), "{out}");
    assert!(out.contains(r"There is no cell '\x1b]0;title\x07'"), "{out}");
    let (ok, _, err) = play(&["--variant", "mini-hexchess", "--as", "\u{1b}[31mgreen"], "");
    assert!(!ok && !raw(&err), "raw control bytes in the error: {err:?}");
    assert!(err.contains(r"--as '\x1b[31mgreen'"), "{err}");
}

#[test]
fn with_a_clock_the_model_searches_by_its_time_and_a_person_out_of_time_loses() {
    let dir = common::scratch("play-clock");
    let saved = dir.join("game.vgn");
    let saved_arg = saved.to_str().unwrap();
    // A hundred million simulations would take hours; the clock's budget (about 12 s / 30 a
    // move) ends each search instead.
    let args = ["--variant", "mini-hexchess", "--sims", "100000000", "--as", "white", "--clock", "0.2+0"];
    let started = std::time::Instant::now();
    let (ok, out, err) = play(&[&args[..], &["--save", saved_arg]].concat(), "c2-c3\n");
    assert!(ok, "{err}");
    assert!(started.elapsed() < Duration::from_secs(10), "the model's move took {:?}", started.elapsed());
    assert!(out.contains("searching as long as its clock allows (every seat has 12 s, 0 s more a move)"), "{out}");
    assert!(out.contains("Black (model) plays "), "{out}");
    assert!(out.contains("Clocks: White 0:1") && out.contains(", Black 0:1"), "{out}");
    // Time kept: the saved game names its control.
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("[TimeControl \"12+0\"]") && text.contains("[Result \"*\"]"), "{text}");

    // A person who never moves loses on time, with the input still open.
    let mut child = common::vzero_command()
        .args(["play", "--variant", "mini-hexchess", "--model", "none", "--clock", "0.02+0", "--save", saved_arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    let out = output_within(child, Duration::from_secs(30), "a person out of time did not lose");
    drop(input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("Game over: White lost on time.\nSaved the game to"), "{printed}");
    let games = rules::read_games(&std::fs::read_to_string(&saved).unwrap(), None).unwrap();
    let last = games.last().unwrap();
    assert_eq!(last.termination, Some(rules::Termination::Time), "{last:?}");
    assert_eq!(last.result.map(|r| r.as_slice().to_vec()), Some(vec![0.0, 1.0]));
    // Refused: a clock that is no time control.
    let (ok, _, err) = play(&["--variant", "mini-hexchess", "--clock", "5+x"], "");
    assert!(!ok && err.contains("expected MIN+INC"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
