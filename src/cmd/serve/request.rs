//! A request as a handler reads it: the server it came to, its address's query and its body.

use std::sync::Arc;

use rules::Variant;
use serde::de::DeserializeOwned;

use super::app::App;
use super::http::Refusal;

/// What a handler is given of one request.
pub struct Request<'a> {
    /// The server.
    pub app: &'a Arc<App>,
    /// The address's query.
    pub query: Query,
    /// The body as sent.
    pub bytes: &'a [u8],
}

impl Request<'_> {
    /// The body read as `T` (one of wire.rs's requests); the refusal names what did not read.
    pub fn body<T: DeserializeOwned>(&self) -> Result<T, Refusal> {
        serde_json::from_slice(self.bytes).map_err(|e| Refusal::Bad(format!("the request body: {e}")))
    }
}

/// The query of an address, percent-decoded.
pub struct Query(Vec<(String, String)>);

impl Query {
    /// The pairs of `text`, the part of an address after `?`.
    pub fn parse(text: &str) -> Query {
        Query(
            text.split('&')
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    (decode(k), decode(v))
                })
                .collect(),
        )
    }

    /// The value of `key`, if the query has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The whole number `key` names; the refusal says it is missing or not a number.
    pub fn number(&self, key: &str) -> Result<u64, Refusal> {
        let text = self.get(key).ok_or_else(|| Refusal::Bad(format!("{key}= is missing")))?;
        text.parse().map_err(|_| Refusal::Bad(format!("{key}='{text}': expected a whole number")))
    }

    /// The game `id=` names.
    pub fn id(&self) -> Result<u64, Refusal> {
        self.number("id")
    }

    /// The variant `variant=` names.
    pub fn variant(&self) -> Result<Variant, Refusal> {
        let text = self.get("variant").ok_or_else(|| Refusal::Bad("variant= is missing".into()))?;
        text.parse::<Variant>().map_err(|e| Refusal::Bad(e.to_string()))
    }
}

/// `text` with `+` as a space and `%XX` as its byte; a broken escape is kept as written, and
/// bytes that are not UTF-8 become U+FFFD.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                (Some(hi), Some(lo)) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_percent_decoded_and_broken_escapes_kept() {
        let q = Query::parse("run=%2Fruns%2Fa+b&x=%zz&y=%4&&z");
        assert_eq!(q.get("run"), Some("/runs/a b"));
        assert_eq!(q.get("x"), Some("%zz"));
        assert_eq!(q.get("y"), Some("%4"));
        assert_eq!(q.get("z"), Some(""));
        assert_eq!(decode("%e2%82%ac%ff"), "\u{20ac}\u{fffd}");
    }
}
