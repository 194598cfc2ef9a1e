//! Games as text (docs/games.md): random games of every variant, from the standard start and
//! from another one, written and read back unchanged; and what a broken text is told.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::{read_games, GameText, Scores, Termination, Variant, VariantGame};

/// A random game of `variant`: `opening` random plies from the standard start make its start
/// position (none: the standard one), then random moves until the rules end it or `max_plies`
/// pass (a draw at the move limit).
fn random_game(variant: Variant, rng: &mut SmallRng, opening: usize, max_plies: usize) -> GameText {
    let mut game = VariantGame::start(variant);
    for _ in 0..opening {
        if game.outcome().is_some() {
            break;
        }
        let actions = game.legal_actions();
        game.play_action(actions[rng.random_range(0..actions.len())]).unwrap();
    }
    let mut record = GameText::new(variant, &game.to_text());
    record.seats = (0..variant.players()).map(|s| format!("random \"{s}\" \\ seat")).collect();
    record.tags.push(("Event".into(), "round trip".into()));
    while game.outcome().is_none() && record.moves.len() < max_plies {
        let actions = game.legal_actions();
        let played = game.play_action(actions[rng.random_range(0..actions.len())]).unwrap();
        record.moves.push(played.text);
    }
    match game.outcome() {
        Some(_) => record.end_by_rules(&game),
        None => {
            record.result = Some(Scores::draw(variant.players()));
            record.termination = Some(Termination::MoveLimit);
        }
    }
    record
}

/// Writes `games` random games of `variant` into one text, reads it back and compares. Every
/// second game starts after a few random plies; every third stops at a move limit of 40 plies,
/// the others play on until the rules end them, as every one does.
fn round_trip(variant: Variant, games: usize, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let records: Vec<GameText> = (0..games)
        .map(|g| {
            random_game(variant, &mut rng, if g % 2 == 1 { 3 + g } else { 0 }, if g % 3 == 2 { 40 } else { usize::MAX })
        })
        .collect();
    assert!(records.iter().any(|r| r.start.is_some()) && records.iter().any(|r| r.start.is_none()));
    assert!(records.iter().any(|r| r.termination == Some(Termination::MoveLimit)));
    let text: String = records.iter().map(GameText::write).collect();
    let read = read_games(&text, None).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
    assert_eq!(read.len(), records.len());
    for (i, (written, back)) in records.iter().zip(&read).enumerate() {
        assert_eq!(written, back, "{variant} game {i}:\n{}", written.write());
    }
    let by_rules = records.iter().filter(|r| r.termination.is_some_and(Termination::by_rules)).count();
    assert!(by_rules >= games - games / 3, "{variant}: {by_rules} of {games} games ended by the rules");
}

#[test]
fn random_games_of_every_variant_read_back_unchanged() {
    round_trip(Variant::Glinski, 12, 1);
    round_trip(Variant::MiniHexchess, 24, 2);
    round_trip(Variant::Wellisch, 6, 3);
    round_trip(Variant::Weltschach, 3, 4);
}

#[test]
fn a_game_reads_as_people_write_it() {
    let text = "; a game typed by hand\n[Variant \"mini-hexchess\"]\n[White \"me\"]\n\n\
                1.d3-d4 {good} c5-c4 2. c2-c3?! (2. e2-e3) e5-e4+ $2 *\n";
    let games = read_games(text, None).unwrap();
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.moves, ["d3-d4", "c5-c4", "c2-c3", "e5-e4"]);
    assert_eq!(
        (game.seats.as_slice(), game.result, game.termination),
        (&["me".to_string(), "?".into()][..], None, None)
    );
    // No [Variant]: the caller's.
    let moves = read_games("1. d3-d4 c5-c4", Some(Variant::MiniHexchess)).unwrap();
    assert_eq!(moves[0].moves.len(), 2);
}

