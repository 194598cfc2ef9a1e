//! `vzero serve` against clients that would take it down or hold it up, while a probe asks for
//! `GET /api/variants` ten times a second and every answer must come within a second: bodies
//! declared far larger than they are (the server once tried to allocate them, and aborted),
//! slow heads and bodies on more connections than it has workers, searches of a million
//! visits and of depth 30 that Stop and a new position must end (and then leave the server
//! idle), seats and analyses over the limits, and fifty games whose engines answer
//! side by side while another game analyses. It ends with a clean stop on SIGTERM.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::http::Served;
use common::stderr_of;
use serde_json::Value;

const LONG: Duration = Duration::from_secs(60);
/// The longest `GET /api/variants` may take at any moment of the test.
const ANSWER_WITHIN: Duration = Duration::from_secs(1);

/// Asks for `GET /api/variants` every 100 ms until dropped, keeping the slowest answer.
struct Probe {
    stop: Arc<AtomicBool>,
    slowest: Arc<Mutex<(Duration, String)>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Probe {
    fn start(addr: &str) -> Probe {
        let (stop, slowest) = (Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new((Duration::ZERO, String::new()))));
        let (addr, done, worst) = (addr.to_string(), Arc::clone(&stop), Arc::clone(&slowest));
        let thread = std::thread::spawn(move || {
            let host = format!("localhost:{}", addr.rsplit(':').next().unwrap());
            while !done.load(Ordering::Relaxed) {
                let began = Instant::now();
                let outcome =
                    std::panic::catch_unwind(|| common::http::request(&addr, "GET", "/api/variants", &host, None))
                        .map(|r| format!("status {}", r.status))
                        .unwrap_or_else(|_| "no answer (the server is gone?)".into());
                let took = if outcome == "status 200" { began.elapsed() } else { Duration::MAX };
                let mut worst = worst.lock().unwrap();
                if took > worst.0 {
                    *worst = (took, outcome);
                }
                drop(worst);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        Probe { stop, slowest, thread: Some(thread) }
    }

    /// Checks that every answer so far came within [`ANSWER_WITHIN`], saying after what.
    fn check(&self, after: &str) {
        let (took, outcome) = self.slowest.lock().unwrap().clone();
        assert!(took < ANSWER_WITHIN, "after {after}: GET /api/variants took {took:?} ({outcome})");
        eprintln!("after {after}: slowest GET /api/variants so far {took:?}");
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A connection that sends `head` (and whatever body it holds) and stays open, unread.
fn send_raw(addr: &str, bytes: &str) -> TcpStream {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(bytes.as_bytes()).unwrap();
    stream
}

/// The status line of what a connection answered, read until the server closes it.
fn status_of(mut stream: TcpStream) -> String {
    stream.set_read_timeout(Some(LONG)).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).lines().next().unwrap_or("").to_string()
}

fn new_game(server: &Served, players: &[&str]) -> u64 {
    let players: Vec<String> = players.iter().map(|p| format!("\"{p}\"")).collect();
    let reply = server.post("/api/new", &format!(r#"{{"variant":"mini-hexchess","players":[{}]}}"#, players.join(",")));
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["id"].as_u64().unwrap()
}

fn plies(state: &Value) -> usize {
    state["moves"].as_array().unwrap().len()
}

/// The CPU time the process `pid` has used, from /proc.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

#[test]
fn no_client_takes_the_server_down_or_holds_it_up() {
    let server = Served::start(&[]);
    let probe = Probe::start(&server.addr);
    let host = format!("Host: localhost:{}", server.addr.rsplit(':').next().unwrap());

    // A body declared at 100 GB, a few bytes sent, the connection closed: refused unread.
    for method in ["POST", "GET"] {
        let lying = send_raw(
            &server.addr,
            &format!("{method} /api/new HTTP/1.1\r\n{host}\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{{\"va"),
        );
        assert!(status_of(lying).contains(" 413 "), "{method} with a lying Content-Length");
    }
    let gone =
        send_raw(&server.addr, &format!("POST /api/new HTTP/1.1\r\n{host}\r\nContent-Length: 99999999999\r\n\r\nab"));
    drop(gone);
    probe.check("lying Content-Length headers");

    // More slow bodies and slow heads than the server has workers, held open.
    let slow_body = format!(
        "POST /api/new HTTP/1.1\r\n{host}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{{\"variant\""
    );
    let mut held: Vec<TcpStream> = (0..24).map(|_| send_raw(&server.addr, &slow_body)).collect();
    held.extend((0..24).map(|_| send_raw(&server.addr, &format!("GET /api/variants HTTP/1.1\r\n{host}\r\n"))));
    held.extend((0..50).map(|_| TcpStream::connect(&server.addr).unwrap()));
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.get("/api/variants").status, 200);
    probe.check("slow bodies and heads on every worker");

    // Seats and analyses over the limits are refused alike.
    for players in [r#"["you","none:4294967295"]"#, r#"["you","mcts:100000001"]"#, r#"["you","alphabeta:31"]"#] {
        let reply = server.post("/api/new", &format!(r#"{{"variant":"mini-hexchess","players":{players}}}"#));
        assert_eq!(reply.status, 400, "{players}: {}", reply.text());
    }

    // Searches of a million visits and of depth 30, each ended: by Stop (the seat then plays its
    // best move so far), by a new position, and by the game being ended for newer ones.
    for seat in ["mcts:1000000", "none:1000000", "rollout:1000000", "alphabeta:30"] {
        let id = new_game(&server, &[seat, "you"]);
        server.wait_game(id, LONG, |s| !s["thinking"].is_null());
        std::thread::sleep(Duration::from_millis(300));
        server.post("/api/stop", &format!(r#"{{"id":{id}}}"#));
        let began = Instant::now();
        let state = server.wait_game(id, LONG, |s| s["thinking"].is_null());
        assert_eq!(plies(&state), 1, "{seat} played its best move so far: {state}");
        assert!(began.elapsed() < Duration::from_secs(5), "{seat} stopped after {:?}", began.elapsed());
    }
    let id = new_game(&server, &["you", "alphabeta:30"]);
    assert_eq!(server.post("/api/move", &format!(r#"{{"id":{id},"move":"c2-c3"}}"#)).status, 200);
    server.wait_game(id, LONG, |s| !s["thinking"].is_null());
    let start = "b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1";
    let set = server.post("/api/position", &format!(r#"{{"id":{id},"position":"{start}"}}"#));
    assert_eq!(set.status, 200, "{}", set.text());
    assert!(set.json()["thinking"].is_null(), "the person is to move: {}", set.text());
    probe.check("searches stopped");

    // Fifty games whose engines answer side by side, while another game analyses for long.
    let analysed = new_game(&server, &["you", "you"]);
    let reply = server.post("/api/analyse", &format!(r#"{{"id":{analysed},"model":"none","sims":100000000}}"#));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let began = Instant::now();
    let games: Vec<u64> = (0..50).map(|_| new_game(&server, &["none:64", "you"])).collect();
    for &id in &games {
        server.wait_game(id, LONG, |s| plies(s) == 1 && s["thinking"].is_null());
    }
    let answered = began.elapsed();
    eprintln!("50 games' engines answered in {answered:?} while another game analysed");
    let analysis = server.get(&format!("/api/game?id={analysed}")).json();
    assert_eq!(analysis["thinking"]["kind"], "analysis", "still analysing: {analysis}");
    assert!(answered < Duration::from_secs(30), "the engines answered after {answered:?}");
    probe.check("fifty games and an analysis");

    server.post("/api/stop", &format!(r#"{{"id":{analysed}}}"#));
    server.wait_game(analysed, LONG, |s| s["thinking"].is_null());
    probe.check("the analysis stopped");
    drop(held);

    // Nothing searches any more: the server is idle, whatever it was asked before.
    std::thread::sleep(Duration::from_millis(500));
    let (cpu, began) = (cpu_time(server.pid()), Instant::now());
    std::thread::sleep(Duration::from_secs(2));
    let busy = cpu_time(server.pid()) - cpu;
    assert!(busy < Duration::from_millis(700), "{busy:?} of CPU in {:?} with no search asked for", began.elapsed());
    probe.check("the end");
    drop(probe);

    let out = server.stop("TERM");
    assert_eq!(out.status.code(), Some(0), "a server's end is a signal: {}", stderr_of(&out));
    assert!(stderr_of(&out).contains("vzero serve: stopped"), "{}", stderr_of(&out));
}
