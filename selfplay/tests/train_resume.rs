//! A stopped run resumes exactly: the same games and bit-identical weights as a run that never
//! stopped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use nn::checkpoint::list_checkpoints;
use rules::hexchess::MiniHexchess;
use selfplay::replay::{read_shard, GameRecord};
use selfplay::Config;
use selfplay::RunDir;
use selfplay::{train, TrainOptions, TrainSummary};

fn config(overrides: &[&str]) -> Config {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/mini-hexchess-tiny.toml");
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    Config::load(&path, &overrides).unwrap()
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(config: &Config, dir: &Path, resume: bool) -> TrainSummary {
    let opts =
        TrainOptions { run_dir: dir.to_path_buf(), resume, progress: false, stop: Arc::new(AtomicBool::new(false)) };
    train::<MiniHexchess>(config, &opts).unwrap()
}

fn last_weights(dir: &Path) -> BTreeMap<String, tch::Tensor> {
    let last = list_checkpoints(&RunDir::unchecked(dir).checkpoints()).unwrap().pop().unwrap();
    tch::Tensor::read_safetensors(last.join("weights.safetensors")).unwrap().into_iter().collect()
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let mut all: Vec<GameRecord> =
        RunDir::unchecked(dir).shard_paths().unwrap().iter().flat_map(|p| read_shard(p).unwrap()).collect();
    all.sort_by_key(|g| g.number);
    all
}

fn assert_same_run(a: &Path, b: &Path) {
    assert!(games(a) == games(b), "the runs played different games");
    let (wa, wb) = (last_weights(a), last_weights(b));
    assert_eq!(wa.len(), wb.len());
    for (name, t) in &wa {
        assert!(t.equal(&wb[name]), "weight {name} differs");
    }
}

#[test]
fn stop_and_resume_equals_one_go_bit_for_bit() {
    let full = config(&["training.iterations=4", "evaluation.games=0"]);
    let straight = fresh_dir("straight");
    let s = run(&full, &straight, false);

    let split = fresh_dir("split");
    let half = run(&config(&["training.iterations=2", "evaluation.games=0"]), &split, false);
    assert!(half.steps > 0 && half.steps < s.steps, "the first half trained {} of {} steps", half.steps, s.steps);
    let r = run(&full, &split, true);
    assert_eq!((r.steps, r.games), (s.steps, s.games));
    assert_same_run(&straight, &split);

    // A crash after an iteration's shard was written but before its checkpoint: the orphan
    // games are used, not played again, and the result is still the same.
    let crashed = fresh_dir("crashed");
    run(&config(&["training.iterations=3", "evaluation.games=0"]), &crashed, false);
    let rd = RunDir::unchecked(&crashed);
    let checkpoints = list_checkpoints(&rd.checkpoints()).unwrap();
    std::fs::remove_dir_all(checkpoints.last().unwrap()).unwrap();
    // A half-written shard and checkpoint folder, as SIGKILL would leave them.
    std::fs::write(rd.replay().join("9999-x-1-000001.tmp"), b"VZSHARD1 garbage").unwrap();
    std::fs::create_dir_all(rd.checkpoints().join("step-000009999.partial")).unwrap();
    let before = games(&crashed).len();
    run(&full, &crashed, true);
    assert!(
        !rd.replay().join("9999-x-1-000001.tmp").exists() && !rd.checkpoints().join("step-000009999.partial").exists()
    );
    assert_eq!(games(&crashed).len(), 4 * full.selfplay.games_per_iteration);
    assert_eq!(before, 3 * full.selfplay.games_per_iteration, "iteration 3's games were on disk before the resume");
    assert_same_run(&straight, &crashed);

    for d in [straight, split, crashed] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// `training.checkpoint_steps` adds checkpoints inside an iteration's training; a crash right
/// after one resumes from it (the iteration's games are already in the replay shards) and ends
/// bit-identical to a run that saved only at iteration ends and never stopped.
#[test]
fn a_checkpoint_inside_an_iteration_resumes_exactly() {
    let straight = fresh_dir("steps-straight");
    run(&config(&["training.iterations=3", "evaluation.games=0"]), &straight, false);
    let ends: Vec<u64> = list_checkpoints(&RunDir::unchecked(&straight).checkpoints())
        .unwrap()
        .iter()
        .map(|c| nn::checkpoint::read_state(c).unwrap().step)
        .collect();

    let full = config(&["training.iterations=3", "evaluation.games=0", "training.checkpoint_steps=3"]);
    let dir = fresh_dir("steps");
    run(&full, &dir, false);
    let rd = RunDir::unchecked(&dir);
    let states: Vec<(PathBuf, nn::checkpoint::CheckpointState)> = list_checkpoints(&rd.checkpoints())
        .unwrap()
        .into_iter()
        .map(|c| {
            let s = nn::checkpoint::read_state(&c).unwrap();
            (c, s)
        })
        .collect();
    assert!(ends.iter().all(|e| states.iter().any(|(_, s)| s.step == *e)), "iteration ends are still saved");
    let inside: Vec<&(PathBuf, _)> = states.iter().filter(|(_, s)| !ends.contains(&s.step)).collect();
    assert!(inside.iter().all(|(_, s)| s.step % 3 == 0), "in-iteration checkpoints fall on multiples of 3");
    // The last one inside the second iteration (or later), so the resume rebuilds the window
    // from several shards.
    let (cut, cut_state) =
        inside.iter().rev().find(|(_, s)| s.iteration >= 1).expect("a checkpoint inside iteration 2+");

    // Crash just after `cut`: later checkpoints and later iterations' shards never happened.
    for (c, _) in states.iter().filter(|(_, s)| s.step > cut_state.step) {
        std::fs::remove_dir_all(c).unwrap();
    }
    let played = (cut_state.iteration as u64 + 1) * full.selfplay.games_per_iteration as u64;
    for shard in rd.shard_paths().unwrap() {
        if read_shard(&shard).unwrap().iter().any(|g| g.number >= played) {
            std::fs::remove_file(shard).unwrap();
        }
    }
    assert_eq!(list_checkpoints(&rd.checkpoints()).unwrap().last(), Some(cut));
    run(&full, &dir, true);
    assert_same_run(&straight, &dir);
    for d in [straight, dir] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_bad_shard_is_skipped_and_a_bad_checkpoint_falls_back() {
    let cfg = config(&["training.iterations=2", "evaluation.games=0"]);
    let dir = fresh_dir("bad");
    run(&cfg, &dir, false);
    let rd = RunDir::unchecked(&dir);
    // Corrupt the newest checkpoint's weights and the first shard.
    let checkpoints = list_checkpoints(&rd.checkpoints()).unwrap();
    let newest = checkpoints.last().unwrap();
    // A single flipped bit in the tensor data still parses as safetensors: only the checksum
    // can tell.
    let w = newest.join("weights.safetensors");
    let mut bytes = std::fs::read(&w).unwrap();
    let mid = bytes.len() - 100;
    bytes[mid] ^= 0x01;
    std::fs::write(&w, &bytes).unwrap();
    let err = nn::checkpoint::verify_checkpoint(newest).unwrap_err().to_string();
    assert!(err.contains("weights.safetensors") && err.contains("checksum"), "{err}");
    // Truncation and an edited state file are caught as well.
    let older = &checkpoints[checkpoints.len() - 2];
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["weights.safetensors", "optimizer.safetensors", "state.json"] {
        std::fs::copy(older.join(f), copy.join(f)).unwrap();
    }
    nn::checkpoint::verify_checkpoint(&copy).unwrap();
    let opt = std::fs::read(copy.join("optimizer.safetensors")).unwrap();
    std::fs::write(copy.join("optimizer.safetensors"), &opt[..opt.len() - 1]).unwrap();
    assert!(nn::checkpoint::verify_checkpoint(&copy).is_err());
    let state = std::fs::read_to_string(copy.join("state.json")).unwrap().replace("\"games\": 8", "\"games\": 9");
    std::fs::write(copy.join("state.json"), state).unwrap();
    let err = nn::checkpoint::read_state(&copy).unwrap_err().to_string();
    assert!(err.contains("state.json") && err.contains("checksum"), "{err}");
    std::fs::remove_dir_all(&copy).unwrap();
    let shard = rd.shard_paths().unwrap()[0].clone();
    let bytes = std::fs::read(&shard).unwrap();
    std::fs::write(&shard, &bytes[..bytes.len() - 10]).unwrap();

    let more = config(&["training.iterations=3", "evaluation.games=0"]);
    let summary = run(&more, &dir, true);
    // The run went on from the previous checkpoint (iteration 1) without the unreadable shard's
    // games (iteration 0's), played iterations 2 and 3, and its checkpoints all load.
    let per = cfg.selfplay.games_per_iteration as u64;
    assert_eq!(summary.games, 2 * per);
    let mut numbers: Vec<u64> =
        rd.shard_paths().unwrap().iter().filter_map(|p| read_shard(p).ok()).flatten().map(|g| g.number).collect();
    numbers.sort();
    assert_eq!(numbers, (per..3 * per).collect::<Vec<_>>());
    let checkpoints = list_checkpoints(&rd.checkpoints()).unwrap();
    let state = nn::checkpoint::read_state(checkpoints.last().unwrap()).unwrap();
    assert_eq!(state.iteration, 3);
    for c in &checkpoints {
        nn::checkpoint::verify_checkpoint(c).unwrap_or_else(|e| panic!("{e}"));
    }
    // The bad one is set aside, not deleted.
    assert!(newest.with_extension("bad").join("weights.safetensors").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resuming_with_another_network_shape_or_variant_is_refused() {
    let cfg = config(&["training.iterations=1", "evaluation.games=0"]);
    let dir = fresh_dir("shape");
    run(&cfg, &dir, false);
    let wider = config(&["training.iterations=2", "network.channels=16"]);
    let opts = TrainOptions { run_dir: dir.clone(), resume: true, progress: false, stop: Default::default() };
    let err = train::<MiniHexchess>(&wider, &opts).unwrap_err().to_string();
    assert!(err.contains("1 blocks x 8 channels") && err.contains("1 x 16"), "{err}");
    let err = train::<rules::hexchess::Glinski>(&config(&["variant=glinski"]), &opts).unwrap_err().to_string();
    assert!(err.contains("mini-hexchess") && err.contains("glinski"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
