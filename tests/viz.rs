//! End-to-end tests of the pictures: `vzero render`, `vzero replay` and `vzero plot`, checked
//! by parsing what they write, and (where Debian's chromium is installed) by opening the replay
//! page in a headless browser.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Encoding, Game, Glinski, MiniHexchess};
use selfplay::replay::{write_shard, GameRecord, MoveRecord};

fn vzero(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vzero")).args(args).output().expect("run vzero")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-viz-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs vzero expecting success and returns what it wrote to `out`.
fn written(args: &[&str], out: &Path) -> String {
    let result = vzero(args);
    assert!(result.status.success(), "vzero {args:?} failed: {}", stderr(&result));
    std::fs::read_to_string(out).unwrap()
}

/// Asserts a failure with exit `code` and a single-line message containing `needle`.
fn fails(args: &[&str], code: i32, needle: &str) {
    let out = vzero(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "vzero {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line expected, got:\n{err}");
    assert!(err.contains(needle), "vzero {args:?}: expected '{needle}' in: {err}");
}

/// Elements with tag `tag` and class `class` in a parsed SVG.
fn count(doc: &roxmltree::Document, tag: &str, class: &str) -> usize {
    doc.descendants()
        .filter(|n| {
            n.tag_name().name() == tag && n.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class))
        })
        .count()
}

/// The pieces in a position text's board field.
fn pieces_in(text: &str) -> usize {
    text.split(' ').next().unwrap().chars().filter(char::is_ascii_alphabetic).count()
}

