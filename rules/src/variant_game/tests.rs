//! The variant-erased game against each variant's own type: the same moves, text, hash and
//! encoding, and the one-line errors of the CLI and the Python module.

use super::*;
use crate::MoveError;

/// Glinski, White to mate in one with c6-a6.
const MATE_IN_ONE: &str = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60";

/// What `variant`'s own type says about its start position, through the generic code.
fn concrete_view<G: KnownVariant>() -> (String, u64, Vec<String>, Vec<i64>, usize, Vec<f32>) {
    let game = G::start();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut planes = vec![0.0; G::input_len()];
    game.encode(&mut planes);
    (
        game.to_text(),
        game.hash(),
        moves.iter().map(|&mv| game.move_text(mv)).collect(),
        moves.iter().map(|&mv| game.policy_index(mv) as i64).collect(),
        G::POLICY_SIZE,
        planes,
    )
}

#[test]
fn every_variant_answers_as_its_own_type() {
    for variant in Variant::ALL {
        let game = VariantGame::start(variant);
        let (text, hash, moves, actions, policy_size, planes) = crate::with_game!(variant, G => concrete_view::<G>());
        assert_eq!(game.variant(), variant);
        assert_eq!(game.num_players(), variant.players());
        assert_eq!(game.to_move(), 0);
        assert_eq!(game.to_text(), text, "{variant}");
        assert_eq!(game.hash(), hash, "{variant}");
        assert_eq!(game.legal_moves(), moves, "{variant}");
        assert_eq!(game.legal_actions(), actions, "{variant}");
        let board: Vec<String> = game.legal_board_moves().into_iter().map(|m| m.text).collect();
        assert_eq!(board, moves, "{variant}");
        assert_eq!(game.policy_size(), policy_size, "{variant}");
        let mut encoded = vec![f32::NAN; game.input_shape().iter().product()];
        game.encode(&mut encoded);
        assert_eq!(encoded, planes, "{variant}");
        assert_eq!(game.perft(1), moves.len() as u64, "{variant}");
        let again = VariantGame::from_text(variant, &game.to_text()).unwrap();
        assert_eq!(again.hash(), game.hash(), "{variant}: the text reads back");
        assert!(game.outcome().is_none() && game.ending().is_none() && game.game_over_text().is_none());
    }
}

#[test]
fn a_game_is_found_inside_its_own_arm_only() {
    let glinski = VariantGame::start(Variant::Glinski);
    assert_eq!(Glinski::unerase(&glinski).map(|g| g.to_text()), Some(Glinski::start().to_text()));
    assert!(MiniHexchess::unerase(&glinski).is_none());
    assert!(Weltschach::unerase(&VariantGame::start(Variant::Wellisch)).is_none());
    assert_eq!(Wellisch::VARIANT, Variant::Wellisch);
}

#[test]
fn moves_by_text_and_by_action_name_each_other() {
    for variant in Variant::ALL {
        let game = VariantGame::start(variant);
        let (moves, actions) = (game.legal_moves(), game.legal_actions());
        let last = moves.len() - 1;
        assert_eq!(game.action_of(&moves[last]), Ok(actions[last]), "{variant}");
        assert_eq!(game.move_of(actions[last]).as_deref(), Ok(moves[last].as_str()), "{variant}");
        let (mut by_text, mut by_action) = (game.clone(), game.clone());
        let played = by_text.play_text(&moves[last]).unwrap();
        assert_eq!(by_action.play_action(actions[last]), Ok(played.clone()), "{variant}");
        assert_eq!(played.text, moves[last]);
        assert_eq!(by_text.hash(), by_action.hash(), "{variant}");
        assert_ne!(by_text.hash(), game.hash(), "{variant}: the move was played");
        assert_eq!(by_text.to_move(), 1, "{variant}");
    }
}

