//! A minimal WebDriver client (the W3C protocol chromedriver speaks, over [`super::http`]):
//! Debian's headless chromium driven by chromedriver, for the tests that use a page as a
//! person would. [`Browser::open`] returns `None`, after printing SKIPPED, where chromium or
//! chromedriver is not installed.

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::http::request;

/// The key of an element reference in WebDriver answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process and one browser session in it; both end when dropped.
pub struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

/// The WebDriver key codes of the arrow keys.
pub const ARROW_LEFT: char = '\u{E012}';
/// See [`ARROW_LEFT`].
pub const ARROW_RIGHT: char = '\u{E014}';

/// An element of the page.
#[derive(Clone, Debug)]
pub struct Element(String);

fn installed(var: &str, default: &str) -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os(var).unwrap_or_else(|| default.into()));
    path.exists().then_some(path)
}

impl Browser {
    /// Starts chromedriver and a headless chromium with its profile in `dir`, or says SKIPPED
    /// (naming `what` was not tested) and returns `None` where either is not installed
    /// (`make test` installs both: `apt-get install chromium chromium-driver`).
    pub fn open(dir: &Path, what: &str) -> Option<Browser> {
        let (Some(chromium), Some(driver)) = (
            installed("VZERO_CHROMIUM", "/usr/bin/chromium"),
            installed("VZERO_CHROMEDRIVER", "/usr/bin/chromedriver"),
        ) else {
            // Written past the test harness's capture, so a skip is never silent.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: chromium or chromedriver is not installed (apt-get install chromium chromium-driver); {what} was not tested in a browser"
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = format!("127.0.0.1:{port}");
        let begun = Instant::now();
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(begun.elapsed() < Duration::from_secs(30), "chromedriver did not listen within 30 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut browser = Browser { driver, addr, session: String::new() };
        let profile = dir.join("chromium-profile");
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-background-networking", "--disable-component-update", "--no-first-run",
                         "--window-size=1300,1000", format!("--user-data-dir={}", profile.display())]
            }
        }}});
        let answer = browser.call("POST", "/session", Some(capabilities));
        browser.session = answer["sessionId"].as_str().expect("a session id").to_string();
        Some(browser)
    }

    /// One WebDriver command; panics with the driver's message on an error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let reply = request(&self.addr, method, path, &self.addr, text.as_deref());
        let value = reply.json();
        assert!(reply.status == 200, "WebDriver {method} {path}: {}", value["value"]);
        value["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Opens `url`.
    pub fn go(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// The elements matching a CSS selector.
    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let found = self.session_call("POST", "/elements", Some(json!({"using": "css selector", "value": css})));
        found.as_array().unwrap().iter().map(|e| Element(e[ELEMENT].as_str().unwrap().to_string())).collect()
    }

    /// The element matching a CSS selector, waited for up to `limit`.
    pub fn wait_for(&self, css: &str, limit: Duration) -> Element {
        let begun = Instant::now();
        loop {
            if let Some(e) = self.find_all(css).into_iter().next() {
                return e;
            }
            assert!(begun.elapsed() < limit, "no '{css}' on the page within {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the element matching `css` (waited for up to 30 s), as a person would.
    pub fn click(&self, css: &str) {
        let e = self.wait_for(css, Duration::from_secs(30));
        self.session_call("POST", &format!("/element/{}/click", e.0), Some(json!({})));
    }

    /// The text of the element matching `css`.
    pub fn text(&self, css: &str) -> String {
        let e = self.wait_for(css, Duration::from_secs(30));
        self.session_call("GET", &format!("/element/{}/text", e.0), None).as_str().unwrap_or("").to_string()
    }

    /// Attribute `name` of the element matching `css`.
    pub fn attribute(&self, css: &str, name: &str) -> Option<String> {
        let e = self.wait_for(css, Duration::from_secs(30));
        self.session_call("GET", &format!("/element/{}/attribute/{name}", e.0), None).as_str().map(str::to_string)
    }

    /// Replaces the value of the input matching `css` by typing `text`.
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self.wait_for(css, Duration::from_secs(30));
        self.session_call("POST", &format!("/element/{}/clear", e.0), Some(json!({})));
        self.session_call("POST", &format!("/element/{}/value", e.0), Some(json!({ "text": text })));
    }

    /// Waits up to `limit` for `check` to hold, polling every 50 ms; panics naming `what`.
    pub fn wait_until(&self, what: &str, limit: Duration, mut check: impl FnMut(&Browser) -> bool) {
        let begun = Instant::now();
        while !check(self) {
            assert!(begun.elapsed() < limit, "{what}: not within {limit:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `script` (a function body; `return` gives its value) in the page.
    pub fn execute(&self, script: &str) -> Value {
        self.session_call("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Presses and releases `key` (a character, or a WebDriver key code such as
    /// [`ARROW_LEFT`]) on the page, as a person types it.
    pub fn press(&self, key: char) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key.to_string()}, {"type": "keyUp", "value": key.to_string()}
        ]}]});
        self.session_call("POST", "/actions", Some(actions));
    }

    /// Opens a new tab and returns its handle (the current tab stays current).
    pub fn new_tab(&self) -> String {
        let tab = self.session_call("POST", "/window/new", Some(json!({"type": "tab"})));
        tab["handle"].as_str().expect("a window handle").to_string()
    }

    /// The handle of the current tab.
    pub fn tab(&self) -> String {
        self.session_call("GET", "/window", None).as_str().expect("a window handle").to_string()
    }

    /// Makes the tab `handle` current (and shown).
    pub fn switch_to(&self, handle: &str) {
        self.session_call("POST", "/window", Some(json!({ "handle": handle })));
    }

    /// Sets the window's size in pixels (a phone's width, say); the page gets a resize event.
    pub fn resize(&self, width: u32, height: u32) {
        self.session_call("POST", "/window/rect", Some(json!({ "width": width, "height": height })));
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let text = self.session_call("GET", "/screenshot", None);
        base64(text.as_str().expect("base64 text"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(&self.addr, "DELETE", &format!("/session/{}", self.session), &self.addr, None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Decodes standard base64 (the screenshot's encoding).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len().saturating_sub(1)]);
    }
    out
}
