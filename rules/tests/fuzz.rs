//! Fuzzing the position text and move text of every variant, and game texts (rules::fuzz): real
//! texts from the start positions and random games, changed or random, must be read or refused
//! with an error, never panic, hang or allocate by a number in the text; what is read must
//! round-trip and be playable. Bounded here; `VZERO_FUZZ_CASES=1000000 cargo test --release -p rules
//! --test fuzz` runs longer (docs/architecture.md, "Tests").

use rules::fuzz::{self, mutate, CountingAlloc, Rng};
use rules::hexchess::{Glinski, MiniHexchess};
use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{read_games, Encoding, Game, GameText, Termination, Variant, VariantGame};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Position texts of `G`: its start and positions of random games, over when one ends.
fn positions<G: Game>(games: usize, plies: usize) -> Vec<String> {
    let mut rng = Rng::new(fuzz::SEED);
    let mut texts = vec![G::start().to_text()];
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut game = G::start();
        for _ in 0..rng.below(plies) {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(*rng.pick(&moves));
            if rng.percent(30) {
                texts.push(game.to_text());
            }
        }
        texts.push(game.to_text());
    }
    texts
}

/// Reads `text` again from `game.to_text()` and checks it is the same position.
fn round_trip<G: Game>(game: &G) -> String {
    let text = game.to_text();
    let again = G::from_text(&text).unwrap_or_else(|e| panic!("its own text {text:?} is refused: {e}"));
    assert_eq!(again.to_text(), text, "text changes when read again");
    assert_eq!(again.hash(), game.hash(), "hash changes when read again: {text}");
    assert_eq!(again.outcome(), game.outcome(), "result changes when read again: {text}");
    text
}

/// What must hold of a position read from outside: it writes and reads back the same, its moves
/// are generated, encoded and written as text that reads back, and a few of them play.
fn usable<G: Encoding>(game: &G, pick: u64) {
    let mut planes = vec![0.0; G::input_len()];
    let mut moves = Vec::new();
    let mut game = game.clone();
    let mut pick = Rng::new(pick);
    for _ in 0..3 {
        round_trip(&game);
        game.legal_moves(&mut moves);
        assert_eq!(game.count_legal_moves(), moves.len() as u64, "move count differs: {}", game.to_text());
        assert_eq!(moves.is_empty(), game.outcome().is_some(), "moves but over, or none and not: {}", game.to_text());
        if let Some(win) = game.winning_move() {
            assert!(moves.contains(&win), "winning move is not legal: {}", game.to_text());
        }
        game.encode(&mut planes);
        let Some(&mv) = moves.get(pick.below(moves.len().max(1))) else { return };
        assert!(game.policy_index(mv) < G::POLICY_SIZE);
        let text = game.move_text(mv);
        assert_eq!(game.parse_move(&text), Ok(mv), "move text {text:?} does not read back: {}", game.to_text());
        game.play(mv);
    }
}

/// The cells of a board field in order, each a piece or `.` for an empty cell, with the rank
/// and level separators (`/`, `,`) as cells of their own. Empty runs are digits except in
/// Wellisch, whose pieces are a seat digit, a letter and perhaps a direction digit.
fn board_cells(board: &str, wellisch: bool) -> Vec<String> {
    let chars: Vec<char> = board.chars().collect();
    let mut cells = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if wellisch && c.is_ascii_digit() {
            let len = if chars.get(i + 1) == Some(&'p') { 3 } else { 2 };
            cells.push(chars[i..(i + len).min(chars.len())].iter().collect());
            i += len;
        } else if !wellisch && c.is_ascii_digit() {
            let end = (i..chars.len()).find(|&j| !chars[j].is_ascii_digit()).unwrap_or(chars.len());
            let run: usize = chars[i..end].iter().collect::<String>().parse().expect("a short run");
            cells.extend(std::iter::repeat_n(".".to_string(), run));
            i = end;
        } else {
            cells.push(c.to_string());
            i += 1;
        }
    }
    cells
}

