//! A game of the page saved, for `vzero replay`, `render` and `analyse` to read: as a replay
//! shard, with its start, every move, the searches of the network players' moves (their root
//! moves' visits and values) and the scores (1/2 for every seat while the game goes on); or as
//! text (docs/games.md), which people can read, paste and load again.

use rules::{GameText, Scores, Termination, VariantGame};
use selfplay::replay::{shard_bytes, GameRecord, MoveRecord};

use super::game::Game;

/// The score of every seat of a game saved before its end.
const UNFINISHED: f32 = 0.5;

/// The bytes of a shard holding `game`, or why it cannot be saved.
pub fn shard_of(game: &Game) -> Result<Vec<u8>, String> {
    let variant = game.position.variant();
    let mut replay = VariantGame::setup::<&str>(variant, Some(&game.start), &[]).map_err(|e| e.to_string())?;
    let mut moves = Vec::with_capacity(game.played.len());
    for super::game::Played { mv: played, search, .. } in &game.played {
        let index = |text: &str| replay.action_of(text).ok().and_then(|a| u32::try_from(a).ok());
        let played_index = index(&played.text).ok_or_else(|| format!("move '{}' does not replay", played.text))?;
        let (visits, root_value) = match search {
            Some(s) => {
                let visits = s.visits.iter().filter(|(_, n)| *n > 0).filter_map(|(t, n)| Some((index(t)?, *n)));
                let mut values = [0.0; rules::MAX_PLAYERS];
                let root = s.values.as_ref().map(|v| {
                    values.iter_mut().zip(v).for_each(|(slot, x)| *slot = *x);
                    values
                });
                (visits.collect(), root)
            }
            None => (Vec::new(), None),
        };
        moves.push(MoveRecord { played: played_index, visits, policy_target: false, root_value });
        replay.play_text(&played.text).map_err(|e| e.to_string())?;
    }
    // A game lost on time is over though its position is not.
    let scores = game.scores().unwrap_or_else(|| vec![UNFINISHED; game.position.num_players()]);
    let record =
        GameRecord { variant: variant.name().to_string(), number: 0, start: game.start.clone(), moves, scores };
    shard_bytes(&[record])
}

/// `game` as text: its seats named as the page names its players (a person's `person`), and
/// unfinished (`*`) until the rules or a clock end it.
pub fn text_of(game: &Game) -> GameText {
    let mut text = GameText::new(game.position.variant(), &game.start);
    text.tags.push(("Event".into(), "vzero serve".into()));
    text.seats = game.seats.iter().map(|s| if s.is_person() { "person".into() } else { s.text() }).collect();
    text.moves = game.played.iter().map(|p| p.mv.text.clone()).collect();
    text.end_by_rules(&game.position);
    if let (Some(_), Some(scores)) = (game.flag, game.scores()) {
        text.result = Some(Scores::new(&scores));
        text.termination = Some(Termination::Time);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::serve::players::Seat;
    use rules::Variant;

    #[test]
    fn a_game_lost_on_time_is_saved_with_its_result_and_ending() {
        let mut game = Game::new(Variant::MiniHexchess, None, vec![Seat::Person, Seat::Person]).unwrap();
        game.play("c2-c3", None).unwrap();
        game.flag = Some(1);
        let text = text_of(&game).write();
        assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"time forfeit\"]"), "{text}");
        let back = rules::read_games(&text, None).unwrap();
        assert_eq!(back[0].termination, Some(Termination::Time));
        assert_eq!(back[0].moves, ["c2-c3"]);
    }
}
