//! Whole training runs on the tiny configs: they complete, their losses fall, and the same
//! seed gives the same games and weights.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use nn::checkpoint::{list_checkpoints, load_checkpoint};
use nn::{evaluate_losses, Device, PolicyValueNet, TrainBatch};
use rand::SeedableRng;
use rules::hexchess::{Glinski, MiniHexchess};
use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Encoding, Game, Material};
use selfplay::replay::sampler::sample_batch;
use selfplay::replay::{read_shard, ReplayWindow};
use selfplay::run::{train, TrainOptions};
use selfplay::store::events::{read_events, GatingEvent, IterationEvent, RunEvent};
use selfplay::Config;
use selfplay::RunDir;

fn config(name: &str, overrides: &[&str]) -> Config {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs").join(name);
    let overrides: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    Config::load(&path, &overrides).unwrap()
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run<G: Encoding + Material>(config: &Config, dir: &Path) {
    let opts = TrainOptions { run_dir: dir.to_path_buf(), resume: false, progress: false, stop: Default::default() };
    train::<G>(config, &opts).unwrap();
}

fn events(dir: &Path) -> Vec<RunEvent> {
    let log = read_events(&std::fs::read_to_string(RunDir::unchecked(dir).metrics()).unwrap());
    assert_eq!(log.skipped_lines, 0);
    log.events
}

fn iterations(dir: &Path) -> Vec<IterationEvent> {
    events(dir).into_iter().filter_map(|e| if let RunEvent::Iteration(it) = e { Some(it) } else { None }).collect()
}

fn gatings(dir: &Path) -> Vec<GatingEvent> {
    events(dir).into_iter().filter_map(|e| if let RunEvent::Gating(g) = e { Some(g) } else { None }).collect()
}

fn weights(checkpoint: &Path) -> BTreeMap<String, tch::Tensor> {
    tch::Tensor::read_safetensors(checkpoint.join("weights.safetensors")).unwrap().into_iter().collect()
}

/// The final network fits the run's own positions better than a predictor that knows nothing
/// of them (every legal move equally likely, each seat's mean score): measured on a batch drawn
/// from the run's replay window as training draws it. A random network's first step would be a
/// weaker yardstick, which any training beats.
fn losses_fall<G: Encoding>(config: &Config, dir: &Path) {
    let run_dir = RunDir::unchecked(dir);
    let mut window = ReplayWindow::new(config.replay.window_size());
    for shard in run_dir.shard_paths().unwrap() {
        for game in read_shard(&shard).unwrap() {
            window.push(Arc::new(game));
        }
    }
    let newest = list_checkpoints(&run_dir.checkpoints()).unwrap().pop().expect("a checkpoint");
    let mut net = PolicyValueNet::new(&config.network.net_config::<G>(), Device::Cpu);
    load_checkpoint(&newest, &mut net, None).unwrap();
    let mut batch = TrainBatch::default();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
    sample_batch::<G>(&window, 512, config.training.search_value_weight, &mut rng, &mut batch).unwrap();
    let trained = evaluate_losses(&net, &batch);
    let baseline = batch.baseline_losses();
    let (end, start) = (trained.policy_loss + trained.value_loss, baseline.policy_loss + baseline.value_loss);
    assert!(end < start, "the trained network ({trained:?}) does no better than knowing nothing ({baseline:?})");
}

#[test]
fn a_tiny_mini_hexchess_run_completes_evaluates_and_its_loss_falls() {
    let cfg = config("mini-hexchess-tiny.toml", &[]);
    let dir = fresh_dir("mini");
    run::<MiniHexchess>(&cfg, &dir);
    let run_dir = RunDir::unchecked(&dir);
    let checkpoints = list_checkpoints(&run_dir.checkpoints()).unwrap();
    assert_eq!(checkpoints.len(), 1 + cfg.training.iterations as usize, "{checkpoints:?}");
    let games: usize = run_dir.shard_paths().unwrap().iter().map(|p| read_shard(p).unwrap().len()).sum();
    assert_eq!(games, cfg.training.iterations as usize * cfg.selfplay.games_per_iteration);
    assert_eq!(events(&dir).iter().filter(|e| matches!(e, RunEvent::Evaluation(_))).count(), 2);
    losses_fall::<MiniHexchess>(&cfg, &dir);
    // The saved config is the resolved one and loads again.
    let saved = Config::load(&run_dir.config(), &[]).unwrap();
    assert_eq!(saved, cfg);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tiny_glinski_run_completes_and_its_loss_falls() {
    let cfg = config("glinski-tiny.toml", &["training.iterations=2", "evaluation.games=0"]);
    let dir = fresh_dir("glinski");
    run::<Glinski>(&cfg, &dir);
    losses_fall::<Glinski>(&cfg, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tiny_weltschach_run_completes_and_its_loss_falls() {
    let cfg = config("weltschach-tiny.toml", &["evaluation.games=0"]);
    let dir = fresh_dir("weltschach");
    run::<Weltschach>(&cfg, &dir);
    losses_fall::<Weltschach>(&cfg, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cube's halved trunk trains end to end; its checkpoints say so, load into a halved network
/// and are refused by a full one with the reason.
#[test]
fn a_tiny_weltschach_run_with_a_halved_trunk_completes_and_its_loss_falls() {
    let cfg = config("weltschach-tiny.toml", &["evaluation.games=0", "network.trunk=halved", "training.iterations=2"]);
    let dir = fresh_dir("weltschach-halved");
    run::<Weltschach>(&cfg, &dir);
    losses_fall::<Weltschach>(&cfg, &dir);
    let last = list_checkpoints(&RunDir::unchecked(&dir).checkpoints()).unwrap().pop().unwrap();
    let halved = cfg.network.net_config::<Weltschach>();
    let state = load_checkpoint(&last, &mut PolicyValueNet::new(&halved, Device::Cpu), None).unwrap();
    assert_eq!(state.trunk, nn::Trunk::Halved);
    let full = halved.with_trunk(nn::Trunk::Full);
    let refused = load_checkpoint(&last, &mut PolicyValueNet::new(&full, Device::Cpu), None).unwrap_err().to_string();
    assert!(refused.contains("halved trunk"), "{refused}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tiny_wellisch_run_completes_and_its_loss_falls() {
    // With the aids for draw-heavy games on: playouts fading out over two iterations, and value
    // targets half from the search's root values (which every recorded move carries).
    let overrides = [
        "evaluation.games=0",
        "search.rollout_weight=1.0",
        "search.rollout_iterations=2",
        "training.search_value_weight=0.5",
    ];
    let cfg = config("wellisch-tiny.toml", &overrides);
    let dir = fresh_dir("wellisch");
    run::<Wellisch>(&cfg, &dir);
    losses_fall::<Wellisch>(&cfg, &dir);
    let weights: Vec<f64> = iterations(&dir).iter().map(|m| m.rollout_weight).collect();
    assert_eq!(weights, vec![1.0, 0.5, 0.0]);
    let games: Vec<_> =
        RunDir::unchecked(&dir).shard_paths().unwrap().iter().flat_map(|p| read_shard(p).unwrap()).collect();
    assert!(!games.is_empty());
    for m in games.iter().flat_map(|g| &g.moves) {
        let v = m.root_value.expect("self-play records root values");
        assert!(v[..3].iter().all(|x| (0.0..=1.0).contains(x)), "{v:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn material_priors_fade_and_score_games_at_the_move_limit() {
    // Short games, most of which reach the limit: the material prior fades over two iterations
    // and games stopped a pawn or more ahead count as wins, each one a game at the limit.
    let overrides = [
        "evaluation.games=0",
        "selfplay.max_plies=30",
        "selfplay.adjudicate_material=1",
        "search.material_weight=1.0",
        "search.material_iterations=2",
    ];
    let cfg = config("mini-hexchess-tiny.toml", &overrides);
    let dir = fresh_dir("material");
    run::<MiniHexchess>(&cfg, &dir);
    let its = iterations(&dir);
    let weights: Vec<f64> = its.iter().map(|m| m.material_weight).collect();
    assert_eq!(weights, vec![1.0, 0.5, 0.0]);
    let by_material: usize = its.iter().map(|m| m.adjudicated_by_material).sum();
    assert!(by_material > 0, "some game stopped at 30 plies with a lead of a pawn");
    assert!(its.iter().all(|m| m.adjudicated_by_material <= m.adjudicated));
    let games: Vec<_> =
        RunDir::unchecked(&dir).shard_paths().unwrap().iter().flat_map(|p| read_shard(p).unwrap()).collect();
    let decided_at_limit = games.iter().filter(|g| g.moves.len() == 30 && g.scores[0] != 0.5).count();
    assert!(
        decided_at_limit >= by_material,
        "{decided_at_limit} decided games at the limit, {by_material} by material"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_games_and_weights() {
    let cfg = config("mini-hexchess-tiny.toml", &["training.iterations=2", "evaluation.games=0"]);
    let (a, b) = (fresh_dir("det-a"), fresh_dir("det-b"));
    run::<MiniHexchess>(&cfg, &a);
    run::<MiniHexchess>(&cfg, &b);
    let shards = |d: &Path| -> Vec<_> {
        RunDir::unchecked(d).shard_paths().unwrap().iter().flat_map(|p| read_shard(p).unwrap()).collect()
    };
    let (ga, gb) = (shards(&a), shards(&b));
    assert_eq!(ga.len(), 16);
    assert!(ga == gb, "the two runs played different games");
    let last = |d: &Path| list_checkpoints(&RunDir::unchecked(d).checkpoints()).unwrap().pop().unwrap();
    let (wa, wb) = (weights(&last(&a)), weights(&last(&b)));
    assert_eq!(wa.len(), wb.len());
    for (name, t) in &wa {
        assert!(t.equal(&wb[name]), "weight {name} differs between the runs");
    }
    // A different seed plays different games.
    let other = config("mini-hexchess-tiny.toml", &["training.iterations=1", "evaluation.games=0", "seed=8"]);
    let c = fresh_dir("det-c");
    run::<MiniHexchess>(&other, &c);
    assert_ne!(shards(&c), ga[..8].to_vec());
    for d in [a, b, c] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_second_run_in_the_same_directory_is_refused() {
    let cfg = config("mini-hexchess-tiny.toml", &["training.iterations=1", "evaluation.games=0"]);
    let dir = fresh_dir("twice");
    run::<MiniHexchess>(&cfg, &dir);
    let opts = TrainOptions { run_dir: dir.clone(), resume: false, progress: false, stop: Default::default() };
    let err = train::<MiniHexchess>(&cfg, &opts).unwrap_err().to_string();
    assert!(err.contains("already holds a run") && err.contains("--resume"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gating_keeps_the_best_network_for_self_play() {
    let dir = fresh_dir("gating-open");
    let cfg = config(
        "mini-hexchess-tiny.toml",
        &[
            "training.iterations=2",
            "evaluation.games=0",
            "gating.games=2",
            "gating.threshold=0.0",
            "gating.simulations=4",
        ],
    );
    run::<MiniHexchess>(&cfg, &dir);
    let events = gatings(&dir);
    assert_eq!(events.len(), 2);
    assert!(events.iter().all(|e| e.accepted && e.games == 2));
    let last = list_checkpoints(&RunDir::unchecked(&dir).checkpoints()).unwrap().pop().unwrap();
    let best = std::fs::read_to_string(RunDir::unchecked(&dir).best()).unwrap();
    assert_eq!(best.trim(), last.file_name().unwrap().to_string_lossy());
    std::fs::remove_dir_all(&dir).unwrap();

    // A threshold only a clean sweep reaches, which these candidates never make: the first
    // network stays the best.
    let dir = fresh_dir("gating-closed");
    let cfg = config(
        "mini-hexchess-tiny.toml",
        &[
            "training.iterations=2",
            "evaluation.games=0",
            "gating.games=2",
            "gating.threshold=1.0",
            "gating.simulations=4",
        ],
    );
    run::<MiniHexchess>(&cfg, &dir);
    let events = gatings(&dir);
    assert!(events.len() == 2 && events.iter().all(|e| !e.accepted), "{events:?}");
    let best = std::fs::read_to_string(RunDir::unchecked(&dir).best()).unwrap();
    assert_eq!(best.trim(), "step-000000000");
    std::fs::remove_dir_all(&dir).unwrap();

    // An SPRT that two games cannot decide keeps the first network too.
    let dir = fresh_dir("gating-sprt");
    let cfg = config(
        "mini-hexchess-tiny.toml",
        &[
            "training.iterations=1",
            "evaluation.games=0",
            "gating.games=2",
            "gating.sprt=[0, 30]",
            "gating.simulations=4",
        ],
    );
    run::<MiniHexchess>(&cfg, &dir);
    let events = gatings(&dir);
    assert!(events.len() == 1 && !events[0].accepted && events[0].sprt == Some([0.0, 30.0]), "{events:?}");
    let best = std::fs::read_to_string(RunDir::unchecked(&dir).best()).unwrap();
    assert_eq!(best.trim(), "step-000000000");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_start_from_the_configured_position() {
    let mut start = MiniHexchess::start();
    let mv = start.parse_move("c2-c3").unwrap();
    start.play(mv);
    let text = start.to_text();
    let dir = fresh_dir("start");
    let cfg = config(
        "mini-hexchess-tiny.toml",
        &["training.iterations=1", "evaluation.games=2", &format!("start_position=\"{text}\"")],
    );
    run::<MiniHexchess>(&cfg, &dir);
    let games: Vec<_> =
        RunDir::unchecked(&dir).shard_paths().unwrap().iter().flat_map(|p| read_shard(p).unwrap()).collect();
    assert!(!games.is_empty() && games.iter().all(|g| g.start == text));
    std::fs::remove_dir_all(&dir).unwrap();

    let bad = config("mini-hexchess-tiny.toml", &["start_position=\"not a position\""]);
    let opts =
        TrainOptions { run_dir: fresh_dir("bad-start"), resume: false, progress: false, stop: Default::default() };
    let err = train::<MiniHexchess>(&bad, &opts).unwrap_err().to_string();
    assert!(err.contains("start_position") && err.contains("bad position text"), "{err}");
}
