//! The classical teacher: its labels, its shards (counted apart from self-play), the fading
//! share of its positions in training batches, and a resumed `teach` that adds no duplicate.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::SeedableRng;
use rules::hexchess::{Glinski, MiniHexchess};
use rules::weltschach::Weltschach;
use rules::{Encoding, Game};
use selfplay::config::Config;
use selfplay::replay::sampler::{sample_mixed_batch, TeacherMix};
use selfplay::replay::{read_shard, ReplayWindow, WindowSize, TEACHER_GAME};
use selfplay::teach::{stored_teacher_games, teach, teacher_game, teacher_game_until, TeacherPlan};
use selfplay::RunDir;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-teacher-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn plan(depth: u32) -> TeacherPlan {
    TeacherPlan {
        settings: alphabeta::SearchLimits::depth(depth),
        random_plies: 0,
        policy_temperature: 200.0,
        choice_temperature: 50.0,
        value_mix: 1.0,
        max_plies: 300,
        adjudicate_material: 0.0,
        seed: 3,
    }
}

fn config(extra: &str) -> Config {
    let text = format!(
        "variant = \"mini-hexchess\"\nseed = 5\n[selfplay]\nflush_games = 2\nmax_plies = 60\n\
         [teacher]\npositions = 100\nplayer = \"alphabeta:1\"\nthreads = 1\n{extra}"
    );
    Config::parse(&text, "test.toml", &[]).unwrap()
}

#[test]
fn a_mate_in_one_is_labelled_as_a_win_with_the_mate_first() {
    // White to move: the rook on c6 mates on the a-file (the alpha-beta known answer).
    let text = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60";
    let start = Glinski::from_text(text).unwrap();
    // The teacher's evaluation alone (value_mix 1): a found mate is a certain win.
    let (record, _) = teacher_game(&start, 0, &plan(2));
    let first = &record.moves[0];
    assert!(first.policy_target);
    let value = first.root_value.expect("labelled");
    assert_eq!(value[0], 1.0, "the mover's value target is a win");
    assert_eq!(value[1], 0.0);
    let (best, count) = *first.visits.iter().max_by_key(|&&(_, n)| n).unwrap();
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let mv = *moves.iter().find(|&&m| start.policy_index(m) == best as usize).unwrap();
    let mut mated = start.clone();
    mated.play(mv);
    assert_eq!(mated.outcome().map(|s| s.get(0)), Some(1.0), "the largest target mates");
    assert!(count >= 400, "mates share the target: {count}");
    assert_eq!(record.scores, vec![1.0, 0.0], "the teacher plays the mate");
    assert_eq!(record.moves.len(), 1);
    assert_ne!(record.number & TEACHER_GAME, 0);
}

#[test]
fn a_sharp_teacher_gives_a_mate_in_one_the_whole_target_and_a_value_near_a_win() {
    let text = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60";
    let start = Glinski::from_text(text).unwrap();
    // A sharp target (10 cp) and the default value mix (half evaluation, half result).
    let sharp = TeacherPlan { policy_temperature: 10.0, value_mix: 0.5, ..plan(2) };
    let (record, _) = teacher_game(&start, 0, &sharp);
    let first = &record.moves[0];
    let value = first.root_value.expect("labelled");
    assert!(value[0] > 0.99 && value[1] < 0.01, "near a win for the mover: {value:?}");
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let mates = |index: u32| {
        let mv = *moves.iter().find(|&&m| start.policy_index(m) == index as usize).unwrap();
        let mut after = start.clone();
        after.play(mv);
        after.outcome().map(|s| s.get(0)) == Some(1.0)
    };
    let on_mates: u32 = first.visits.iter().filter(|&&(i, _)| mates(i)).map(|&(_, n)| n).sum();
    let total: u32 = first.visits.iter().map(|&(_, n)| n).sum();
    assert!(on_mates >= 999 && on_mates == total, "the mates take the whole target: {:?}", first.visits);
}

#[test]
fn value_targets_mix_the_evaluation_with_the_result() {
    let start = MiniHexchess::start();
    let mixed = TeacherPlan { value_mix: 0.25, random_plies: 2, ..plan(1) };
    let (eval_only, _) = teacher_game(&start, 7, &TeacherPlan { random_plies: 2, ..plan(1) });
    let (record, _) = teacher_game(&start, 7, &mixed);
    assert_eq!(record.moves.len(), eval_only.moves.len(), "the same game");
    for (m, e) in record.moves.iter().zip(&eval_only.moves) {
        match (m.root_value, e.root_value) {
            (Some(v), Some(eval)) => {
                for seat in 0..2 {
                    let want = 0.25 * eval[seat] + 0.75 * record.scores[seat];
                    assert!((v[seat] - want).abs() < 1e-6, "{} vs {want}", v[seat]);
                }
            }
            (None, None) => assert!(!m.policy_target, "only the random opening plies are unlabelled"),
            _ => panic!("the same plies are labelled"),
        }
    }
    assert!(!record.moves[0].policy_target && !record.moves[1].policy_target);
}

#[test]
fn a_stopped_teacher_game_is_abandoned_and_an_unstopped_one_is_the_same_game() {
    let start = MiniHexchess::start();
    let plan = TeacherPlan { random_plies: 2, max_plies: 20, ..plan(1) };
    assert!(teacher_game_until(&start, 4, &plan, &AtomicBool::new(true)).is_none());
    let (until, _) = teacher_game_until(&start, 4, &plan, &AtomicBool::new(false)).expect("not stopped");
    let (whole, _) = teacher_game(&start, 4, &plan);
    let played = |r: &selfplay::replay::GameRecord| r.moves.iter().map(|m| m.played).collect::<Vec<_>>();
    assert_eq!(played(&until), played(&whole));
    assert_eq!(until.scores, whole.scores);
}

