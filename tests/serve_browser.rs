//! The page of `vzero serve` driven in Debian's headless chromium through chromedriver, by clicks
//! as a person plays: an illegal click refused with the engine's message, a whole Mini Hexchess
//! game against `alphabeta:1` to its end, a move for each of Wellisch's three seats, a Weltschach
//! move from one level to another, the analysis panel's best move equal to `vzero analyse
//! --json`'s, a check and a mate highlighted and marked in the move list, stepped back and forth
//! with the arrow keys, a reload that keeps the game (and the offer to restore a game the server
//! no longer holds), and two tabs whose engines answer while a third tab analyses; the result and
//! ending in the move list, Weltschach's piece legend, Wellisch's seats in their colours, seats
//! titled with the visits they use, every board usable at 400 pixels, the page at the address
//! `--bind 127.0.0.2` prints, and an empty `--runs` folder whose run appears once started. Prints
//! SKIPPED and passes where chromium or chromedriver is not installed. With
//! `VZERO_SCREENSHOTS=DIR` it also saves each variant's board there (how the pictures of
//! docs/serve.md are made).

mod common;

use std::time::Duration;

use common::http::Served;
use common::webdriver::{Browser, ARROW_LEFT, ARROW_RIGHT};
use common::{fake_run, scratch, stderr_of, stdout_of, vzero};
use serde_json::Value;

const LONG: Duration = Duration::from_secs(60);

/// The game the page shows, read from the server.
fn game(server: &Served, browser: &Browser) -> Value {
    let id = browser.attribute("#board", "data-game").expect("the board names its game");
    server.get(&format!("/api/game?id={id}")).json()
}

/// Waits until the page shows a game of `variant` whose engines are done, with a person to move
/// or the game over.
fn settled(server: &Served, browser: &Browser, variant: &str) -> Value {
    browser.wait_until("the page shows the game, the engine done", LONG, |b| {
        b.attribute("#board", "data-variant").as_deref() == Some(variant)
            && b.attribute("#board", "data-thinking").as_deref() == Some("")
    });
    let state = game(server, browser);
    assert!(state["thinking"].is_null() || state["over"].is_string(), "{state}");
    state
}

/// Opens the page on `variant`, sets every seat's player as given (by clicking its option) and
/// clicks "New game".
fn start(server: &Served, browser: &Browser, variant: &str, players: &[&str]) -> Value {
    // A page of its own (going from one `#variant=` to another would keep the page).
    browser.go("about:blank");
    browser.go(&format!("{}/#variant={variant}", server.base));
    browser.wait_for("#board polygon.cell", LONG);
    for (seat, player) in players.iter().enumerate() {
        browser.click(&format!("#seat-{seat} option[value=\"{player}\"]"));
    }
    let before = browser.attribute("#board", "data-game");
    browser.click("#new");
    browser.wait_until("a new game", LONG, |b| b.attribute("#board", "data-game") != before);
    settled(server, browser, variant)
}

fn cell_css(key: u64) -> String {
    format!("#board polygon.cell[data-key=\"{key}\"]")
}

/// The cell labels of `variant`'s board by key.
fn labels(server: &Served, variant: &str) -> std::collections::HashMap<u64, String> {
    let board = server.get(&format!("/api/board?variant={variant}")).json();
    let cells = board["cells"].as_array().unwrap().iter();
    cells.map(|c| (c["key"].as_u64().unwrap(), c["label"].as_str().unwrap().to_string())).collect()
}

/// Plays `mv` (an entry of the state's legal moves) by clicking its piece, then its target, then
/// (for a promotion) the piece in the dialog; waits for the position to change.
fn click_move(browser: &Browser, mv: &Value) {
    let plies = browser.attribute("#board", "data-plies");
    let (from, to) = (mv["from"].as_u64().unwrap(), mv["to"].as_u64().unwrap());
    browser.click(&cell_css(from));
    browser.wait_for(&format!("#board circle.target[data-key=\"{to}\"]"), LONG);
    browser.click(&cell_css(to));
    let text = mv["move"].as_str().unwrap();
    if text.contains('=') {
        browser.click(&format!("#promotion-choices button[data-move=\"{text}\"]"));
    }
    browser.wait_until(&format!("the move {text} played"), LONG, |b| b.attribute("#board", "data-plies") != plies);
}

