//! An answer as the server sends it over HTTP: status, media type and bytes, with the headers
//! that keep a browser from caching a game or guessing at a body.

use std::net::SocketAddr;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::header;
use serde::Serialize;

use super::wire::ErrorReply;

/// Why a request is refused: the kind picks the HTTP status, the text says why in one line.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// 400: the request does not read, or asks what cannot be done (an illegal move).
    #[error("{0}")]
    Bad(String),
    /// 403: a path outside the server's folders, or a request not addressed to this machine.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such page, game or run.
    #[error("{0}")]
    NotFound(String),
    /// 405: the address answers another method.
    #[error("{0}")]
    WrongMethod(String),
    /// 408: the request did not arrive in time (a body sent too slowly).
    #[error("{0}")]
    Slow(String),
    /// 409: not now: an engine is to move or searching, or the server runs no engines.
    #[error("{0}")]
    Conflict(String),
    /// 413: a request body over the limit.
    #[error("{0}")]
    TooLarge(String),
    /// 415: a body not sent as JSON.
    #[error("{0}")]
    NotJson(String),
    /// 503: the server is full now (games that pages show); later it may not be.
    #[error("{0}")]
    Busy(String),
    /// 500: the server failed at what it should do (a bug).
    #[error("{0}")]
    Failed(String),
}

impl Refusal {
    /// Its HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Bad(_) => 400,
            Refusal::Forbidden(_) => 403,
            Refusal::NotFound(_) => 404,
            Refusal::WrongMethod(_) => 405,
            Refusal::Slow(_) => 408,
            Refusal::Conflict(_) => 409,
            Refusal::TooLarge(_) => 413,
            Refusal::NotJson(_) => 415,
            Refusal::Busy(_) => 503,
            Refusal::Failed(_) => 500,
        }
    }
}

/// An answer to one request.
#[derive(Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Its media type.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: Vec<u8>,
    /// A file name: the browser saves the body as this file.
    pub download: Option<String>,
}

impl Response {
    /// A JSON answer.
    pub fn json(reply: &impl Serialize) -> Response {
        match serde_json::to_vec(reply) {
            Ok(body) => Response { status: 200, content_type: "application/json", body, download: None },
            // Not reached: a reply holds strings, numbers and lists, and a map has string keys.
            Err(e) => Response::refused(Refusal::Failed(format!("the reply did not serialize: {e}"))),
        }
    }

    /// The answer to a refused request: its status and one line saying why, in which what the
    /// request held is quoted short and its control characters (line breaks too) escaped.
    pub fn refused(refusal: Refusal) -> Response {
        let message = crate::clip::clip_quotes(&crate::clip::escape_controls(&refusal.to_string()));
        Response { status: refusal.status(), ..Response::json(&ErrorReply { error: message }) }
    }

    /// A text answer of `content_type`.
    pub fn text(content_type: &'static str, text: String) -> Response {
        Response { status: 200, content_type, body: text.into_bytes(), download: None }
    }

    /// The answer as the server sends it, with headers that keep the browser from caching a
    /// game's state or guessing other media types; `close` ends the connection after it (a
    /// request refused before its body was read: the rest of it is never read).
    pub fn into_http(self, close: bool) -> hyper::Response<Full<Bytes>> {
        let mut response = hyper::Response::builder()
            .status(self.status)
            .header(header::CONTENT_TYPE, content_type(self.content_type))
            .header(header::CACHE_CONTROL, "no-store")
            .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
        if let Some(name) = self.download {
            // The name is made here from a number and a variant's name: no quotes to escape.
            response = response.header(header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\""));
        }
        if close {
            response = response.header(header::CONNECTION, "close");
        }
        response.body(Full::new(Bytes::from(self.body))).expect("a status and headers of ASCII made here")
    }
}

/// A media type as sent: text in UTF-8.
fn content_type(media: &str) -> String {
    if media.starts_with("text/") || media.ends_with("json") || media.ends_with("+xml") {
        format!("{media}; charset=utf-8")
    } else {
        media.to_string()
    }
}

/// Whether a `Host` header names this machine as the server was reached: `localhost`,
/// `127.0.0.1`, `[::1]` or the address it listens on (`127.0.0.2`, the address it printed), at
/// `port` or without one. A server on the loopback address answers no other, so that a web
/// site cannot reach it through a name of its own that resolves here (DNS rebinding).
pub fn local_host(host: Option<&str>, bound: SocketAddr) -> bool {
    let Some(host) = host else { return false };
    // `SocketAddr`'s text puts an IPv6 address in brackets, as a `Host` header does.
    let listened = bound.to_string();
    let listened = listened.rsplit_once(':').map_or(listened.as_str(), |(ip, _)| ip);
    let port = bound.port();
    ["localhost", "127.0.0.1", "[::1]", listened].iter().any(|name| host == *name || host == format!("{name}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_machines_names_are_answered_on_loopback() {
        let at = |text: &str| text.parse::<SocketAddr>().unwrap();
        for host in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "localhost"] {
            assert!(local_host(Some(host), at("127.0.0.1:8080")), "{host}");
        }
        for host in ["localhost:8081", "evil.example:8080", "127.0.0.1.evil.example:8080", "127.0.0.2:8080", ""] {
            assert!(!local_host(Some(host), at("127.0.0.1:8080")), "{host}");
        }
        assert!(!local_host(None, at("127.0.0.1:8080")));
        // The address the server printed is answered, whichever loopback address it is.
        assert!(local_host(Some("127.0.0.2:8080"), at("127.0.0.2:8080")));
        assert!(local_host(Some("127.0.0.2"), at("127.0.0.2:8080")));
        assert!(!local_host(Some("127.0.0.3:8080"), at("127.0.0.2:8080")));
        assert!(local_host(Some("[::1]:9000"), at("[::1]:9000")));
    }

    #[test]
    fn a_refusal_is_one_short_line() {
        let long = format!("'{}\nx'", "a".repeat(5000));
        let r = Response::refused(Refusal::Bad(format!("move {long}: no")));
        let text: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        let message = text["error"].as_str().unwrap();
        assert_eq!(r.status, 400);
        assert!(!message.contains('\n') && message.len() < 300, "{message}");
    }
}
