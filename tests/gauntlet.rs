//! `vzero gauntlet`: checkpoints of a tiny run against fixed opponents, results kept in the run
//! and reused, one rating table; a config's `[gauntlet]` plays one during training.

mod common;

use std::path::{Path, PathBuf};

use common::{config_path, tiny_run, vzero};
use selfplay::gauntlet::GauntletMatch;
use selfplay::RunDir;
use selfplay::{read_events, RunEvent};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-gauntlet-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn gauntlet_events(run: &Path) -> Vec<GauntletMatch> {
    let text = std::fs::read_to_string(RunDir::unchecked(run).metrics()).unwrap();
    read_events(&text)
        .events
        .into_iter()
        .filter_map(|e| if let RunEvent::Gauntlet(g) = e { Some(g) } else { None })
        .collect()
}

fn gauntlet(run: &Path, games: &str) -> String {
    gauntlet_with(run, games, &[])
}

fn gauntlet_with(run: &Path, games: &str, extra: &[&str]) -> String {
    let args = ["gauntlet", run.to_str().unwrap(), "--checkpoints", "all", "--against", "random,greedy"];
    let flags = ["--games", games, "--sims", "4", "--max-plies", "60", "--device", "cpu"];
    let out = vzero(&[&args[..], &flags, extra].concat());
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    text
}

