//! The result of a recorded game as text: every seat's score in seat order joined by `-`, as PGN
//! writes two players' (`1-0`, `0-1`, `1/2-1/2`), so that a Glinski stalemate is `3/4-1/4` and
//! a Wellisch game `1-1/2-0`; `*` for a game not finished.

use crate::scores::Scores;

/// The text of an unfinished game's result.
pub const UNFINISHED: &str = "*";

/// `scores` as a result (`1-0`, `1/2-1/2`, `1-1/2-0`), or [`UNFINISHED`] for `None`.
pub fn result_text(scores: Option<&Scores>) -> String {
    match scores {
        None => UNFINISHED.to_string(),
        Some(s) => s.as_slice().iter().map(|&v| score_text(v)).collect::<Vec<_>>().join("-"),
    }
}

/// One score as an exact fraction where it is one with a small power-of-two denominator (`1`,
/// `1/2`, `3/4`), else as a decimal.
fn score_text(value: f32) -> String {
    for denominator in [1u32, 2, 4, 8, 16, 32, 64] {
        let numerator = value * denominator as f32;
        if numerator == numerator.round() {
            return match denominator {
                1 => format!("{numerator}"),
                _ => format!("{numerator}/{denominator}"),
            };
        }
    }
    format!("{value}")
}

/// Reads a result of `players` seats: `Ok(None)` for [`UNFINISHED`], or why the text is not one.
pub fn parse_result(text: &str, players: usize) -> Result<Option<Scores>, String> {
    if text == UNFINISHED {
        return Ok(None);
    }
    let values = text.split('-').map(parse_score).collect::<Result<Vec<f32>, String>>()?;
    if values.len() != players {
        return Err(format!(
            "'{text}' has {} scores, the variant {players} seats (expected e.g. {})",
            values.len(),
            result_text(Some(&Scores::draw(players)))
        ));
    }
    Ok(Some(Scores::new(&values)))
}

/// Whether `text` is written as a result rather than a move: `*`, or digits, `/`, `.` and `-`
/// only (every move names a cell, and so has a letter).
pub fn looks_like_result(text: &str) -> bool {
    text == UNFINISHED
        || (text.starts_with(|c: char| c.is_ascii_digit())
            && text.contains('-')
            && text.chars().all(|c| c.is_ascii_digit() || matches!(c, '/' | '.' | '-')))
}

/// One score: a fraction (`1/2`) or a decimal (`0.5`), from 0 to 1.
fn parse_score(text: &str) -> Result<f32, String> {
    let value = match text.split_once('/') {
        Some((n, d)) => match (n.parse::<u32>(), d.parse::<u32>()) {
            (Ok(n), Ok(d)) if d > 0 => n as f32 / d as f32,
            _ => return Err(format!("score '{text}' is not a fraction like 1/2")),
        },
        None => text.parse::<f32>().map_err(|_| format!("score '{text}' is not a number like 1, 0 or 1/2"))?,
    };
    if !(0.0..=1.0).contains(&value) {
        return Err(format!("score '{text}' is outside 0 to 1"));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back() {
        for values in [&[1.0, 0.0][..], &[0.5, 0.5], &[0.75, 0.25], &[1.0, 0.5, 0.0], &[0.75, 0.0, 0.75], &[0.3, 0.7]] {
            let scores = Scores::new(values);
            let text = result_text(Some(&scores));
            assert!(looks_like_result(&text), "{text}");
            assert_eq!(parse_result(&text, values.len()), Ok(Some(scores)), "{text}");
        }
        assert_eq!(result_text(Some(&Scores::new(&[0.75, 0.25]))), "3/4-1/4");
        assert_eq!(result_text(Some(&Scores::new(&[1.0, 0.5, 0.0]))), "1-1/2-0");
        assert_eq!(parse_result("*", 3), Ok(None));
    }

    #[test]
    fn bad_results_say_why() {
        assert_eq!(
            parse_result("1-0", 3).unwrap_err(),
            "'1-0' has 2 scores, the variant 3 seats (expected e.g. 1/2-1/2-1/2)"
        );
        assert_eq!(parse_result("2-0", 2).unwrap_err(), "score '2' is outside 0 to 1");
        assert_eq!(parse_result("1/0-0", 2).unwrap_err(), "score '1/0' is not a fraction like 1/2");
        assert!(!looks_like_result("f5-f6") && !looks_like_result("12.") && looks_like_result("1/2-1/2"));
    }
}
