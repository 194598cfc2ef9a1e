//! Zobrist hashes are part of the contract with stored data (repetition in saved games, caches
//! keyed by hash): these known values pin them, so a change to the key generator shows here.

use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Game, Glinski, MiniHexchess};

/// The hash after each of the first `plies` plies, always playing the last legal move.
fn hashes<G: Game>(plies: usize) -> Vec<u64> {
    let mut game = G::start();
    let mut out = vec![game.hash()];
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        game.play(*moves.last().expect("the game goes on"));
        out.push(game.hash());
    }
    out
}

#[test]
fn glinski_hashes_are_unchanged() {
    assert_eq!(hashes::<Glinski>(3), [0xCFCB426EC71B5160, 0x2F209021F9058941, 0x1DFCFE23DC868064, 0x983BA2626ADEC701]);
}

#[test]
fn mini_hexchess_hashes_are_unchanged() {
    assert_eq!(
        hashes::<MiniHexchess>(3),
        [0xAFCBD5308CA2D74A, 0x95D93D86DEE9A835, 0x15973D5B26C0E227, 0x13EBA6F5B850F0FC]
    );
}

#[test]
fn wellisch_hashes_are_unchanged() {
    assert_eq!(hashes::<Wellisch>(3), [0xCFFBA07A7B9D7012, 0x5B05355043803BEF, 0xB1B6946515714965, 0x29FA6CF50C6FC9EF]);
}

#[test]
fn weltschach_hashes_are_unchanged() {
    assert_eq!(
        hashes::<Weltschach>(3),
        [0x1764AA923776AFCE, 0x33F76BC21AEC36AA, 0x1952C2063CB64BB3, 0x34DAE4BCCCB104A4]
    );
}
