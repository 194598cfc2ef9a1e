//! Wellisch perft beyond the reference counts (those are data, rules/tests/perft/wellisch.perft):
//! the start's split by root move, bulk counting against playing every move in positions with
//! every special rule, the CLI's dispatch, and the state size copy-make depends on.

mod common;

use common::wellisch::{pos, KINGS23};
use rules::perft::{divide, perft};
use rules::wellisch::{Move, Wellisch};
use rules::Game;

#[test]
fn divide_at_depth_2_gives_every_first_move_20_replies() {
    let g = Wellisch::start();
    let split = divide(&g, 2, true);
    assert_eq!(split.len(), 20);
    assert!(split.iter().all(|(_, n)| *n == 20), "every P1 move leaves P2 its 20 moves");
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 400);
    assert!(split.iter().any(|(m, _)| m == "D1-E1"), "king-side castling is among the 20");
}

#[test]
fn bulk_counting_agrees_with_playing_every_move_in_special_positions() {
    let positions = [
        pos(&format!("D1:1K B1:1R E1:1R {KINGS23}"), "1 1KQ - 0"),
        pos(&format!("F10:1P G11:2N D1:1K {KINGS23}"), "1 - 1QN 0"),
        pos(&format!("F11:1P G11:1P D1:1K {KINGS23}"), "1 - 1RN 0"),
        pos("A1:1K K11:1P F1:3R G2:2R C8:2K K9:3K", "1 - 1RN 0"),
        pos("A1:1K B2:1P A2:1N F1:3R C8:2K K9:3K", "3 - 1Q 0 takeover"),
        pos(&format!("D1:1K B2:1P {KINGS23}"), "1 - - 98"),
    ];
    for g in &positions {
        for depth in 1..=3 {
            assert_eq!(perft(g, depth, true), perft(g, depth, false), "perft {depth} of {}", g.to_text());
        }
    }
}

#[test]
fn registered_for_the_cli() {
    fn name<G: rules::Game>() -> (&'static str, usize) {
        (G::NAME, G::NUM_PLAYERS)
    }
    assert_eq!(rules::with_game!(rules::Variant::Wellisch, G => name::<G>()), ("wellisch", 3));
}

#[test]
fn states_stay_small_for_copy_make() {
    // Search and perft copy a state per node: keep it a flat value of a few cache lines.
    assert!(std::mem::size_of::<Wellisch>() <= 256, "{}", std::mem::size_of::<Wellisch>());
    assert_eq!(std::mem::size_of::<Move>(), 4);
}
