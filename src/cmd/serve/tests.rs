//! The route table against the server and its docs: every route answers a request as the page
//! sends it, an address or method the table lacks is refused from the table, and API.md names
//! every route, type and key. Engines are off: a search is the engine's own tests, and
//! tests/serve.rs drives the whole server.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Parser;
use rand::SeedableRng;

use super::app::{App, Settings, MAX_GAMES, SHOWN};
use super::http::Response;
use super::players::Roots;
use super::routes::{respond, Method, ROUTES};
use crate::cli::NetArgs;
use crate::engine::{models_dir, ModelChoice};

/// The network flags at their defaults, as `vzero serve` reads them.
#[derive(Parser)]
struct Flags {
    #[command(flatten)]
    net: NetArgs,
}

/// A server on models/ and the run directories `runs`, engines off.
pub fn app(runs: &[PathBuf]) -> Arc<App> {
    let mut folders = vec![models_dir()];
    folders.extend(runs.iter().cloned());
    App::new(Settings {
        model: ModelChoice::Shipped,
        sims: 50,
        runs: runs.to_vec(),
        roots: Roots::new(&folders),
        net: Flags::parse_from(["serve"]).net,
        seed: 0,
        engines: false,
        first_id: 1,
    })
}

/// The final evaluation of a run, as its trainer logs it after the last iteration: the trained
/// network against random twice (the second time complete), then the untrained one.
const EVALUATION: &str = concat!(
    r#"{"v":1,"event":"evaluation","opponent":"random","games":3,"network_score":0.5,"network_wins":1,"draws":1,"games_planned":8,"interrupted":true}"#,
    "\n",
    r#"{"v":1,"event":"evaluation","opponent":"random","games":8,"network_score":0.75,"network_wins":6,"draws":0,"games_planned":8}"#,
    "\n",
    r#"{"v":1,"event":"evaluation","network":"step-000000000","opponent":"random","games":8,"network_score":0.5,"network_wins":3,"draws":2,"games_planned":8}"#,
    "\n",
);

/// A run directory at `dir` as a trainer leaves it: its config, a metrics log with iterations,
/// a gauntlet and the final evaluation, and one shard of two games.
fn fake_run(dir: &Path) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir.join("replay")).unwrap();
    std::fs::create_dir_all(dir.join("checkpoints")).unwrap();
    std::fs::copy(repo.join("configs/mini-hexchess-tiny.toml"), dir.join("config.toml")).unwrap();
    let metrics = std::fs::read_to_string(repo.join("tests/fixtures/gauntlet-metrics.jsonl")).unwrap();
    std::fs::write(dir.join("metrics.jsonl"), metrics + EVALUATION).unwrap();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
    let games: Vec<_> = (0..2).map(|_| selfplay::bench::random_game::<rules::MiniHexchess>(&mut rng, 3)).collect();
    selfplay::replay::write_shard(&dir.join("replay").join(SHARD), &games).unwrap();
}

/// The shard of [`fake_run`].
const SHARD: &str = "0000000000001-host-1-000001.shard";

