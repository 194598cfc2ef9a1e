//! Lines of an input that no one checked (a GUI, a script, a person): any bytes are read, and a
//! line past [`MAX_LINE`] bytes is passed over without being held in memory, so `vzero uci` and
//! `vzero play` go on after bad input instead of stopping or filling the memory.

use std::io::{self, BufRead};

/// The longest line read, in bytes (the newline not counted). A UCI `position startpos moves
/// ...` of a game of several thousand plies fits; a longer line is a sender's mistake.
pub const MAX_LINE: usize = 64 * 1024;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of UTF-8 text, without its line ending.
    Text(String),
    /// A line with bytes that are not UTF-8, as text with replacement characters for them.
    NotUtf8(String),
    /// A line longer than the limit: its length in bytes (its content was not kept).
    TooLong(usize),
}

/// Reads the next line of `input`, keeping at most `max` bytes of it; `None` at the end of the
/// input.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut kept: Vec<u8> = Vec::new();
    let mut length = 0usize;
    let mut ended = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        let (taken, newline) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let content = &available[..taken - newline as usize];
        // One byte past the limit is enough to know that the line is too long.
        let room = (max + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&content[..content.len().min(room)]);
        length = length.saturating_add(content.len());
        input.consume(taken);
        if newline {
            ended = true;
            break;
        }
    }
    if length == 0 && !ended {
        return Ok(None);
    }
    if length > max {
        return Ok(Some(Line::TooLong(length)));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(text) => Line::Text(text),
        Err(e) => Line::NotUtf8(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }))
}

/// The message for a line over the limit.
pub fn too_long(length: usize) -> String {
    format!("a line of {length} bytes is too long to read (lines are at most {MAX_LINE} bytes)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out `bytes` a few at a time, as a pipe does.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.bytes.len().min(self.step).min(buf.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn lines(bytes: &[u8], max: usize) -> Vec<Line> {
        let mut input = io::BufReader::with_capacity(4, Trickle { bytes, step: 3 });
        std::iter::from_fn(|| read_line(&mut input, max).unwrap()).collect()
    }

    #[test]
    fn lines_are_text_bad_bytes_or_too_long_and_the_next_line_is_read() {
        let long = "x".repeat(50);
        let input = format!("isready\r\n{long}\n\nquit");
        let mut bytes = input.into_bytes();
        bytes.extend_from_slice(b"\nbad \xff byte\n");
        let got = lines(&bytes, 10);
        assert_eq!(
            got,
            [
                Line::Text("isready".into()),
                Line::TooLong(50),
                Line::Text(String::new()),
                Line::Text("quit".into()),
                Line::NotUtf8("bad \u{fffd} byte".into()),
            ]
        );
        assert_eq!(lines(b"exactly10!", 10), [Line::Text("exactly10!".into())]);
        assert_eq!(lines(b"", 10), []);
    }
}
