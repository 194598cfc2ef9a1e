//! Fuzzing what a run reads from outside: config TOML with `--set` overrides, each key of the
//! config set out of range, and replay shards (rules::fuzz). Every input is read or refused with an error, never a panic, a hang or an
//! allocation sized by a number in it; what is read must hold together (a config writes and
//! reads back the same, a shard's checked games decode into finite training examples). Bounded
//! here; `VZERO_FUZZ_CASES=1000000 cargo test --release -p selfplay --test fuzz` runs longer
//! (docs/architecture.md, "Tests").

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use mcts::{SearchParams, UniformEvaluator};
use rules::fuzz::{self, mutate, CountingAlloc, Rng};
use rules::{with_game, Encoding, Variant};
use selfplay::config::SelfplayConfig;
use selfplay::play::play_games;
use selfplay::replay::{parse_shard, write_shard, Example, GameRecord};
use selfplay::Config;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// `--set` overrides as the docs, tests and job scripts write them.
const OVERRIDES: &[&str] = &[
    "training.iterations=4",
    "network.channels=16",
    "network.blocks=2",
    "seed=7",
    "variant=glinski",
    "variant=\"mini-hexchess\"",
    "device=cpu",
    "inference.precision=fp32",
    "selfplay.workers=1",
    "selfplay.games_per_iteration=8",
    "selfplay.resign_threshold=0.05",
    "search.simulations=32",
    "search.root=\"gumbel\"",
    "search.dirichlet_epsilon=0.25",
    "replay.window_min=100",
    "training.lr_decay_steps=[100, 200]",
    "training.learning_rate=1e-3",
    "gating.games=20",
    "gating.threshold=0.6",
    "gauntlet.every=1",
    "gauntlet.against=[\"random\", \"alphabeta:1\"]",
    "evaluation.games=0",
    "start_position=\"b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1\"",
];

fn configs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

#[test]
fn fuzz_config_with_overrides() {
    let texts = configs();
    let overrides: Vec<String> = OVERRIDES.iter().map(|s| s.to_string()).collect();
    let words = &["[network]", "[search]", "[selfplay]", "=", "\"", "'''", "[[x]]", "{ a = 1 }", "true", "1e400"];
    let stats = fuzz::run(
        "config and --set",
        6000,
        |rng| {
            let text = if rng.percent(40) { rng.pick(&texts).clone() } else { mutate::text(rng, &texts, words) };
            let sets: Vec<String> = (0..rng.size(3)).map(|_| mutate::text(rng, &overrides, words)).collect();
            (text, sets)
        },
        |(text, sets)| match Config::parse(text, "fuzz.toml", sets) {
            Ok(config) => {
                let written = config.to_toml();
                let again = Config::parse(&written, "written.toml", &[])
                    .unwrap_or_else(|e| panic!("the config's own TOML is refused: {e}\n{written}"));
                assert_eq!(again, config, "the config reads back otherwise:\n{written}");
                assert!(config.differences(&again).is_empty());
                true
            }
            Err(_) => false,
        },
    );
    assert!(stats.read > 0);
}

/// Values out of every key's range, of the wrong kind, and at the edges of each number type.
const HOSTILE_VALUES: &[&str] = &[
    "-1",
    "0",
    "-0.5",
    "0.5",
    "1.5",
    "65536",
    "4294967296",
    "99999999999",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "1e300",
    "-1e300",
    "1e-300",
    "nan",
    "inf",
    "-inf",
    "true",
    "\"\"",
    "\"x\"",
    "[]",
    "[1e300]",
    "[-1]",
    "{ a = 1 }",
];

/// Every key the example configs set, dotted (`training.batch_size`), from their TOML as a
/// config writes it back (so keys at their defaults are there too).
fn every_key(texts: &[String]) -> Vec<String> {
    fn walk(prefix: &str, table: &toml::Table, keys: &mut std::collections::BTreeSet<String>) {
        for (name, value) in table {
            let key = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
            match value {
                toml::Value::Table(inner) => walk(&key, inner, keys),
                _ => {
                    keys.insert(key);
                }
            }
        }
    }
    let mut keys = std::collections::BTreeSet::new();
    for text in texts {
        let written = Config::parse(text, "example.toml", &[]).expect("an example config reads").to_toml();
        walk("", &written.parse::<toml::Table>().expect("a config's TOML parses"), &mut keys);
    }
    keys.into_iter().collect()
}

