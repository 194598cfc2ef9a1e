//! Inputs for fuzz cases: real inputs (position texts, configs, shards...) changed a little, a
//! few times over, or random text and bytes. The changes are the ones parsers trip on:
//! truncation, a deleted or repeated span (up to [`MAX_LEN`] long), a swapped or repeated field,
//! numbers at and past every integer width, multi-byte and control characters, bit flips and
//! huge length fields.

use super::Rng;

/// The longest input a mutation makes (characters or bytes): long enough for work or memory
/// proportional to the length to show, short enough for a case to take milliseconds.
pub const MAX_LEN: usize = 1 << 20;

/// Numbers that break parsers: at and past each integer width, and other number forms.
pub const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "9",
    "10",
    "99",
    "100",
    "127",
    "128",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999999",
    "1e309",
    "-0",
    "+1",
    "0x10",
    "007",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1.5",
];

/// The whole numbers of [`NUMBERS`], which replace a number in the text.
const WHOLE_NUMBERS: usize = 23;

/// Other words that break parsers: separators, kinds of whitespace, and multi-byte, zero-width
/// and control characters.
pub const SYMBOLS: &[&str] = &[
    "-", "/", ",", ":", ";", "=", "x", ".", "*", " ", "  ", "\t", "\n", "\r\n", "\u{0}", "\u{7f}", "\u{1b}", "é", "ß",
    "€", "💥", "\u{200b}", "\u{a0}", "\u{fffd}", "\"", "'", "\\", "[", "]", "{", "}", "#",
];

/// A fuzz input in text: usually an entry of `corpus` changed one to four times (inserted words
/// come from [`NUMBERS`], [`SYMBOLS`] and `words`, the target's own vocabulary), sometimes random text.
pub fn text(rng: &mut Rng, corpus: &[String], words: &[&str]) -> String {
    if corpus.is_empty() || rng.percent(8) {
        return random_text(rng, words);
    }
    let mut chars: Vec<char> = rng.pick(corpus).chars().collect();
    for _ in 0..changes(rng) {
        change_text(rng, &mut chars, corpus, words);
    }
    chars.into_iter().collect()
}

/// How many changes an input gets: one in half of the inputs, up to four, so that many stay
/// close enough to valid to reach the checks after the syntax.
fn changes(rng: &mut Rng) -> usize {
    1 + rng.size(3)
}

/// How many times a span is repeated: a few, and in one case in eight up to the length limit.
fn repeats(rng: &mut Rng, span: usize, len: usize) -> usize {
    let max = if rng.percent(12) { MAX_LEN } else { 4096 };
    rng.size(max / span).min(MAX_LEN.saturating_sub(len) / span)
}

/// Random text up to 200 characters: words, printable ASCII and any character.
pub fn random_text(rng: &mut Rng, words: &[&str]) -> String {
    let mut s = String::new();
    for _ in 0..rng.size(200) {
        match rng.below(4) {
            0 => s.push_str(word(rng, words)),
            1 => s.push(random_char(rng)),
            _ => s.push((b' ' + rng.below(95) as u8) as char),
        }
    }
    s
}

/// A word of `words`, [`NUMBERS`] or [`SYMBOLS`].
fn word<'a>(rng: &mut Rng, words: &[&'a str]) -> &'a str {
    let list: &[&'a str] = match rng.below(3) {
        0 if !words.is_empty() => words,
        1 => NUMBERS,
        _ => SYMBOLS,
    };
    list[rng.below(list.len())]
}

/// Any character: ASCII, Latin, the rest of the basic plane, or beyond.
fn random_char(rng: &mut Rng) -> char {
    let max = *rng.pick(&[0x80, 0x800, 0x10000, 0x110000]);
    char::from_u32(rng.below(max) as u32).unwrap_or('\u{fffd}')
}

/// One change common to text and bytes: a truncation, a deleted span, a span repeated (see
/// [`repeats`]), or the tail cut off and one of `other` put in its place.
fn change_span<T: Copy>(rng: &mut Rng, items: &mut Vec<T>, other: &[T]) {
    let len = items.len();
    let at = rng.below(len + 1);
    match rng.below(4) {
        0 => items.truncate(at),
        1 => {
            let end = (at + rng.size(len)).min(len);
            items.drain(at..end);
        }
        2 if len > 0 => {
            let start = rng.below(len);
            let span: Vec<T> = items[start..(start + 1 + rng.below(16)).min(len)].to_vec();
            let times = repeats(rng, span.len(), len);
            let repeated: Vec<T> = span.iter().copied().cycle().take(span.len() * times).collect();
            items.splice(start..start, repeated);
        }
        _ => {
            let from = rng.below(other.len() + 1);
            items.truncate(at);
            items.extend_from_slice(&other[from..]);
        }
    }
}

