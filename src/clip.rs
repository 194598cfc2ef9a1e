//! Keeping messages that quote what the user typed short and inert: a 5,000-character
//! position text or `--set` value is quoted by its first [`MAX_QUOTE`] characters, and a control
//! byte in it is shown escaped (`\x1b`), never sent raw to the terminal that shows the message.

/// The most characters of one quoted input an error message shows.
pub const MAX_QUOTE: usize = 100;

/// `message` with every quoted stretch ('...', "...", `...`) and every unbroken token longer
/// than [`MAX_QUOTE`] characters cut to its first [`MAX_QUOTE`], followed by how long it was,
/// and every control character but a line break escaped.
pub fn clip_quotes(message: &str) -> String {
    let chars: Vec<char> = escaped(message, true).chars().collect();
    let mut out = String::with_capacity(message.len().min(4 * MAX_QUOTE));
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let opens_quote = matches!(c, '\'' | '"' | '`') && (i == 0 || !chars[i - 1].is_alphanumeric());
        if opens_quote {
            if let Some(len) = chars[i + 1..].iter().position(|&x| x == c) {
                out.push(c);
                push_clipped(&mut out, &chars[i + 1..i + 1 + len]);
                out.push(c);
                i += len + 2;
                continue;
            }
        }
        if !c.is_whitespace() {
            let len = chars[i..].iter().position(|x| x.is_whitespace()).unwrap_or(chars.len() - i);
            if len > MAX_QUOTE {
                push_clipped(&mut out, &chars[i..i + len]);
                i += len;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// One value the user gave, as a one-line message quotes it: cut to its first [`MAX_QUOTE`]
/// characters (then how long it was) and every control character, line breaks too, written
/// as `\xNN`. For a message that knows where the value is, where [`clip_quotes`] must guess
/// from quote marks (which the value may hold itself).
pub fn quote_value(text: &str) -> String {
    clip_value(&escape_controls(text))
}

/// `text` with every control character, line breaks too, written as `\xNN`.
pub fn escape_controls(text: &str) -> String {
    escaped(text, false)
}

/// `text` cut to its first [`MAX_QUOTE`] characters, then how long it was.
fn clip_value(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    push_clipped(&mut out, &chars);
    out
}

/// `text` with each control character written as `\xNN`, a line break kept if
/// `keep_line_breaks`: an ESC or a carriage return typed into a move or a flag would otherwise
/// recolour, clear or overwrite the terminal when a message quotes it back.
fn escaped(text: &str, keep_line_breaks: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && !(keep_line_breaks && c == '\n') {
            // Every control character is below U+00A0, so two hex digits hold it.
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

fn push_clipped(out: &mut String, text: &[char]) {
    if text.len() <= MAX_QUOTE {
        out.extend(text);
    } else {
        out.extend(&text[..MAX_QUOTE]);
        out.push_str(&format!("... ({} characters)", text.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quotes_and_tokens_are_cut_and_short_ones_kept() {
        let long = "x".repeat(5000);
        let msg = format!("--position '{long} w - 0 1': bad position text: expected \"{long}\" near `{long}`");
        let clipped = clip_quotes(&msg);
        assert!(clipped.len() < 500, "{clipped}");
        let cut = format!("{}... (5000 characters)", "x".repeat(MAX_QUOTE));
        assert!(clipped.starts_with(&format!("--position '{}... (5008 characters)': bad", "x".repeat(MAX_QUOTE))));
        assert!(clipped.contains(&format!("\"{cut}\"")) && clipped.contains(&format!("`{cut}`")), "{clipped}");
        assert_eq!(clip_quotes(&format!("unknown {long}")), format!("unknown {cut}"));
        let short = "player 'grandmaster': expected random, greedy; it's fine";
        assert_eq!(clip_quotes(short), short);
    }

    #[test]
    fn control_characters_are_escaped_and_line_breaks_kept() {
        let typed = "Not played: 'f5\u{1b}[2J-f6\u{7}\r\u{9b}': no such move\nnext line";
        assert_eq!(clip_quotes(typed), "Not played: 'f5\\x1b[2J-f6\\x07\\x0d\\x9b': no such move\nnext line");
        assert_eq!(quote_value("a'\r\nb"), "a'\\x0d\\x0ab");
        assert_eq!(quote_value(&"é".repeat(150)), format!("{}... (150 characters)", "é".repeat(MAX_QUOTE)));
    }
}