/// Each key of the config set with `--set` to values out of range or of the wrong kind: read or
/// refused, never a panic, a hang or an allocation sized by the value, and a refusal names the
/// key. No key may accept a value out of any sensible range (negative, not finite, a billion or
/// more; the seed takes any number): such values are listed and fail the test.
#[test]
fn fuzz_every_config_key() {
    let texts = configs();
    let keys = every_key(&texts);
    assert!(keys.len() > 60, "only {} keys: {keys:?}", keys.len());
    let corpus: Vec<String> = HOSTILE_VALUES.iter().map(|s| s.to_string()).collect();
    let tried = Mutex::new(std::collections::BTreeSet::new());
    let accepted = Mutex::new(std::collections::BTreeMap::new());
    let default_cases = 50 * keys.len();
    let stats = fuzz::run(
        "every config key",
        default_cases,
        |rng| {
            let key = rng.pick(&keys).clone();
            let value = match rng.below(3) {
                0 => rng.pick(HOSTILE_VALUES).to_string(),
                1 => rng.pick(mutate::NUMBERS).to_string(),
                _ => mutate::text(rng, &corpus, &[]).chars().take(200).collect(),
            };
            (rng.pick(&texts).clone(), key, value)
        },
        |(text, key, value)| {
            tried.lock().unwrap().insert(key.clone());
            match Config::parse(text, "fuzz.toml", &[format!("{key}={value}")]) {
                Ok(_) => {
                    // Negative, not finite, or a billion and more (a seed takes any number).
                    let number = value.trim_matches(['[', ']']).parse::<f64>().ok();
                    let absurd = number.is_some_and(|v| v < 0.0 || !v.is_finite() || v.abs() >= 1e9);
                    if absurd && key != "seed" {
                        accepted.lock().unwrap().entry(key.clone()).or_insert_with(|| value.clone());
                    }
                    true
                }
                Err(e) => {
                    // A rule relating two keys names the other in full and this one by its name
                    // in the section (`replay.window_max = 150000: must be at least window_min`);
                    // a value that switches a section on can break a rule of another key there
                    // (`gauntlet.every=1` and a `gauntlet.games` that does not fit): that key.
                    let message = e.to_string();
                    let bare = key.rsplit('.').next().unwrap_or(key);
                    let names_a_key = message.contains(bare) || keys.iter().any(|k| message.contains(k.as_str()));
                    assert!(names_a_key, "--set {key}={value} refused without naming a key: {message}");
                    false
                }
            }
        },
    );
    let tried = tried.into_inner().unwrap();
    let untried: Vec<&String> = keys.iter().filter(|k| !tried.contains(*k)).collect();
    // Fewer cases (VZERO_FUZZ_CASES, VZERO_FUZZ_CASE) need not reach every key.
    if fuzz::cases(default_cases) >= default_cases && std::env::var_os("VZERO_FUZZ_CASE").is_none() {
        assert!(untried.is_empty(), "keys never tried: {untried:?}");
    }
    let accepted = accepted.into_inner().unwrap();
    eprintln!(
        "fuzz every config key: {} keys; {} accept a value out of any sensible range:",
        keys.len(),
        accepted.len()
    );
    for (key, value) in &accepted {
        eprintln!("  {key} = {value}");
    }
    // Every key is bounded (issue 40): a value past any sensible range is refused naming it.
    assert!(accepted.is_empty(), "keys that take a value out of any sensible range: {accepted:?}");
    assert!(stats.read > 0 && stats.read < stats.cases, "{stats:?}");
}

/// Real records of `G`: games of a small uniform search, as self-play writes them.
fn records<G: Encoding>(games: u64, plies: u32) -> Vec<GameRecord> {
    let cfg = SelfplayConfig { games_per_worker: 4, max_plies: plies, ..SelfplayConfig::default() };
    let params = SearchParams { simulations: 8, ..SearchParams::default() };
    let queue = Mutex::new((0..games).collect());
    let mut out = Vec::new();
    play_games(&cfg, &params, &UniformEvaluator, &G::start(), 7, &queue, &AtomicBool::new(false), |r, _| out.push(r));
    out
}

/// A shard file's bytes around `payload`: magic, length, CRC-32 (selfplay/src/replay/shard.rs).
fn shard_bytes(magic: &[u8; 8], payload: &[u8]) -> Vec<u8> {
    let mut b = magic.to_vec();
    b.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    b.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    b.extend_from_slice(payload);
    b
}

fn encode(games: &[GameRecord]) -> Vec<u8> {
    bincode::serde::encode_to_vec(games, bincode::config::standard()).unwrap()
}