/// The texts of the elements of class `label`.
fn labels(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("label"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

fn check_board(variant: &str, cells: usize, pieces: usize, corner_labels: &[&str]) -> String {
    let dir = scratch(&format!("board-{variant}"));
    let out = dir.join("board.svg");
    let svg = written(&["render", "--variant", variant, "--out", path_str(&out)], &out);
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert_eq!(count(&doc, "polygon", "cell"), cells, "one polygon per cell");
    assert_eq!(count(&doc, "g", "piece"), pieces, "one glyph per piece");
    let labels = labels(&doc);
    for l in corner_labels {
        assert!(labels.iter().any(|x| x == l), "label {l} missing");
    }
    svg
}

fn check_hex_board(variant: &str, cells: usize, start: &str, corner_labels: &[&str]) {
    let svg = check_board(variant, cells, pieces_in(start), corner_labels);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(labels(&doc).len(), cells, "every hex cell is labelled");
    for name in ["King", "Rook", "Bishop", "Knight", "Pawn", "White", "Black"] {
        assert!(svg.contains(name), "the legend names {name}");
    }
}

#[test]
fn glinski_board_has_91_cells_36_pieces_and_labels() {
    check_hex_board("glinski", 91, &Glinski::start().to_text(), &["a1", "f1", "f11", "l1", "l6"]);
}

#[test]
fn mini_board_has_37_cells_18_pieces_and_labels() {
    check_hex_board("mini-hexchess", 37, &MiniHexchess::start().to_text(), &["a1", "d1", "d7", "g1"]);
}

#[test]
fn wellisch_board_has_91_cells_three_seats_and_labels() {
    let start = Wellisch::start().to_text();
    let svg = check_board("wellisch", 91, pieces_in(&start), &["A1", "F1", "K6", "K9", "F11"]);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(labels(&doc).len(), 91);
    for seat in 0..3 {
        let owned = doc.descendants().filter(|n| n.attribute("data-owner") == Some(&seat.to_string())).count();
        assert!(owned > 10, "seat {seat} has its pieces");
    }
    for name in ["P1", "P2", "P3", "Queen"] {
        assert!(svg.contains(name), "the legend names {name}");
    }
}

#[test]
fn weltschach_board_has_eight_levels_of_64_squares() {
    let svg = check_board("weltschach", 512, 2 * 176, &[]);
    for level in "stuvwxyz".chars() {
        assert!(svg.contains(&format!(">level {level}<")), "level {level} is captioned");
    }
    for name in ["Emperor", "Stockbroker", "White", "Black"] {
        assert!(svg.contains(name), "the legend names {name}");
    }
    assert_eq!(Weltschach::NUM_PLAYERS, 2);
}

#[test]
fn render_draws_a_given_position_and_the_last_move() {
    let dir = scratch("position");
    let out = dir.join("p.svg");
    // A Mini position with three pieces.
    let text = "1/3/2k2/7/7/2RK3/7 w - 0 1";
    let svg = written(&["render", "--variant", "mini", "--position", text, "--out", path_str(&out)], &out);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(count(&doc, "g", "piece"), 3);
    assert_eq!(count(&doc, "g", "arrow"), 0, "no arrow unless asked");

    let svg = written(
        &["render", "--variant", "glinski", "--moves", "f5-f6 e7-e5", "--last-move", "--out", path_str(&out)],
        &out,
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(count(&doc, "g", "last-move"), 1);
    assert_eq!(count(&doc, "polygon", "highlight"), 2, "from and to cells are highlighted");
    assert!(svg.contains("White to move"));
}

#[test]
fn render_rejects_bad_input_in_one_line() {
    let dir = scratch("errors");
    let out = dir.join("x.svg");
    let o = path_str(&out);
    fails(&["render", "--variant", "chess", "--out", o], 2, "unknown variant 'chess'");
    fails(&["render", "--variant", "glinski", "--position", "x/y w - 0 1", "--out", o], 2, "--position");
    fails(&["render", "--variant", "glinski", "--moves", "f5-f9", "--out", o], 2, "f5-f9");
    fails(&["render", "--variant", "glinski", "--out", "/nonexistent-dir/x.svg"], 1, "/nonexistent-dir/x.svg");
    fails(&["render", "--game", "/nonexistent.shard", "--ply", "0", "--out", o], 1, "/nonexistent.shard");
    fails(&["render", "--variant", "glinski", "--ply", "3", "--out", o], 2, "--game");
    let (shard, moves) = mini_game_shard(&dir);
    let plies = moves.len().to_string();
    let too_far = (moves.len() + 1).to_string();
    fails(
        &["render", "--game", path_str(&shard), "--ply", &too_far, "--out", o],
        1,
        &format!("--ply {too_far} is out of range"),
    );
    fails(
        &["render", "--game", path_str(&shard), "--game-index", "1", "--ply", "0", "--out", o],
        1,
        "--game-index 1 is out of range",
    );
    fails(
        &["render", "--game", path_str(&shard), "--variant", "glinski", "--ply", "0", "--out", o],
        1,
        "does not match",
    );
    assert!(
        vzero(&["render", "--game", path_str(&shard), "--ply", &plies, "--out", o]).status.success(),
        "the last ply is the final position"
    );
}

#[test]
fn render_from_a_game_draws_the_search_top_moves() {
    let dir = scratch("game-render");
    let (shard, moves) = mini_game_shard(&dir);
    let out = dir.join("ply.svg");
    let args =
        ["render", "--game", path_str(&shard), "--ply", "4", "--last-move", "--top", "2", "--out", path_str(&out)];
    let svg = written(&args, &out);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    assert_eq!(count(&doc, "g", "candidate"), 2);
    assert_eq!(count(&doc, "g", "last-move"), 1);
    assert!(svg.contains("73%"), "the played move had 8 of 11 visits");
    assert!(svg.contains("ply 4 of"));
    assert!(moves.len() > 4);
}

/// Writes a shard holding one Mini Hexchess game of 12 plies whose recorded visits give the
/// played move 8 visits and one other legal move 3; returns it and the move texts.
fn mini_game_shard(dir: &Path) -> (PathBuf, Vec<String>) {
    game_shard::<MiniHexchess>(dir, 12)
}

/// The same for a game of `G` of up to `plies` plies.
fn game_shard<G: Encoding>(dir: &Path, plies: usize) -> (PathBuf, Vec<String>) {
    let mut game = G::start();
    let mut record = GameRecord {
        variant: G::NAME.into(),
        number: 5,
        start: game.to_text(),
        moves: Vec::new(),
        scores: vec![0.5; G::NUM_PLAYERS],
    };
    let mut texts = Vec::new();
    let mut legal = Vec::new();
    for ply in 0..plies {
        game.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[(ply * 7) % legal.len()];
        let other = legal[(ply * 7 + 1) % legal.len()];
        let played = game.policy_index(mv) as u32;
        let mut visits = vec![(played, 8)];
        if other != mv {
            visits.insert(0, (game.policy_index(other) as u32, 3));
        }
        let root_value = Some([0.25 + 0.01 * ply as f32, 0.75 - 0.01 * ply as f32, 0.0]);
        record.moves.push(MoveRecord { played, visits, policy_target: true, root_value });
        texts.push(game.move_text(mv));
        game.play(mv);
    }
    let path = dir.join(format!("{}.shard", G::NAME));
    write_shard(&path, &[record]).unwrap();
    (path, texts)
}

/// A recorded game whose visits name one move twice was drawn with shares that add up past
/// 100% (a shard's checksum holds for whatever its writer put in); `replay` and `render` now
/// check a game as training does and refuse it.
#[test]
fn replay_and_render_refuse_a_game_that_fails_the_run_check() {
    let dir = scratch("checked");
    let (shard, _) = mini_game_shard(&dir);
    let mut games = selfplay::replay::read_shard(&shard).unwrap();
    let first = games[0].moves[2].visits[0];
    games[0].moves[2].visits.push(first);
    write_shard(&shard, &games).unwrap();
    let (page, picture) = (dir.join("out.html"), dir.join("out.svg"));
    fails(&["replay", path_str(&shard), "--out", path_str(&page)], 1, "name policy index");
    fails(&["render", "--game", path_str(&shard), "--ply", "3", "--out", path_str(&picture)], 1, "twice");
    assert!(!page.exists() && !picture.exists());
}

/// The `<svg>...</svg>` elements of class `class` of an HTML page.
fn svg_elements<'a>(html: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<svg class=\"{class}\" ");
    html.match_indices(&open).map(|(i, _)| &html[i..i + html[i..].find("</svg>").unwrap() + 6]).collect()
}

/// Checks a replay page's boards: one drawing of the cells, reused by one board per ply.
fn check_page_boards(html: &str, plies: usize, cells: usize) -> Vec<String> {
    let background = svg_elements(html, "board-background");
    assert_eq!(background.len(), 1, "the cells are drawn once");
    let doc = roxmltree::Document::parse(background[0]).expect("the cells are well-formed");
    assert_eq!(count(&doc, "polygon", "cell"), cells);
    let boards = svg_elements(html, "board");
    assert_eq!(boards.len(), plies + 1, "one board per ply, the final position included");
    for svg in &boards {
        roxmltree::Document::parse(svg).expect("each board is well-formed");
        assert!(svg.contains("<use href=\"#board-cells\"/>"), "each board shows the cells");
    }
    boards.iter().map(|s| s.to_string()).collect()
}

#[test]
fn replay_page_holds_every_ply_and_needs_no_network() {
    let dir = scratch("replay");
    let (shard, moves) = mini_game_shard(&dir);
    let out = dir.join("game.html");
    let html = written(&["replay", path_str(&shard), "--out", path_str(&out)], &out);
    let boards = check_page_boards(&html, moves.len(), 37);
    let start = roxmltree::Document::parse(&boards[0]).unwrap();
    assert_eq!(count(&start, "g", "piece"), pieces_in(&MiniHexchess::start().to_text()));
    for (ply, text) in moves.iter().enumerate() {
        assert!(html.contains(&format!("<a data-ply=\"{}\">{text}</a>", ply + 1)), "move list lacks {text}");
    }
    assert!(html.contains(&format!("Ply 0 / {}", moves.len())));
    assert!(html.contains("72.7%"), "visit shares are listed");
    assert!(html.contains("Expected scores (search): White 0.27, Black 0.73"), "ply 2's root value is shown");
    let lower = html.to_ascii_lowercase();
    for remote in ["http:", "https:", "src=", "<link", "@import", "url("] {
        assert!(!lower.contains(remote), "the page refers to something outside it: {remote}");
    }
    fails(&["replay", "/nonexistent.shard", "--out", path_str(&out)], 1, "/nonexistent.shard");
}

#[test]
fn replay_and_render_read_game_text_files() {
    let dir = scratch("text");
    let (_, moves) = mini_game_shard(&dir);
    let file = dir.join("games.txt");
    std::fs::write(&file, format!("[1 0] f1-f9\n[0.5 0.5] {}\n", moves.join(" "))).unwrap();
    let out = dir.join("game.html");
    let html =
        written(&["replay", path_str(&file), "--variant", "mini", "--game-index", "1", "--out", path_str(&out)], &out);
    check_page_boards(&html, moves.len(), 37);
    assert!(html.contains("No search statistics recorded"), "text files carry no visits");
    assert!(!html.contains("Expected scores (search)"), "nor values");
    let svg_out = dir.join("ply.svg");
    let svg = written(
        &[
            "render",
            "--game",
            path_str(&file),
            "--variant",
            "mini",
            "--game-index",
            "1",
            "--ply",
            "2",
            "--last-move",
            "--out",
            path_str(&svg_out),
        ],
        &svg_out,
    );
    assert_eq!(count(&roxmltree::Document::parse(&svg).unwrap(), "g", "last-move"), 1);
    fails(&["replay", path_str(&file), "--out", path_str(&out)], 1, "--variant is needed");
    fails(&["replay", path_str(&file), "--variant", "mini", "--out", path_str(&out)], 1, "line 1: move 1 ('f1-f9')");
}

#[test]
fn game_text_in_a_run_starts_from_the_runs_start_position() {
    let dir = scratch("text-run");
    let run = dir.join("run");
    std::fs::create_dir_all(run.join("games")).unwrap();
    let config =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/mini-hexchess-tiny.toml")).unwrap();
    let config = config.replacen(
        "variant = \"mini-hexchess\"",
        "variant = \"mini-hexchess\"\nstart_position = \"1/3/2k2/7/7/2RK3/7 w - 0 1\"",
        1,
    );
    assert!(config.contains("start_position"));
    std::fs::write(run.join("config.toml"), config).unwrap();
    // The rook's two-step move exists only in the run's start position, not the variant's.
    let file = run.join("games").join("g.txt");
    std::fs::write(&file, "[0.5 0.5] c2-c4\n").unwrap();
    let out = dir.join("g.svg");
    let svg = written(&["render", "--game", path_str(&file), "--ply", "1", "--out", path_str(&out)], &out);
    assert_eq!(count(&roxmltree::Document::parse(&svg).unwrap(), "g", "piece"), 3);
}

#[test]
fn replay_pages_of_the_three_player_and_cube_variants() {
    let dir = scratch("replay-others");
    for ((shard, moves), cells) in [(game_shard::<Wellisch>(&dir, 9), 91), (game_shard::<Weltschach>(&dir, 4), 512)] {
        let out = dir.join("game.html");
        let html = written(&["replay", path_str(&shard), "--out", path_str(&out)], &out);
        let boards = check_page_boards(&html, moves.len(), cells);
        let doc = roxmltree::Document::parse(&boards[moves.len()]).unwrap();
        assert_eq!(count(&doc, "g", "last-move"), 1, "the final position shows the last move");
        for (ply, text) in moves.iter().enumerate() {
            assert!(html.contains(&format!("<a data-ply=\"{}\">{text}</a>", ply + 1)), "move list lacks {text}");
        }
    }
}

/// Headless Chromium with its profile in `dir`, if Debian's package is installed (or
/// VZERO_CHROMIUM names another binary): returns None, after saying so, if not. Each run is cut
/// off after two minutes, so a browser that hangs fails the test instead of stalling CI.
fn chromium(dir: &Path) -> Option<Command> {
    let bin = PathBuf::from(std::env::var_os("VZERO_CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into()));
    if !bin.exists() {
        // Written past the test harness's capture, so a skip is never silent.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: {} is not installed (apt-get install chromium); the replay page was not opened in a browser",
            bin.display()
        );
        return None;
    }
    let profile = dir.join("chromium-profile");
    let mut cmd = Command::new("timeout");
    cmd.arg("120").arg(&bin);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
    ]);
    cmd.arg(format!("--user-data-dir={}", profile.display()));
    Some(cmd)
}

#[test]
fn replay_page_steps_in_headless_chromium() {
    let dir = scratch("chromium");
    let (shard, moves) = mini_game_shard(&dir);
    let page = dir.join("game.html");
    written(&["replay", path_str(&shard), "--out", path_str(&page)], &page);
    let Some(mut dump) = chromium(&dir) else { return };
    // `#steps=3` presses the page's "next" button three times on load, as a person would.
    let url = format!("file://{}#steps=3", page.display());
    let out = dump.arg("--dump-dom").arg(&url).output().expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains(&format!("id=\"counter\">Ply 3 / {}<", moves.len())),
        "move counter after three presses; chromium said: {}",
        stderr(&out)
    );
    assert!(dom.contains("<div class=\"ply\" data-ply=\"3\">"), "ply 3's board is shown");
    assert!(dom.contains("<div class=\"ply\" data-ply=\"0\" hidden"), "ply 0's board is hidden");
    assert!(dom.contains("<a data-ply=\"3\" class=\"current\">"), "the move list marks the move");

    // Past the end stays at the end.
    let url = format!("file://{}#steps={}", page.display(), moves.len() + 5);
    let out = chromium(&dir).unwrap().arg("--dump-dom").arg(&url).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("Ply {0} / {0}<", moves.len())));

    // Key presses go through the page's key handler: three forward, one back, then End.
    let url = format!("file://{}#keys=ArrowRight,ArrowRight,ArrowRight,ArrowLeft", page.display());
    let out = chromium(&dir).unwrap().arg("--dump-dom").arg(&url).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("Ply 2 / {}<", moves.len())), "arrow keys step");
    let url = format!("file://{}#keys=End,ArrowLeft", page.display());
    let out = chromium(&dir).unwrap().arg("--dump-dom").arg(&url).output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!("Ply {} / {}<", moves.len() - 1, moves.len())),
        "End jumps"
    );

    let png = dir.join("replay.png");
    let url = format!("file://{}#steps=3", page.display());
    let out = chromium(&dir)
        .unwrap()
        .args(["--window-size=1000,760", &format!("--screenshot={}", png.display()), &url])
        .output()
        .unwrap();
    let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot ({e}); chromium said: {}", stderr(&out)));
    assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000, "a real screenshot, {} bytes", bytes.len());
    // Kept for a person to look at: target/tmp/viz-replay.png.
    let _ = std::fs::copy(&png, Path::new(env!("CARGO_TARGET_TMPDIR")).join("viz-replay.png"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plot_writes_curves_with_labelled_axes() {
    let dir = scratch("plot");
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    let mut lines = String::new();
    for (i, step) in [10, 20, 30].iter().enumerate() {
        lines.push_str(&format!(
            "{{\"event\":\"iteration\",\"step\":{step},\"mean_game_length\":{},\"seat_scores\":[0.6,0.4],\"iteration_games\":8,\"ended_by_rules\":4,\"resigned\":2,\"adjudicated\":2,\"policy_loss\":{},\"value_loss\":0.5}}\n",
            40 + i,
            3.0 - i as f64 * 0.5
        ));
    }
    lines.push_str("{\"event\":\"evaluation\",\"opponent\":\"random\",\"games\":4,\"network_score\":0.75}\n");
    std::fs::write(run.join("metrics.jsonl"), lines).unwrap();
    let out = dir.join("curves.svg");
    let svg = written(&["plot", path_str(&run), "--out", path_str(&out)], &out);
    roxmltree::Document::parse(&svg).expect("the chart is well-formed XML");
    for text in
        ["training step", "cross-entropy", "plies", "mean score", "Policy loss", "Value loss", "vs random", "seat 1"]
    {
        assert!(svg.contains(text), "the chart lacks '{text}'");
    }
    fails(&["plot", path_str(&dir.join("missing")), "--out", path_str(&out)], 1, "metrics.jsonl");
    fails(&["plot", path_str(&run), "--out", path_str(&dir.join("c.png"))], 1, "only SVG");
}

/// The width and height attributes of an SVG's root.
fn svg_size(svg: &str) -> (f32, f32) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let size = |name| doc.root_element().attribute(name).unwrap().parse::<f32>().unwrap();
    (size("width"), size("height"))
}

#[test]
fn weltschach_levels_are_drawn_in_two_rows_of_four() {
    let svg = check_board("weltschach", 512, 2 * 176, &[]);
    let (w, h) = svg_size(&svg);
    // The cube's squares alone, 2 x 4 levels of 16 x 16 units with gaps, are about 2:1; the
    // title and legend add height. One row of eight levels was 3,646 pixels wide, over 5:1.
    assert!((1.3..=2.2).contains(&(w / h)), "{w} x {h}");
    assert!(w < 2000.0, "{w}");
}

/// Boxes (centre x, centre y, half width, half height) of the texts of class `class`, or of the
/// piece letters when `class` is `piece`, estimated from their font sizes.
fn text_boxes(doc: &roxmltree::Document, class: &str) -> Vec<(f32, f32, f32, f32)> {
    let attr = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f32>().unwrap();
    doc.descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter(|n| match class {
            "piece" => n.parent().and_then(|p| p.attribute("class")) == Some("piece"),
            _ => n.attribute("class") == Some(class),
        })
        .map(|n| {
            let chars = n.text().unwrap_or("").chars().count() as f32;
            // Bold glyphs are about 0.62 em wide and rise about 0.72 em above the baseline.
            let em = if class == "piece" { 16.8 } else { 10.0 };
            let (x, baseline) = (attr(&n, "x"), attr(&n, "y"));
            (x, baseline - 0.36 * em, chars * 0.31 * em, 0.36 * em)
        })
        .collect()
}

#[test]
fn visit_shares_keep_off_the_piece_letters() {
    let dir = scratch("notes");
    for (shard, plies) in [mini_game_shard(&dir), game_shard::<Glinski>(&dir, 12)].map(|(s, m)| (s, m.len())) {
        for ply in 0..plies {
            let out = dir.join(format!("ply{ply}.svg"));
            let ply = ply.to_string();
            let svg = written(
                &["render", "--game", path_str(&shard), "--ply", &ply, "--top", "2", "--out", path_str(&out)],
                &out,
            );
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let notes = text_boxes(&doc, "note");
            assert_eq!(notes.len(), 2, "ply {ply}: two candidates, two notes");
            for n in &notes {
                for p in text_boxes(&doc, "piece") {
                    let apart = (n.0 - p.0).abs() >= n.2 + p.2 || (n.1 - p.1).abs() >= n.3 + p.3;
                    assert!(apart, "{shard:?} ply {ply}: note at {n:?} covers the piece letter at {p:?}");
                }
            }
        }
    }
}

/// Glinski, White to move: c6-a6 mates.
const GLINSKI_MATE_IN_ONE: &str = "1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60";

#[test]
fn a_mated_position_is_captioned_with_checkmate_and_the_winner() {
    let dir = scratch("mate");
    let out = dir.join("mate.svg");
    let args = ["render", "--variant", "glinski", "--position", GLINSKI_MATE_IN_ONE, "--moves", "c6-a6"];
    let svg = written(&[&args[..], &["--out", path_str(&out)]].concat(), &out);
    assert!(svg.contains("glinski: Checkmate: Black is mated, White wins."), "{svg}");
    // The same mate as a recorded game: the final ply's picture and the replay page say it.
    let game = Glinski::from_text(GLINSKI_MATE_IN_ONE).unwrap();
    let mv = game.parse_move("c6-a6").unwrap();
    let played = game.policy_index(mv) as u32;
    let record = GameRecord {
        variant: "glinski".into(),
        number: 1,
        start: GLINSKI_MATE_IN_ONE.into(),
        moves: vec![MoveRecord { played, visits: vec![(played, 4)], policy_target: true, root_value: None }],
        scores: vec![1.0, 0.0],
    };
    let shard = dir.join("mate.shard");
    write_shard(&shard, &[record]).unwrap();
    let svg = written(&["render", "--game", path_str(&shard), "--ply", "1", "--out", path_str(&out)], &out);
    assert!(svg.contains("ply 1 of 1. Checkmate: Black is mated, White wins."), "{svg}");
    let page = dir.join("mate.html");
    let html = written(&["replay", path_str(&shard), "--out", path_str(&page)], &page);
    assert!(html.contains("Last move: <b>c6-a6</b>. Checkmate: Black is mated, White wins."), "{html}");
    assert!(!html.contains("Game over."));
}
