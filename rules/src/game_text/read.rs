//! Game text read back: the tokens grouped into games, each game's tags read and its moves
//! replayed, so that a game read is legal and its result agrees with its moves.

use super::error::{GameTextError, Problem};
use super::lex::{lex, Lexed, Token};
use super::result::{looks_like_result, parse_result, result_text};
use super::termination::Termination;
use super::{seat_tags, GameText, Rounds, UNKNOWN_SEAT};
use crate::scores::Scores;
use crate::variant::Variant;
use crate::variant_game::VariantGame;

/// Every game of `text`, in order. A game without a `[Variant]` tag is of `variant` (a
/// `--variant` flag), or an error names it. Games are separated by their result or by the
/// next game's tags.
pub fn read_games(text: &str, variant: Option<Variant>) -> Result<Vec<GameText>, GameTextError> {
    let games = group(text)?;
    if games.is_empty() {
        return Err(Problem::Empty.at(1));
    }
    games.iter().map(|raw| raw.read(variant)).collect()
}

/// One game's tokens, not yet understood.
#[derive(Debug, Default)]
struct RawGame<'a> {
    /// The tags with their lines.
    tags: Vec<(&'a str, String, usize)>,
    /// The moves with their lines.
    moves: Vec<(&'a str, usize)>,
    /// The result after the moves, and its line.
    result: Option<(&'a str, usize)>,
    /// The line of the game's first token.
    line: usize,
}

/// The tokens of `text` cut into games: a game ends at its result, or where the next one's
/// tags begin.
fn group(text: &str) -> Result<Vec<RawGame<'_>>, GameTextError> {
    let mut games = Vec::new();
    let mut game = RawGame::default();
    for lexed in lex(text) {
        let Lexed { token, line } = lexed?;
        let ended = game.result.is_some() || (matches!(token, Token::Tag { .. }) && !game.moves.is_empty());
        if ended {
            games.push(std::mem::take(&mut game));
        }
        if game.tags.is_empty() && game.moves.is_empty() && game.result.is_none() {
            game.line = line;
        }
        match token {
            Token::Tag { name, value } => game.tags.push((name, value, line)),
            Token::Word(word) if looks_like_result(word) => game.result = Some((word, line)),
            Token::Word(word) => game.moves.push((word, line)),
        }
    }
    if !(game.tags.is_empty() && game.moves.is_empty() && game.result.is_none()) {
        games.push(game);
    }
    Ok(games)
}

impl RawGame<'_> {
    /// The value and line of the tag `name`, or an error where it is given twice.
    fn tag(&self, name: &str) -> Result<Option<(&str, usize)>, GameTextError> {
        let mut found = self.tags.iter().filter(|(n, ..)| *n == name);
        let first = found.next().map(|(_, v, line)| (v.as_str(), *line));
        if let Some((.., line)) = found.next() {
            return Err(Problem::Tag { tag: name.into(), message: "given twice".into() }.at(*line));
        }
        Ok(first)
    }

    /// The game these tokens record, checked by replaying it.
    fn read(&self, default: Option<Variant>) -> Result<GameText, GameTextError> {
        let tag_error = |tag: &str, line: usize, message: String| Problem::Tag { tag: tag.into(), message }.at(line);
        let variant = match self.tag("Variant")? {
            Some((name, line)) => name.parse::<Variant>().map_err(|e| tag_error("Variant", line, e.to_string()))?,
            None => default.ok_or_else(|| {
                let message = "missing: add [Variant \"NAME\"] (glinski, mini-hexchess, wellisch, weltschach)";
                tag_error("Variant", self.line, message.into())
            })?,
        };
        // PGN's [FEN] is read as [Start] where [Start] is not given.
        let start_tag = match self.tag("Start")? {
            Some(found) => Some(("Start", found)),
            None => self.tag("FEN")?.map(|found| ("FEN", found)),
        };
        let mut game = match start_tag {
            Some((tag, (text, line))) => {
                VariantGame::from_text(variant, text).map_err(|e| tag_error(tag, line, e.to_string()))?
            }
            None => VariantGame::start(variant),
        };
        let mut record = GameText::new(variant, &game.to_text());
        let seat_names = seat_tags(variant);
        for (seat, tag) in seat_names.iter().enumerate() {
            if let Some((name, _)) = self.tag(tag)? {
                record.seats[seat] = name.to_string();
            }
        }
        let known = ["Variant", "Start", "FEN", "SetUp", "Result", "Termination"];
        record.tags = self
            .tags
            .iter()
            .filter(|(n, ..)| !known.contains(n) && !seat_names.iter().any(|s| s == n))
            .map(|(n, v, _)| (n.to_string(), v.clone()))
            .collect();
        let mut rounds = Rounds::default();
        for (ply, (text, line)) in self.moves.iter().enumerate() {
            let seat = game.to_move();
            let (number, _) = rounds.next(seat);
            let played = game.play_text(text).map_err(|error| {
                let seat = seat_names.get(seat).cloned().unwrap_or_else(|| UNKNOWN_SEAT.into());
                Problem::Move { number, seat, ply: ply + 1, error }.at(*line)
            })?;
            record.moves.push(played.text);
        }
        let (result, termination) = self.ending(&game)?;
        record.result = result;
        record.termination = termination;
        Ok(record)
    }

    /// The result and the ending, from the tags and the result after the moves, checked against
    /// `last`, the position the moves lead to.
    fn ending(&self, last: &VariantGame) -> Result<(Option<Scores>, Option<Termination>), GameTextError> {
        let players = last.num_players();
        let tagged = match self.tag("Result")? {
            Some((text, line)) => Some((
                parse_result(text, players)
                    .map_err(|message| Problem::Tag { tag: "Result".into(), message }.at(line))?,
                text,
                line,
            )),
            None => None,
        };
        let closing = match &self.result {
            Some((text, line)) => Some((parse_result(text, players).map_err(|m| Problem::Result(m).at(*line))?, *line)),
            None => None,
        };
        let result_line = closing.map_or(self.line, |(_, line)| line);
        let given = match (tagged, closing) {
            (Some((tag, text, _)), Some((after, line))) if tag != after => {
                let message =
                    format!("the result {} after the moves disagrees with [Result \"{text}\"]", shown(&after));
                return Err(Problem::Result(message).at(line));
            }
            (Some((tag, ..)), _) => Some(tag),
            (None, Some((after, _))) => Some(after),
            (None, None) => None,
        };
        let termination = match self.tag("Termination")? {
            Some((text, line)) => Some(
                text.parse::<Termination>()
                    .map_err(|e| Problem::Tag { tag: "Termination".into(), message: e.to_string() }.at(line))?,
            ),
            None => None,
        };
        let ruled = last.outcome().map(|scores| (scores, last.ending().map(Termination::Rules)));
        match (ruled, given, termination) {
            // The moves end the game: the result and the ending are the rules', if given at all.
            (Some((scores, ending)), given, said) => {
                if let Some(given) = given.filter(|g| g != &Some(scores)) {
                    let message = format!(
                        "the moves end the game ({}, {}) but the result says {}",
                        ending.map_or("over", |e| e.name()),
                        shown(&Some(scores)),
                        shown(&given)
                    );
                    return Err(Problem::Result(message).at(result_line));
                }
                if let Some(said) = said.filter(|&s| Some(s) != ending) {
                    let message = format!(
                        "[Termination \"{said}\"], but the moves end the game by {}",
                        ending.map_or("the rules", |e| e.name())
                    );
                    return Err(Problem::Result(message).at(result_line));
                }
                Ok((Some(scores), ending))
            }
            (None, _, Some(said)) if said.by_rules() => {
                let message = format!("[Termination \"{said}\"], but the moves do not end the game");
                Err(Problem::Result(message).at(result_line))
            }
            (None, given, said) => Ok((given.flatten(), said)),
        }
    }
}

/// A result as text, for messages.
fn shown(result: &Option<Scores>) -> String {
    result_text(result.as_ref())
}