/// Values that break arithmetic on scores, values and counts.
const FLOATS: &[f32] = &[0.0, 1.0, 0.5, -1.0, 2.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, 1e-45];
const COUNTS: &[u32] = &[0, 1, 2, 255, 65535, 1 << 31, u32::MAX - 1, u32::MAX];

/// One field of one game changed: what a shard with a correct checksum but hostile or
/// inconsistent contents holds.
fn change_record(rng: &mut Rng, games: &mut Vec<GameRecord>, words: &[String]) {
    let Some(g) = (!games.is_empty()).then(|| rng.below(games.len())) else { return };
    let game = &mut games[g];
    let ply = rng.below(game.moves.len().max(1));
    match rng.below(10) {
        0 => game.variant = rng.pick(&["glinski", "mini-hexchess", "wellisch", "weltschach", "chess", ""]).to_string(),
        1 => game.start = mutate::text(rng, words, &[]),
        2 => game.scores = (0..rng.below(4)).map(|_| *rng.pick(FLOATS)).collect(),
        3 => game.moves.truncate(ply),
        4 if !game.moves.is_empty() => game.moves[ply].played = *rng.pick(COUNTS),
        5 if !game.moves.is_empty() => {
            let m = &mut game.moves[ply];
            let count = *rng.pick(COUNTS);
            match m.visits.len() {
                0 => m.visits.push((0, count)),
                n => m.visits[rng.below(n)].1 = count,
            }
            if rng.percent(50) {
                let again = m.visits[rng.below(m.visits.len())];
                m.visits.push(again);
            }
        }
        6 if !game.moves.is_empty() => {
            let m = &mut game.moves[ply];
            m.root_value = Some([*rng.pick(FLOATS), *rng.pick(FLOATS), *rng.pick(FLOATS)]);
        }
        7 if !game.moves.is_empty() => {
            let m = &mut game.moves[ply];
            if let Some(v) = m.visits.first_mut() {
                v.0 = *rng.pick(COUNTS);
            }
        }
        8 => {
            let copy = games[g].clone();
            games.push(copy);
        }
        _ => games.swap_remove(g).moves.clear(),
    }
}

/// What a decoded shard must allow: each game that passes the run's check replays, and its
/// positions (the first, a middle and the last, each replayed from the start) become training
/// examples of finite numbers whose policy sums to 1.
fn train_on<G: Encoding>(game: &GameRecord) -> bool {
    if game.check::<G>().is_err() {
        return false;
    }
    let n = game.moves.len();
    let mut plies = vec![0, n / 2, n.saturating_sub(1)];
    plies.dedup();
    for ply in plies.into_iter().filter(|&p| p < n) {
        let ex = Example::decode::<G>(game, ply, ply % G::NUM_SYMMETRIES, 0.5).expect("a checked game decodes");
        for (what, values) in [("planes", &ex.planes), ("policy", &ex.policy), ("values", &ex.values)] {
            assert!(values.iter().all(|v| v.is_finite()), "game {}, ply {ply}: {what} not finite", game.number);
        }
        let total: f32 = ex.policy.iter().sum();
        let visited = game.moves[ply].visits.iter().any(|&(_, n)| n > 0);
        assert!(!visited || (total - 1.0).abs() < 1e-3, "game {}, ply {ply}: policy sums to {total}", game.number);
    }
    true
}