/// A board of random pieces: the pieces of a real position moved to random cells, some taken
/// off or doubled, and either side to move. The text reads; the position is often impossible
/// (kings in check, pawns on the last rank), which the validation must refuse.
fn shuffled(rng: &mut Rng, text: &str, wellisch: bool) -> String {
    let (board, rest) = text.split_once(' ').expect("fields");
    let mut cells = board_cells(board, wellisch);
    let squares: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != "/" && cells[i] != ",").collect();
    for k in (1..squares.len()).rev() {
        cells.swap(squares[k], squares[rng.below(k + 1)]);
    }
    for _ in 0..rng.size(8) {
        let (a, b) = (*rng.pick(&squares), *rng.pick(&squares));
        cells[a] = if rng.percent(50) { ".".to_string() } else { cells[b].clone() };
    }
    let mut out = String::new();
    let mut empty = 0;
    for cell in cells {
        if cell == "." && !wellisch {
            empty += 1;
            continue;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
            empty = 0;
        }
        out.push_str(&cell);
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    let mut fields: Vec<String> = rest.split(' ').map(String::from).collect();
    fields[0] = rng.pick(&["w", "b", "1", "2", "3"]).to_string();
    format!("{out} {}", fields.join(" "))
}

/// Fuzzes `G`'s position text.
fn fuzz_positions<G: Encoding>(cases: usize, corpus: &[String], words: &[&str]) {
    let wellisch = G::NUM_PLAYERS == 3;
    let stats = fuzz::run(
        &format!("{} positions", G::NAME),
        cases,
        |rng| {
            if rng.percent(25) {
                let text = rng.pick(corpus).clone();
                shuffled(rng, &text, wellisch)
            } else {
                mutate::text(rng, corpus, words)
            }
        },
        |text| match G::from_text(text) {
            Ok(game) => {
                usable(&game, text.len() as u64);
                true
            }
            Err(_) => false,
        },
    );
    assert!(stats.read > 0, "no input was read: the mutations never keep a position valid");
}

/// Fuzzes `G`'s move text, each in a position of `corpus`.
fn fuzz_moves<G: Encoding>(cases: usize, corpus: &[String], words: &[&str]) {
    let games: Vec<G> = corpus.iter().map(|t| G::from_text(t).expect("corpus position")).collect();
    let legal: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves.iter().map(|&m| g.move_text(m)).collect()
        })
        .collect();
    let stats = fuzz::run(
        &format!("{} moves", G::NAME),
        cases,
        |rng| {
            let i = rng.below(games.len());
            (i, mutate::text(rng, &legal[i], words))
        },
        |(i, text)| {
            let game = &games[*i];
            match game.parse_move(text) {
                Ok(mv) => {
                    let mut moves = Vec::new();
                    game.legal_moves(&mut moves);
                    assert!(moves.contains(&mv), "{text:?} reads as a move that is not legal");
                    assert_eq!(game.parse_move(&game.move_text(mv)), Ok(mv));
                    let mut after = game.clone();
                    after.play(mv);
                    round_trip(&after);
                    true
                }
                Err(_) => false,
            }
        },
    );
    assert!(stats.read > 0, "no move text was read");
}

const HEX_WORDS: &[&str] = &["w", "b", "k", "K", "p", "P", "q", "Q", "=Q", "=N", "x", "f6", "e10", "l1", "a6", "/"];

#[test]
fn fuzz_glinski() {
    let corpus = positions::<Glinski>(40, 120);
    fuzz_positions::<Glinski>(24_000, &corpus, HEX_WORDS);
    fuzz_moves::<Glinski>(12_000, &corpus, HEX_WORDS);
}

#[test]
fn fuzz_mini_hexchess() {
    let corpus = positions::<MiniHexchess>(60, 80);
    fuzz_positions::<MiniHexchess>(24_000, &corpus, HEX_WORDS);
    fuzz_moves::<MiniHexchess>(12_000, &corpus, HEX_WORDS);
}

#[test]
fn fuzz_wellisch() {
    let words = &[
        "1",
        "2",
        "3",
        "1K",
        "2p3",
        "3p1",
        "1KQ",
        "2K3Q",
        "1QRN",
        "takeover",
        "threefold",
        "out=2:1",
        "out=1:2,3:2",
        "pass",
        "I11=R,",
        "=Q",
        "A1",
        "K11",
        "D1-E1",
    ];
    let corpus = positions::<Wellisch>(40, 150);
    fuzz_positions::<Wellisch>(24_000, &corpus, words);
    fuzz_moves::<Wellisch>(12_000, &corpus, words);
}

#[test]
fn fuzz_weltschach() {
    let words = &["w", "b", "-", "8", "1", ",", "vd1", "sa1", "zh8", "=Q", "x", "E", "e", "Q", "QqRr"];
    let corpus = positions::<Weltschach>(12, 80);
    fuzz_positions::<Weltschach>(16_000, &corpus, words);
    fuzz_moves::<Weltschach>(8000, &corpus, words);
}