/// Checks that the move box shows its end (the newest move) and that no move in it is broken
/// over two lines (at its hyphen).
fn move_list_follows_and_keeps_moves_whole(browser: &Browser) {
    let shown = browser
        .execute("var m = document.getElementById('moves'); return [m.scrollHeight, m.scrollTop + m.clientHeight];");
    let (height, bottom) = (shown[0].as_f64().unwrap(), shown[1].as_f64().unwrap());
    assert!(bottom >= height - 2.0, "the move box scrolled to its newest move: {shown}");
    let broken = browser.execute(
        "return Array.prototype.filter.call(document.querySelectorAll('#moves a'), \
         function (a) { return a.getClientRects().length !== 1; }).map(function (a) { return a.textContent; });",
    );
    assert_eq!(broken, serde_json::json!([]), "moves broken over two lines");
}

/// Appends a final evaluation to `run`'s log, as its trainer writes it when the run ends: the
/// trained network and the untrained one against `alphabeta:1` and `random`.
fn log_evaluation(run: &std::path::Path) {
    let mut metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    for (network, opponent, score, wins, draws) in
        [("", "alphabeta:1", 0.75, 6, 0), ("", "random", 1.0, 8, 0), ("step-000000000", "alphabeta:1", 0.25, 1, 2)]
    {
        let m = serde_json::json!({"v": 1, "event": "evaluation", "network": network, "opponent": opponent,
            "games": 8, "network_score": score, "network_wins": wins, "draws": draws, "games_planned": 8});
        metrics.push_str(&format!("{m}\n"));
    }
    std::fs::write(run.join("metrics.jsonl"), metrics).unwrap();
}

fn save_screenshot(browser: &Browser, name: &str) {
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a real screenshot, {} bytes", png.len());
    let _ = std::fs::write(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}.png")), &png);
    if let Some(dir) = std::env::var_os("VZERO_SCREENSHOTS") {
        std::fs::write(std::path::Path::new(&dir).join(format!("serve-{name}.png")), &png).unwrap();
    }
}