#[test]
fn a_gauntlet_rates_every_checkpoint_and_plays_only_missing_games() {
    let run = fresh_dir("cli");
    tiny_run(&run);
    let checkpoints = nn::checkpoint::list_checkpoints(&RunDir::unchecked(&run).checkpoints()).unwrap().len();
    assert!(checkpoints >= 2, "a tiny run saves its start and its end");

    let first = gauntlet(&run, "2");
    // Said before the first game: how many games, and why that many.
    let plan = format!(
        "{} pairings ({checkpoints} checkpoints x 2 opponents), 2 games each: {} games to play",
        2 * checkpoints,
        4 * checkpoints
    );
    assert!(first.lines().next().is_some_and(|l| l.contains(&plan)), "{plan}: {first}");
    let events = gauntlet_events(&run);
    assert_eq!(events.len(), 2 * checkpoints, "one match per checkpoint and opponent: {first}");
    assert!(events.iter().all(|g| g.games == 2 && g.sims == 4 && g.player_moves > 0), "{events:?}");
    assert!(first.contains("random = 0") && first.contains("step-000000000"), "{first}");
    let table_rows = first.lines().filter(|l| l.starts_with("step-") && l.contains('%')).count();
    assert!(table_rows >= checkpoints, "a row per checkpoint: {first}");

    // The same request again plays nothing; a bigger one plays only the difference.
    let again = gauntlet(&run, "2");
    assert_eq!(gauntlet_events(&run).len(), 2 * checkpoints, "games replayed: {again}");
    assert!(again.contains(&format!("0 games to play, {} played before", 4 * checkpoints)), "{again}");
    // Its games as text: one per pairing, the checkpoint and its opponent named.
    let games_out = run.with_extension("vgn");
    let bigger = gauntlet_with(&run, "3", &["--games-out", games_out.to_str().unwrap()]);
    let games = rules::read_games(&std::fs::read_to_string(&games_out).unwrap(), None).unwrap();
    assert_eq!(games.len(), 2 * checkpoints, "{bigger}");
    for game in &games {
        assert_eq!(game.tag("Event"), Some("vzero gauntlet"));
        assert!(game.seats.iter().any(|s| s.starts_with("step-")), "{:?}", game.seats);
        assert!(game.seats.iter().any(|s| s == "random" || s == "greedy"), "{:?}", game.seats);
        assert!(game.result.is_some() && game.termination.is_some(), "{game:?}");
    }
    std::fs::remove_file(&games_out).unwrap();
    assert!(
        bigger.contains(&format!("{} games to play, {} played before", 2 * checkpoints, 4 * checkpoints)),
        "{bigger}"
    );
    let events = gauntlet_events(&run);
    assert_eq!(events.len(), 4 * checkpoints, "one more match of one game per pairing");
    assert!(events[2 * checkpoints..].iter().all(|g| g.games == 1), "{events:?}");

    let svg = run.join("curves.svg");
    let out = vzero(&["plot", run.to_str().unwrap(), "--out", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("Gauntlet rating (random = 0, 4 sims"), "the rating panels are drawn");
    std::fs::remove_dir_all(run).unwrap();
}

#[test]
fn a_gauntlet_with_tactics_is_kept_apart_from_one_without() {
    let run = fresh_dir("tactics");
    tiny_run(&run);
    gauntlet(&run, "2");
    let plain = gauntlet_events(&run).len();
    let args = ["gauntlet", run.to_str().unwrap(), "--checkpoints", "last", "--against", "greedy", "--games", "2"];
    let out =
        vzero(&[&args[..], &["--sims", "4", "--max-plies", "60", "--device", "cpu", "--tactics", "0.5"]].concat());
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    let events = gauntlet_events(&run);
    assert_eq!(events.len(), plain + 1, "the same pairing with tactics is a new match: {text}");
    assert_eq!(events.last().unwrap().tactics().tactics_weight, 0.5);
    assert!(events[..plain].iter().all(|g| g.tactics().tactics_weight == 0.0));
    assert!(text.contains("with --tactics 0.5"), "the table is of the tactics matches: {text}");
    let table_rows = text.lines().filter(|l| l.starts_with("step-") && !l.contains(" vs ")).count();
    assert_eq!(table_rows, 1, "only the checkpoint played with tactics: {text}");

    let deeper = ["--sims", "4", "--max-plies", "60", "--device", "cpu", "--tactics", "0.5", "--tactics-depth", "1"];
    let out = vzero(&[&args[..], &deeper].concat());
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    let events = gauntlet_events(&run);
    assert_eq!(events.len(), plain + 2, "a deeper tactical search is a new match too: {text}");
    let last = events.last().unwrap().tactics();
    assert_eq!((last.tactics_weight, last.tactics_depth), (0.5, 1));
    assert!(events[..plain + 1].iter().all(|g| g.tactics().tactics_depth == 0));
    assert!(text.contains("with --tactics 0.5 --tactics-depth 1"), "{text}");
    std::fs::remove_dir_all(run).unwrap();
}

/// The games of the table's checkpoint row in `text` (a gauntlet's output).
fn checkpoint_games(text: &str) -> Vec<usize> {
    let rows = text.lines().filter(|l| l.starts_with("step-") && !l.contains(" vs "));
    rows.map(|l| l.split_whitespace().nth(3).unwrap().trim_end_matches('*').parse().unwrap()).collect()
}

#[test]
fn games_under_another_ply_limit_or_adjudication_are_another_table() {
    // A table once added up games played under --max-plies 40 and 400 (or adjudication 0.0001
    // and 0) into one row of 4, its title naming neither.
    let run = fresh_dir("settings");
    tiny_run(&run);
    let path = run.to_str().unwrap();
    let play = |more: &[&str]| {
        let args = ["gauntlet", path, "--against", "random", "--games", "2", "--sims", "8", "--device", "cpu"];
        let out = vzero(&[&args[..], more].concat());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        text
    };
    for more in
        [&["--max-plies", "40"][..], &["--max-plies", "400"], &["--max-plies", "40", "--adjudicate-material", "0.0001"]]
    {
        let text = play(more);
        let title = text.lines().find(|l| l.contains(" gauntlet at 8 simulations with ")).expect("a table");
        let adjudication = more.get(3).unwrap_or(&"0");
        let named = format!("--max-plies {} --adjudicate-material {adjudication}:", more[1]);
        assert!(title.contains(&named), "{named}: {text}");
        assert_eq!(checkpoint_games(&text), [2], "only this setting's games: {text}");
        let plan = text.lines().next().unwrap_or_default();
        assert!(plan.ends_with(": 2 games to play"), "none counted as played before: {text}");
    }
    assert_eq!(gauntlet_events(&run).len(), 3, "each setting played its own games");
    // The table-only view shows the one its flags ask for, and names the others.
    let shown = vzero(&["gauntlet", path, "--table-only", "--sims", "8", "--max-plies", "400"]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains("--max-plies 400 --adjudicate-material 0:"), "{text}");
    assert!(text.contains("note: the run has gauntlet results under other settings too"), "{text}");
    assert!(text.contains("--max-plies 40 --adjudicate-material 0.0001"), "{text}");
    // Asked at a count it has no results at, it names the counts it has.
    let none = vzero(&["gauntlet", path, "--table-only"]);
    let text = String::from_utf8_lossy(&none.stdout);
    assert!(text.contains("no gauntlet results at 64 simulations") && text.contains("--sims 8"), "{text}");
    std::fs::remove_dir_all(run).unwrap();
}

#[test]
fn bad_gauntlet_requests_are_refused_in_one_line() {
    let run = fresh_dir("bad");
    tiny_run(&run);
    let path = run.to_str().unwrap();
    for (args, expected) in [
        (vec!["--against", "grredy"], "grredy"),
        (vec!["--checkpoints", "every:0"], "every:K"),
        (vec!["--games", "0"], "--games"),
        // Every checkpoint of a long run is thousands of games: refused, not begun.
        (
            vec!["--checkpoints", "all", "--games", "600"],
            "games to play: more than --max-games 1000; expected at most 1000",
        ),
        // A run directory's newest checkpoint learns: on the fixed scale it would move the ruler.
        (vec!["--against", path], "is a run directory"),
        (vec!["--against", path], "vzero arena"),
    ] {
        let out = vzero(&[&["gauntlet", path, "--device", "cpu"][..], &args].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let out = vzero(&["gauntlet", "/nonexistent/run"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a run directory"));
    std::fs::remove_dir_all(run).unwrap();
}

#[test]
fn a_config_gauntlet_plays_during_training() {
    let run = fresh_dir("config");
    let cfg = config_path("mini-hexchess-tiny.toml");
    let sets = ["gauntlet.every=1", "gauntlet.games=2", "gauntlet.simulations=4", "training.iterations=2"];
    let mut args = vec!["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    args.extend(["--set", "evaluation.games=0", "--set", "selfplay.max_plies=40"]);
    for s in &sets {
        args.extend(["--set", s]);
    }
    let out = vzero(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let events = gauntlet_events(&run);
    let players: std::collections::BTreeSet<&str> = events.iter().map(|g| g.player.as_str()).collect();
    assert_eq!(events.len(), 4, "two opponents after each of two iterations: {events:?}");
    assert_eq!(players.len(), 2, "each iteration's newest checkpoint: {players:?}");
    let bad = vzero(&[
        "train",
        "--config",
        &cfg,
        "--run",
        "/tmp/unused",
        "--set",
        "gauntlet.every=1",
        "--set",
        "gauntlet.against=['step-1']",
    ]);
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("gauntlet.against"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    std::fs::remove_dir_all(run).unwrap();
}

/// With `each_other` and `against_teacher` the run's gauntlet draws the learning curve's
/// head-to-head lines as it trains: every measured checkpoint against the teacher-only one and
/// against the checkpoint measured before it, the ones it still needs kept from deletion.
#[test]
fn a_config_gauntlet_plays_the_teacher_and_the_checkpoint_before() {
    let run = fresh_dir("chain");
    let cfg = config_path("mini-hexchess-tiny.toml");
    let sets = [
        "evaluation.games=0",
        "selfplay.max_plies=40",
        "teacher.positions=200",
        "teacher.player=alphabeta:1",
        "teacher.steps=4",
        "training.iterations=3",
        "training.keep_checkpoints=1",
        "gauntlet.every=1",
        "gauntlet.against=[]",
        "gauntlet.games=2",
        "gauntlet.simulations=4",
        "gauntlet.each_other=true",
        "gauntlet.against_teacher=true",
    ];
    let mut args = vec!["train", "--config", &cfg, "--run", run.to_str().unwrap()];
    for s in &sets {
        args.extend(["--set", s]);
    }
    let out = vzero(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let events = read_events(&std::fs::read_to_string(RunDir::unchecked(&run).metrics()).unwrap()).events;
    let teacher_step = events.iter().find_map(|e| if let RunEvent::Pretrain(p) = e { Some(p.step) } else { None });
    let teacher = format!("step-{:09}", teacher_step.expect("the run pretrained on its teacher"));
    let matches = gauntlet_events(&run);
    let pairs: Vec<(&str, &str)> = matches.iter().map(|g| (g.player.as_str(), g.opponent.as_str())).collect();
    let mut measured: Vec<&str> = pairs.iter().map(|p| p.0).collect();
    measured.dedup();
    assert_eq!(measured.len(), 3, "one checkpoint after each iteration: {pairs:?}");
    let anchor = format!("teacher-only {teacher}");
    // The first block's checkpoint before it is the teacher-only one, played once as the anchor.
    let expected = vec![
        (measured[0], anchor.as_str()),
        (measured[1], anchor.as_str()),
        (measured[1], measured[0]),
        (measured[2], anchor.as_str()),
        (measured[2], measured[1]),
    ];
    assert_eq!(pairs, expected, "{stderr}");
    assert!(matches.iter().all(|g| g.games == 2 && g.wall_seconds > 0.0), "{matches:?}");
    let kept = nn::checkpoint::list_checkpoints(&RunDir::unchecked(&run).checkpoints()).unwrap();
    let names: Vec<String> = kept.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert!(names.contains(&teacher), "the teacher-only checkpoint outlives keep_checkpoints = 1: {names:?}");
    assert!(stderr.contains("of the run's logged time"), "{stderr}");
    let table = vzero(&["gauntlet", run.to_str().unwrap(), "--table-only", "--sims", "4", "--max-plies", "40"]);
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(table.contains(&format!("{} vs {anchor}: 2 games", measured[2])), "{table}");
    assert!(table.contains(&format!("{} vs {}: 2 games", measured[2], measured[1])), "{table}");
    std::fs::remove_dir_all(run).unwrap();
}

/// A `uci:` opponent of the config's gauntlet that cannot run is reported once when the run
/// starts, before anything is written (it was found after the first iteration's self-play, in a
/// message that said it twice).
#[test]
fn a_config_engine_that_cannot_run_is_refused_when_the_run_starts() {
    let run = fresh_dir("engine");
    let cfg = config_path("mini-hexchess-tiny.toml");
    let out = vzero(&[
        "train",
        "--config",
        &cfg,
        "--run",
        run.to_str().unwrap(),
        "--set",
        "gauntlet.every=1",
        "--set",
        "gauntlet.against=['uci:/nonexistent/engine', 'random']",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line, before any iteration: {err}");
    assert_eq!(err.matches("/nonexistent/engine").count(), 2, "named once, as player and program: {err}");
    assert!(err.contains("player 'uci:/nonexistent/engine': cannot run '/nonexistent/engine'"), "{err}");
    assert!(!run.exists(), "nothing of the run was written");
}

/// A gauntlet stopped by Ctrl-C logs the match it cut short as interrupted, with the games it
/// planned, and its table marks the players whose games are not all played.
#[test]
fn a_gauntlet_stopped_by_a_signal_marks_its_match_interrupted() {
    let run = fresh_dir("stopped");
    tiny_run(&run);
    let child = common::vzero_command()
        .args(["gauntlet", run.to_str().unwrap(), "--against", "random", "--games", "100000", "--sims", "2"])
        // A match meant to be cut short: more games than a gauntlet plans unless told to.
        .args(["--max-plies", "40", "--device", "cpu", "--max-games", "100000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_for_handler(child.id(), 2);
    // Some games in: the match has results to keep.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = common::output_within(child, std::time::Duration::from_secs(60), "the gauntlet ignored Ctrl-C");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(3), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let events = gauntlet_events(&run);
    assert_eq!(events.len(), 1, "{events:?}");
    let g = &events[0];
    assert!(g.interrupted && g.games_planned == 100_000 && g.games > 0 && g.games < 100_000, "{g:?}");
    assert!(text.contains(&format!("vs random: {} of 100000 games (interrupted)", g.games)), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("step-") && !l.contains(" vs "))
        .unwrap_or_else(|| panic!("no table: {text}"));
    assert!(row.contains(&format!(" {}* ", g.games)), "{row}");
    assert!(text.contains("* a gauntlet was stopped before"), "{text}");
    std::fs::remove_dir_all(run).unwrap();
}

/// A `uci:` engine that answers the handshake and exits when asked for its first move.
fn vanishing_engine(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("gone.sh");
    // Each command is answered as it comes, whatever vzero sends between `uci` and `isready`, so
    // the engine dies at the first `go` of every game and nowhere else.
    let script = "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo uciok ;;\n    isready) echo readyok ;;\n    go*) exit 0 ;;\n  esac\ndone\n";
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("uci:{}", path.display())
}

/// An opponent that dies mid-game loses by forfeit, and the gauntlet says so (as `arena` does)
/// in its match lines, its table and metrics.jsonl, not only as a 100% score.
#[test]
fn an_engine_that_dies_mid_game_is_reported_as_forfeits_alone_and_inside_a_run() {
    let run = fresh_dir("forfeit");
    let engine = vanishing_engine(&fresh_dir("forfeit-engine"));
    let cfg = config_path("mini-hexchess-tiny.toml");
    let against = format!("gauntlet.against=['{engine}']");
    let mut args = vec!["train", "--config", &cfg, "--run", run.to_str().unwrap()];
    for s in ["training.iterations=1", "evaluation.games=0", "gauntlet.every=1", "gauntlet.games=2"] {
        args.extend(["--set", s]);
    }
    args.extend(["--set", "gauntlet.simulations=4", "--set", &against]);
    let out = vzero(&args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    let said = format!("{engine} forfeited 2 games: crashed 2");
    assert!(err.lines().any(|l| l.starts_with("gauntlet: ") && l.contains(&said)), "inside a run: {err}");
    let events = gauntlet_events(&run);
    assert_eq!(events.len(), 1, "{events:?}");
    let metrics = std::fs::read_to_string(RunDir::unchecked(&run).metrics()).unwrap();
    assert!(metrics.contains(r#""opponent_forfeits":{"crashed":2}"#), "{metrics}");

    let args = ["gauntlet", run.to_str().unwrap(), "--checkpoints", "all", "--against", &engine, "--games", "2"];
    let out = vzero(&[&args[..], &["--sims", "4", "--max-plies", "60", "--device", "cpu"]].concat());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let match_lines: Vec<&str> = text.lines().filter(|l| l.contains(" vs ")).collect();
    assert!(!match_lines.is_empty() && match_lines.iter().all(|l| l.contains(&said)), "{text}");
    let table = text.split_once("gauntlet at").map(|(_, t)| t).unwrap_or_else(|| panic!("no table: {text}"));
    let noted = table.lines().any(|l| l.starts_with(&format!("{engine} forfeited ")) && l.contains(": crashed "));
    assert!(noted, "the table's note: {table}");
    std::fs::remove_dir_all(run).unwrap();
}

#[test]
fn a_checkpoint_folder_is_an_anchor_the_others_are_rated_against() {
    let run = fresh_dir("anchor");
    tiny_run(&run);
    let first = nn::checkpoint::list_checkpoints(&RunDir::unchecked(&run).checkpoints()).unwrap().remove(0);
    let anchor = format!("{}:4", first.display());
    let args = ["gauntlet", run.to_str().unwrap(), "--checkpoints", "last", "--against", &anchor, "--games", "2"];
    let out = vzero(&[&args[..], &["--sims", "4", "--max-plies", "60", "--device", "cpu"]].concat());
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    let events = gauntlet_events(&run);
    assert!(events.len() == 1 && events[0].opponent == anchor && events[0].games == 2, "{events:?}");
    assert!(text.lines().any(|l| l.starts_with(&anchor)), "the anchor has its row: {text}");
    let pair = text
        .lines()
        .skip_while(|l| !l.starts_with("head to head"))
        .find(|l| l.contains(&format!(" vs {anchor}: 2 games")));
    assert!(pair.is_some_and(|l| l.starts_with("step-") && l.contains("Elo")), "a head-to-head line: {text}");
    let svg = run.join("curves.svg");
    let out = vzero(&["plot", run.to_str().unwrap(), "--out", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.contains("Head to head") && chart.contains(&format!("vs {anchor}")), "the head-to-head panel");
    std::fs::remove_dir_all(run).unwrap();
}
