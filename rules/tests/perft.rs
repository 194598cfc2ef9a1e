//! Perft references kept as data: one driver checks every rules/tests/perft/VARIANT.perft file
//! against the move generator, dispatching on the file's name as the CLI does (`with_game!`).
//!
//! A file holds entries, each opened by `id NAME` (`start`: the variant's start position) and
//! holding `position TEXT` (the variant's position text, as `to_text` writes it), `source TEXT`
//! (where the counts come from) and `perft DEPTH LEAVES` lines; `#` starts a comment line.
//!
//! Every count is checked with bulk counting of the last ply up to [`BULK_LIMIT`] leaves, by
//! playing every move (on two threads) up to [`PLAYED_LIMIT`], and for Glinski and Mini Hexchess
//! by the independent reference generator of `common` up to [`REFERENCE_LIMIT`]. The counts
//! above those limits take minutes: `cargo test -p rules --release --test perft -- --ignored`.

mod common;

use std::path::{Path, PathBuf};

use common::perft_file::{parse_perft, perft_dir, read_perft_file, PerftEntry};
use common::{Kind, Reference};
use rules::hexchess::{GlinskiRules, HexChess, HexRules, MiniRules};
use rules::perft::{perft, perft_parallel};
use rules::{with_game, Game, Variant};

/// Largest count checked with bulk counting in the default run.
const BULK_LIMIT: u64 = 40_000_000;
/// Largest count checked by playing every move in the default run.
const PLAYED_LIMIT: u64 = 8_000_000;
/// Largest count the (slow) reference generator checks in the default run.
const REFERENCE_LIMIT: u64 = 10_000;

/// Which counts a test checks: those within a limit (the default run) or those beyond it
/// (`--ignored`), so that together the two check every count of every file.
#[derive(Clone, Copy, Debug)]
enum Gate {
    Within,
    Beyond,
}

impl Gate {
    fn admits(self, leaves: u64, limit: u64) -> bool {
        match self {
            Gate::Within => leaves <= limit,
            Gate::Beyond => leaves > limit,
        }
    }
}

/// Every `*.perft` file with the variant its name gives, by name.
fn perft_files() -> Vec<(Variant, PathBuf)> {
    let mut files: Vec<(Variant, PathBuf)> = std::fs::read_dir(perft_dir())
        .expect("rules/tests/perft")
        .map(|e| e.expect("a perft directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .map(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let variant = stem.parse().unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (variant, p)
        })
        .collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    files
}

/// The file of one variant.
fn file_of(variant: Variant) -> PathBuf {
    perft_dir().join(format!("{}.perft", variant.name()))
}

#[test]
fn every_variant_has_one_perft_file() {
    let variants: Vec<Variant> = perft_files().into_iter().map(|(v, _)| v).collect();
    assert_eq!(variants, Variant::ALL);
}

#[test]
fn counts_within_the_limits_match_the_files() {
    check_every_file(Gate::Within);
}

/// Minutes in release mode.
#[test]
#[ignore]
fn counts_beyond_the_limits_match_the_files() {
    check_every_file(Gate::Beyond);
}

#[test]
fn reference_generator_agrees_within_its_limit() {
    check_reference::<GlinskiRules>(Variant::Glinski, Kind::Glinski, Gate::Within);
    check_reference::<MiniRules>(Variant::MiniHexchess, Kind::Mini, Gate::Within);
}

/// Minutes in release mode.
#[test]
#[ignore]
fn reference_generator_confirms_deeper_counts() {
    check_reference::<GlinskiRules>(Variant::Glinski, Kind::Glinski, Gate::Beyond);
    check_reference::<MiniRules>(Variant::MiniHexchess, Kind::Mini, Gate::Beyond);
}

/// Checks the files in parallel, one thread each (named by its variant), through the run-time
/// dispatch the CLI uses.
fn check_every_file(gate: Gate) {
    std::thread::scope(|scope| {
        for (variant, path) in perft_files() {
            std::thread::Builder::new()
                .name(variant.name().into())
                .spawn_scoped(scope, move || with_game!(variant, G => check_file::<G>(variant, &path, gate)))
                .expect("a perft thread");
        }
    });
}

/// Checks one file's counts that `gate` admits, with and without bulk counting.
fn check_file<G: Game>(variant: Variant, path: &Path, gate: Gate) {
    assert_eq!(G::NAME, variant.name(), "with_game! dispatches {variant} to its own game");
    for entry in read_perft_file(path) {
        let game = position::<G>(&entry, path);
        for &(depth, leaves) in &entry.counts {
            let at = format!("{} '{}' perft {depth}", path.display(), entry.id);
            if gate.admits(leaves, BULK_LIMIT) {
                assert_eq!(perft(&game, depth, true), leaves, "{at}, bulk");
            }
            if gate.admits(leaves, PLAYED_LIMIT) {
                assert_eq!(perft_parallel(&game, depth, false, 2), leaves, "{at}, every move played");
            }
        }
    }
}

/// The entry's position, whose text must be as `to_text` writes it; `start` must be the start.
fn position<G: Game>(entry: &PerftEntry, path: &Path) -> G {
    let at = format!("{} '{}'", path.display(), entry.id);
    let game = G::from_text(&entry.position).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(game.to_text(), entry.position, "{at}: the position text is not as to_text writes it");
    if entry.id == "start" {
        assert_eq!(entry.position, G::start().to_text(), "{at}: not the start position");
    }
    game
}

/// Checks a hex variant's counts that `gate` admits with the reference generator.
fn check_reference<V: HexRules>(variant: Variant, kind: Kind, gate: Gate) {
    let path = file_of(variant);
    for entry in read_perft_file(&path) {
        let reference = Reference::of(&position::<HexChess<V>>(&entry, &path), kind);
        for &(depth, leaves) in entry.counts.iter().filter(|(_, n)| gate.admits(*n, REFERENCE_LIMIT)) {
            assert_eq!(reference.perft(depth), leaves, "{} '{}' perft {depth}, reference", path.display(), entry.id);
        }
    }
}

#[test]
fn a_perft_file_is_read_entry_by_entry() {
    let text = "# comment\n\nid start\nposition a b c\nsource here\nperft 1 20\nperft 2 400\n\nid two\nposition x\nsource there\nperft 3 8000\n";
    let entries = parse_perft(text).unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(
        entries[0],
        PerftEntry {
            id: "start".into(),
            position: "a b c".into(),
            source: "here".into(),
            counts: vec![(1, 20), (2, 400)]
        }
    );
    assert_eq!(entries[1].counts, [(3, 8000)]);
}

#[test]
fn a_malformed_perft_file_is_refused_naming_the_line() {
    let cases = [
        ("position x\n", "1: a line before the first `id`"),
        ("id a\nposition x\nsource y\nperft 1\n", "4: expected `perft DEPTH LEAVES`"),
        ("id a\nposition x\nsource y\nperft 1 2 3\n", "4: expected `perft DEPTH LEAVES`"),
        ("id a\nposition x\nposition y\n", "3: given twice in one entry"),
        ("id a\nposition x\nsource y\nperft 1 2\nid a\n", "5: a second entry with this id"),
        ("id a\nposition x\nperft 1 2\nid b\n", "4: entry 'a' has no `source`"),
        ("id a\nposition x\nsource y\n", "end: entry 'a' has no `perft` line"),
        ("id a\nfen x\n", "2: unknown key"),
        ("id\n", "1: a key needs a value"),
        ("# nothing\n", "end: no entries"),
    ];
    for (text, expected) in cases {
        let err = parse_perft(text).unwrap_err();
        assert!(err.starts_with(expected), "{text:?}: {err}");
    }
}
