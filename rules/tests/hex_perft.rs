//! Perft counts: the reference tables of docs/rules/glinski.md and docs/rules/mini-hexchess.md,
//! divide consistency, and agreement with the independent reference generator of `common`.

mod common;

use common::{Kind, Reference};
use rules::hexchess::{Glinski, MiniHexchess};
use rules::perft::{divide, perft, perft_parallel};
use rules::Game;

/// docs/rules/glinski.md, verified against Ludii.
const GLINSKI: [u64; 3] = [51, 2_586, 137_858];
/// docs/rules/mini-hexchess.md, verified against Ludii.
const MINI: [u64; 4] = [9, 71, 681, 7_534];

#[test]
fn glinski_perft_matches_the_spec_table() {
    let start = Glinski::start();
    for (depth, &expected) in (1..).zip(GLINSKI.iter()) {
        assert_eq!(perft(&start, depth, true), expected, "bulk, depth {depth}");
        assert_eq!(perft(&start, depth, false), expected, "no bulk, depth {depth}");
    }
}

#[test]
fn mini_perft_matches_the_spec_table() {
    let start = MiniHexchess::start();
    for (depth, &expected) in (1..).zip(MINI.iter()) {
        assert_eq!(perft(&start, depth, true), expected, "bulk, depth {depth}");
        assert_eq!(perft(&start, depth, false), expected, "no bulk, depth {depth}");
    }
}

/// Beyond those tables: our counts, cross-checked by the reference generator (Mini 5 below,
/// Glinski 4 in the ignored test) and by bulk against non-bulk counting.
#[test]
fn deeper_perft_bulk_and_non_bulk_agree() {
    let glinski = Glinski::start();
    assert_eq!(perft(&glinski, 4, true), 7_282_418);
    assert_eq!(perft_parallel(&glinski, 4, false, 2), 7_282_418);
    let mini = MiniHexchess::start();
    assert_eq!(perft(&mini, 5, true), 92_914);
    assert_eq!(perft(&mini, 6, true), 1_220_292);
    assert_eq!(perft(&mini, 6, false), 1_220_292);
}

#[test]
fn divide_at_depth_2_sums_to_the_total() {
    let glinski = divide(&Glinski::start(), 2, true);
    assert_eq!(glinski.len(), 51);
    assert_eq!(glinski.iter().map(|(_, n)| n).sum::<u64>(), 2_586);
    let mini = divide(&MiniHexchess::start(), 2, true);
    assert_eq!(mini.len(), 9);
    assert_eq!(mini.iter().map(|(_, n)| n).sum::<u64>(), 71);
    // Every root move's count is the number of replies after it.
    let start = Glinski::start();
    for (text, count) in glinski {
        let mut child = start.clone();
        child.play(start.parse_move(&text).unwrap());
        assert_eq!(child.count_legal_moves(), count, "{text}");
    }
}

#[test]
fn reference_generator_agrees_on_shallow_perft() {
    assert_eq!(Reference::of(&Glinski::start(), Kind::Glinski).perft(2), 2_586);
    assert_eq!(Reference::of(&MiniHexchess::start(), Kind::Mini).perft(4), 7_534);
}

/// Minutes in release mode: run with `cargo test -p rules --release -- --ignored`.
#[test]
#[ignore]
fn reference_generator_confirms_deeper_counts() {
    assert_eq!(Reference::of(&MiniHexchess::start(), Kind::Mini).perft(5), 92_914);
    assert_eq!(Reference::of(&Glinski::start(), Kind::Glinski).perft(3), 137_858);
    assert_eq!(Reference::of(&Glinski::start(), Kind::Glinski).perft(4), 7_282_418);
}

/// The game type's name and its perft 2.
fn name_and_perft<G: Game>() -> (&'static str, u64) {
    (G::NAME, perft(&G::start(), 2, true))
}

#[test]
fn every_variant_dispatches_to_its_game() {
    use rules::{with_game, Variant};
    // Through the run-time dispatch the CLI uses.
    let dispatched = |v: Variant| with_game!(v, G => name_and_perft::<G>());
    assert_eq!(dispatched(Variant::Glinski), ("glinski", 2_586));
    assert_eq!(dispatched(Variant::MiniHexchess), ("mini-hexchess", 71));
    assert_eq!(dispatched(Variant::Wellisch), ("wellisch", 400));
    assert_eq!(dispatched(Variant::Weltschach), ("weltschach", 114_927));
}
