//! Keeping error messages short when they quote what the user typed: a 5,000-character
//! position text or `--set` value is quoted by its first [`MAX_QUOTE`] characters.

/// The most characters of one quoted input an error message shows.
pub const MAX_QUOTE: usize = 100;

/// `message` with every quoted stretch ('...', "...", `...`) and every unbroken token longer
/// than [`MAX_QUOTE`] characters cut to its first [`MAX_QUOTE`], followed by how long it was.
pub fn clip_quotes(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
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
}