/// Game texts (docs/games.md) of random games of `variant`, some from another start, some
/// stopped short and marked so.
fn game_texts(variant: Variant, games: usize, plies: usize) -> Vec<String> {
    let mut rng = Rng::new(fuzz::SEED);
    (0..games)
        .map(|g| {
            let mut game = VariantGame::start(variant);
            let opening = if g % 2 == 1 { rng.below(6) } else { 0 };
            let mut record = None;
            for ply in 0..opening + rng.below(plies) {
                if ply == opening {
                    record = Some(GameText::new(variant, &game.to_text()));
                }
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let chosen = rng.pick(&moves).clone();
                let played = game.play_text(&chosen).expect("a legal move");
                if let Some(r) = record.as_mut() {
                    r.moves.push(played.text);
                }
            }
            let mut record = record.unwrap_or_else(|| GameText::new(variant, &game.to_text()));
            record.seats[0] = "alphabeta:1".into();
            match game.outcome() {
                Some(_) => record.end_by_rules(&game),
                None if rng.percent(50) => {
                    record.result = Some(rules::Scores::draw(variant.players()));
                    record.termination = Some(Termination::MoveLimit);
                }
                None => {}
            }
            record.write()
        })
        .collect()
}

#[test]
fn fuzz_game_texts() {
    let mut corpus = game_texts(Variant::MiniHexchess, 30, 120);
    corpus.extend(game_texts(Variant::Glinski, 10, 60));
    corpus.extend(game_texts(Variant::Wellisch, 10, 60));
    // Several games in one text.
    corpus.push(corpus[..4].concat());
    let words = &[
        "[",
        "]",
        "\"",
        "\\",
        "{",
        "}",
        "(",
        ")",
        ";",
        "\n",
        "$1",
        "1.",
        "12...",
        "+",
        "#",
        "*",
        "1-0",
        "1/2-1/2",
        "1-1/2-0",
        "[Variant \"glinski\"]",
        "[Start \"",
        "[FEN \"",
        "[Result \"0-1\"]",
        "[Termination \"checkmate\"]",
        "[Termination \"move limit\"]",
        "[White \"x\"]",
        "pass",
        "x",
        "=Q",
    ];
    let stats = fuzz::run(
        "game texts",
        6000,
        |rng| mutate::text(rng, &corpus, words),
        |text| match read_games(text, None) {
            Ok(games) => {
                let written: String = games.iter().map(GameText::write).collect();
                let again = read_games(&written, None).unwrap_or_else(|e| panic!("its own text is refused: {e}"));
                assert_eq!(again, games, "games change when written and read again");
                true
            }
            Err(e) => {
                assert!(!e.to_string().contains('\n'), "one line: {e}");
                false
            }
        },
    );
    assert!(stats.read > 0, "no game text was read");
}

// Inputs the fuzzing found, minimized, as regression tests.

/// Weltschach's move number wrapped from the largest `u32` to 0 after Black's move (a panic
/// with overflow checks), and the position's own text was then refused.
#[test]
fn weltschach_at_the_largest_move_number_still_writes_a_readable_text() {
    let start = Weltschach::start().to_text();
    let (board, _) = start.split_once(' ').expect("fields");
    let black = Weltschach::from_text(&format!("{board} b - - 0 4294967295")).expect("position");
    let mut moves = Vec::new();
    black.legal_moves(&mut moves);
    let mut after = black.clone();
    after.play(moves[0]);
    assert!(after.to_text().ends_with(" 4294967295"), "{}", after.to_text());
    round_trip(&after);
}

/// A run of empty cells past `usize::MAX` wrapped around (a panic with overflow checks): 2^64 + 7
/// read as 7, so a board with a 20-digit run was accepted as a full rank.
#[test]
fn hex_empty_runs_past_the_largest_number_are_refused() {
    let start = MiniHexchess::start().to_text();
    assert!(start.contains("/7/"), "{start}");
    let wrapped = start.replacen("/7/", "/18446744073709551623/", 1);
    let err = MiniHexchess::from_text(&wrapped).expect_err("a run of 2^64 + 7 cells");
    assert!(err.to_string().contains("describes more than its 7 cells"), "{err}");
    let huge = Glinski::start().to_text().replacen('/', "/99999999999999999999999999999999/", 1);
    assert!(Glinski::from_text(&huge).is_err());
}