#[test]
fn refused_moves_say_why_and_change_nothing() {
    let mut game = VariantGame::start(Variant::MiniHexchess);
    let before = game.to_text();
    assert!(matches!(game.play_text("nonsense"), Err(PlayError::Move(MoveError::Syntax { .. }))));
    let illegal = game.play_text("d2-d4").unwrap_err().to_string();
    assert!(illegal.starts_with("illegal move 'd2-d4'"), "{illegal}");
    let last = game.policy_size() - 1;
    assert_eq!(
        game.move_of(-1).unwrap_err().to_string(),
        format!("illegal action -1: no legal move has that policy index (0 to {last} in mini-hexchess)")
    );
    assert!(game.play_action(0).unwrap_err().to_string().starts_with("illegal action 0: "));
    assert_eq!(game.to_text(), before, "a refused move leaves the game as it was");
}

#[test]
fn a_finished_game_ends_by_its_rule_and_refuses_moves() {
    let mut game = VariantGame::from_text(Variant::Glinski, MATE_IN_ONE).unwrap();
    let played = game.play_text("c6-a6").unwrap();
    assert!(played.cells.is_some());
    assert_eq!(game.outcome(), Some(Scores::win2(0)));
    assert_eq!(game.ending(), Some(Ending::Checkmate));
    assert_eq!(game.ending_text().as_deref(), Some("Checkmate: Black is mated, White wins."));
    let over = "the game is over: checkmate (final scores 1 0)";
    assert_eq!(game.game_over_text().as_deref(), Some(over));
    assert_eq!(game.play_text("a6-a7"), Err(PlayError::Over(over.to_string())));
    assert_eq!(game.play_action(0), Err(PlayError::Over(over.to_string())));
    assert!(game.legal_moves().is_empty() && game.perft(2) == 0);
    assert!(game.board_text(played.cells).contains('*'), "the last move is marked");
    assert!(!game.board_text(None).contains('*'));
    let king = game.checked_king().expect("the mated king is in check");
    let drawn = game.diagram().unwrap().pieces.into_iter().find(|p| p.cell == king);
    assert!(drawn.is_some_and(|p| p.owner == 1 && p.letter == 'K'), "Black's king at {king}");
}

#[test]
fn the_king_in_check_is_the_movers_and_every_mate_has_one() {
    for variant in Variant::ALL {
        let (mut checks, mut state) = (0, 7u64);
        for _ in 0..6 {
            let mut game = VariantGame::start(variant);
            for _ in 0..400 {
                if let Some(king) = game.checked_king() {
                    checks += 1;
                    let drawn = game.diagram().unwrap().pieces.into_iter().find(|p| p.cell == king);
                    let piece = drawn.unwrap_or_else(|| panic!("{variant}: no piece at {king}: {}", game.to_text()));
                    assert_eq!(piece.owner, game.to_move(), "{variant}: {}", game.to_text());
                }
                if game.ending() == Some(Ending::Checkmate) {
                    assert!(game.checked_king().is_some(), "{variant} mated out of check: {}", game.to_text());
                }
                let legal = game.legal_moves();
                if game.outcome().is_some() || legal.is_empty() {
                    break;
                }
                let pick = crate::splitmix::next(&mut state) as usize % legal.len();
                game.play_text(&legal[pick]).unwrap();
            }
        }
        assert!(checks > 0, "{variant}: random games give a check");
    }
}

#[test]
fn a_setup_names_the_bad_position_or_move() {
    let moves = VariantGame::start(Variant::MiniHexchess).legal_moves();
    let game = VariantGame::setup(Variant::MiniHexchess, None, &[moves[0].as_str()]).unwrap();
    assert_eq!(game.to_move(), 1);
    let error = VariantGame::setup(Variant::MiniHexchess, None, &[moves[0].as_str(), "zz"]).unwrap_err();
    assert!(error.to_string().starts_with("move 2 ('zz'): cannot read move 'zz'"), "{error}");
    let error = VariantGame::setup::<&str>(Variant::Glinski, Some("nope"), &[]).unwrap_err();
    assert!(error.to_string().starts_with("position 'nope': bad position text"), "{error}");
    let error = VariantGame::setup(Variant::Glinski, Some(MATE_IN_ONE), &["c6-a6", "a6-a7"]).unwrap_err();
    assert_eq!(error.to_string(), "move 2 ('a6-a7'): the game is over: checkmate (final scores 1 0)");
}