fn change_text(rng: &mut Rng, chars: &mut Vec<char>, corpus: &[String], words: &[&str]) {
    let len = chars.len();
    let at = rng.below(len + 1);
    match rng.below(11) {
        0..=3 => {
            let other: Vec<char> = rng.pick(corpus).chars().collect();
            change_span(rng, chars, &other);
        }
        4 | 5 => {
            let w: Vec<char> = word(rng, words).chars().collect();
            chars.splice(at..at, w);
        }
        6 if len > 0 => {
            let i = rng.below(len);
            chars[i] = if rng.percent(50) { chars[rng.below(len)] } else { random_char(rng) };
        }
        7 => {
            // A run of digits becomes another number, often a huge one.
            let runs: Vec<usize> =
                (0..len).filter(|&i| chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit())).collect();
            if let Some(&start) = runs.get(rng.below(runs.len().max(1))) {
                let end = (start..len).find(|&i| !chars[i].is_ascii_digit()).unwrap_or(len);
                let number: Vec<char> = rng.pick(&NUMBERS[..WHOLE_NUMBERS]).chars().collect();
                chars.splice(start..end, number);
            }
        }
        8 => {
            // Fields (between spaces) swapped, repeated or dropped.
            let text: String = chars.iter().collect();
            let mut fields: Vec<&str> = text.split(' ').collect();
            let (i, j) = (rng.below(fields.len()), rng.below(fields.len()));
            match rng.below(3) {
                0 => fields.swap(i, j),
                1 => fields.insert(i, fields[j]),
                _ => {
                    fields.remove(i);
                }
            }
            *chars = fields.join(" ").chars().collect();
        }
        9 if len > 0 => {
            let i = rng.below(len);
            let c = chars[i];
            chars[i] = if c.is_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        }
        _ => chars.insert(at, random_char(rng)),
    }
}

/// A fuzz input in bytes: usually an entry of `corpus` changed one to four times, sometimes
/// random bytes.
pub fn bytes(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    if corpus.is_empty() || rng.percent(5) {
        return (0..rng.size(300)).map(|_| rng.next_u64() as u8).collect();
    }
    let mut b = rng.pick(corpus).clone();
    for _ in 0..changes(rng) {
        change_bytes(rng, &mut b, corpus);
    }
    b
}

/// A length or count field's worst values: 0, small, at each width's limit, past the memory.
const HUGE: &[u64] = &[
    0,
    1,
    2,
    0x7f,
    0x80,
    0xff,
    0xffff,
    1 << 30,
    1 << 31,
    u32::MAX as u64,
    1 << 40,
    1 << 60,
    i64::MAX as u64,
    u64::MAX,
];

fn change_bytes(rng: &mut Rng, b: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    let len = b.len();
    let at = rng.below(len + 1);
    match rng.below(10) {
        0..=3 => {
            let other = rng.pick(corpus).clone();
            change_span(rng, b, &other);
        }
        4 | 5 if len > 0 => {
            let i = rng.below(len);
            b[i] ^= 1 << rng.below(8);
        }
        6 if len > 0 => {
            let i = rng.below(len);
            let random = rng.next_u64() as u8;
            b[i] = *rng.pick(&[0, 0xff, 0x7f, 0x80, random]);
        }
        7 => {
            // A huge number where a length might be: fixed-width little-endian or bincode's
            // variable-length form (a 251..=253 tag and its bytes).
            let n = *rng.pick(HUGE);
            let field: Vec<u8> = match rng.below(3) {
                0 => n.to_le_bytes().to_vec(),
                1 => (n as u32).to_le_bytes().to_vec(),
                _ => [&[253u8][..], &n.to_le_bytes()].concat(),
            };
            let end = (at + field.len()).min(len);
            b.splice(at..end, field);
        }
        8 => {
            let extra: Vec<u8> = (0..1 + rng.below(16)).map(|_| rng.next_u64() as u8).collect();
            b.splice(at..at, extra);
        }
        _ => b.insert(at, rng.next_u64() as u8),
    }
}
