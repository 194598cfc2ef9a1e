//! Weltschach's first moves from the reconstructed start position (docs/rules/weltschach.md):
//! none captures, their split by piece type, and the start's pieces. The perft counts are data,
//! in rules/tests/perft/weltschach.perft (checked by tests/perft.rs).

use std::collections::BTreeMap;

use rules::weltschach::{Color, Kind, Weltschach};
use rules::Game;

#[test]
fn no_first_move_captures() {
    let game = Weltschach::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves.len() as u64, game.count_legal_moves());
    for &mv in &moves {
        assert!(game.piece_at(mv.to()).is_none(), "{mv:?} captures on move 1");
    }
}

#[test]
fn perft_1_split_by_piece_type_matches_spec() {
    let game = Weltschach::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut by_kind: BTreeMap<Kind, usize> = BTreeMap::new();
    for &mv in &moves {
        let (color, kind) = game.piece_at(mv.from()).unwrap();
        assert_eq!(color, Color::White);
        *by_kind.entry(kind).or_default() += 1;
    }
    let expected = [
        (Kind::Stockbroker, 192),
        (Kind::Knight, 48),
        (Kind::Ninja, 24),
        (Kind::Sexton, 16),
        (Kind::Bishop, 8),
        (Kind::Churchwarden, 8),
        (Kind::Oberon, 8),
        (Kind::Emperor, 5),
        (Kind::Empress, 5),
        (Kind::Arsenal, 5),
        (Kind::Governor, 4),
        (Kind::Samurai, 4),
        (Kind::Arbalest, 4),
        (Kind::Cannonade, 4),
        (Kind::Canoe, 4),
    ];
    assert_eq!(by_kind, expected.into_iter().collect::<BTreeMap<_, _>>());
}

#[test]
fn start_position_counts() {
    let game = Weltschach::start();
    let mut per_side = [0; 2];
    for cell in rules::weltschach::Cell::all() {
        if let Some((c, _)) = game.piece_at(cell) {
            per_side[c.index()] += 1;
        }
    }
    assert_eq!(per_side, [176, 176]);
    assert_eq!(game.to_text().matches('/').count(), 7);
    assert_eq!(Weltschach::from_text(&game.to_text()).unwrap().to_text(), game.to_text());
}