/// A request the page sends to each route (`RUN` the run's path), and the status it gets; a
/// request changing game 1 follows the one making it.
const SAMPLES: &[(&str, &str, &str, u16)] = &[
    ("GET", "/", "", 200),
    ("GET", "/index.html", "", 200),
    ("GET", "/page.css", "", 200),
    ("GET", "/page.js", "", 200),
    ("GET", "/api/variants", "", 200),
    ("GET", "/api/players?variant=glinski", "", 200),
    ("GET", "/api/board?variant=weltschach", "", 200),
    ("POST", "/api/new", r#"{"variant":"mini-hexchess","players":["you","you"]}"#, 200),
    ("GET", "/api/game?id=1", "", 200),
    ("POST", "/api/move", r#"{"id":1,"move":"c2-c3"}"#, 200),
    ("GET", "/api/ply?id=1&ply=1", "", 200),
    ("GET", "/api/save?id=1", "", 200),
    ("GET", "/api/save?id=1&as=text", "", 200),
    ("POST", "/api/load", r#"{"text":"[Variant \"mini-hexchess\"]\n1. c2-c3 *"}"#, 200),
    ("POST", "/api/undo", r#"{"id":1}"#, 200),
    ("POST", "/api/position", r#"{"id":1,"position":"b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1"}"#, 200),
    // Refused by its own handler: this server runs no engines.
    ("POST", "/api/analyse", r#"{"id":1,"model":"none","sims":10}"#, 409),
    ("POST", "/api/stop", r#"{"id":1}"#, 200),
    ("GET", "/api/runs", "", 200),
    ("GET", "/api/run?run=RUN", "", 200),
    ("GET", "/run/plot.svg?run=RUN", "", 200),
    ("GET", "/run/game?run=RUN&shard=SHARD&game=1", "", 200),
];

/// The answers to [`SAMPLES`], in their order, from a server watching a fake run.
pub fn sample_answers() -> Vec<Response> {
    // One folder per call: the tests calling this run at once.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("vzero-serve-routes-{}-{call}", std::process::id()));
    let run = dir.join("runs").join("mini-a");
    fake_run(&run);
    let app = app(std::slice::from_ref(&run));
    let path: String = run.display().to_string().bytes().map(|b| format!("%{b:02x}")).collect();
    let answers = SAMPLES
        .iter()
        .map(|&(method, url, body, _)| {
            respond(&app, method, &url.replace("RUN", &path).replace("SHARD", SHARD), body.as_bytes())
        })
        .collect();
    app.close();
    let _ = std::fs::remove_dir_all(&dir);
    answers
}

/// The address of `url`, without its query.
fn url_path(url: &str) -> &str {
    url.split('?').next().unwrap_or(url)
}

#[test]
fn every_route_answers_what_the_page_sends() {
    for route in ROUTES {
        let sampled = SAMPLES.iter().any(|s| s.0 == route.method.name() && url_path(s.1) == route.path);
        assert!(sampled, "{} {} has no sample request", route.method.name(), route.path);
    }
    for ((method, url, _, status), answer) in SAMPLES.iter().zip(sample_answers()) {
        let text = String::from_utf8_lossy(&answer.body);
        assert_eq!(answer.status, *status, "{method} {url}: {text}");
        if answer.content_type == "application/json" {
            serde_json::from_slice::<serde_json::Value>(&answer.body).expect("JSON answers parse");
        }
    }
}

#[test]
fn a_new_game_ends_the_one_no_page_asked_about_longest_never_a_shown_one() {
    let app = app(&[]);
    let new = r#"{"variant":"mini-hexchess","players":["you","you"]}"#.as_bytes();
    for _ in 0..MAX_GAMES {
        assert_eq!(respond(&app, "POST", "/api/new", new).status, 200);
    }
    let full = respond(&app, "POST", "/api/new", new);
    assert_eq!(full.status, 503, "every game was asked about just now: {}", String::from_utf8_lossy(&full.body));
    // Game 2's page closed long ago; game 1 is asked about after it.
    let long_ago = Instant::now().checked_sub(SHOWN * 2).expect("the clock began a minute ago");
    app.with_game(2, |g| g.seen = long_ago);
    assert_eq!(respond(&app, "POST", "/api/new", new).status, 200);
    assert_eq!(respond(&app, "GET", "/api/game?id=2", b"").status, 404, "the unseen game ended");
    assert_eq!(respond(&app, "GET", "/api/game?id=1", b"").status, 200, "the others kept");
    app.close();
}

#[test]
fn a_game_is_restored_from_its_moves_and_every_search_is_bounded() {
    let app = app(&[]);
    let new = |body: &str| {
        let r = respond(&app, "POST", "/api/new", body.as_bytes());
        (r.status, serde_json::from_slice::<serde_json::Value>(&r.body).unwrap())
    };
    let (status, game) = new(r#"{"variant":"mini-hexchess","players":["you","random"],"moves":["c2-c3","c5-c4"]}"#);
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["moves"], serde_json::json!(["c2-c3", "c5-c4"]));
    let (status, refused) = new(r#"{"variant":"mini-hexchess","players":["you","you"],"moves":["c2-c3","c2-c4"]}"#);
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().starts_with("move 2 of the game: "), "{refused}");
    for seat in ["none:100000001", "none:4294967295", "mcts:100000001", "rollout:0", "alphabeta:31"] {
        let (status, refused) = new(&format!(r#"{{"variant":"mini-hexchess","players":["you","{seat}"]}}"#));
        assert_eq!(status, 400, "{seat}: {refused}");
    }
    let (status, _) = new(r#"{"variant":"mini-hexchess","players":["you","none:100000000"]}"#);
    assert_eq!(status, 200, "the limit itself is taken");
    let analyse = respond(&app, "POST", "/api/analyse", br#"{"id":1,"model":"none","sims":100000001}"#);
    assert_eq!(analyse.status, 400);
    app.close();
}

#[test]
fn an_address_or_method_the_table_lacks_is_refused() {
    let app = app(&[]);
    let refusal = |method: &str, url: &str| {
        let r = respond(&app, method, url, b"{}");
        let value: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        (r.status, value["error"].as_str().unwrap().to_string())
    };
    for route in ROUTES {
        let other = match route.method {
            Method::Get => "POST",
            Method::Post => "GET",
        };
        let only = format!("{other} {}: this address answers {} only", route.path, route.method.name());
        assert_eq!(refusal(other, route.path), (405, only));
        assert_eq!(refusal("DELETE", route.path).0, 405);
    }
    let missing = refusal("GET", "/api/nothing?id=1");
    assert_eq!(missing, (404, "/api/nothing: no such page or API (see docs/serve.md)".to_string()));
    app.close();
}

/// Every key of the objects in `value`, nested ones too.
fn keys(value: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                out.insert(key.clone());
                keys(inner, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

#[test]
fn api_md_names_every_route_type_and_key() {
    let doc = include_str!("API.md");
    let mut documented = std::collections::BTreeSet::new();
    for method in ["GET", "POST"] {
        for (at, _) in doc.match_indices(&format!("`{method} /")) {
            let path = &doc[at + method.len() + 2..];
            documented.insert((method, &path[..path.find(['`', '?']).unwrap()]));
        }
    }
    let routes = ROUTES.iter().map(|r| (r.method.name(), r.path)).collect();
    assert_eq!(documented, routes, "API.md's routes against routes.rs");

    let wire = include_str!("wire.rs");
    for line in wire.lines().filter_map(|l| l.strip_prefix("pub struct ")) {
        let name = line.split([' ', '{']).next().unwrap();
        assert!(doc.contains(&format!("`{name}`")), "API.md does not name {name}");
    }
    for word in doc.split(|c: char| !c.is_ascii_alphanumeric()) {
        if word.ends_with("Request") || word.ends_with("Reply") {
            assert!(wire.contains(&format!("pub struct {word} ")), "API.md names {word}, which wire.rs lacks");
        }
    }

    let mut seen = std::collections::BTreeSet::new();
    for ((_, _, body, _), answer) in SAMPLES.iter().zip(sample_answers()) {
        for json in [body.as_bytes(), &answer.body[..]] {
            if let Ok(value) = serde_json::from_slice::<serde_json::Value>(json) {
                keys(&value, &mut seen);
            }
        }
    }
    assert!(seen.contains("legal") && seen.contains("iterations_done"), "{seen:?}");
    for key in seen {
        assert!(doc.contains(&format!("\"{key}\"")), "API.md does not name the key \"{key}\"");
    }
}

/// The JSON of a `GET` of `url`.
fn get(app: &Arc<App>, url: &str) -> serde_json::Value {
    let answer = respond(app, "GET", url, b"");
    assert_eq!(answer.status, 200, "{url}: {}", String::from_utf8_lossy(&answer.body));
    serde_json::from_slice(&answer.body).unwrap()
}

#[test]
fn an_empty_runs_folder_is_named_and_a_run_started_later_is_listed() {
    let dir = std::env::temp_dir().join(format!("vzero-serve-later-{}", std::process::id()));
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let app = app(std::slice::from_ref(&runs));
    let list = get(&app, "/api/runs");
    assert_eq!(list["runs"], serde_json::json!([]));
    assert_eq!(list["folders"], serde_json::json!([runs.display().to_string()]), "the folder the page names");
    fake_run(&runs.join("mini-b"));
    let list = get(&app, "/api/runs");
    assert_eq!(list["runs"][0]["name"], "mini-b", "a run started after the server is listed: {list}");

    // Its final evaluation: the latest match of each network against each baseline, in order.
    let path: String = list["runs"][0]["path"].as_str().unwrap().bytes().map(|b| format!("%{b:02x}")).collect();
    let view = get(&app, &format!("/api/run?run={path}"));
    let rows = view["evaluation"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{view}");
    assert_eq!((rows[0]["network"].as_str(), rows[0]["games"].as_u64()), (Some("trained"), Some(8)));
    assert_eq!(rows[0]["interrupted"], false, "the complete match replaces the interrupted one");
    assert_eq!((rows[1]["network"].as_str(), rows[1]["wins"].as_u64()), (Some("step-000000000"), Some(3)));
    app.close();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_seat_is_titled_by_its_networks_short_name_and_the_visits_it_uses() {
    use super::players::{model_name, Seat};
    let checkpoint = PathBuf::from("/somewhere/runs/mini-a/checkpoints/step-000000120");
    assert_eq!(model_name(&checkpoint), "mini-a/step-000000120");
    assert_eq!(model_name(Path::new("/somewhere/runs/mini-a")), "mini-a");
    let shipped = models_dir().canonicalize().unwrap().join("glinski").join("checkpoint");
    assert_eq!(model_name(&shipped), "shipped glinski");
    let seat = Seat::Network { model: Some(checkpoint.clone()), sims: 64 };
    assert_eq!(seat.title(), "network mini-a/step-000000120, 64 sims");
    assert_eq!(seat.text(), format!("{}:64", checkpoint.display()), "what a restored game sends back");
    assert_eq!(Seat::Network { model: None, sims: 7 }.title(), "uniform search, 7 sims");
}
