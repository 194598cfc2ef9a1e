//! A `vzero serve` started for a test, and a minimal HTTP/1.1 client to talk to it (and to
//! chromedriver): one request per connection, `Connection: close`, the answer read to its end.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{output_within, vzero_command, wait_for_handler};

/// An answer: status, headers as text, body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: String,
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON (panics, quoting it, if it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The value of header `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

/// Sends one request to `addr` (`HOST:PORT`) with the `Host` header `host` and returns the
/// answer; a body is sent as JSON.
pub fn request(addr: &str, method: &str, path: &str, host: &str, body: Option<&str>) -> Reply {
    request_typed(addr, method, path, host, "application/json", body.unwrap_or(""))
}

/// [`request`] with a body of media type `content_type`.
pub fn request_typed(addr: &str, method: &str, path: &str, host: &str, content_type: &str, body: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect to {addr}: {e}"));
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    // Read by the length the answer gives: some servers (chromedriver) keep the connection
    // open whatever the request says.
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let headers = String::from_utf8_lossy(&raw[..split]).into_owned();
            let status = headers.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
            let head = Reply { status, headers, body: Vec::new() };
            let body = &raw[split + 4..];
            if let Some(length) = head.header("Content-Length").and_then(|l| l.parse::<usize>().ok()) {
                if body.len() >= length {
                    return Reply { body: body[..length].to_vec(), ..head };
                }
            } else if head.header("Transfer-Encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked"))
                && body.ends_with(b"0\r\n\r\n")
            {
                return Reply { body: unchunk(body), ..head };
            }
        }
        let n = stream.read(&mut buf).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        if n == 0 {
            let split = raw
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .unwrap_or_else(|| panic!("{method} {path}: no header end"));
            let headers = String::from_utf8_lossy(&raw[..split]).into_owned();
            let status = headers.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
            return Reply { status, headers, body: raw[split + 4..].to_vec() };
        }
        raw.extend_from_slice(&buf[..n]);
    }
}

/// A chunked body's data.
fn unchunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = raw.windows(2).position(|w| w == b"\r\n") else { return out };
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..end]).split(';').next().unwrap().trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

/// A `vzero serve --port 0` running for a test (no shipped networks, as every test's vzero);
/// sent SIGTERM and waited for when dropped.
pub struct Served {
    child: Option<Child>,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    _stdout: BufReader<ChildStdout>,
}

impl Served {
    /// Starts the server with `args` after `serve --port 0` and waits for its address.
    pub fn start(args: &[&str]) -> Served {
        let mut command = vzero_command();
        Self::start_with(&mut command, args)
    }

    /// [`Served::start`] with a command set up by the caller (its environment).
    pub fn start_with(command: &mut Command, args: &[&str]) -> Served {
        let mut child = command
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start vzero serve");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read the server's first line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in the server's first line: {line:?}"))
            .to_string();
        wait_for_handler(child.id(), 15);
        Served { base: format!("http://{addr}"), addr, child: Some(child), _stdout: stdout }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    fn host(&self) -> String {
        format!("localhost:{}", self.addr.rsplit(':').next().unwrap())
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Reply {
        request(&self.addr, "GET", path, &self.host(), None)
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &str) -> Reply {
        request(&self.addr, "POST", path, &self.host(), Some(body))
    }

    /// Polls game `id` until `done` holds of its state (at most `limit`), returning that state.
    pub fn wait_game(&self, id: u64, limit: Duration, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let begun = Instant::now();
        loop {
            let state = self.get(&format!("/api/game?id={id}")).json();
            if done(&state) {
                return state;
            }
            assert!(begun.elapsed() < limit, "game {id} did not get there within {limit:?}: {state}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends `signal` (`TERM`, `INT`) and returns what the server printed and its status.
    pub fn stop(mut self, signal: &str) -> Output {
        let child = self.child.take().unwrap();
        let _ = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status();
        output_within(child, Duration::from_secs(60), "vzero serve did not stop within a minute of the signal")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
            let _ = child.wait();
        }
    }
}
