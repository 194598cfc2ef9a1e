//! End-to-end tests of `vzero serve` over HTTP: the page and its API (a game against
//! alpha-beta, refusals in the engine's words, undo, position text, saving in the formats
//! `vzero replay` reads and loading a game text), the analysis reported while it searches and agreeing with `vzero
//! analyse --json`, watching a run while it grows, refusing paths outside its folders, the
//! warning for another address, the address `--bind 127.0.0.2` prints answered, a seat losing
//! on time and a timed engine moving within its share, and a clean stop on SIGTERM. The page itself is driven in a
//! browser by tests/serve_browser.rs.

mod common;

use std::time::Duration;

use common::http::{request, Served};
use common::{fake_run, scratch, stderr_of, stdout_of, vzero};
use serde_json::Value;

const LONG: Duration = Duration::from_secs(60);

fn new_game(server: &Served, variant: &str, players: &[&str]) -> Value {
    let players: Vec<String> = players.iter().map(|p| format!("\"{p}\"")).collect();
    let reply = server.post("/api/new", &format!(r#"{{"variant":"{variant}","players":[{}]}}"#, players.join(",")));
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

/// The one-line refusal of a reply with `status`.
fn refusal(reply: &common::http::Reply, status: u16) -> String {
    assert_eq!(reply.status, status, "{}", reply.text());
    let message = reply.json()["error"].as_str().expect("a refusal says why").to_string();
    assert!(!message.contains('\n'), "one line: {message}");
    message
}

#[test]
fn a_game_against_alphabeta_refuses_illegal_moves_takes_back_and_saves() {
    let dir = scratch("serve-game");
    let server = Served::start(&[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.header("Content-Type").unwrap().starts_with("text/html"));
    assert!(page.text().contains("<script src=\"/page.js\">"), "the page loads its own script, nothing from elsewhere");
    for asset in ["/page.js", "/page.css"] {
        assert_eq!(server.get(asset).status, 200, "{asset}");
    }
    assert!(!page.text().contains("http"), "no CDN or other site is named");

    let state = new_game(&server, "mini-hexchess", &["you", "alphabeta:1"]);
    let id = state["id"].as_u64().unwrap();
    assert!(state["legal"].as_array().unwrap().iter().any(|m| m["move"] == "c2-c3" && m["from"].is_u64()));

    // An illegal move is refused in the engine's words, and changes nothing.
    let engine_says = |text: &str| {
        let out = vzero(&["analyse", "--variant", "mini-hexchess", "--moves", text, "--sims", "1"]);
        stderr_of(&out).trim().to_string()
    };
    let message = refusal(&server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c5"}}"#)), 400);
    assert!(engine_says("c2-c5").contains(&message), "the engine's own message: {message}");
    assert!(moves(&server.get(&format!("/api/game?id={id}")).json()).is_empty());

    // A legal move; alpha-beta answers on its own.
    assert_eq!(server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c3"}}"#)).status, 200);
    let state = server.wait_game(id, LONG, |s| s["moves"].as_array().unwrap().len() == 2 && s["thinking"].is_null());
    let reply = moves(&state)[1].clone();
    assert_eq!(state["last"].as_array().unwrap().len(), 2, "the last move's cells are drawn");
    // Not alpha-beta's turn to be moved by a person.
    let not_yours = new_game(&server, "mini-hexchess", &["alphabeta:1", "you"]);
    let other = not_yours["id"].as_u64().unwrap();
    server.wait_game(other, LONG, |s| s["thinking"].is_null() && s["moves"].as_array().unwrap().len() == 1);

    // Undo takes back alpha-beta's reply and the person's move together.
    let undone = server.post("/api/undo", &format!(r#"{{"id":{id}}}"#)).json();
    assert!(moves(&undone).is_empty(), "{undone}");
    refusal(&server.post("/api/undo", &format!(r#"{{"id":{id}}}"#)), 400);

    // A bad position text is refused with the parser's line; a good one is taken.
    let bad = refusal(&server.post("/api/position", &format!(r#"{{"id":{id},"position":"k/3/5 w"}}"#)), 400);
    let bad_svg = dir.join("bad.svg");
    let out =
        vzero(&["render", "--variant", "mini-hexchess", "--position", "k/3/5 w", "--out", bad_svg.to_str().unwrap()]);
    let parser_says = stderr_of(&out);
    let core = bad.split_once(": ").map_or(bad.as_str(), |(_, rest)| rest);
    assert!(parser_says.contains(core), "the parser's message '{core}' in: {parser_says}");
    let start = "b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1";
    let set = server.post("/api/position", &format!(r#"{{"id":{id},"position":"{start}"}}"#)).json();
    assert_eq!(set["position"], start);

    // Two moves, saved, read back by `vzero replay` and `vzero render`.
    server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c3"}}"#));
    let state = server.wait_game(id, LONG, |s| s["moves"].as_array().unwrap().len() == 2 && s["thinking"].is_null());
    assert_eq!(moves(&state)[1], reply, "alpha-beta plays the same reply to the same move");
    let saved = server.get(&format!("/api/save?id={id}"));
    assert_eq!(saved.status, 200);
    assert!(saved.header("Content-Disposition").unwrap().contains(".shard"));
    let shard = dir.join("saved.shard");
    std::fs::write(&shard, &saved.body).unwrap();
    let html = dir.join("saved.html");
    let out = vzero(&["replay", shard.to_str().unwrap(), "--out", html.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("(2 plies)"), "{}", stdout_of(&out));
    let svg = dir.join("ply2.svg");
    let out = vzero(&["render", "--game", shard.to_str().unwrap(), "--ply", "2", "--out", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr_of(&out));

    // The same game as text (docs/games.md): read by `vzero replay`, and loaded again as a new
    // game at the same position.
    let saved = server.get(&format!("/api/save?id={id}&as=text"));
    assert_eq!(saved.status, 200);
    assert!(saved.header("Content-Disposition").unwrap().contains(".vgn"));
    let text = String::from_utf8(saved.body.clone()).unwrap();
    // The standard start goes without a [Start] tag.
    assert!(!text.contains("[Start") && text.contains("[White \"person\"]"), "{text}");
    assert!(text.contains(&format!("1. c2-c3 {reply}")) && text.contains("[Result \"*\"]"), "{text}");
    let file = dir.join("saved.vgn");
    std::fs::write(&file, &text).unwrap();
    let out = vzero(&["replay", file.to_str().unwrap(), "--out", html.to_str().unwrap()]);
    assert!(out.status.success() && stdout_of(&out).contains("(2 plies)"), "{}", stderr_of(&out));
    let body = serde_json::json!({ "text": text }).to_string();
    let loaded = server.post("/api/load", &body);
    assert_eq!(loaded.status, 200, "{}", loaded.text());
    let loaded = loaded.json();
    assert_eq!((moves(&loaded), &loaded["position"]), (moves(&state), &state["position"]));
    let broken = serde_json::json!({ "text": text.replace("c2-c3", "c2-c5") }).to_string();
    let message = refusal(&server.post("/api/load", &broken), 400);
    assert!(message.starts_with("the game text: line ") && message.contains("'c2-c5'"), "{message}");

    // A game that is not there, an address that is not there, a method that is not taken.
    refusal(&server.get("/api/game?id=999"), 404);
    refusal(&server.get("/api/nothing"), 404);
    refusal(&server.post("/api/game?id=1", "{}"), 405);
    refusal(&server.post("/api/move", "{not json"), 400);
    let out = server.stop("TERM");
    assert_eq!(out.status.code(), Some(0), "a server's end is a signal: {}", stderr_of(&out));
    assert!(stderr_of(&out).contains("vzero serve: stopped"), "{}", stderr_of(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_analysis_is_reported_while_it_searches_and_agrees_with_analyse_json() {
    let server = Served::start(&[]);
    let state = new_game(&server, "mini-hexchess", &["you", "you"]);
    let id = state["id"].as_u64().unwrap();
    server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c3"}}"#));
    let sims = 300;
    let reply = server.post("/api/analyse", &format!(r#"{{"id":{id},"model":"none","sims":{sims}}}"#));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let done = server.wait_game(id, LONG, |s| s["thinking"].is_null() && !s["analysis"].is_null());
    let ours = &done["analysis"];
    let out = vzero(&[
        "analyse",
        "--variant",
        "mini-hexchess",
        "--moves",
        "c2-c3",
        "--model",
        "none",
        "--sims",
        "300",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let theirs: Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    assert_eq!(ours["bestmove"], theirs["bestmove"], "ours {ours}\ntheirs {theirs}");
    assert_eq!(ours["nodes"], theirs["nodes"]);
    assert_eq!(ours["moves"][0], theirs["moves"][0], "the same first line: visits, values, PV");

    // A long search reports before it ends, and stops when asked.
    let reply = server.post("/api/analyse", &format!(r#"{{"id":{id},"model":"none","sims":50000000}}"#));
    assert_eq!(reply.status, 200, "{}", reply.text());
    refusal(&server.post("/api/analyse", &format!(r#"{{"id":{id},"model":"none","sims":10}}"#)), 409);
    let running = server.wait_game(id, LONG, |s| !s["thinking"]["report"].is_null());
    let first = running["thinking"]["report"]["nodes"].as_u64().unwrap();
    assert!(first > 0 && first < 50_000_000, "a report while searching: {running}");
    // Updated as it searches: a later report has more visits.
    let later = server.wait_game(id, LONG, |s| s["thinking"]["report"]["nodes"].as_u64().is_some_and(|n| n > first));
    let nodes = later["thinking"]["report"]["nodes"].as_u64().unwrap();
    server.post("/api/stop", &format!(r#"{{"id":{id}}}"#));
    let stopped = server.wait_game(id, LONG, |s| s["thinking"].is_null());
    assert!(stopped["analysis"]["nodes"].as_u64().unwrap() >= nodes);
    // No network outside the folders it was given.
    let outside = refusal(&server.post("/api/analyse", &format!(r#"{{"id":{id},"model":"/etc","sims":10}}"#)), 400);
    assert!(outside.contains("not inside the folders"), "{outside}");
}

#[test]
fn a_run_is_watched_as_it_grows_and_paths_outside_are_refused() {
    let dir = scratch("serve-runs");
    let runs = dir.join("runs");
    let run = runs.join("mini-a");
    fake_run(&run);
    let server = Served::start(&["--runs", runs.to_str().unwrap()]);
    let list = server.get("/api/runs").json();
    let path = list["runs"][0]["path"].as_str().unwrap().to_string();
    assert_eq!(list["runs"][0]["variant"], "mini-hexchess");
    let q = format!("run={}", path.replace('/', "%2F"));
    let view = server.get(&format!("/api/run?{q}")).json();
    assert!(view["iteration"].as_str().unwrap().starts_with("iteration"), "{view}");
    assert!(view["gauntlet"].as_str().unwrap().contains("Elo"), "the gauntlet table: {view}");
    assert_eq!(view["variant"], "mini-hexchess");
    assert_eq!(view["iterations"], 3, "the config's iterations");
    assert_eq!(view["games"].as_array().unwrap().len(), 2);
    let plot = server.get(&format!("/run/plot.svg?{q}"));
    assert_eq!(plot.status, 200);
    assert!(plot.text().contains("<svg"));
    let game = &view["games"][0];
    let page = server.get(&format!("/run/game?{q}&shard={}&game={}", game["shard"].as_str().unwrap(), game["index"]));
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("vzero replay"), "the replay page");

    // The run grows: a new iteration and a new shard show on the next request.
    let mut metrics = std::fs::read_to_string(run.join("metrics.jsonl")).unwrap();
    metrics.push_str("{\"v\":1,\"event\":\"iteration\",\"iteration\":99,\"step\":990,\"iteration_games\":4,\"games_per_hour\":100.0,\"window_positions\":7,\"policy_loss\":1.5,\"value_loss\":0.25}\n");
    std::fs::write(run.join("metrics.jsonl"), metrics).unwrap();
    let mut rng = <rand::rngs::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(4);
    let more = vec![selfplay::bench::random_game::<rules::MiniHexchess>(&mut rng, 2)];
    selfplay::replay::write_shard(&run.join("replay/0000000000002-host-1-000002.shard"), &more).unwrap();
    let view = server.get(&format!("/api/run?{q}")).json();
    assert!(view["iteration"].as_str().unwrap().starts_with("iteration  99: 4 games"), "{view}");
    assert_eq!(view["games"].as_array().unwrap().len(), 3);
    assert_eq!(view["games"][0]["shard"], "0000000000002-host-1-000002.shard", "newest first");

    // Outside the folders it was given: refused, whether it exists or not.
    for outside in ["%2Fetc", "%2Fno%2Fsuch", "..%2F..%2F..%2Fetc"] {
        refusal(&server.get(&format!("/api/run?run={outside}")), 403);
    }
    let escape = refusal(&server.get(&format!("/run/game?{q}&shard=..%2F..%2Fconfig.toml&game=0")), 404);
    assert!(escape.contains("expected the file name"), "{escape}");
    let player = refusal(&server.post("/api/new", r#"{"variant":"mini-hexchess","players":["you","/etc:10"]}"#), 400);
    assert!(player.contains("not inside the folders"), "{player}");
    let program = refusal(&server.post("/api/new", r#"{"variant":"mini-hexchess","players":["you","uci:sh"]}"#), 400);
    assert!(program.contains("starts no programs"), "{program}");
    // A name that resolves here but is not this machine's (DNS rebinding) is not answered.
    let foreign = request(&server.addr, "GET", "/api/runs", "evil.example:80", None);
    assert_eq!(foreign.status, 403);
    // A body another site's page could send without asking (a form, plain text) is refused.
    let form = common::http::request_typed(
        &server.addr,
        "POST",
        "/api/new",
        &format!("localhost:{}", server.addr.rsplit(':').next().unwrap()),
        "text/plain",
        r#"{"variant":"mini-hexchess","players":["you","random"]}"#,
    );
    assert_eq!(form.status, 415, "{}", form.text());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seat_whose_time_runs_out_loses_and_a_timed_engine_moves_within_its_share() {
    let server = Served::start(&[]);
    let timed = |players: &str, clocks: &str| {
        let reply =
            server.post("/api/new", &format!(r#"{{"variant":"mini-hexchess","players":{players},"clocks":{clocks}}}"#));
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply.json()
    };
    let game = timed(r#"["you","you"]"#, r#"[{"seconds":1},{"seconds":60,"increment":5}]"#);
    let id = game["id"].as_u64().unwrap();
    let left = game["clocks"][1].as_u64().unwrap();
    assert!(left == 60_000, "Black's clock stands while White moves: {game}");
    std::thread::sleep(Duration::from_millis(1300));
    let lost = server.get(&format!("/api/game?id={id}")).json();
    assert_eq!(lost["over"], "White lost on time, Black wins.", "{lost}");
    assert_eq!((lost["result"].as_str(), lost["ending"].as_str()), (Some("0-1"), Some("time")));
    assert_eq!(lost["clocks"][0], 0);
    let late = refusal(&server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c3"}}"#)), 400);
    assert_eq!(late, "White lost on time, Black wins.");
    let wrong =
        server.post("/api/new", r#"{"variant":"mini-hexchess","players":["you","you"],"clocks":[{"seconds":0}]}"#);
    assert!(refusal(&wrong, 400).contains("seconds are 1 to"));

    // Alpha-beta at depth 30 would search for hours: on a 3-second clock it moves within its
    // share, keeping time on its clock.
    let game = timed(r#"["you","alphabeta:30"]"#, r#"[null,{"seconds":3}]"#);
    let id = game["id"].as_u64().unwrap();
    assert!(game["clocks"][0].is_null(), "White has no clock: {game}");
    server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c3"}}"#));
    let replied = server.wait_game(id, Duration::from_secs(10), |s| s["moves"].as_array().unwrap().len() == 2);
    assert!(replied["over"].is_null(), "{replied}");
    assert!(replied["clocks"][1].as_u64().unwrap() > 2000, "a share of 3 s spent: {replied}");
}

#[test]
fn the_loopback_address_it_printed_is_answered() {
    let server = Served::start(&["--bind", "127.0.0.2"]);
    assert!(server.addr.starts_with("127.0.0.2:"), "{}", server.addr);
    // As a browser sends it: the address printed, in the Host header.
    let reply = request(&server.addr, "GET", "/api/variants", &server.addr, None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let foreign = request(&server.addr, "GET", "/api/variants", "127.0.0.3:80", None);
    assert_eq!(foreign.status, 403, "another name is still refused");
    assert!(foreign.text().contains(&format!("localhost or {}", server.addr)), "{}", foreign.text());
    let out = server.stop("TERM");
    assert!(!stderr_of(&out).contains("warning"), "a loopback address is not warned about: {}", stderr_of(&out));
}

#[test]
fn another_address_is_warned_about_and_sigint_stops_it() {
    let server = Served::start(&["--bind", "0.0.0.0"]);
    assert_eq!(server.get("/api/variants").status, 200);
    let out = server.stop("INT");
    let err = stderr_of(&out);
    assert!(err.contains("warning: serving on 0.0.0.0"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
    let out = vzero(&["serve", "--runs", "/no/such/folder"]);
    assert_eq!(out.status.code(), Some(2), "a missing --runs folder is a usage error: {}", stderr_of(&out));
}
