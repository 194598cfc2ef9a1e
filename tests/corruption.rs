//! Corruption is reported: a checkpoint passed over is named with why by `runs status`,
//! `arena`, `gauntlet` and `export`, which also say the checkpoint they use instead; a
//! `$VZERO_MODELS` naming no folder is warned about, and `analyse` says what it searched with.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_dir, scratch, stderr_of, stdout_of, tiny_run, tiny_run_with, vzero, vzero_command};
use nn::checkpoint::RUN_CHECKPOINTS;

/// The run's checkpoint folders, oldest first.
fn checkpoints(run: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(run.join(RUN_CHECKPOINTS)).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    dirs
}

/// Cuts the last bytes off a checkpoint's weights, as a full disk or a bad copy would.
fn truncate_weights(checkpoint: &Path) {
    let weights = checkpoint.join("weights.safetensors");
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..bytes.len() - 100]).unwrap();
}

fn status_json(run: &Path) -> serde_json::Value {
    let out = vzero(&["runs", "status", run.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    serde_json::from_str(&stdout_of(&out)).unwrap()
}

#[test]
fn a_corrupt_newest_checkpoint_is_named_and_the_one_used_instead_said() {
    let dir = scratch("corrupt-newest");
    let run = dir.join("run");
    tiny_run(&run);
    let all = checkpoints(&run);
    let (older, newest) = (&all[all.len() - 2], &all[all.len() - 1]);
    truncate_weights(newest);
    let (older_text, newest_text) = (older.to_str().unwrap(), newest.to_str().unwrap());

    let status = status_json(&run);
    assert_eq!(status["checkpoint"], older_text, "{status}");
    assert_eq!(status["skipped_checkpoints"][0]["checkpoint"], newest_text, "{status}");
    let reason = status["skipped_checkpoints"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("weights.safetensors") && reason.contains("checksum mismatch"), "{reason}");
    let text = vzero(&["runs", "status", run.to_str().unwrap()]);
    assert!(stdout_of(&text).contains(&format!("skipped      {newest_text} (")), "{}", stdout_of(&text));

    let said = |out: &std::process::Output, what: &str| {
        let err = stderr_of(out);
        assert!(err.contains(&format!("skipping checkpoint {newest_text}")), "{what}: {err}");
        assert!(err.contains(&format!("using {older_text}")), "{what}: {err}");
    };
    let player = format!("{}:4", run.display());
    let arena = vzero(&["arena", "--variant", "mini-hexchess", &player, "random", "--games", "2"]);
    assert!(arena.status.success(), "{}", stderr_of(&arena));
    said(&arena, "arena");

    let model = dir.join("model.pt");
    let export = vzero(&["export", run.to_str().unwrap(), "--out", model.to_str().unwrap()]);
    assert!(export.status.success(), "{}", stderr_of(&export));
    said(&export, "export");
    assert!(stdout_of(&export).contains(older_text), "{}", stdout_of(&export));

    let gauntlet = vzero(&["gauntlet", run.to_str().unwrap(), "--games", "2", "--sims", "4", "--against", "random"]);
    assert!(gauntlet.status.success(), "{}", stderr_of(&gauntlet));
    let err = stderr_of(&gauntlet);
    assert!(err.contains(&format!("skipping checkpoint {newest_text}")) && err.contains("checksum mismatch"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn runs_status_reports_unreadable_state_and_a_run_with_no_usable_checkpoint() {
    let dir = scratch("corrupt-all");
    let run = dir.join("run");
    tiny_run(&run);
    let all = checkpoints(&run);
    std::fs::write(all[all.len() - 1].join("state.json"), "{}").unwrap();
    let status = status_json(&run);
    assert_eq!(status["checkpoint"], all[all.len() - 2].to_str().unwrap(), "{status}");
    let reason = status["skipped_checkpoints"][0]["reason"].as_str().unwrap();
    assert!(reason.starts_with("state.json: "), "{reason}");

    for checkpoint in &all[..all.len() - 1] {
        truncate_weights(checkpoint);
    }
    let status = status_json(&run);
    assert!(status["checkpoint"].is_null() && status["step"].is_null(), "{status}");
    assert_eq!(status["skipped_checkpoints"].as_array().unwrap().len(), all.len(), "{status}");
    let text = stdout_of(&vzero(&["runs", "status", run.to_str().unwrap()]));
    assert!(text.contains("checkpoint   none usable"), "{text}");
    let player = format!("{}:4", run.display());
    let arena = vzero(&["arena", "--variant", "mini-hexchess", &player, "random", "--games", "2"]);
    assert_eq!(arena.status.code(), Some(1));
    let err = stderr_of(&arena);
    assert!(err.contains("no other checkpoint is usable") && err.contains("no readable checkpoint"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shipped_model_lookup_warns_about_a_bad_folder_and_analyse_names_its_model() {
    let dir = scratch("corrupt-models");
    let analyse = |models: &Path, extra: &[&str]| {
        let mut command = vzero_command();
        command.env("VZERO_MODELS", models).args(["analyse", "--variant", "mini-hexchess", "--sims", "8", "--json"]);
        let out = command.args(extra).output().unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout_of(&out)).unwrap();
        (stderr_of(&out), json)
    };
    let (err, json) = analyse(&dir.join("missing"), &[]);
    assert!(err.contains("$VZERO_MODELS") && err.contains("does not exist"), "{err}");
    assert!(err.contains("searching with the uniform evaluator") && json["model"].is_null(), "{err}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (err, _) = analyse(&empty, &[]);
    assert!(err.contains("is an empty folder") && err.contains("uniform evaluator"), "{err}");

    let run = dir.join("run");
    tiny_run(&run);
    let newest = checkpoints(&run).pop().unwrap();
    let (err, json) = analyse(&empty, &["--model", run.to_str().unwrap()]);
    assert!(err.contains(&format!("searching with {}", newest.display())), "{err}");
    assert_eq!(json["model"], newest.to_str().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A copy of `checkpoint` saved into `checkpoints` (replacing one of the same step there) with
/// its first weight set to infinity and checksums that match, as a diverged network's would;
/// the copy and the weight's name.
fn not_finite_copy(checkpoint: &Path, checkpoints: &Path) -> (PathBuf, String) {
    use nn::checkpoint::{load_checkpoint, read_state, save_checkpoint};
    let state = read_state(checkpoint).unwrap();
    let config = nn::NetConfig::for_game::<rules::MiniHexchess>(state.blocks, state.channels);
    let mut net = nn::PolicyValueNet::new(&config, nn::Device::Cpu);
    load_checkpoint(checkpoint, &mut net, None).unwrap();
    let (name, mut weight) = net.var_store().variables().into_iter().min_by(|a, b| a.0.cmp(&b.0)).unwrap();
    let _ = tch::no_grad(|| weight.fill_(f64::INFINITY));
    let trainer = nn::Trainer::new(&net, 0.01, 1e-4);
    (save_checkpoint(checkpoints, &net, &trainer, &state).unwrap(), name)
}

/// `vzero` with `input` on its standard input, closed after it.
fn vzero_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child =
        vzero_command().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // An engine that refused at start has closed its input: the write may fail.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    common::output_within(child, std::time::Duration::from_secs(60), &format!("vzero {args:?} ran on"))
}

/// A checkpoint whose weights are not all finite but whose checksums match is refused by
/// every command that loads it, naming the weight, as `export` refused it: `analyse` and
/// `arena` played it with uniform priors. `play` and `uci --model` exit; uci's `Model` option
/// answers with an error and searches with the uniform evaluator, as for any model it cannot
/// load; `gauntlet` refuses to play a run whose chosen checkpoint it is, and `train --resume`
/// sets each such checkpoint aside and cannot resume when every one is.
#[test]
fn a_checkpoint_with_weights_that_are_not_finite_is_refused() {
    let dir = scratch("corrupt-not-finite");
    let run = dir.join("run");
    tiny_run(&run);
    let all = checkpoints(&run);
    let (bad, weight) = not_finite_copy(&all[all.len() - 1], &dir.join("bad"));
    let named = format!("weight {weight} is not finite");
    let bad_text = bad.to_str().unwrap();
    let player = format!("{bad_text}:4");
    for args in [
        &["analyse", "--variant", "mini-hexchess", "--sims", "8", "--model", bad_text][..],
        &["arena", "--variant", "mini-hexchess", &player, "random", "--games", "2"],
        &["play", "--variant", "mini-hexchess", "--sims", "8", "--model", bad_text],
        &["uci", "--model", bad_text],
    ] {
        let out = vzero_with_input(args, "quit\n");
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?} played it: {err}");
        let line = err.lines().find(|l| l.contains(&named)).unwrap_or_else(|| panic!("{args:?}: {err}"));
        assert!(line.starts_with("vzero: ") && line.contains(bad_text), "{args:?}: {err}");
        assert!(stdout_of(&out).is_empty(), "{args:?} answered: {}", stdout_of(&out));
    }

    let input = format!("setoption name Model value {bad_text}\nposition startpos\ngo nodes 10\n");
    let out = vzero_with_input(&["uci", "--variant", "mini-hexchess", "--model", "none"], &input);
    let text = stdout_of(&out);
    let refused: Vec<&str> = text.lines().filter(|l| l.contains(&named)).collect();
    assert_eq!(refused.len(), 1, "{text}");
    assert!(refused[0].starts_with("info string error: option Model: ") && refused[0].contains("uniform"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");

    let newest = all[all.len() - 1].to_str().unwrap();
    not_finite_copy(&all[all.len() - 1], &run.join(RUN_CHECKPOINTS));
    let gauntlet = vzero(&["gauntlet", run.to_str().unwrap(), "--games", "2", "--sims", "4", "--against", "random"]);
    let err = stderr_of(&gauntlet);
    assert_eq!(gauntlet.status.code(), Some(1), "gauntlet played it: {err}");
    let line = err.lines().find(|l| l.contains(&named)).unwrap_or_else(|| panic!("{err}"));
    assert!(line.starts_with(&format!("vzero: player '{newest}': ")), "{err}");
    assert!(!stdout_of(&gauntlet).contains("Elo"), "gauntlet played it: {}", stdout_of(&gauntlet));

    for checkpoint in &all[..all.len() - 1] {
        not_finite_copy(checkpoint, &run.join(RUN_CHECKPOINTS));
    }
    let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "training.iterations=2"]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot resume"), "{err}");
    for checkpoint in &all {
        let renamed = format!("{} renamed to", checkpoint.display());
        let line = err.lines().find(|l| l.contains(&renamed)).unwrap_or_else(|| panic!("{err}"));
        assert!(line.contains(&named), "{checkpoint:?} set aside for another reason: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Damages `shard` as a full disk (`truncated`), a bad copy (`flipped`: one bit in the middle)
/// or a lost write (`empty`) would.
fn damage(how: &str, shard: &Path) {
    let mut bytes = std::fs::read(shard).unwrap();
    match how {
        "truncated" => bytes.truncate(5000),
        "flipped" => {
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x10;
        }
        _ => bytes.clear(),
    }
    std::fs::write(shard, bytes).unwrap();
}

/// The run's replay shards.
fn shards(run: &Path) -> Vec<PathBuf> {
    let replay = run.join("replay");
    std::fs::read_dir(replay)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().unwrap() == "shard")
        .collect()
}

#[test]
fn damaged_replay_that_leaves_too_little_to_train_on_stops_the_run_unfinished() {
    let dir = scratch("damaged-replay");
    let healthy = dir.join("healthy");
    tiny_run(&healthy);
    for name in ["truncated", "flipped", "empty"] {
        let run = dir.join(name);
        copy_dir(&healthy, &run);
        for shard in shards(&run) {
            damage(name, &shard);
        }
        let before = checkpoints(&run);
        let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "training.iterations=2"]);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}{}", stdout_of(&out));
        assert!(err.contains("8 of the run's 8 games are in damaged shards"), "{name}: {err}");
        assert!(err.contains("fewer than training.min_positions = 100"), "{name}: {err}");
        assert!(!run.join("finished").exists(), "{name}: a run that cannot train is marked finished");
        assert_eq!(checkpoints(&run), before, "{name}: a checkpoint was saved without training");
        let status = status_json(&run);
        assert_eq!((status["iteration"].as_u64(), status["iterations"].as_u64()), (Some(1), Some(2)), "{status}");
        assert!(status["last_error"].as_str().is_some_and(|e| e.contains("damaged shards")), "{name}: {status}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One damaged shard among several, with enough positions left, is warned about and the run
/// trains on (the lost games count as seen): it is not stopped, nor ended with 0 steps.
#[test]
fn one_damaged_shard_among_several_is_warned_about_and_training_goes_on() {
    let dir = scratch("damaged-one-shard");
    let run = dir.join("run");
    // Four shards of two games each.
    tiny_run_with(&run, &["selfplay.flush_games=2"]);
    let mut all = shards(&run);
    all.sort();
    assert_eq!(all.len(), 4, "{all:?}");
    damage("flipped", &all[0]);
    let before = status_json(&run)["step"].as_u64().unwrap();
    let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "training.iterations=2"]);
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&format!("skipping {}", all[0].display())), "{err}");
    let warned = err
        .lines()
        .find(|l| l.contains("2 of the run's 8 games are in damaged shards"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(warned.contains("; going on with the ") && warned.ends_with(" positions left"), "{err}");
    let status = status_json(&run);
    assert!(status["step"].as_u64().unwrap() > before, "no step trained: {status}");
    assert_eq!((status["iteration"].as_u64(), status["finished"].as_bool()), (Some(2), Some(true)), "{status}");
    assert!(status["last_iteration"]["policy_loss"].is_number(), "{status}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_whose_every_checkpoint_is_corrupt_says_it_cannot_resume_and_status_shows_them_set_aside() {
    let dir = scratch("corrupt-every");
    let run = dir.join("run");
    tiny_run(&run);
    let all = checkpoints(&run);
    for checkpoint in &all {
        truncate_weights(checkpoint);
    }
    let out = vzero(&["train", "--resume", run.to_str().unwrap(), "--quiet", "--set", "training.iterations=2"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    let said = format!("training in {}: cannot resume: none of its {} checkpoints is usable", run.display(), all.len());
    assert!(err.contains(&said), "{err}");
    let oldest = err
        .lines()
        .find(|l| l.contains(&format!("{} renamed to", all[0].display())))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(!oldest.contains("falling back"), "there is nothing before the oldest to fall back to: {err}");

    let status = status_json(&run);
    assert!(status["checkpoint"].is_null(), "{status}");
    let set_aside: Vec<String> = all.iter().map(|c| c.with_extension("bad").to_str().unwrap().to_string()).collect();
    let listed: Vec<&str> =
        status["set_aside_checkpoints"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(listed, set_aside.iter().rev().map(String::as_str).collect::<Vec<_>>(), "{status}");
    let text = stdout_of(&vzero(&["runs", "status", run.to_str().unwrap()]));
    assert!(text.contains("checkpoint   none usable: the run cannot resume"), "{text}");
    assert!(text.contains(&format!("set aside    {}", set_aside[0])), "{text}");
    // A run whose checkpoints were all set aside has some, just none usable: not "none yet".
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--sims", "2", "--model", run.to_str().unwrap()]);
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let said = format!("the run has no usable checkpoint: its {} checkpoint(s) were set aside as unusable", all.len());
    assert!(err.contains(&said) && !err.contains("no checkpoint yet"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint whose weights were cut short and its checksums then recomputed is refused in
/// words naming the file and what was expected (it said `safetensors error ...:
/// MetadataIncompleteBuffer`), by every command that loads it.
#[test]
fn a_resealed_truncated_checkpoint_is_refused_in_words() {
    let dir = scratch("corrupt-resealed");
    let run = dir.join("run");
    tiny_run(&run);
    let newest = checkpoints(&run).pop().unwrap();
    common::truncate_and_reseal(&newest);
    let path = newest.to_str().unwrap();
    let player = format!("{path}:4");
    let out_file = dir.join("m.pt");
    for args in [
        &["analyse", "--variant", "mini-hexchess", "--sims", "2", "--model", path][..],
        &["arena", "--variant", "mini-hexchess", &player, "random", "--games", "2"],
        &["export", path, "--out", out_file.to_str().unwrap()],
    ] {
        let out = vzero(args);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("weights.safetensors: not a whole safetensors file"), "{args:?}: {err}");
        assert!(err.contains("truncated or corrupted; expected the tensors vzero saved there"), "{args:?}: {err}");
        assert!(!err.contains("safetensors error"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
