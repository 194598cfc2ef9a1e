//! `vzero.read_games` and `vzero.write_game`: games as text (docs/games.md), the record that
//! `vzero arena --games-out`, `vzero play --save` and the browser page's Save as text write,
//! as plain Python values.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rules::game_text::parse_result;
use rules::{GameText, Termination};

use crate::errors::GameTextError;
use crate::game::parse_variant;

/// Every game of `text`, in order, each checked by replaying it: a dict with `variant`,
/// `start` (position text, or None for the standard start), `seats` (who played each seat),
/// `moves` (in the variant's notation), `result` (each seat's score, or None for a game not
/// finished), `termination` (why it ended, or None) and `tags` (any other tags). A game without
/// a `[Variant]` tag is of `variant`.
#[pyfunction]
#[pyo3(signature = (text, variant=None))]
pub fn read_games<'py>(py: Python<'py>, text: &str, variant: Option<&str>) -> PyResult<Bound<'py, PyList>> {
    let variant = variant.map(parse_variant).transpose()?;
    let games = rules::read_games(text, variant).map_err(|e| GameTextError::new_err(e.to_string()))?;
    let dicts = games.iter().map(|g| as_dict(py, g)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, dicts)
}

/// One game as `read_games` gives it.
fn as_dict<'py>(py: Python<'py>, game: &GameText) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("variant", game.variant.name())?;
    dict.set_item("start", &game.start)?;
    dict.set_item("seats", &game.seats)?;
    dict.set_item("moves", &game.moves)?;
    dict.set_item("result", game.result.map(|s| s.as_slice().to_vec()))?;
    dict.set_item("termination", game.termination.map(|t| t.name()))?;
    let tags = PyDict::new(py);
    for (name, value) in &game.tags {
        tags.set_item(name, value)?;
    }
    dict.set_item("tags", tags)?;
    Ok(dict)
}

/// A game as text, as `read_games` reads it back: `moves` played from `start` (position text,
/// the standard start if None), `seats` naming who played each seat, `result` each seat's
/// score (None: not finished, `*`; a text such as `"1-0"` is read as the `[Result]` tag
/// writes it), `termination` a name as `read_games` gives it (`"checkmate"`, `"move limit"`,
/// ...) and `tags` any other tags. The moves must be legal; a result the rules contradict is
/// refused.
#[pyfunction]
#[pyo3(signature = (variant, moves, start=None, seats=None, result=None, termination=None, tags=None))]
#[allow(clippy::too_many_arguments)]
pub fn write_game(
    variant: &str,
    moves: Vec<String>,
    start: Option<&str>,
    seats: Option<Vec<String>>,
    result: Option<&Bound<'_, PyAny>>,
    termination: Option<&str>,
    tags: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let variant = parse_variant(variant)?;
    let bad = |message: String| GameTextError::new_err(message);
    let start_game = match start {
        Some(text) => rules::VariantGame::from_text(variant, text).map_err(|e| bad(format!("start: {e}")))?,
        None => rules::VariantGame::start(variant),
    };
    let mut game = GameText::new(variant, &start_game.to_text());
    if let Some(seats) = seats {
        if seats.len() != variant.players() {
            return Err(bad(format!("seats: {variant} has {} seats, {} given", variant.players(), seats.len())));
        }
        game.seats = seats;
    }
    game.moves = moves;
    game.result = match result {
        None => None,
        Some(r) => match r.extract::<String>() {
            Ok(text) => parse_result(&text, variant.players()).map_err(|e| bad(format!("result: {e}")))?,
            Err(_) => {
                let values: Vec<f32> = r.extract()?;
                let text = values.iter().map(f32::to_string).collect::<Vec<_>>().join("-");
                parse_result(&text, variant.players()).map_err(|e| bad(format!("result: {e}")))?
            }
        },
    };
    game.termination = termination.map(|t| t.parse::<Termination>().map_err(|e| bad(e.to_string()))).transpose()?;
    game.tags = tags.unwrap_or_default();
    let text = game.write();
    // The text is read back, so that a game the rules refuse is an error here, not in a reader.
    rules::read_games(&text, None).map_err(|e| bad(e.to_string()))?;
    Ok(text)
}