#[test]
fn fuzz_replay_shards() {
    let mut games = records::<rules::MiniHexchess>(6, 60);
    games.extend(records::<rules::wellisch::Wellisch>(3, 40));
    games.extend(records::<rules::Glinski>(2, 30));
    let starts: Vec<String> = games.iter().map(|g| g.start.clone()).collect();
    let dir = std::env::temp_dir().join(format!("vzero-fuzz-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let real = dir.join("real.shard");
    write_shard(&real, &games).unwrap();
    let written = vec![std::fs::read(&real).unwrap()];
    let payload = encode(&games);
    let path = Path::new("case.shard");
    let stats = fuzz::run(
        "replay shards",
        8000,
        |rng| match rng.below(10) {
            // The file's bytes changed: mostly the header or checksum catches it.
            0..=2 => mutate::bytes(rng, &written),
            // The payload changed and signed again: bincode meets hostile bytes and lengths.
            3..=5 => {
                let magic = if rng.percent(10) { b"VZSHARD1" } else { b"VZSHARD2" };
                shard_bytes(magic, &mutate::bytes(rng, std::slice::from_ref(&payload)))
            }
            // Whole games changed and signed: the run's check meets inconsistent contents.
            _ => {
                let mut some: Vec<GameRecord> = (0..1 + rng.below(3)).map(|_| rng.pick(&games).clone()).collect();
                for _ in 0..1 + rng.size(3) {
                    change_record(rng, &mut some, &starts);
                }
                shard_bytes(b"VZSHARD2", &encode(&some))
            }
        },
        |bytes| match parse_shard(path, bytes) {
            Ok(games) => {
                for game in &games {
                    if let Ok(variant) = game.variant.parse::<Variant>() {
                        with_game!(variant, G => train_on::<G>(game));
                    }
                }
                true
            }
            Err(_) => false,
        },
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(stats.read > 0);
}

// Inputs the fuzzing found, minimized, as regression tests.

/// A `--set` key of thousands of parts nested as many tables, and reading them overflowed the
/// stack (an abort, not an error).
#[test]
fn a_set_key_of_many_parts_is_an_error() {
    let text = configs().into_iter().find(|t| t.contains("mini-hexchess")).expect("a config");
    let key = vec!["network"; 20_000].join(".");
    let err = Config::parse(&text, "x.toml", &[format!("{key}.channels=16")]).expect_err("no such key");
    assert!(err.to_string().contains("expected section.key=value"), "{err}");
}

/// bincode varint of `n` as the standard config writes it (selfplay/src/replay/shard.rs).
fn varint(n: u64) -> Vec<u8> {
    match n {
        0..=250 => vec![n as u8],
        251..=0xffff => [&[251u8][..], &(n as u16).to_le_bytes()].concat(),
        0x1_0000..=0xffff_ffff => [&[252u8][..], &(n as u32).to_le_bytes()].concat(),
        _ => [&[253u8][..], &n.to_le_bytes()].concat(),
    }
}

/// A 27-byte shard whose first game claimed a variant name of 228 MB made the reader allocate
/// it (bincode sizes an owned string by its prefix before reading it); any length a payload
/// claims must be refused, or met by its bytes, before memory is taken for it.
#[test]
fn a_shard_claiming_huge_lengths_is_refused_before_allocating() {
    let found = [67, 252, 236, 155, 156, 13, 195];
    let game = |variant_len: u64, moves_len: u64| {
        [varint(1), varint(variant_len), b"wellisch".to_vec(), varint(3), varint(0), varint(moves_len)].concat()
    };
    let payloads = [
        found.to_vec(),
        varint(1 << 60),
        varint(u64::MAX),
        game(1 << 30, 0),
        game(u32::MAX as u64, 0),
        game(1 << 60, 0),
        game(8, 1 << 60),
        [game(8, 1), varint(7), varint(1 << 40)].concat(),
    ];
    for payload in payloads {
        for magic in [b"VZSHARD2", b"VZSHARD1"] {
            let bytes = shard_bytes(magic, &payload);
            let (result, held) = fuzz::held_by(|| parse_shard(Path::new("hostile.shard"), &bytes));
            assert!(result.is_err(), "{payload:?} read");
            assert!(held < 4 << 20, "{payload:?} made the reader hold {held} bytes");
        }
    }
}

/// A checked game whose visits named one move twice, or added up past `u32::MAX`, or whose
/// scores or values were not numbers, passed the run's check and became policy targets that
/// do not sum to 1 (the second count overwrote the first; the sum wrapped, a panic with
/// overflow checks) or NaN value targets.
#[test]
fn a_game_with_inconsistent_visits_or_values_fails_the_check() {
    use selfplay::replay::DecodeError;
    let game = records::<rules::MiniHexchess>(1, 6).remove(0);
    assert_eq!(game.check::<rules::MiniHexchess>(), Ok(()));
    let changed = |change: &dyn Fn(&mut GameRecord)| {
        let mut g = game.clone();
        change(&mut g);
        g.check::<rules::MiniHexchess>()
    };
    let twice = changed(&|g| {
        let first = g.moves[1].visits[0];
        g.moves[1].visits.push(first);
    });
    assert!(matches!(twice, Err(DecodeError::RepeatedVisit { ply: 1, .. })), "{twice:?}");
    let wrapped = changed(&|g| {
        let (a, b) = (g.moves[2].visits[0].0, g.moves[2].visits[1].0);
        g.moves[2].visits = vec![(a, u32::MAX), (b, 2)];
    });
    assert_eq!(wrapped, Err(DecodeError::VisitTotal { ply: 2 }));
    assert!(matches!(changed(&|g| g.scores[0] = f32::NAN), Err(DecodeError::NotFinite(_))));
    assert!(matches!(
        changed(&|g| g.moves[0].root_value = Some([f32::INFINITY, 0.0, 0.0])),
        Err(DecodeError::NotFinite(_))
    ));
}
