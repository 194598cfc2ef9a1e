//! End-to-end tests of the `vzero` command line: what users type and what they get back.

mod common;

use std::process::Output;

use common::{config_path, tiny_run, vzero};
use nn::checkpoint::RUN_CHECKPOINTS;

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

#[test]
fn train_runs_a_tiny_config_and_prints_the_evaluation_table() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-train-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.to_str().unwrap();
    let args = [
        "train",
        "--config",
        &cfg,
        "--run",
        run,
        "--set",
        "training.iterations=1",
        "--set",
        "evaluation.games=2",
        "--set",
        "evaluation.untrained=true",
        "--quiet",
    ];
    let out = vzero(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("network vs") && text.contains("random") && text.contains("mcts"), "{text}");
    // The untrained network beside the trained one, each score with its Elo interval.
    let header = text.lines().find(|l| l.starts_with("network vs")).unwrap();
    assert!(header.contains("step 0") && header.matches("Elo [95% interval]").count() == 2, "{text}");
    let metrics = std::fs::read_to_string(dir.join("metrics.jsonl")).unwrap();
    let untrained = metrics.lines().filter(|l| l.contains(r#""network":"step-000000000""#)).count();
    let baselines = text.lines().skip_while(|l| !l.starts_with("network vs")).skip(1).count();
    assert!(baselines >= 2 && untrained == baselines, "{untrained} untrained matches for {baselines} rows: {text}");
    assert!(stderr(&out).contains("on cpu"), "the run must say which device it uses");
    // The same command again finds its finished run (a requeued job); another config for the
    // same directory is refused with a hint (issue 17: requeue-safe starting).
    let again = vzero(&args);
    assert!(again.status.success() && stdout(&again).contains("already complete"), "{}", stderr(&again));
    let other = vzero(&[&args[..], &["--set", "seed=12345"]].concat());
    assert_eq!(other.status.code(), Some(1));
    assert!(stderr(&other).contains("--resume"), "{}", stderr(&other));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run with Gumbel search at the root plays, stores its targets and trains like a PUCT one.
#[test]
fn train_runs_a_tiny_config_with_gumbel_search() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-gumbel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.join("run");
    let args = ["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    let sets = ["--set", "search.root=gumbel", "--set", "search.gumbel_actions=4"];
    let out = vzero(&[&args[..], &sets, &["--set", "training.iterations=1", "--set", "evaluation.games=0"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let config = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(config.contains("root = \"gumbel\"") && config.contains("gumbel_actions = 4"), "{config}");
    // A checkpoint past the untrained one: the stored targets were sampled and trained on.
    let trained = std::fs::read_dir(run.join(RUN_CHECKPOINTS))
        .unwrap()
        .filter(|e| !e.as_ref().unwrap().path().ends_with("step-000000000"))
        .count();
    assert!(trained >= 1, "no trained checkpoint in {}", run.display());
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

#[test]
fn perft_counts_and_divide_match_the_spec() {
    let out = vzero(&["perft", "glinski", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim_end(), "nodes 137858");
    assert!(stderr(&out).contains("nodes/s"), "speed goes to stderr");

    let out = vzero(&["perft", "mini-hexchess", "2", "--divide", "--threads", "2"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"nodes 71"));
    let sum: u64 =
        lines[..lines.len() - 1].iter().map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(lines.len() - 1, 9, "one line per root move");
    assert_eq!(sum, 71);

    let out = vzero(&["perft", "glinski", "4", "--threads", "2", "--no-bulk"]);
    assert_eq!(stdout(&out).trim_end(), "nodes 7282418");
}

#[test]
fn perft_moves_are_played_first_and_a_bad_one_is_named() {
    let out = vzero(&["perft", "glinski", "1", "--moves", "f5-f6 e7-e6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&vzero(&["perft", "glinski", "1", "--moves", "f5-f6 e5-e6"]));
    assert!(err.contains("move 2") && err.contains("e5-e6"), "{err}");
    let err = stderr(&vzero(&["perft", "glinski", "1", "--position", "nonsense w - 0 1"]));
    assert!(err.contains("--position") && err.contains("bad position text"), "{err}");
}

#[test]
fn arena_prints_a_table_with_elo_and_appends_json() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-arena-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("results.jsonl");
    let out = vzero(&[
        "arena",
        "--variant",
        "mini-hexchess",
        "greedy",
        "mcts:16",
        "--games",
        "6",
        "--threads",
        "2",
        "--sprt",
        "0,50",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("greedy") && text.contains("mcts:16") && text.contains("Elo of greedy over mcts:16"),
        "{text}"
    );
    assert!(text.contains("SPRT [0, 50]"), "{text}");
    let line = std::fs::read_to_string(&out_file).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["games"], 6);
    assert_eq!((&v["games_planned"], &v["interrupted"]), (&serde_json::json!(6), &serde_json::json!(false)));
    let endings = v["endings"].as_object().expect("how the games ended");
    assert_eq!(endings.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 6, "{endings:?}");
    assert!(text.contains("endings: "), "{text}");
    assert!(v["elo"]["low"].as_f64().unwrap() <= v["elo"]["high"].as_f64().unwrap());

    // A trained checkpoint as a player (a run directory means its newest checkpoint).
    let run = dir.join("run");
    tiny_run(&run);
    let player = format!("{}:8", run.display());
    let out = vzero(&["arena", "--variant", "mini-hexchess", &player, "random", "--games", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&vzero(&["arena", "--variant", "glinski", &player, "random", "--games", "2"]));
    assert!(err.contains("plays mini-hexchess") && err.contains("glinski"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn arena_three_players_report_captures_by_seat_and_bad_players_are_named() {
    let out =
        vzero(&["arena", "--variant", "wellisch", "greedy", "random", "random", "--games", "6", "--max-plies", "60"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("king captures by seat"), "{}", stdout(&out));
    let err = stderr(&vzero(&["arena", "--variant", "wellisch", "greedy", "random", "--games", "2"]));
    assert!(err.contains("3 players, 2 given"), "{err}");
    let err = stderr(&vzero(&["arena", "--variant", "glinski", "grandmaster", "random"]));
    assert!(err.contains("'grandmaster'") && err.contains("random, greedy, mcts"), "{err}");
}

#[test]
fn alphabeta_beats_greedy_and_bad_depths_are_refused() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-alphabeta-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("results.jsonl");
    let args = ["arena", "--variant", "glinski", "alphabeta:1", "greedy", "--games", "4", "--threads", "2"];
    let out = vzero(&[&args[..], &["--out", out_file.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let line = std::fs::read_to_string(&out_file).unwrap();
    let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["players"][0], "alphabeta:1");
    let (wins, draws) = (v["wins"][0].as_u64().unwrap(), v["draws"].as_u64().unwrap());
    assert!(wins >= 3 && wins + draws == 4, "alphabeta:1 against greedy: {}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();

    for (spec, expected) in [
        ("alphabeta", "no depth given"),
        ("alphabeta:0", "depth 0: expected 1 to 30"),
        ("alphabeta:99", "depth 99: expected 1 to 30"),
        ("alphabeta:2:0", "time limit 0 ms"),
        ("alphabeta:2:soon", "MS 'soon' is not a whole number"),
        ("alphabeta:2:100:5", "more than two numbers"),
    ] {
        let err = stderr(&vzero(&["arena", "--variant", "mini", spec, "greedy", "--games", "2"]));
        assert!(err.contains(&format!("player '{spec}'")) && err.contains(expected), "{spec}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{spec}: {err}");
    }
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::{BufRead, BufReader};
    // `vzero bench perft | head -1`: the reader goes away after the first line.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["bench", "perft"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("perft"), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "vzero wrote to stderr after its reader left: {err}");
}

#[test]
fn arena_refuses_matches_that_cannot_be_played_or_judged() {
    let refused = |args: &[&str], expect: &str| {
        let out = vzero(&[&["arena"][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?} was played");
        let err = stderr(&out);
        assert!(err.contains(expect) && err.lines().count() == 1, "{args:?}: {err}");
    };
    refused(&["--variant", "glinski", "greedy", "random", "--games", "0"], "--games");
    // A player naming no simulations takes --sims, which the docs say cannot be 0 either.
    refused(&["--variant", "glinski", "mcts", "random", "--sims", "0"], "--sims");
    refused(&["--variant", "glinski", "greedy", "random", "--engine-nodes", "0"], "--engine-nodes");
    refused(&["--variant", "glinski", "mcts:0", "random"], "'mcts:0': a search needs at least 1 simulation");
    refused(&["--variant", "glinski", "greedy", "rollout:0"], "'rollout:0'");
    refused(&["--variant", "glinski", "greedy", "random", "--sprt", "20,0"], "ELO0 must be below ELO1");
    refused(&["--variant", "glinski", "greedy", "random", "--sprt", "5,5"], "ELO0 must be below ELO1");
    refused(&["--variant", "wellisch", "greedy", "random", "random", "--games", "4"], "multiple of 6");
}

#[test]
fn an_all_draw_match_reports_an_interval_of_some_width() {
    // Two random players, four plies each: every game is adjudicated a draw at the ply limit.
    let out = vzero(&["arena", "--variant", "glinski", "random", "random", "--games", "4", "--max-plies", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("Elo of")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("+0 (95% interval -"), "{line}");
    assert!(!line.contains("interval +0 to +0") && !line.contains("interval -0 to"), "{line}");
}

/// Partial is marked partial: a match stopped by Ctrl-C prints and records (`--out`) that it
/// was interrupted, with the games it played of those planned.
#[test]
fn arena_stopped_by_a_signal_prints_the_results_so_far() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-arena-stop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("results.jsonl");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_vzero"))
        .args(["arena", "--variant", "mini-hexchess", "greedy", "random", "--games", "1000000"])
        .args(["--out", out_file.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::wait_for_handler(child.id(), 2);
    // Some games in, so that there are results to print.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let status = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "arena still running a minute after Ctrl-C");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    assert!(text.contains("stopped by a signal after") && text.contains("of 1000000 games"), "{text}");
    assert!(text.contains("Elo of greedy over random"), "{text}");
    let record: serde_json::Value = serde_json::from_str(std::fs::read_to_string(&out_file).unwrap().trim()).unwrap();
    let games = record["games"].as_u64().unwrap();
    assert!(games > 0 && games < 1_000_000, "{record}");
    assert_eq!(
        (&record["games_planned"], &record["interrupted"]),
        (&serde_json::json!(1_000_000), &serde_json::json!(true))
    );
    assert!(text.starts_with(&format!("stopped by a signal after {games} of 1000000 games")), "{text}");
    assert!(text.contains(&format!("mini-hexchess: {games} of 1000000 games (")), "the table says so too: {text}");
    // What the signal does, as it happens: the games in progress are abandoned, no training
    // step is meant.
    let err = stderr(&out);
    assert!(
        err.contains("vzero: stopping at once: the games in progress are abandoned") && !err.contains("step"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_quote_a_long_bad_input_by_its_first_hundred_characters() {
    let long = "x".repeat(5000);
    let moves = format!("f5-f6 {long}");
    for args in [
        vec!["perft", "glinski", "1", "--position", &long],
        vec!["perft", "glinski", "1", "--moves", &moves],
        vec!["arena", "--variant", "glinski", &long, "random"],
        vec!["perft", &long, "1"],
    ] {
        let err = stderr(&vzero(&args));
        assert!(err.contains(&"x".repeat(100)) && err.contains("(5000 characters)"), "{}", &err[..err.len().min(300)]);
        assert!(err.len() < 600, "{} characters: {}", err.len(), &err[..300]);
    }
}

#[test]
fn export_refuses_outputs_that_would_destroy_or_cannot_be_written() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    tiny_run(&run);
    let run_text = run.to_str().unwrap();
    let checkpoint = std::fs::read_dir(run.join(RUN_CHECKPOINTS)).unwrap().next().unwrap().unwrap().path();
    let refused = |out: &str, expect: &str| {
        let result = vzero(&["export", run_text, "--out", out]);
        assert_eq!(result.status.code(), Some(1), "--out {out} was written");
        let err = stderr(&result);
        assert!(err.contains(expect) && err.lines().count() == 1, "--out {out}: {err}");
    };
    let config = run.join("config.toml");
    let before = std::fs::read(&config).unwrap();
    refused(config.to_str().unwrap(), "would overwrite");
    refused(dir.join("model.json").to_str().unwrap(), "give the model another extension");
    refused(dir.join("missing/model.pt").to_str().unwrap(), "does not exist");
    refused(checkpoint.join("model.pt").to_str().unwrap(), "inside the checkpoint");
    std::fs::write(run.join("model.pt.json"), "{}").unwrap();
    refused(run.join("model.pt").to_str().unwrap(), "would overwrite");
    assert_eq!(std::fs::read(&config).unwrap(), before, "the run's config was touched");
    // A fresh name inside the run directory, or outside it, is fine.
    assert!(vzero(&["export", run_text, "--out", run.join("fresh.pt").to_str().unwrap()]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_diverging_run_stops_naming_the_step_and_keeps_only_sound_checkpoints() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-diverge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.join("run");
    let args = ["train", "--config", &cfg, "--run", run.to_str().unwrap(), "--quiet"];
    let out = vzero(&[&args[..], &["--set", "training.learning_rate=1000", "--set", "evaluation.games=0"]].concat());
    assert_eq!(out.status.code(), Some(1), "a diverging run exited {:?}", out.status);
    let err = stderr(&out);
    assert!(err.contains("training diverged at step") && err.contains("not finite"), "{err}");
    // Only the starting checkpoint exists, and it is sound: export takes it.
    let checkpoints: Vec<_> =
        std::fs::read_dir(run.join(RUN_CHECKPOINTS)).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(checkpoints.len(), 1, "{checkpoints:?}");
    assert!(checkpoints[0].ends_with("step-000000000"), "{checkpoints:?}");
    let model = dir.join("model.pt");
    assert!(vzero(&["export", run.to_str().unwrap(), "--out", model.to_str().unwrap()]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_requeued_train_command_resumes_its_run_or_names_what_changed() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-requeue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    tiny_run(&run);
    let metrics = || std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    let before = metrics();
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run_text = run.to_str().unwrap();
    let line = ["train", "--config", &cfg, "--run", run_text, "--quiet"];
    // The same job line again (as a requeued job runs it): the finished run is found, not redone.
    let again = vzero(&[&line[..], &["--set", "training.iterations=1", "--set", "evaluation.games=0"]].concat());
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).contains("resuming it"), "{}", stderr(&again));
    assert!(stdout(&again).contains("already complete"), "{}", stdout(&again));
    assert_eq!(metrics(), before, "a finished run was played or evaluated again");
    // `--resume` of the finished run says so too.
    let resumed = vzero(&["train", "--resume", run_text, "--quiet"]);
    assert!(resumed.status.success() && stdout(&resumed).contains("already complete"), "{}", stdout(&resumed));
    assert_eq!(metrics(), before);
    // Another config for the same directory is refused, naming what differs.
    let other = vzero(&[&line[..], &["--set", "training.iterations=2", "--set", "evaluation.games=0"]].concat());
    assert_eq!(other.status.code(), Some(1));
    let err = stderr(&other);
    assert!(err.contains("another config") && err.contains("training.iterations: 1 -> 2"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keep_checkpoints_keeps_the_newest_and_the_run_still_resumes() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-keep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = config_path("mini-hexchess-tiny.toml");
    let run = dir.join("run");
    let run_text = run.to_str().unwrap();
    let sets =
        ["--set", "training.iterations=3", "--set", "evaluation.games=0", "--set", "training.keep_checkpoints=2"];
    let out = vzero(&[&["train", "--config", &cfg, "--run", run_text, "--quiet"][..], &sets].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let mut kept: Vec<String> = std::fs::read_dir(run.join(RUN_CHECKPOINTS))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    kept.sort();
    assert_eq!(kept.len(), 2, "{kept:?}");
    let newest = nn::checkpoint::verify_checkpoint(&run.join(RUN_CHECKPOINTS).join(&kept[1])).unwrap();
    assert_eq!(newest.iteration, 3, "the newest checkpoint was deleted: {kept:?}");
    // The newest is kept: a resume with one more iteration starts from it.
    let more = vzero(&["train", "--resume", run_text, "--quiet", "--set", "training.iterations=4"]);
    assert!(more.status.success(), "{}", stderr(&more));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn foreign_or_inconsistent_shards_are_skipped_by_name_and_training_goes_on() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-foreign-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    tiny_run(&run);
    common::plant_foreign_and_broken_shards(&run, 3);
    let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "training.iterations=2"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("9999999999990-other-1-000001.shard") && err.contains("variant 'glinski'"), "{err}");
    assert!(err.contains("9999999999991-other-1-000002.shard") && err.contains("no legal move"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Numbers that cannot make a search or a measurement are refused as usage errors naming the
/// flag, instead of running for minutes (`analyse --threads 5000`), spinning forever (`bench
/// replay --batch 0`), printing `ratio inf` (`bench selfplay --seconds 0`) or a table of
/// 0-visit moves (`analyse --sims 0`).
#[test]
fn meaningless_numbers_are_refused_naming_the_flag() {
    let refused = |args: &[&str], flag: &str| {
        let out = vzero(args);
        assert_eq!(out.status.code(), Some(2), "{args:?} ran");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(flag) && err.trim().lines().count() == 1, "{args:?}: {err}");
    };
    refused(&["analyse", "--variant", "mini-hexchess", "--model", "none", "--threads", "5000"], "--threads");
    refused(&["analyse", "--variant", "mini-hexchess", "--model", "none", "--threads", "0"], "--threads");
    refused(&["analyse", "--variant", "mini-hexchess", "--model", "none", "--sims", "0"], "--sims");
    refused(&["play", "--variant", "mini-hexchess", "--model", "none", "--sims", "0"], "--sims");
    refused(&["gauntlet", "runs/none", "--sims", "0"], "--sims");
    refused(&["bench", "replay", "--batch", "0", "--positions", "100", "--seconds", "1"], "--batch");
    refused(&["bench", "selfplay", "--seconds", "0"], "--seconds");
    refused(&["bench", "nn", "--threads", "0"], "--threads");
}

/// `vzero args` is a usage error (exit 2) of one line that refuses the value of `flag`, naming
/// `range`.
fn refused_naming_range(args: &[&str], flag: &str, range: &str) {
    let out = vzero(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?} ran: {err}");
    let said = format!("for '{flag} ");
    assert!(err.contains(&said) && err.contains(range) && err.trim().lines().count() == 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

/// Every number a command cannot use is refused before any work, as a usage error (exit 2)
/// whose one line names the flag and the range it takes: a thread count that cannot be
/// spawned (`perft --threads 100000` panicked), a batch that cannot be allocated (`bench
/// replay --batch 1000000000` aborted), and zeros that were played without comment.
#[test]
fn every_bad_number_is_a_usage_error_naming_the_flag_and_its_range() {
    let refused = refused_naming_range;
    let arena = ["arena", "--variant", "glinski", "random", "random", "--games", "2"];
    refused(&["perft", "glinski", "2", "--threads", "100000"], "--threads", "1..=256");
    refused(&["perft", "glinski", "2", "--threads", "0"], "--threads", "1..=256");
    refused(&[&arena[..], &["--threads", "0"]].concat(), "--threads", "1..=256");
    refused(&[&arena[..], &["--max-plies", "0"]].concat(), "--max-plies", "1..");
    refused(&["analyse", "--variant", "mini-hexchess", "--model", "none", "--multipv", "0"], "--multipv", "1..");
    refused(&["bench", "mcts", "--simulations", "0"], "--simulations", "1..");
    refused(&["bench", "replay", "--positions", "1000", "--batch", "1000000000"], "--batch", "1..=65536");
    refused(&["bench", "nn", "--batches", "1,1000000000"], "--batches", "1..=65536");
}

/// The flags that had no top have one, named with the flag when a value is past it, and the
/// top itself is taken (the command goes on to fail for another reason, or is stopped by a
/// missing flag, never by this one): plies, game indices, moves drawn, seconds waited, counts.
#[test]
fn numbers_past_a_flags_top_are_refused_and_the_top_is_taken() {
    let refused = refused_naming_range;
    let taken = |args: &[&str], flag: &str| {
        let err = stderr(&vzero(args));
        assert!(!err.contains(&format!("for '{flag} ")) && err.trim().lines().count() == 1, "{args:?}: {err}");
    };
    let arena = ["arena", "--variant", "glinski", "random", "random", "--games", "2"];
    let arena = |extra: &[&'static str]| [&arena[..], extra].concat();
    // Gauntlet of a folder that is no run: every value parsed, then a quick error.
    let gauntlet = |extra: &[&'static str]| [&["gauntlet", "runs/none"][..], extra].concat();
    let render = ["render", "--game", "/nonexistent/g.shard", "--out", "/nonexistent/x.svg"];
    let render = |extra: &[&'static str]| [&render[..], extra].concat();
    let replay = |extra: &[&'static str]| {
        [&["replay", "/nonexistent/g.shard", "--out", "/nonexistent/x.html"][..], extra].concat()
    };

    for (flag, past, top, range) in [
        ("--opening-plies", "100001", "100000", "0..=100000"),
        ("--max-plies", "100001", "100000", "1..=100000"),
        ("--tactical-prior-plies", "1000001", "1000000", "0..=1000000"),
        ("--tactical-temperature", "100.5", "100", "0.01..=100"),
        ("--lcb-width", "101", "100", "0..=100"),
        ("--adjudicate-material", "10001", "10000", "0..=10000"),
    ] {
        refused(&arena(&[flag, past]), flag, range);
        refused(&gauntlet(&[flag, past]), flag, range);
        taken(&gauntlet(&[flag, top]), flag);
    }
    refused(
        &["analyse", "--variant", "glinski", "--tactical-prior-plies", "1000001"],
        "--tactical-prior-plies",
        "0..=1000000",
    );
    refused(&arena(&["--engine-nodes", "1000000001"]), "--engine-nodes", "1..=1000000000");
    taken(&["arena", "--variant", "glinski", "random", "nobody", "--engine-nodes", "1000000000"], "--engine-nodes");
    refused(&render(&["--ply", "1", "--top", "5001"]), "--top", "0..=5000");
    refused(&render(&["--ply", "1", "--game-index", "1000000"]), "--game-index", "0..=999999");
    refused(&render(&["--ply", "100001"]), "--ply", "0..=100000");
    taken(&render(&["--top", "5000", "--game-index", "999999", "--ply", "100000"]), "--top");
    refused(&replay(&["--top", "5001"]), "--top", "0..=5000");
    refused(&replay(&["--game-index", "1000000"]), "--game-index", "0..=999999");
    taken(&replay(&["--top", "5000", "--game-index", "999999"]), "--top");
    refused(&["selfplay", "--run", "runs/none", "--wait", "604801"], "--wait", "0..=604800");
    refused(&["selfplay", "--run", "runs/none", "--games", "1000001"], "--games", "1..=1000000");
    refused(&["selfplay", "--run", "runs/none", "--games", "0"], "--games", "1..=1000000");
    // Without --run, so that a taken --wait does not wait a week.
    taken(&["selfplay", "--wait", "604800", "--games", "1000000"], "--wait");
    refused(&["teach", "--run", "runs/none", "--positions", "1000000001"], "--positions", "1..=1000000000");
    taken(&["teach", "--run", "runs/none", "--positions", "1000000000"], "--positions");
    refused(&["runs", "endings", "runs/none", "--every", "1000001"], "--every", "0..=1000000");
    taken(&["runs", "endings", "runs/none", "--every", "1000000"], "--every");
    refused(&["bench", "alphabeta", "--seconds", "86401"], "--seconds", "0.001..=86400");
    taken(&["bench", "bogus", "--seconds", "86400"], "--seconds");
}

/// A bad value of any flag or argument, judged on its text alone, exits 2 in every command
/// (it was 1 in some and 2 in others): numbers, player specs, position and move text.
#[test]
fn a_bad_flag_value_exits_2_in_every_command() {
    for args in [
        &["arena", "--variant", "glinski", "mcts:0", "random"][..],
        &["arena", "--variant", "glinski", "random", "random", "--position", "nonsense"],
        &["analyse", "--variant", "glinski", "--moves", "f5-f6 f5-f4"],
        &["analyse", "--variant", "glinski", "--position", "nonsense"],
        &["perft", "glinski", "2", "--moves", "a1-a9"],
        &["encode", "--variant", "glinski", "--position", "nonsense", "--out", "/tmp/vzero-never-written"],
        &["render", "--variant", "glinski", "--moves", "a1-a9", "--out", "/tmp/vzero-never-written.svg"],
        &["play", "--variant", "glinski", "--model", "none", "--position", "nonsense"],
        &["gauntlet", "runs/none", "--against", "alphabeta:0"],
        &["teach", "--run", "runs/none", "--teacher", "alphabeta:0"],
    ] {
        let out = vzero(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "vzero {args:?}: {err}");
        assert!(err.starts_with("vzero: ") && err.trim_end().lines().count() == 1, "vzero {args:?}: {err}");
    }
}

/// A perft too deep to count says so at once: `perft mini-hexchess 30` ran silently for
/// ever; a count past a 64-bit number is refused, and a long one says first what it will cost.
#[test]
fn a_deep_perft_says_what_it_will_cost_first() {
    use std::io::{BufRead, BufReader};
    let child = common::vzero_command()
        .args(["perft", "mini-hexchess", "30"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::output_within(child, std::time::Duration::from_secs(60), "perft mini-hexchess 30 ran on");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("depth 30") && err.contains("64-bit"), "{err}");
    let mut child = common::vzero_command()
        .args(["perft", "glinski", "8"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.contains("depth 8") && first.contains("leaves") && first.contains("about"), "{first}");
}

/// The end-of-run evaluation shows a progress bar on a terminal, as self-play and training do
/// (it was silent for over 30 s), and none when stderr is not one: plain lines there instead
/// (tests/progress.rs). The terminal is `script`'s.
#[test]
fn the_final_evaluation_shows_progress_on_a_terminal_only() {
    let dir = std::env::temp_dir().join(format!("vzero-cli-evalbar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = config_path("mini-hexchess-tiny.toml");
    let train = |run: &str| {
        let run = dir.join(run);
        format!(
            "{} train --config {cfg} --run {} --set training.iterations=1",
            env!("CARGO_BIN_EXE_vzero"),
            run.display()
        )
    };
    let piped = std::process::Command::new("sh").args(["-c", &train("piped")]).output().unwrap();
    assert!(piped.status.success(), "{}", stderr(&piped));
    let err = stderr(&piped);
    assert!(!err.contains('\r') && !err.contains('\u{1b}'), "a bar on a pipe: {err}");
    assert!(err.contains("4/4 evaluation games vs mcts"), "no progress line on a pipe: {err}");
    let Ok(out) = std::process::Command::new("script").args(["-qec", &train("tty"), "/dev/null"]).output() else {
        eprintln!("no `script` here to give vzero a terminal; the terminal half is not checked");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for opponent in ["random", "mcts"] {
        assert!(text.contains(&format!("4 evaluation games vs {opponent}")), "no bar for {opponent}: {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weltschach_matches_score_material_at_the_move_limit_by_default() {
    // Greedy takes material from random within 20 plies; the limit scores it by default on the
    // cube, and as a draw with --adjudicate-material 0 (the other boards' default).
    let game = ["arena", "--variant", "weltschach", "greedy", "random", "--games", "2", "--max-plies", "20"];
    let out = vzero(&game);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("endings: material at the move limit 2"), "{text}");
    assert!(text.contains("greedy      2      0      0"), "{text}");
    let out = vzero(&[&game[..], &["--adjudicate-material", "0"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("endings: move limit 2"), "{}", stdout(&out));
    let out = vzero(&[&game[..], &["--adjudicate-material", "nan"]].concat());
    assert!(stderr(&out).contains("nan is not in 0..=10000"), "{}", stderr(&out));
}
