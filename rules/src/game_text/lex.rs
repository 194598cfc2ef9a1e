//! Game text cut into tags and words, each with its line; what PGN readers skip is skipped here:
//! comments (`{...}` and `;` to the end of the line), variations (`(...)`), annotation glyphs
//! (`$1`), move numbers (`12.`, `12...`) and the marks after a move (`+`, `#`, `!`, `?`).

use super::error::{GameTextError, Problem};
use super::result::looks_like_result;

/// One piece of a game text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token<'a> {
    /// A tag pair, `[Name "value"]`, its value unescaped (control characters as spaces).
    Tag {
        /// The tag's name.
        name: &'a str,
        /// Its value.
        value: String,
    },
    /// A move or a result, as written, without number or marks.
    Word(&'a str),
}

/// A token and the line (from 1) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lexed<'a> {
    /// The token.
    pub token: Token<'a>,
    /// Its line.
    pub line: usize,
}

/// The tokens of `text` one at a time (a long text is never held as tokens all at once), or
/// where it cannot be read.
pub(crate) fn lex(text: &str) -> Lexer<'_> {
    Lexer { text, at: 0, line: 1, failed: false }
}

/// The tokens of a text, read as they are asked for.
pub(crate) struct Lexer<'a> {
    /// The text.
    text: &'a str,
    /// The byte offset of the next character.
    at: usize,
    /// The line of the next character.
    line: usize,
    /// Whether an error ended the tokens.
    failed: bool,
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Lexed<'a>, GameTextError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.token().transpose();
        self.failed = matches!(next, Some(Err(_)));
        next
    }
}

impl<'a> Lexer<'a> {
    /// The next token, `None` at the end.
    fn token(&mut self) -> Result<Option<Lexed<'a>>, GameTextError> {
        let mut variation: Option<(usize, usize)> = None;
        while let Some(c) = self.peek() {
            let line = self.line;
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '{' => self.skip_past('}', "a comment '{'")?,
                ';' => self.skip_past('\n', "")?,
                '(' => {
                    self.bump();
                    let (depth, opened) = variation.unwrap_or((0, line));
                    variation = Some((depth + 1, opened));
                }
                ')' => {
                    self.bump();
                    variation = match variation {
                        None => return Err(Problem::Syntax("')' closes no variation".into()).at(line)),
                        Some((1, _)) => None,
                        Some((depth, opened)) => Some((depth - 1, opened)),
                    };
                }
                ']' | '}' => return Err(Problem::Syntax(format!("'{c}' closes nothing opened")).at(line)),
                '[' if variation.is_none() => return Ok(Some(Lexed { token: self.tag()?, line })),
                '[' => {
                    self.bump();
                }
                _ => {
                    let word = self.word();
                    if variation.is_none() {
                        if let Some(word) = clean(word) {
                            return Ok(Some(Lexed { token: Token::Word(word), line }));
                        }
                    }
                }
            }
        }
        match variation {
            Some((_, opened)) => {
                Err(Problem::Syntax("the variation '(' opened here is never closed".into()).at(opened))
            }
            None => Ok(None),
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Skips up to and past `end`; `what` (opened on this line) must be closed, unless empty.
    fn skip_past(&mut self, end: char, what: &str) -> Result<(), GameTextError> {
        let line = self.line;
        while let Some(c) = self.bump() {
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
    fn word(&mut self) -> &'a str {
        let from = self.at;
        while self.peek().is_some_and(|c| !c.is_whitespace() && !"{};[]()".contains(c)) {
            self.bump();
        }
        &self.text[from..self.at]
    }

    /// A tag pair `[Name "value"]`, the cursor on its `[`.
    fn tag(&mut self) -> Result<Token<'a>, GameTextError> {
        let line = self.line;
        let bad = |message: String| Problem::Syntax(message).at(line);
        self.bump();
        self.skip_spaces();
        let from = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            self.bump();
        }
        let name = &self.text[from..self.at];
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(bad("expected a tag such as [Variant \"glinski\"] after '['".into()));
        }
        self.skip_spaces();
        if self.bump() != Some('"') {
            return Err(bad(format!("tag [{name}]: expected its value in double quotes")));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\n') | None => return Err(bad(format!("tag [{name}]: its value's closing '\"' is missing"))),
                // Other control characters (a tab, a stray carriage return) read as spaces, as
                // they are written.
                Some('\\') => value.push(self.bump().filter(|c| !c.is_control()).unwrap_or(' ')),
                Some(c) => value.push(if c.is_control() { ' ' } else { c }),
            }
        }
        self.skip_spaces();
        if self.bump() != Some(']') {
            return Err(bad(format!("tag [{name}]: expected ']' after its value")));
        }
        Ok(Token::Tag { name, value })
    }

    /// Skips spaces and tabs (not line ends: a tag is one line).
    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
    }
}

/// A word without what readers skip: `None` for a move number or an annotation glyph alone.
fn clean(word: &str) -> Option<&str> {
    if looks_like_result(word) {
        return Some(word);
    }
    if word.starts_with('$') {
        return None;
    }
    // `12.`, `12...` and `12.f5-f6`: the number goes.
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest =
        if digits > 0 && word[digits..].starts_with('.') { word[digits..].trim_start_matches('.') } else { word };
    let rest = rest.trim_end_matches(['+', '#', '!', '?']);
    (!rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        lex(text)
            .map(|l| match l.unwrap().token {
                Token::Word(w) => w.to_string(),
                Token::Tag { name, value } => format!("[{name}={value}]"),
            })
            .collect()
    }

    #[test]
    fn what_readers_skip_is_skipped() {
        let text = "[Variant \"glin\\\"ski\"]\n1. f5-f6 {a comment\nover lines} e7-e6+ $1 2.g4-g5# (2. e4-e5 d7-d6) ; rest\n1/2-1/2";
        assert_eq!(words(text), ["[Variant=glin\"ski]", "f5-f6", "e7-e6", "g4-g5", "1/2-1/2"]);
        assert_eq!(lex(text).last().unwrap().unwrap().line, 4);
        assert_eq!(words("1... I11=R,A2-A3 pass 0.5-0.5"), ["I11=R,A2-A3", "pass", "0.5-0.5"]);
    }

    #[test]
    fn broken_text_names_its_line() {
        let err = |text: &str| lex(text).find_map(Result::err).unwrap().to_string();
        assert_eq!(err("\n{ open"), "line 2: a comment '{' opened here is never closed");
        assert_eq!(err("[Variant glinski]"), "line 1: tag [Variant]: expected its value in double quotes");
        assert_eq!(err("[1 0] f5-f6"), "line 1: expected a tag such as [Variant \"glinski\"] after '['");
        assert_eq!(err("[Result \"1-0\"\n"), "line 1: tag [Result]: expected ']' after its value");
        assert_eq!(err("f5-f6 (e7-e6"), "line 1: the variation '(' opened here is never closed");
        assert_eq!(err("f5-f6 ]]]"), "line 1: ']' closes nothing opened");
    }
}
