//! Corruption is reported: a checkpoint passed over is named with why by `runs status`,
//! `arena`, `gauntlet` and `export`, which also say the checkpoint they use instead; a
//! `$VZERO_MODELS` naming no folder is warned about, and `analyse` says what it searched with.

mod common;

use std::path::{Path, PathBuf};

use common::{copy_dir, scratch, stderr_of, stdout_of, tiny_run, vzero, vzero_command};
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

/// A checkpoint whose weights are not all finite but whose checksums match is refused by
/// every command that loads it, as `export` refused it: `analyse` and `arena` played it with
/// uniform priors.
#[test]
fn a_checkpoint_with_weights_that_are_not_finite_is_refused() {
    use nn::checkpoint::{load_checkpoint, read_state, save_checkpoint};
    let dir = scratch("corrupt-not-finite");
    let run = dir.join("run");
    tiny_run(&run);
    let newest = checkpoints(&run).pop().unwrap();
    let state = read_state(&newest).unwrap();
    let config = nn::NetConfig::for_game::<rules::MiniHexchess>(state.blocks, state.channels);
    let mut net = nn::PolicyValueNet::new(&config, nn::Device::Cpu);
    load_checkpoint(&newest, &mut net, None).unwrap();
    let (_, mut weight) = net.var_store().variables().into_iter().min_by(|a, b| a.0.cmp(&b.0)).unwrap();
    let _ = tch::no_grad(|| weight.fill_(f64::INFINITY));
    let trainer = nn::Trainer::new(&net, 0.01, 1e-4);
    let bad = save_checkpoint(&dir.join("bad"), &net, &trainer, &state).unwrap();
    let bad_text = bad.to_str().unwrap();
    for args in [
        vec!["analyse", "--variant", "mini-hexchess", "--sims", "8", "--model", bad_text],
        vec!["arena", "--variant", "mini-hexchess", &format!("{bad_text}:4"), "random", "--games", "2"],
    ] {
        let out = vzero(&args);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?} played it: {err}");
        assert!(err.contains("is not finite"), "{args:?}: {err}");
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
    std::fs::remove_dir_all(&dir).unwrap();
}
