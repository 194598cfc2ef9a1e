//! `vzero arena --resume`: the games of a match that its `--games-out` file already holds, so
//! that a match stopped part way (a signal, a crash, the end of a working session) goes on
//! where it stopped instead of starting over.

use std::path::Path;

use anyhow::Context;
use arena::PlayedGame;
use rules::{GameText, Termination, Variant};

/// The event tag `vzero arena` writes on its games.
pub const EVENT: &str = "vzero arena";

/// The tag that records a match's `--seed` on each of its games.
pub const SEED_TAG: &str = "Seed";

/// What identifies the match being resumed: games of other matches in the same file are
/// passed over.
pub struct MatchKey<'a> {
    /// The variant.
    pub variant: Variant,
    /// The start position's text.
    pub start: &'a str,
    /// The players' names, one per agent, as the games name the seats.
    pub names: &'a [String],
    /// The match's seed (games written before the seed was recorded are taken on their players).
    pub seed: u64,
    /// The games the match plays.
    pub games: usize,
}

/// The finished games of the match `key` describes that `path` holds (none if it does not
/// exist yet), each numbered by its `[Round]`; a game whose number is already taken is left out.
pub fn earlier_games(path: &Path, key: &MatchKey) -> anyhow::Result<Vec<PlayedGame>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("--resume: reading {}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let games = rules::read_games(&text, Some(key.variant))
        .with_context(|| format!("--resume: {} does not read as games", path.display()))?;
    let standard_start = rules::VariantGame::start(key.variant).to_text();
    let mut taken = vec![false; key.games];
    let mut earlier = Vec::new();
    for game in &games {
        if let Some(played) = of_this_match(game, key, &standard_start) {
            if !std::mem::replace(&mut taken[played.number], true) {
                earlier.push(played);
            }
        }
    }
    Ok(earlier)
}

/// `game` as the match `key` played it, if it is one of that match's finished games (a game
/// with no `Start` began at `standard_start`, the variant's).
fn of_this_match(game: &GameText, key: &MatchKey, standard_start: &str) -> Option<PlayedGame> {
    let start = game.start.as_deref().unwrap_or(standard_start);
    let seed_agrees = game.tag(SEED_TAG).is_none_or(|s| s.parse() == Ok(key.seed));
    if game.tag("Event") != Some(EVENT) || game.variant != key.variant || start != key.start || !seed_agrees {
        return None;
    }
    let number = game.tag("Round")?.parse::<usize>().ok()?.checked_sub(1).filter(|&n| n < key.games)?;
    let seat_agents = arena::seat_agents(key.names.len(), number);
    let seated = seat_agents.iter().map(|&agent| &key.names[agent]);
    if !seated.eq(game.seats.iter()) {
        return None;
    }
    Some(PlayedGame {
        number,
        seat_agents,
        moves: game.moves.clone(),
        scores: game.result?,
        termination: game.termination.unwrap_or(Termination::Rules(rules::Ending::Other)),
    })
}