/// Teacher game numbers in `dir`, with repeats.
fn stored_numbers(dir: &RunDir) -> Vec<u64> {
    let mut numbers = Vec::new();
    for shard in dir.shard_paths().unwrap() {
        numbers.extend(read_shard(&shard).unwrap().iter().map(|g| g.number));
    }
    numbers.sort();
    numbers
}

#[test]
fn teach_writes_teacher_shards_and_a_second_teach_adds_only_what_is_missing() {
    let cfg = config("");
    let stop = AtomicBool::new(false);
    let dir = RunDir::create(&temp_dir("resume")).unwrap();
    let first = teach::<MiniHexchess>(&dir, &cfg, 60, 1, &stop, false).unwrap();
    assert!(first.total_positions >= 60 && first.games() > 0 && !first.interrupted);
    let again = teach::<MiniHexchess>(&dir, &cfg, 60, 1, &stop, false).unwrap();
    assert_eq!(again.games(), 0, "enough positions already: nothing played");
    let more = teach::<MiniHexchess>(&dir, &cfg, 150, 2, &stop, false).unwrap();
    assert!(more.total_positions >= 150 && more.games() > 0);
    let numbers = stored_numbers(&dir);
    let unique: BTreeSet<u64> = numbers.iter().copied().collect();
    assert_eq!(unique.len(), numbers.len(), "no game stored twice: {numbers:?}");
    assert!(numbers.iter().all(|n| n & TEACHER_GAME != 0));
    // The same games, game by game, as one teach of them all from nothing.
    let fresh = RunDir::create(&temp_dir("fresh")).unwrap();
    teach::<MiniHexchess>(&fresh, &cfg, more.total_positions, 1, &stop, false).unwrap();
    let by_number = |dir: &RunDir| {
        let mut games = stored_teacher_games::<MiniHexchess>(dir).unwrap();
        games.sort_by_key(|g| g.number);
        games
    };
    let (resumed, once) = (by_number(&dir), by_number(&fresh));
    for g in &resumed {
        if let Some(same) = once.iter().find(|o| o.number == g.number) {
            assert_eq!(same, g, "game {:#x} is a function of the seed and its number", g.number);
        }
    }
}

#[test]
fn the_teacher_share_of_batches_fades_as_configured() {
    let cfg = config("share = 0.6\nfade_iterations = 4\n");
    for (i, want) in [0.6, 0.45, 0.3, 0.15, 0.0, 0.0].into_iter().enumerate() {
        assert!((cfg.teacher.share_at(i as u32) - want).abs() < 1e-6, "iteration {i}");
    }
    assert_eq!(config("share = 0.6\nfade_iterations = 0\n").teacher.share_at(9), 0.6, "0 keeps it");

    let stop = AtomicBool::new(false);
    let dir = RunDir::create(&temp_dir("share")).unwrap();
    teach::<MiniHexchess>(&dir, &cfg, 100, 1, &stop, false).unwrap();
    let mut teacher = ReplayWindow::new(WindowSize::EVERYTHING);
    for g in stored_teacher_games::<MiniHexchess>(&dir).unwrap() {
        teacher.push(Arc::new(g));
    }
    let mut selfplay = ReplayWindow::new(WindowSize { min: 10_000, max: 10_000, alpha: 0.75, beta: 0.4 });
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
    for i in 0..20 {
        selfplay.push(Arc::new(selfplay::bench::random_game::<MiniHexchess>(&mut rng, i)));
    }
    let mut batch = nn::TrainBatch::default();
    for share in [0.0f32, 0.3, 1.0] {
        let mix = TeacherMix { window: Some(&teacher), share };
        let from = sample_mixed_batch::<MiniHexchess>(&selfplay, mix, 2000, 0.0, &mut rng, &mut batch).unwrap();
        let got = from.teacher as f32 / 2000.0;
        assert!((got - share).abs() < 0.04, "share {share}: {got} of the batch from the teacher");
    }
    let empty = ReplayWindow::new(WindowSize::EVERYTHING);
    let mix = TeacherMix { window: Some(&teacher), share: 0.1 };
    let from = sample_mixed_batch::<MiniHexchess>(&empty, mix, 100, 0.0, &mut rng, &mut batch).unwrap();
    assert_eq!(from.teacher, 100, "with no self-play yet every position is the teacher's");
}

#[test]
fn a_time_limit_too_short_for_depth_one_still_labels_every_move() {
    // Past 30 random plies a Weltschach depth-1 scoring takes thousands of nodes, and the clock
    // is read every 1,024: a limit of 1 ns stops it before it scores a move.
    let settings =
        alphabeta::SearchLimits { time: Some(std::time::Duration::from_nanos(1)), ..alphabeta::SearchLimits::depth(1) };
    let teacher = TeacherPlan { settings, random_plies: 30, max_plies: 31, ..plan(1) };
    let start = Weltschach::start();
    let (record, _) = teacher_game(&start, 0, &teacher);
    let labelled = &record.moves[30];
    assert!(labelled.policy_target);
    let targeted = labelled.visits.iter().filter(|&&(_, n)| n > 0).count();
    assert!(targeted > 1, "a target spread over the moves: {targeted}");
    assert!(labelled.root_value.is_some());
}
