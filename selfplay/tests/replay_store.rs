//! Shards survive a round trip and are never read wrong; the window keeps the newest positions
//! and samples them uniformly.

use std::path::PathBuf;
use std::sync::Arc;

use rand::SeedableRng;
use selfplay::replay::{
    read_shard, write_shard, GameRecord, MoveRecord, ReplayWindow, ShardError, ShardName, WindowSize,
};

fn game(id: u32, len: usize) -> GameRecord {
    GameRecord {
        variant: "test".into(),
        number: id as u64,
        start: format!("start {id}"),
        moves: (0..len)
            .map(|i| MoveRecord {
                played: id * 1000 + i as u32,
                visits: vec![(i as u32, 7), (99, 1)],
                policy_target: i % 4 != 3,
                root_value: if i % 5 == 0 { None } else { Some([0.25, 0.75, i as f32]) },
            })
            .collect(),
        scores: vec![1.0, 0.0],
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_shard_reads_back_what_was_written_and_leaves_no_temporary_file() {
    let dir = temp_dir("shard-roundtrip");
    let path = dir.join("a.shard");
    let games: Vec<GameRecord> = (0..5).map(|i| game(i, 10 + i as usize)).collect();
    write_shard(&path, &games).unwrap();
    assert_eq!(read_shard(&path).unwrap(), games);
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("a.shard")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Shards of the first format (moves without root values) written by earlier versions still
/// read, with no root values.
#[test]
fn a_first_format_shard_still_reads() {
    #[derive(serde::Serialize)]
    struct V1Game {
        variant: String,
        number: u64,
        start: String,
        moves: Vec<V1Move>,
        scores: Vec<f32>,
    }
    #[derive(serde::Serialize)]
    struct V1Move {
        played: u32,
        visits: Vec<(u32, u32)>,
        policy_target: bool,
    }
    let games: Vec<GameRecord> = (0..3).map(|i| game(i, 6)).collect();
    let old: Vec<V1Game> = games
        .iter()
        .map(|g| V1Game {
            variant: g.variant.clone(),
            number: g.number,
            start: g.start.clone(),
            moves: g
                .moves
                .iter()
                .map(|m| V1Move { played: m.played, visits: m.visits.clone(), policy_target: m.policy_target })
                .collect(),
            scores: g.scores.clone(),
        })
        .collect();
    let payload = bincode::serde::encode_to_vec(&old, bincode::config::standard()).unwrap();
    let mut bytes = b"VZSHARD1".to_vec();
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    let dir = temp_dir("shard-v1");
    let path = dir.join("old.shard");
    std::fs::write(&path, &bytes).unwrap();
    let mut want = games;
    want.iter_mut().flat_map(|g| g.moves.iter_mut()).for_each(|m| m.root_value = None);
    assert_eq!(read_shard(&path).unwrap(), want);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn expect_corrupt(path: &std::path::Path, what: &str) {
    match read_shard(path) {
        Err(ShardError::Corrupt { path: p, reason }) => {
            assert_eq!(p, path);
            assert!(reason.contains(what), "expected '{what}' in '{reason}'");
        }
        other => panic!("expected a corrupt-shard error, got {other:?}"),
    }
}

#[test]
fn truncated_flipped_and_hostile_shards_are_detected_by_path() {
    let dir = temp_dir("shard-corrupt");
    let path = dir.join("b.shard");
    write_shard(&path, &[game(1, 40)]).unwrap();
    let good = std::fs::read(&path).unwrap();

    std::fs::write(&path, &good[..good.len() - 5]).unwrap();
    expect_corrupt(&path, "truncated");

    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    expect_corrupt(&path, "checksum");

    // A header that claims a huge payload must be refused before anything is allocated for it.
    let mut hostile = good.clone();
    hostile[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    std::fs::write(&path, &hostile).unwrap();
    expect_corrupt(&path, "header says");

    std::fs::write(&path, b"hello").unwrap();
    expect_corrupt(&path, "shorter than the header");

    let mut magic = good;
    magic[0] = b'X';
    std::fs::write(&path, &magic).unwrap();
    expect_corrupt(&path, "bad magic");

    assert!(matches!(read_shard(&dir.join("missing.shard")), Err(ShardError::Io { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shard_names_are_unique_and_sort_by_time() {
    let mut names = ShardName::for_this_process();
    let a = names.next_name();
    let b = names.next_name();
    assert_ne!(a, b);
    assert!(a < b, "{a} should sort before {b}");
    assert!(a.ends_with(".shard") && a.contains(&format!("-{}-", std::process::id())), "{a}");
}

#[test]
fn window_grows_sublinearly_and_keeps_the_newest_games() {
    let size = WindowSize { min: 100, max: 5000, alpha: 0.75, beta: 0.4 };
    assert_eq!(size.positions(50), 50);
    assert_eq!(size.positions(100), 100);
    // 100 * (1 + 0.4 * (100^0.75 - 1) / 0.75) = 1733.
    assert_eq!(size.positions(10_000), 1733);
    assert_eq!(size.positions(100_000_000), 5000);

    let mut w = ReplayWindow::new(size);
    for i in 0..200 {
        w.push(Arc::new(game(i, 20))); // 15 training positions each
    }
    assert_eq!(w.seen(), 200 * 15);
    let target = size.positions(3000);
    assert!(w.len() >= target && w.len() < target + 15, "len {} target {target}", w.len());
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let oldest_kept = 200 - w.games() as u32;
    for _ in 0..1000 {
        let (g, ply) = w.sample(&mut rng);
        let id = g.moves[0].played / 1000;
        assert!(id >= oldest_kept, "sampled evicted game {id}");
        assert!(g.moves[ply].policy_target, "sampled a cheap-search move");
    }
}

#[test]
fn window_samples_positions_uniformly() {
    let mut w = ReplayWindow::new(WindowSize { min: 1000, max: 1000, alpha: 0.75, beta: 0.4 });
    // Games of very different lengths: uniform over positions means long games are sampled
    // in proportion to their length.
    w.push(Arc::new(game(0, 4))); // 3 positions
    w.push(Arc::new(game(1, 40))); // 30 positions
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let n = 33_000;
    let long = (0..n).filter(|_| w.sample(&mut rng).0.moves.len() == 40).count();
    let share = long as f64 / n as f64;
    assert!((share - 30.0 / 33.0).abs() < 0.01, "long-game share {share}");
}
