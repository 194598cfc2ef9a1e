//! What a person types at the `vzero play` prompt, and the seats they asked for.

/// One line of input at the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A move in the variant's notation (anything that is not a command).
    Move(String),
    /// `moves [CELL]`: the legal moves, or those leaving one cell.
    Moves(Option<String>),
    /// `undo`: take back the person's last move and the replies since.
    Undo,
    /// `hint`: the move the search would play.
    Hint,
    /// `show`: the search's top moves with visits, prior and value.
    Show,
    /// `board`: draw the board again.
    Board,
    /// `help`: the commands.
    Help,
    /// `quit` (or the end of the input).
    Quit,
    /// An empty line.
    Nothing,
}

/// The help text of the prompt.
pub const HELP: &str = "\
Type a move in the variant's notation (e.g. f5-f6), or a command:
  moves [CELL]  the legal moves (or those leaving CELL)
  undo          take back your last move and the replies since
  hint          the move the search would play here
  show          the search's top moves with visits, prior and value
  board         draw the board again
  help          this text
  quit          leave (so does the end of the input)";

/// Reads one line: a command when its first word is one, otherwise a move.
pub fn parse_input(line: &str) -> Input {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else { return Input::Nothing };
    match first.to_ascii_lowercase().as_str() {
        "moves" => Input::Moves(words.next().map(String::from)),
        "undo" => Input::Undo,
        "hint" => Input::Hint,
        "show" => Input::Show,
        "board" => Input::Board,
        "help" | "?" => Input::Help,
        "quit" | "exit" => Input::Quit,
        _ => Input::Move(line.trim().to_string()),
    }
}

/// Why `--as` names no seats a person can take; each names the text as given (`text`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatsError {
    /// A part that is neither a seat's name nor its number.
    #[error("--as '{text}': '{part}' is not a seat: expected a seat name ({names}) or number 1-{count}")]
    NotASeat {
        /// The whole `--as` text.
        text: String,
        /// The part that names no seat.
        part: String,
        /// The variant's seat names, lower case, joined by commas.
        names: String,
        /// The number of seats.
        count: usize,
    },
    /// A seat named twice (by name or number).
    #[error("--as '{text}': seat '{part}' is named twice; name each of your seats once")]
    Twice {
        /// The whole `--as` text.
        text: String,
        /// The part that names the seat again.
        part: String,
    },
    /// Every seat: the model would have none.
    #[error("--as '{text}': that is every seat; leave at least one to the model")]
    Every {
        /// The whole `--as` text.
        text: String,
    },
}

/// The seats of `--as`: comma-separated seat names (`white`, `black`, `p1`...) or numbers from
/// 1, checked against the variant's `names`; an error names the bad part and what was expected.
pub fn parse_seats(text: &str, names: &[String]) -> Result<Vec<usize>, SeatsError> {
    let mut seats = Vec::new();
    for part in text.split(',').map(str::trim) {
        let seat = names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(part))
            .or_else(|| part.parse::<usize>().ok().filter(|n| (1..=names.len()).contains(n)).map(|n| n - 1))
            .ok_or_else(|| SeatsError::NotASeat {
                text: text.into(),
                part: part.into(),
                names: names.iter().map(|n| n.to_ascii_lowercase()).collect::<Vec<_>>().join(", "),
                count: names.len(),
            })?;
        if seats.contains(&seat) {
            return Err(SeatsError::Twice { text: text.into(), part: part.into() });
        }
        seats.push(seat);
    }
    if seats.len() == names.len() {
        return Err(SeatsError::Every { text: text.into() });
    }
    Ok(seats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn commands_are_words_and_everything_else_is_a_move() {
        assert_eq!(parse_input("moves f5"), Input::Moves(Some("f5".into())));
        assert_eq!(parse_input("  MOVES "), Input::Moves(None));
        assert_eq!(parse_input("f5-f6"), Input::Move("f5-f6".into()));
        assert_eq!(parse_input(""), Input::Nothing);
        assert_eq!(parse_input("quit"), Input::Quit);
    }

    #[test]
    fn seats_by_name_or_number_and_never_all_of_them() {
        let wb = names(&["White", "Black"]);
        assert_eq!(parse_seats("black", &wb), Ok(vec![1]));
        assert_eq!(parse_seats("1", &wb), Ok(vec![0]));
        assert_eq!(parse_seats("white,black", &wb), Err(SeatsError::Every { text: "white,black".into() }));
        let err = parse_seats("green", &wb).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--as 'green': 'green' is not a seat: expected a seat name (white, black) or number 1-2"
        );
        let three = names(&["P1", "P2", "P3"]);
        assert_eq!(parse_seats("p1,p3", &three), Ok(vec![0, 2]));
        let twice = |part: &str, text: &str| Err(SeatsError::Twice { text: text.into(), part: part.into() });
        assert_eq!(parse_seats("p1,p1", &three), twice("p1", "p1,p1"));
        assert_eq!(parse_seats("1,p1", &three), twice("p1", "1,p1"));
    }
}
