//! Fuzzing the server's requests (rules::fuzz): requests the page sends, changed or random,
//! are answered by [`respond`] as the server answers them, with engines off (the searches are
//! the engine's own tests). Never a panic, a hang or an allocation sized by a number in the
//! request; every answer has a status the API documents, every JSON answer parses, and every
//! refusal is one line. Here, in the program's unit tests, so that `make test` runs it;
//! `VZERO_FUZZ_CASES=1000000 cargo test --release --bin vzero fuzz_serve` runs longer.

use std::path::PathBuf;

use rules::fuzz::{self, mutate, Rng};

use super::routes::respond;
use super::tests::app;

/// Requests as the page sends them: `METHOD ADDRESS BODY`.
const REQUESTS: &[&str] = &[
    "GET / ",
    "GET /page.js ",
    "GET /page.css ",
    "GET /api/variants ",
    "GET /api/players?variant=mini-hexchess ",
    "GET /api/players?variant=wellisch ",
    "GET /api/board?variant=weltschach ",
    r#"POST /api/new {"variant":"mini-hexchess","players":["you","alphabeta:1"]}"#,
    r#"POST /api/new {"variant":"wellisch","players":["you","greedy","random"]}"#,
    r#"POST /api/new {"variant":"glinski","players":["you","default:30"],"position":null}"#,
    r#"POST /api/new {"variant":"weltschach","players":["none:20","you"]}"#,
    r#"POST /api/new {"variant":"mini-hexchess","players":["you","you"],"position":"k/3/5/2R1R2/7/7/3K3 w - 0 60"}"#,
    "GET /api/game?id=1 ",
    "GET /api/game?id=2 ",
    "GET /api/ply?id=1&ply=1 ",
    "GET /api/ply?id=2&ply=18446744073709551615 ",
    r#"POST /api/move {"id":1,"move":"c2-c3"}"#,
    r#"POST /api/move {"id":2,"move":"b1-b2"}"#,
    r#"POST /api/move {"id":3,"move":"e9-e10=Q"}"#,
    r#"POST /api/undo {"id":1}"#,
    r#"POST /api/position {"id":1,"position":"b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1"}"#,
    r#"POST /api/analyse {"id":1,"model":"none","sims":100}"#,
    r#"POST /api/stop {"id":1}"#,
    "GET /api/save?id=1 ",
    "GET /api/runs ",
    "GET /api/run?run=%2Ftmp ",
    "GET /run/plot.svg?run=models ",
    "GET /run/game?run=runs%2Fx&shard=..%2F..%2Fetc%2Fpasswd&game=0 ",
    "DELETE /api/new ",
    "GET /nowhere ",
];

/// Splits a generated request into method, address and body.
fn split(request: &str) -> (&str, &str, &str) {
    let mut parts = request.splitn(3, ' ');
    (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""))
}

#[test]
fn fuzz_serve_requests() {
    let app = app(&[]);
    // Games for the requests that name ids 1 to 5.
    for request in REQUESTS.iter().filter(|r| r.starts_with("POST /api/new")) {
        let (method, url, body) = split(request);
        assert_eq!(respond(&app, method, url, body.as_bytes()).status, 200, "{request}");
    }
    let corpus: Vec<String> = REQUESTS.iter().map(|s| s.to_string()).collect();
    let words = &[
        "GET",
        "POST",
        "/api/",
        "id",
        "variant",
        "players",
        "move",
        "ply",
        "position",
        "model",
        "sims",
        "?",
        "&",
        "=",
        "%",
        "%2e%2e%2f",
        "..",
        "/",
        "\"",
        "{",
        "}",
        "[",
        "]",
        ":",
        "null",
        "you",
        "alphabeta:",
        "none:",
        "default",
        "/etc",
        "9999999999999999999999",
        "-1",
        "wellisch",
        "weltschach",
    ];
    let stats = fuzz::run(
        "serve requests",
        20_000,
        |rng: &mut Rng| mutate::text(rng, &corpus, words),
        |request| {
            let (method, url, body) = split(request);
            let r = respond(&app, method, url, body.as_bytes());
            assert!([200, 400, 403, 404, 405, 409, 500, 503].contains(&r.status), "status {}", r.status);
            if r.content_type == "application/json" {
                let value: serde_json::Value = serde_json::from_slice(&r.body).expect("JSON answers parse");
                if r.status >= 400 {
                    let message = value["error"].as_str().expect("a refusal says why");
                    assert!(!message.is_empty() && !message.contains('\n'), "one line: {message}");
                }
            }
            r.status == 200
        },
    );
    assert!(stats.read > 0);
    app.close();
}

/// A path outside the folders the server was given is refused, with the same answer whether
/// it exists or not.
#[test]
fn paths_outside_the_roots_are_refused_alike() {
    let app = app(&[]);
    let new = |player: &str| {
        let body = format!(r#"{{"variant":"mini-hexchess","players":["you","{player}"]}}"#);
        respond(&app, "POST", "/api/new", body.as_bytes())
    };
    let outside = [PathBuf::from("/etc"), PathBuf::from("/no/such/folder")];
    let answers: Vec<String> = outside
        .iter()
        .map(|p| {
            let r = new(&format!("{}:10", p.display()));
            assert_eq!(r.status, 400);
            let text = String::from_utf8(r.body).unwrap();
            text.replace(&p.display().to_string(), "PATH")
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    assert!(answers[0].contains("not inside the folders this server reads"), "{}", answers[0]);
    let uci = new("uci:/bin/sh -c true");
    assert_eq!(uci.status, 400);
    assert!(String::from_utf8(uci.body).unwrap().contains("starts no programs"));
    app.close();
}
