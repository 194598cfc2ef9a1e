//! Game text cut into tags and words, each with its line; what PGN readers skip is skipped here:
//! comments (`{...}` and `;` to the end of the line), variations (`(...)`), annotation glyphs
//! (`$1`), move numbers (`12.`, `12...`) and the marks after a move (`+`, `#`, `!`, `?`).

use super::error::{GameTextError, Problem};
use super::result::looks_like_result;

/// One piece of a game text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    /// A tag pair, `[Name "value"]`, its value unescaped.
    Tag {
        /// The tag's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// A move or a result, as written, without number or marks.
    Word(String),
}

/// A token and the line (from 1) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lexed {
    /// The token.
    pub token: Token,
    /// Its line.
    pub line: usize,
}

/// The tokens of `text`, or where it cannot be read.
pub(crate) fn lex(text: &str) -> Result<Vec<Lexed>, GameTextError> {
    let mut cursor = Cursor { chars: text.chars().peekable(), line: 1 };
    let mut tokens = Vec::new();
    let mut variation_depth = 0usize;
    let mut variation_line = 0;
    while let Some(c) = cursor.peek() {
        let line = cursor.line;
        match c {
            c if c.is_whitespace() => {
                cursor.next();
            }
            '{' => cursor.skip_past('}', "a comment '{'")?,
            ';' => cursor.skip_past('\n', "")?,
            '(' => {
                cursor.next();
                if variation_depth == 0 {
                    variation_line = line;
                }
                variation_depth += 1;
            }
            ')' => {
                cursor.next();
                variation_depth = variation_depth
                    .checked_sub(1)
                    .ok_or_else(|| Problem::Syntax("')' closes no variation".into()).at(line))?;
            }
            '[' if variation_depth == 0 => tokens.push(Lexed { token: cursor.tag()?, line }),
            _ => {
                let word = cursor.word();
                if variation_depth == 0 {
                    if let Some(word) = clean(&word) {
                        tokens.push(Lexed { token: Token::Word(word), line });
                    }
                }
            }
        }
    }
    if variation_depth > 0 {
        return Err(Problem::Syntax("the variation '(' opened here is never closed".into()).at(variation_line));
    }
    Ok(tokens)
}

/// A word without what readers skip: `None` for a move number or an annotation glyph alone.
fn clean(word: &str) -> Option<String> {
    if looks_like_result(word) {
        return Some(word.to_string());
    }
    if word.starts_with('$') {
        return None;
    }
    // `12.`, `12...` and `12.f5-f6`: the number goes.
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest =
        if digits > 0 && word[digits..].starts_with('.') { word[digits..].trim_start_matches('.') } else { word };
    let rest = rest.trim_end_matches(['+', '#', '!', '?']);
    (!rest.is_empty()).then(|| rest.to_string())
}

/// The text still to read, and the line it is on.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next();
        if c == Some('\n') {
            self.line += 1;
        }
        c
    }

    /// Skips up to and past `end`; `what` (opened on this line) must be closed, unless empty.
    fn skip_past(&mut self, end: char, what: &str) -> Result<(), GameTextError> {
        let line = self.line;
        while let Some(c) = self.next() {
            if c == end {
                return Ok(());
            }
        }
        match what {
            "" => Ok(()),
            _ => Err(Problem::Syntax(format!("{what} opened here is never closed")).at(line)),
        }
    }

    /// Characters up to whitespace or a character that starts or ends something else.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek().filter(|&c| !c.is_whitespace() && !"{};[]()".contains(c)) {
            word.push(c);
            self.next();
        }
        if word.is_empty() {
            // A lone '}' or ']': a word of its own, which no move reads.
            word.extend(self.next());
        }
        word
    }

    /// A tag pair `[Name "value"]`, the cursor on its `[`.
    fn tag(&mut self) -> Result<Token, GameTextError> {
        let line = self.line;
        let bad = |message: String| Problem::Syntax(message).at(line);
        self.next();
        self.skip_spaces();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || *c == '_') {
            name.push(c);
            self.next();
        }
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(bad("expected a tag such as [Variant \"glinski\"] after '['".into()));
        }
        self.skip_spaces();
        if self.next() != Some('"') {
            return Err(bad(format!("tag [{name}]: expected its value in double quotes")));
        }
        let mut value = String::new();
        loop {
            match self.next() {
                Some('"') => break,
                Some('\\') => value.extend(self.next()),
                Some('\n') | None => return Err(bad(format!("tag [{name}]: its value's closing '\"' is missing"))),
                Some(c) => value.push(c),
            }
        }
        self.skip_spaces();
        if self.next() != Some(']') {
            return Err(bad(format!("tag [{name}]: expected ']' after its value")));
        }
        Ok(Token::Tag { name, value })
    }

    /// Skips spaces and tabs (not line ends: a tag is one line).
    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.next();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        lex(text)
            .unwrap()
            .into_iter()
            .map(|l| match l.token {
                Token::Word(w) => w,
                Token::Tag { name, value } => format!("[{name}={value}]"),
            })
            .collect()
    }

    #[test]
    fn what_readers_skip_is_skipped() {
        let text = "[Variant \"glin\\\"ski\"]\n1. f5-f6 {a comment\nover lines} e7-e6+ $1 2.g4-g5# (2. e4-e5 d7-d6) ; rest\n1/2-1/2";
        assert_eq!(words(text), ["[Variant=glin\"ski]", "f5-f6", "e7-e6", "g4-g5", "1/2-1/2"]);
        assert_eq!(lex(text).unwrap().last().unwrap().line, 4);
        assert_eq!(words("1... I11=R,A2-A3 pass 0.5-0.5"), ["I11=R,A2-A3", "pass", "0.5-0.5"]);
    }

    #[test]
    fn broken_text_names_its_line() {
        let err = |text: &str| lex(text).unwrap_err().to_string();
        assert_eq!(err("\n{ open"), "line 2: a comment '{' opened here is never closed");
        assert_eq!(err("[Variant glinski]"), "line 1: tag [Variant]: expected its value in double quotes");
        assert_eq!(err("[1 0] f5-f6"), "line 1: expected a tag such as [Variant \"glinski\"] after '['");
        assert_eq!(err("[Result \"1-0\"\n"), "line 1: tag [Result]: expected ']' after its value");
        assert_eq!(err("f5-f6 (e7-e6"), "line 1: the variation '(' opened here is never closed");
    }
}
