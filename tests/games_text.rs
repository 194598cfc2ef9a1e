//! Games as text (docs/games.md) through the program: what `arena --games-out` and `play
//! --save` write is read back by `replay`, `render --game` and `analyse --game`, for every
//! variant; a broken game file is refused naming its line and move; `--games-out` is checked
//! before the first game as every output is; a match cut short resumes from its file.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use common::{scratch, stderr_of, stdout_of, vzero, vzero_command};
use rules::{read_games, GameText, Variant};

/// `vzero ARGS`, which must succeed; its standard output.
fn ok(args: &[&str]) -> String {
    let out = vzero(args);
    assert!(out.status.success(), "vzero {args:?}: {}", stderr_of(&out));
    stdout_of(&out)
}

/// The games of the text file at `path`.
fn games_in(path: &Path) -> Vec<GameText> {
    read_games(&std::fs::read_to_string(path).unwrap(), None).unwrap()
}

#[test]
fn arena_games_of_every_variant_are_read_back_by_replay_render_and_analyse() {
    let dir = scratch("games-text-arena");
    for (variant, players, games) in [
        ("glinski", &["alphabeta:1", "random"][..], "2"),
        ("mini-hexchess", &["greedy", "random"], "4"),
        ("wellisch", &["greedy", "random", "random"], "6"),
        ("weltschach", &["greedy", "random"], "2"),
    ] {
        let file = dir.join(format!("{variant}.vgn"));
        let flags =
            ["--variant", variant, "--games", games, "--max-plies", "40", "--games-out", file.to_str().unwrap()];
        ok(&[&["arena"][..], players, &flags].concat());
        let read = games_in(&file);
        assert_eq!(read.len().to_string(), games, "{variant}");
        for game in &read {
            assert_eq!(game.variant, variant.parse::<Variant>().unwrap());
            assert_eq!(game.seats.len(), players.len());
            assert!(game.result.is_some() && game.termination.is_some(), "{game:?}");
        }
        // The last game: every ply drawn, the last position pictured, and analysed.
        let last = read.len() - 1;
        let (index, plies) = (last.to_string(), read[last].moves.len());
        let html = dir.join(format!("{variant}.html"));
        let replayed = ok(&["replay", file.to_str().unwrap(), "--game-index", &index, "--out", html.to_str().unwrap()]);
        assert!(replayed.contains(&format!("({plies} plies)")), "{replayed}");
        let svg = dir.join(format!("{variant}.svg"));
        let ply = plies.to_string();
        ok(&[
            "render",
            "--game",
            file.to_str().unwrap(),
            "--game-index",
            &index,
            "--ply",
            &ply,
            "--out",
            svg.to_str().unwrap(),
        ]);
        let json = ok(&[
            "analyse",
            "--game",
            file.to_str().unwrap(),
            "--game-index",
            &index,
            "--model",
            "none",
            "--sims",
            "8",
            "--json",
        ]);
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let expected =
            rules::VariantGame::setup(read[last].variant, read[last].start.as_deref(), &read[last].moves).unwrap();
        let at = if expected.outcome().is_some() { plies - 1 } else { plies };
        let position =
            rules::VariantGame::setup(read[last].variant, read[last].start.as_deref(), &read[last].moves[..at])
                .unwrap();
        assert_eq!(json["position"], position.to_text(), "{variant}: the last position with a move to play");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_match_from_another_start_keeps_it_and_a_second_match_appends() {
    let dir = scratch("games-text-start");
    let file = dir.join("games.vgn");
    let start = "b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 b - 0 1";
    let flags = ["--variant", "mini-hexchess", "--games", "2", "--max-plies", "10", "--position", start];
    let out = ["--games-out", file.to_str().unwrap()];
    ok(&[&["arena", "random", "greedy"][..], &flags, &out].concat());
    ok(&[&["arena", "greedy", "greedy"][..], &flags, &out].concat());
    let games = games_in(&file);
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g.start.as_deref() == Some(start)), "{games:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\n1... "), "Black moves first: {text}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_match_cut_short_resumes_from_its_games_file_and_ends_as_one_sitting_would() {
    let dir = scratch("games-text-resume");
    let (whole, part) = (dir.join("whole.vgn"), dir.join("part.vgn"));
    let flags = ["--variant", "mini-hexchess", "--max-plies", "60", "greedy", "random"];
    let arena = |file: &Path, more: &[&str]| {
        let out = ["--games-out", file.to_str().unwrap()];
        ok(&[&["arena"][..], &flags, &out, more].concat())
    };
    let ours = ["--games", "6", "--seed", "3"];
    let whole_table = arena(&whole, &ours);
    let whole_games = games_in(&whole);
    assert_eq!(whole_games.len(), 6);
    // What a stopped sitting leaves: some of the match's games, in any order, after games of
    // another match (another seed) that the resumed match passes over.
    arena(&part, &["--games", "4", "--seed", "4"]);
    let kept: String = [4, 0, 1].iter().map(|&i| whole_games[i].write()).collect();
    std::fs::OpenOptions::new().append(true).open(&part).unwrap().write_all(kept.as_bytes()).unwrap();
    let record = dir.join("record.jsonl");
    let resumed_table = arena(&part, &[&ours[..], &["--resume", "--out", record.to_str().unwrap()]].concat());
    assert!(resumed_table.contains("resuming: 3 of 6 games already in"), "{resumed_table}");
    let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!((&record["games"], &record["resumed_games"]), (&6.into(), &3.into()), "{record}");
    // The totals agree, but for the time a move took, which the kept games do not record.
    let totals = |table: &str| -> Vec<String> {
        let rows = table.lines().filter(|l| ["greedy", "random", "Elo"].iter().any(|p| l.starts_with(p)));
        rows.map(|l| l.split_whitespace().take(5).collect::<Vec<_>>().join(" ")).collect()
    };
    assert_eq!(totals(&resumed_table), totals(&whole_table), "{resumed_table}\n{whole_table}");
    let by_round = |mut games: Vec<GameText>| {
        games.sort_by_key(|g| g.tag("Round").unwrap().parse::<usize>().unwrap());
        games.into_iter().map(|g| (g.seats, g.moves, g.result)).collect::<Vec<_>>()
    };
    let resumed_games = games_in(&part).split_off(4);
    assert_eq!(resumed_games.len(), 6, "the three missing games are played, each once");
    assert_eq!(by_round(resumed_games), by_round(whole_games), "every game as one sitting plays it");
    // Resuming needs the file that keeps the games.
    let out = vzero(&[&["arena", "--resume"][..], &flags, &ours].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_game_played_in_the_terminal_is_saved_and_analysed() {
    let dir = scratch("games-text-play");
    let file = dir.join("mine.vgn");
    let mut child = vzero_command()
        .args([
            "play",
            "--variant",
            "mini-hexchess",
            "--model",
            "none",
            "--sims",
            "4",
            "--save",
            file.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"d3-d4\nc2-c3\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains(&format!("Saved the game to {}.", file.display())), "{}", stdout_of(&out));
    let games = games_in(&file);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!((game.moves.len(), game.moves[0].as_str(), game.moves[2].as_str()), (4, "d3-d4", "c2-c3"));
    assert_eq!((game.seats[0].as_str(), game.seats[1].as_str(), game.result), ("person", "mcts:4", None));
    let json =
        ok(&["analyse", "--game", file.to_str().unwrap(), "--ply", "2", "--model", "none", "--sims", "8", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let position = rules::VariantGame::setup(Variant::MiniHexchess, None, &game.moves[..2]).unwrap();
    assert_eq!(json["position"], position.to_text());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_broken_game_file_is_refused_naming_the_line_and_the_move() {
    let dir = scratch("games-text-broken");
    let file = dir.join("broken.vgn");
    std::fs::write(&file, "[Variant \"mini-hexchess\"]\n\n1. d3-d4 c5-c4\n2. d4-d6 *\n").unwrap();
    let html = dir.join("out.html");
    let out = vzero(&["replay", file.to_str().unwrap(), "--out", html.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let expected =
        format!("reading the game file {}: line 4: move 2 (White, ply 3): illegal move 'd4-d6'", file.display());
    assert!(stderr_of(&out).contains(&expected), "{}", stderr_of(&out));
    let out = vzero(&["analyse", "--game", file.to_str().unwrap(), "--game-index", "3"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    std::fs::write(&file, "[Variant \"mini-hexchess\"]\n\n1. d3-d4 *\n").unwrap();
    let out = vzero(&["analyse", "--game", file.to_str().unwrap(), "--game-index", "3"]);
    assert!(stderr_of(&out).contains("--game-index 3 is out of range: the file holds 1 games"), "{}", stderr_of(&out));
    let out = vzero(&["analyse", "--game", file.to_str().unwrap(), "--variant", "glinski"]);
    assert!(
        stderr_of(&out).contains("--variant glinski does not match the game, which is mini-hexchess"),
        "{}",
        stderr_of(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn games_out_is_checked_before_the_first_game() {
    let dir = scratch("games-text-out");
    let run = dir.join("run");
    common::fake_run(&run);
    std::fs::create_dir_all(run.join("games")).unwrap();
    let inside = run.join("games/mine.vgn");
    let out =
        vzero(&["arena", "--variant", "mini-hexchess", "random", "random", "--games-out", inside.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains(&format!("--games-out {}: inside ", inside.display())), "{}", stderr_of(&out));
    let missing = dir.join("no/such/folder/games.vgn");
    let out = vzero(&["play", "--variant", "mini-hexchess", "--save", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains(&format!("--save {}", missing.display())), "{}", stderr_of(&out));
    std::fs::remove_dir_all(dir).unwrap();
}