#[test]
fn an_illegal_click_is_refused_and_a_mini_hexchess_game_is_clicked_to_its_end() {
    let dir = scratch("serve-browser-mini");
    let server = Served::start(&[]);
    let Some(browser) = Browser::open(&dir, "the serve page") else { return };
    let state = start(&server, &browser, "mini-hexchess", &["you", "alphabeta:1"]);
    assert_eq!(state["seats"][1]["player"], "alphabeta:1");

    // c2 then c5: not a target of the pawn. The server refuses it in the engine's words.
    let legal = state["legal"].as_array().unwrap().clone();
    let pawn = legal.iter().find(|m| m["move"] == "c2-c3").unwrap();
    let c5 = *labels(&server, "mini-hexchess").iter().find(|(_, l)| *l == "c5").unwrap().0;
    browser.click(&cell_css(pawn["from"].as_u64().unwrap()));
    let targets = browser.find_all("#board circle.target");
    assert_eq!(targets.len(), 1, "the pawn's one target is highlighted");
    browser.click(&cell_css(c5));
    browser.wait_until("the refusal shown", LONG, |b| !b.text("#message").is_empty());
    let shown = browser.text("#message");
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--moves", "c2-c5", "--sims", "1"]);
    assert!(stderr_of(&out).contains(&shown), "the engine's own line '{shown}' in: {}", stderr_of(&out));
    assert_eq!(game(&server, &browser)["moves"].as_array().unwrap().len(), 0, "nothing was played");

    // A whole game by clicks: the person plays the first legal move each time.
    let mut state = state;
    let mut plies = 0;
    while state["over"].is_null() {
        let mv = state["legal"][0].clone();
        click_move(&browser, &mv);
        state = settled(&server, &browser, "mini-hexchess");
        plies = state["moves"].as_array().unwrap().len();
        assert!(plies < 600, "the game ends");
        if plies == 6 {
            save_screenshot(&browser, "mini-hexchess");
        }
    }
    browser.wait_until("the end shown", LONG, |b| b.attribute("#board", "data-over").as_deref() == Some("1"));
    assert_eq!(browser.text("#status"), state["over"].as_str().unwrap());
    let ended = browser.text("#status");
    // The move list ends with the result and the rule that ended the game, follows the newest
    // move, and never breaks a move in two.
    let result = format!("{} {}", state["result"].as_str().unwrap(), state["ending"].as_str().unwrap());
    assert!(["1-0 ", "0-1 ", "½-½ ", "¾-¼ ", "¼-¾ "].iter().any(|r| result.starts_with(r)), "{result}");
    assert_eq!(browser.text("#moves .result"), result);
    assert!(browser.text("#moves").ends_with(&result));
    move_list_follows_and_keeps_moves_whole(&browser);
    eprintln!("mini-hexchess by clicks: {plies} plies, {ended}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_wellisch_seat_and_a_weltschach_move_across_levels_by_clicks() {
    let dir = scratch("serve-browser-seats");
    let server = Served::start(&[]);
    let Some(browser) = Browser::open(&dir, "the serve page") else { return };

    let mut state = start(&server, &browser, "wellisch", &["you", "you", "you"]);
    // P1, P2 and P3 are tied to the colours their pieces are drawn in.
    let players = browser.text("#players");
    for name in ["P1 (white): you", "P2 (black): you", "P3 (red): you"] {
        assert!(players.contains(name), "{name} in {players}");
    }
    assert!(browser.text("#status").starts_with("P1 (white) to move"), "{}", browser.text("#status"));
    let swatch = browser.execute("return getComputedStyle(document.querySelector('#players .seat-title[data-seat=\"2\"] .swatch')).backgroundColor;");
    assert_eq!(swatch, "rgb(192, 57, 43)", "P3's swatch is the red of its pieces");
    for seat in 0..3 {
        assert_eq!(state["to_move"], seat, "{state}");
        let mv = state["legal"][0].clone();
        click_move(&browser, &mv);
        state = settled(&server, &browser, "wellisch");
        assert_eq!(state["moves"][seat].as_str(), mv["move"].as_str(), "seat {seat} moved");
    }
    save_screenshot(&browser, "wellisch");

    // Weltschach: a piece whose targets lie on other levels (a label's first letter is its
    // level); all of them highlighted, and one of them clicked.
    let state = start(&server, &browser, "weltschach", &["you", "you"]);
    // Every piece letter on the board is explained beside it, with how the piece moves.
    let legend = browser.text("#legend");
    let entries = browser.find_all("#legend span").len();
    assert_eq!(entries, state["legend"].as_array().unwrap().len(), "{legend}");
    assert_eq!(entries, 23, "the 23 kinds of the start: {legend}");
    for piece in state["pieces"].as_array().unwrap() {
        let letter = piece["letter"].as_str().unwrap();
        assert!(state["legend"].as_array().unwrap().iter().any(|l| l[0] == letter), "{letter} explained");
    }
    assert!(legend.contains("U Unicorn (slides along triagonals)"), "{legend}");
    let legal = state["legal"].as_array().unwrap();
    let cube = labels(&server, "weltschach");
    let level = |key: &Value| cube[&key.as_u64().unwrap()].chars().next().unwrap();
    // The piece whose targets lie on the most levels (the picture of docs/serve.md shows it).
    let levels_from = |from: &Value| {
        let mut levels: Vec<char> = legal.iter().filter(|m| m["from"] == *from).map(|m| level(&m["to"])).collect();
        levels.sort_unstable();
        levels.dedup();
        levels.len()
    };
    let across = legal
        .iter()
        .filter(|m| level(&m["from"]) != level(&m["to"]))
        .max_by_key(|m| levels_from(&m["from"]))
        .expect("a move to another level")
        .clone();
    let from = across["from"].as_u64().unwrap();
    browser.click(&cell_css(from));
    let wanted: Vec<u64> = legal.iter().filter(|m| m["from"] == from).map(|m| m["to"].as_u64().unwrap()).collect();
    let shown = browser.find_all("#board circle.target").len();
    assert_eq!(shown, wanted.len(), "every target of the piece is highlighted");
    save_screenshot(&browser, "weltschach");
    browser.click(&cell_css(from));
    click_move(&browser, &across);
    let state = settled(&server, &browser, "weltschach");
    assert_eq!(state["moves"][0].as_str(), across["move"].as_str());

    // Position text pasted in; a pawn promoted through the dialog; the board flipped.
    start(&server, &browser, "mini-hexchess", &["you", "you"]);
    browser.type_into("#position", "1/3/1P3/k6/7/7/3K3 w - 0 1");
    browser.click("#set-position");
    browser.wait_until("the position set", LONG, |b| b.find_all("#board g.piece").len() == 3);
    let mini = labels(&server, "mini-hexchess");
    let key = |name: &str| *mini.iter().find(|(_, l)| *l == name).unwrap().0;
    let d1 = format!("{} points", cell_css(key("d1")));
    let before = browser.attribute(&cell_css(key("d1")), "points");
    browser.click("#flip");
    assert_ne!(browser.attribute(&cell_css(key("d1")), "points"), before, "{d1}: flipped");
    browser.click(&cell_css(key("c5")));
    browser.click(&cell_css(key("c6")));
    browser.wait_until("the promotion dialog", LONG, |b| b.attribute("#promotion", "hidden").is_none());
    assert_eq!(browser.find_all("#promotion-choices button").len(), 3, "rook, bishop, knight");
    browser.click("#promotion-choices button[data-move=\"c5-c6=B\"]");
    browser.wait_until("the promotion played", LONG, |b| b.attribute("#board", "data-plies").as_deref() == Some("1"));
    let state = game(&server, &browser);
    assert_eq!(state["moves"][0], "c5-c6=B");
    assert!(browser.text("#moves").contains("c5-c6=B"), "the move list");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_analysis_panel_shows_the_best_move_of_analyse_json() {
    let dir = scratch("serve-browser-analysis");
    let runs = dir.join("runs");
    fake_run(&runs.join("mini-a"));
    log_evaluation(&runs.join("mini-a"));
    let server = Served::start(&["--runs", runs.to_str().unwrap()]);
    let Some(browser) = Browser::open(&dir, "the serve page") else { return };
    let state = start(&server, &browser, "glinski", &["you", "you"]);
    let mv = state["legal"].as_array().unwrap().iter().find(|m| m["move"] == "f5-f6").unwrap().clone();
    click_move(&browser, &mv);
    settled(&server, &browser, "glinski");
    browser.click("#analyse-model option[value=\"none\"]");
    browser.type_into("#analyse-sims", "400");
    browser.click("#analyse");
    browser.wait_until("the analysis done", LONG, |b| b.attribute("#analysis", "data-final").as_deref() == Some("1"));
    let best = browser.text("#best");
    let out =
        vzero(&["analyse", "--variant", "glinski", "--moves", "f5-f6", "--model", "none", "--sims", "400", "--json"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let theirs: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    assert_eq!(best, theirs["bestmove"].as_str().unwrap(), "the panel and analyse --json agree");
    assert!(!browser.find_all("#board polygon.arrow").is_empty(), "the top moves are drawn as arrows");
    assert!(browser.text("#lines").contains(&best));
    save_screenshot(&browser, "glinski");

    // Each network seat searches with the visits typed beside it.
    browser.click("#seat-1 option[value=\"none:400\"]");
    browser.click("#seat-0 option[value=\"none:400\"]");
    browser.type_into("#seat-sims-0", "3");
    browser.type_into("#seat-sims-1", "7");
    let before = browser.attribute("#board", "data-game");
    browser.click("#new");
    browser.wait_until("a game of two networks", LONG, |b| b.attribute("#board", "data-game") != before);
    let seats = game(&server, &browser)["seats"].to_string();
    assert!(seats.contains("none:3") && seats.contains("none:7"), "each seat's own sims: {seats}");

    // The run view: its iteration line, curves, gauntlet and games, one of them opened.
    browser.click("#tab-runs");
    browser.wait_until("the run shown", LONG, |b| b.text("#run-iteration").starts_with("iteration"));
    assert!(browser.text("#run-gauntlet").contains("Elo"));
    let table = browser.text("#run-evaluation");
    assert!(table.contains("step-000000000 alphabeta:1 8 1 2 25.0%"), "the untrained network's row: {table}");
    browser.wait_until("the curves drawn", LONG, |b| {
        b.execute("var i = document.getElementById('run-plot'); return i.complete && i.naturalWidth;")
            .as_u64()
            .is_some_and(|w| w > 0)
    });
    browser.click("#run-games li a");
    let src = browser.attribute("#run-game", "src").expect("the game opened");
    assert!(src.contains("/run/game?"), "{src}");
    browser.wait_until("the replay page in its frame", LONG, |b| {
        b.execute("var d = document.getElementById('run-game').contentDocument; return d && d.title;")
            .as_str()
            .is_some_and(|t| t.starts_with("vzero replay"))
    });
    save_screenshot(&browser, "runs");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays the first legal move by clicks and waits for the engine's reply to be shown.
fn move_and_get_reply(server: &Served, browser: &Browser, variant: &str) -> Value {
    let state = game(server, browser);
    let before = state["moves"].as_array().unwrap().len();
    click_move(browser, &state["legal"][0]);
    browser.wait_until("the engine's reply shown", LONG, |b| {
        b.attribute("#board", "data-plies").and_then(|p| p.parse::<usize>().ok()) == Some(before + 2)
    });
    settled(server, browser, variant)
}

#[test]
fn a_reload_keeps_the_game_and_two_tabs_play_while_a_third_analyses() {
    let dir = scratch("serve-browser-tabs");
    let server = Served::start(&[]);
    let Some(browser) = Browser::open(&dir, "the serve page") else { return };
    let engine = |b: &Browser| {
        b.click("#seat-1 option[value=\"none:400\"]");
        b.type_into("#seat-sims-1", "64");
        let before = b.attribute("#board", "data-game");
        b.click("#new");
        b.wait_until("a new game", LONG, |b| b.attribute("#board", "data-game") != before);
    };

    // A game against uniform search, one move each, then the page reloaded: the same game.
    start(&server, &browser, "mini-hexchess", &["you", "you"]);
    engine(&browser);
    // The seat says the visits it uses (64, typed beside it), not the server's default.
    let players = browser.text("#players");
    assert!(players.contains("Black: uniform search, 64 sims") && !players.contains("400"), "{players}");
    let first = move_and_get_reply(&server, &browser, "mini-hexchess");
    let id = first["id"].as_u64().unwrap().to_string();
    let address = browser.execute("return location.href;");
    assert!(address.as_str().unwrap().ends_with(&format!("game={id}")), "the game's id in the address: {address}");
    browser.execute("location.reload();");
    browser.wait_until("the game shown again after the reload", LONG, |b| {
        b.attribute("#board", "data-game").as_deref() == Some(id.as_str())
            && b.attribute("#board", "data-plies").as_deref() == Some("2")
    });
    let shown = browser.text("#moves");
    for mv in first["moves"].as_array().unwrap() {
        assert!(shown.contains(mv.as_str().unwrap()), "{mv} in the move list after the reload: {shown}");
    }

    // A game the server does not hold (as after a restart): said so, and restored from its moves.
    let tab_a = browser.tab();
    browser.execute(&format!("location.hash = '#variant=mini-hexchess&game={}';", u64::MAX / 4));
    browser.wait_until("the missing game said so", LONG, |b| b.text("#message").contains("no game"));
    assert!(browser.attribute("#restore", "hidden").is_some(), "nothing to restore a game never seen here from");
    browser.execute(&format!("location.hash = '#variant=mini-hexchess&game={id}';"));
    browser
        .wait_until("back to the game", LONG, |b| b.attribute("#board", "data-game").as_deref() == Some(id.as_str()));
    // Game 1 was never held (ids count from the clock): its record copied from this game's.
    browser.execute(&format!(
        "sessionStorage.setItem('vzero-game-1', sessionStorage.getItem('vzero-game-{id}')); \
         location.hash = '#variant=mini-hexchess&game=1';"
    ));
    browser.wait_until("the restore offered", LONG, |b| b.attribute("#restore", "hidden").is_none());
    browser.click("#restore");
    browser.wait_until("the game restored", LONG, |b| {
        b.attribute("#board", "data-plies").as_deref() == Some("2")
            && b.attribute("#board", "data-game").is_some_and(|g| g != "1" && g != id)
    });
    let restored = game(&server, &browser);
    assert_eq!(restored["moves"], first["moves"], "{restored}");
    assert_eq!(restored["seats"], first["seats"]);

    // Three tabs: the third analyses for long; the first two still get their engines' replies.
    let tab_b = browser.new_tab();
    browser.switch_to(&tab_b);
    start(&server, &browser, "mini-hexchess", &["you", "you"]);
    engine(&browser);
    let tab_c = browser.new_tab();
    browser.switch_to(&tab_c);
    start(&server, &browser, "mini-hexchess", &["you", "you"]);
    browser.click("#analyse-model option[value=\"none\"]");
    browser.type_into("#analyse-sims", "100000000");
    browser.click("#analyse");
    browser.wait_until("the analysis running", LONG, |b| {
        b.attribute("#board", "data-thinking").as_deref() == Some("analysis")
    });
    let analysing = game(&server, &browser)["id"].as_u64().unwrap();
    for tab in [&tab_a, &tab_b] {
        browser.switch_to(tab);
        let began = std::time::Instant::now();
        move_and_get_reply(&server, &browser, "mini-hexchess");
        eprintln!("an engine's reply shown in {:?} while another tab analysed", began.elapsed());
    }
    let third = server.get(&format!("/api/game?id={analysing}")).json();
    assert_eq!(third["thinking"]["kind"], "analysis", "the third tab still analyses: {third}");
    browser.switch_to(&tab_c);
    browser.click("#stop");
    browser.wait_until("the analysis stopped", LONG, |b| b.attribute("#board", "data-thinking").as_deref() == Some(""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Glinski: White mates with c6-a6.
const MATE_IN_ONE: &str = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60";

/// Sets the page's game to `position` by the position field.
fn set_position(browser: &Browser, position: &str) {
    browser.type_into("#position", position);
    browser.click("#set-position");
    browser.wait_until("the position set", LONG, |b| b.attribute("#board", "data-plies").as_deref() == Some("0"));
}

#[test]
fn a_check_and_a_mate_are_highlighted_and_the_moves_stepped_with_the_arrow_keys() {
    let dir = scratch("serve-browser-check");
    let server = Served::start(&[]);
    let Some(browser) = Browser::open(&dir, "the serve page") else { return };
    start(&server, &browser, "glinski", &["you", "you"]);
    set_position(&browser, MATE_IN_ONE);
    let state = game(&server, &browser);
    assert!(state["check"].is_null() && browser.attribute("#board", "data-check").as_deref() == Some(""));

    // A checking move that does not mate, found by asking the server of each legal move.
    let checking = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            let body = format!(
                r#"{{"variant":"glinski","players":["you","you"],"position":"{MATE_IN_ONE}","moves":["{}"]}}"#,
                m["move"].as_str().unwrap()
            );
            server.post("/api/new", &body).json()["marks"][0] == "+"
        })
        .expect("a check that is not mate")
        .clone();
    click_move(&browser, &checking);
    let checked = game(&server, &browser);
    let king = checked["check"].as_u64().expect("Black's king in check").to_string();
    assert_eq!(browser.attribute("#board", "data-check").as_deref(), Some(king.as_str()));
    let class = browser.attribute(&format!("#board polygon.cell[data-key=\"{king}\"]"), "class").unwrap();
    assert!(class.split(' ').any(|c| c == "check"), "the king's cell highlighted: {class}");
    assert!(browser.text("#status").ends_with("in check"), "{}", browser.text("#status"));
    assert!(browser.text("#moves").ends_with(&format!("{}+", checking["move"].as_str().unwrap())));

    // Stepped back with the arrow key: the position before the check; forward: the game again.
    browser.press(ARROW_LEFT);
    browser.wait_until("the start shown", LONG, |b| {
        b.attribute("#board", "data-view").as_deref() == Some("0")
            && b.attribute("#board", "data-check").as_deref() == Some("")
    });
    let from = checking["from"].as_u64().unwrap();
    assert!(!browser.find_all(&format!("#board g.piece[data-cell=\"{from}\"]")).is_empty(), "the piece back on {from}");
    browser.press(ARROW_RIGHT);
    browser.wait_until("the game shown again", LONG, |b| {
        b.attribute("#board", "data-view").as_deref() == Some("")
            && b.attribute("#board", "data-check").as_deref() == Some(king.as_str())
    });
    // A click on a move in the list steps there too.
    browser.click("#moves a[data-ply=\"1\"]");
    browser
        .wait_until("no step past the last move", LONG, |b| b.attribute("#board", "data-view").as_deref() == Some(""));

    // The mate: highlighted, marked `#`, and the game's end said.
    set_position(&browser, MATE_IN_ONE);
    let mate =
        game(&server, &browser)["legal"].as_array().unwrap().iter().find(|m| m["move"] == "c6-a6").unwrap().clone();
    click_move(&browser, &mate);
    browser.wait_until("the mate shown", LONG, |b| b.attribute("#board", "data-over").as_deref() == Some("1"));
    assert!(browser.attribute("#board", "data-check").is_some_and(|c| !c.is_empty()), "the mated king highlighted");
    assert!(browser.text("#moves").ends_with("c6-a6# 1-0 checkmate"), "{}", browser.text("#moves"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seats_clock_counts_down_on_the_page() {
    let dir = scratch("serve-browser-clock");
    let server = Served::start(&[]);
    let Some(browser) = Browser::open(&dir, "the clocks") else { return };
    browser.go(&format!("{}/#variant=mini-hexchess", server.base));
    browser.wait_for("#board polygon.cell", LONG);
    browser.click("#seat-0 option[value=\"you\"]");
    browser.click("#seat-1 option[value=\"you\"]");
    browser.click("#seat-clock-0 option[value=\"1+0\"]");
    let before = browser.attribute("#board", "data-game");
    browser.click("#new");
    browser.wait_until("a timed game", LONG, |b| b.attribute("#board", "data-game") != before);
    assert_eq!(game(&server, &browser)["clocks"][1], Value::Null, "Black untimed");
    let clock = "#players .clock[data-seat=\"0\"]";
    browser.wait_until("White's clock running", LONG, |b| b.text(clock).starts_with("0:5"));
    assert!(browser.find_all("#players .clock[data-seat=\"1\"]").is_empty(), "no clock for Black");
    let running = browser.attribute(clock, "class").unwrap();
    assert!(running.contains("running"), "{running}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Boards' cells at a phone's width (400 pixels): the smallest drawn of each variant.
#[test]
fn every_board_has_cells_a_finger_can_hit_at_400_pixels() {
    let dir = scratch("serve-browser-narrow");
    let server = Served::start(&[]);
    let Some(browser) = Browser::open(&dir, "the serve page at 400 pixels") else { return };
    browser.resize(400, 800);
    for variant in ["mini-hexchess", "glinski", "wellisch", "weltschach"] {
        start(&server, &browser, variant, &["you", "you", "you"][..if variant == "wellisch" { 3 } else { 2 }]);
        let sizes = browser.execute(
            "var r = Array.prototype.map.call(document.querySelectorAll('#board polygon.cell'), \
             function (c) { var b = c.getBoundingClientRect(); return Math.min(b.width, b.height); }); \
             return [Math.min.apply(null, r), document.documentElement.scrollWidth, window.innerWidth];",
        );
        let (cell, page, window) = (sizes[0].as_f64().unwrap(), sizes[1].as_f64().unwrap(), sizes[2].as_f64().unwrap());
        eprintln!("{variant} at {window} pixels: cells {cell:.1} pixels");
        save_screenshot(&browser, &format!("400-{variant}"));
        assert!(window <= 400.0, "the window is a phone's: {window}");
        assert!(cell >= 16.0, "{variant}: cells of {cell:.1} pixels at {window} pixels");
        assert!(page <= window, "{variant}: the page is {page} pixels wide, scrolling sideways");
    }
    // Weltschach's levels two by two, and four abreast again on a wide window.
    assert_eq!(browser.attribute("#board", "data-columns").as_deref(), Some("2"));
    browser.resize(1300, 1000);
    browser
        .wait_until("the levels four abreast", LONG, |b| b.attribute("#board", "data-columns").as_deref() == Some("4"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The page at the address `serve --bind 127.0.0.2` prints.
#[test]
fn the_page_answers_at_the_address_it_printed() {
    let dir = scratch("serve-browser-bind");
    let server = Served::start(&["--bind", "127.0.0.2"]);
    assert!(server.base.starts_with("http://127.0.0.2:"), "{}", server.base);
    let Some(browser) = Browser::open(&dir, "the page at 127.0.0.2") else { return };
    browser.go(&format!("{}/#variant=mini-hexchess", server.base));
    browser.wait_for("#board polygon.cell", LONG);
    browser.wait_until("a game shown", LONG, |b| b.attribute("#board", "data-game").is_some_and(|g| !g.is_empty()));
    assert_eq!(browser.text("#message"), "", "nothing refused");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_runs_folder_says_so_and_a_run_started_later_appears_with_its_evaluation() {
    let dir = scratch("serve-browser-empty-runs");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let server = Served::start(&["--runs", runs.to_str().unwrap()]);
    let Some(browser) = Browser::open(&dir, "the run list of an empty folder") else { return };
    browser.go(&format!("{}/#variant=mini-hexchess", server.base));
    browser.wait_for("#board polygon.cell", LONG);
    browser.click("#tab-runs");
    browser.wait_until("the empty folder named", LONG, |b| b.text("#run-message").contains("no runs yet in"));
    let said = browser.text("#run-message");
    assert!(said.contains(runs.to_str().unwrap()), "the folder named: {said}");
    assert!(!said.contains("start the server with --runs"), "{said}");
    let hidden = browser.execute("return document.getElementById('run-plot').offsetParent === null;");
    assert_eq!(hidden, true, "no picture (broken or not) without a run");

    // A run starts (with its final evaluation logged): it appears without leaving the tab.
    let run = runs.join("mini-late");
    fake_run(&run);
    log_evaluation(&run);
    browser.wait_until("the new run shown", LONG, |b| b.text("#run-iteration").starts_with("iteration"));
    assert_eq!(browser.text("#run-message"), "");
    let table = browser.text("#run-evaluation");
    assert!(table.contains("trained alphabeta:1 8 6 0 75.0%"), "the final evaluation: {table}");
    browser.wait_until("the curves drawn", LONG, |b| {
        b.execute("var i = document.getElementById('run-plot'); return i.complete && i.naturalWidth;")
            .as_u64()
            .is_some_and(|w| w > 0)
    });
    let _ = std::fs::remove_dir_all(&dir);
}