#[test]
fn the_written_game_looks_like_pgn() {
    let mut game = GameText::new(Variant::Glinski, &VariantGame::start(Variant::Glinski).to_text());
    game.seats = vec!["alphabeta:2".into(), "random".into()];
    game.moves = ["f5-f6", "c7-c6", "e4-e5"].map(String::from).to_vec();
    assert_eq!(
        game.write(),
        "[Variant \"glinski\"]\n[White \"alphabeta:2\"]\n[Black \"random\"]\n[Result \"*\"]\n\n1. f5-f6 c7-c6 2. e4-e5 *\n\n"
    );
    // A start with the second seat to move numbers its first move `1...`.
    let mut later = VariantGame::start(Variant::Glinski);
    later.play_text("f5-f6").unwrap();
    let mut game = GameText::new(Variant::Glinski, &later.to_text());
    game.moves = vec!["c7-c6".into(), "e4-e5".into()];
    let text = game.write();
    assert!(text.contains("[Start \"") && text.ends_with("\n\n1... c7-c6 2. e4-e5 *\n\n"), "{text}");
}

#[test]
fn broken_games_name_the_line_and_what_failed() {
    let err = |text: &str| read_games(text, None).unwrap_err().to_string();
    let head = "[Variant \"glinski\"]\n\n";
    assert_eq!(
        err(&format!("{head}1. f5-f6 c7-c6\n2. e5-e6 *")),
        "line 4: move 2 (White, ply 3): illegal move 'e5-e6': no piece on e5"
    );
    assert_eq!(
        err("[Variant \"chess\"]"),
        "line 1: [Variant]: unknown variant 'chess' (expected one of: glinski, mini-hexchess, wellisch, weltschach)"
    );
    assert_eq!(
        err("1. f5-f6 *"),
        "line 1: [Variant]: missing: add [Variant \"NAME\"] (glinski, mini-hexchess, wellisch, weltschach)"
    );
    assert!(err("[Variant \"glinski\"]\n[Start \"x\"]").starts_with("line 2: [Start]: bad position text: "));
    assert_eq!(
        err(&format!("{head}[Result \"1-0\"]\n1. f5-f6 0-1")),
        "line 4: the result 0-1 after the moves disagrees with [Result \"1-0\"]"
    );
    assert_eq!(
        err(&format!("{head}[Result \"1-0\"]\n[Termination \"checkmate\"]\n1. f5-f6 1-0")),
        "line 5: [Termination \"checkmate\"], but the moves do not end the game"
    );
    assert_eq!(
        err("[Variant \"wellisch\"]\n[Result \"1-0\"]"),
        "line 2: [Result]: '1-0' has 2 scores, the variant 3 seats (expected e.g. 1/2-1/2-1/2)"
    );
    assert_eq!(err("[Variant \"glinski\"]\n[Variant \"glinski\"]"), "line 2: [Variant]: given twice");
    assert_eq!(err(" \n"), "line 1: no game found (expected tags such as [Variant \"glinski\"], then the moves)");
    assert_eq!(
        err("[Variant \"glinski\"]\n[Termination \"timeout\"]").lines().next().unwrap(),
        "line 2: [Termination]: unknown termination 'timeout' (expected one of: checkmate, stalemate, king captured, no capture or pawn move for too long, repetition, insufficient material, the rules, move limit, material at the move limit, forfeit, time forfeit)"
    );
}

#[test]
fn a_finished_game_must_say_how_it_ended() {
    // Mini Hexchess: find a random game the rules end, then claim another result.
    let mut rng = SmallRng::seed_from_u64(7);
    let game = loop {
        let game = random_game(Variant::MiniHexchess, &mut rng, 0, usize::MAX);
        if game.termination.is_some_and(Termination::by_rules) {
            break game;
        }
    };
    let mut unfinished = game.clone();
    unfinished.result = None;
    let err = read_games(&unfinished.write(), None).unwrap_err().to_string();
    assert!(err.contains("the moves end the game (") && err.ends_with("but the result says *"), "{err}");
    let mut other = game.clone();
    other.termination = Some(Termination::MoveLimit);
    let err = read_games(&other.write(), None).unwrap_err().to_string();
    assert!(err.contains("[Termination \"move limit\"], but the moves end the game by "), "{err}");
    // Without result and ending, the rules' are taken.
    let mut bare = game.clone();
    bare.result = None;
    bare.termination = None;
    let text = bare.write().replace("[Result \"*\"]\n", "").replace(" *\n", "\n");
    assert_eq!(read_games(&text, None).unwrap(), [game]);
}
