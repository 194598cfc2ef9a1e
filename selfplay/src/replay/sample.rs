//! Turning one recorded position into a training example: replay the game to that ply, encode
//! it, and lay out the policy target, the legal-move mask and the value target.

use rules::Encoding;
use thiserror::Error;

use crate::replay::record::GameRecord;

/// A recorded game does not replay under the current rules (wrong variant, edited file, or a
/// changed policy map).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The record's variant is not the one being trained.
    #[error("record is for variant '{found}', expected '{expected}'")]
    WrongVariant { expected: &'static str, found: String },
    /// The start position text does not parse.
    #[error("record start position: {0}")]
    Start(String),
    /// A recorded move is not among the legal moves at its ply.
    #[error("recorded move {index} at ply {ply} is not legal there")]
    IllegalMove { ply: usize, index: u32 },
}

/// A decoded training example, by value (tests and tools; the trainer uses [`decode_position`]
/// into its batch buffers).
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Encoded position, `G::input_len()` values.
    pub planes: Vec<f32>,
    /// Visit shares by policy index, `G::POLICY_SIZE` values summing to 1.
    pub policy: Vec<f32>,
    /// 1 at the policy index of each legal move, else 0.
    pub legal: Vec<f32>,
    /// Final scores by seat counted from the player to move, `G::NUM_PLAYERS` values.
    pub values: Vec<f32>,
}

/// The game state before move `ply` of `record`.
pub fn replay_to<G: Encoding>(record: &GameRecord, ply: usize) -> Result<G, DecodeError> {
    if record.variant != G::NAME {
        return Err(DecodeError::WrongVariant { expected: G::NAME, found: record.variant.clone() });
    }
    let mut game = G::from_text(&record.start).map_err(|e| DecodeError::Start(e.to_string()))?;
    let mut moves = Vec::new();
    for (i, m) in record.moves[..ply].iter().enumerate() {
        let mv = find_move(&game, m.played, &mut moves).ok_or(DecodeError::IllegalMove { ply: i, index: m.played })?;
        game.play(mv);
    }
    Ok(game)
}

/// The legal move of `game` with policy index `index` (`moves` is scratch space).
pub fn find_move<G: Encoding>(game: &G, index: u32, moves: &mut Vec<G::Move>) -> Option<G::Move> {
    game.legal_moves(moves);
    moves.iter().copied().find(|&mv| game.policy_index(mv) as u32 == index)
}

/// The game as one line of text: its scores, then its moves in the variant's notation.
pub fn record_to_text<G: Encoding>(record: &GameRecord) -> Result<String, DecodeError> {
    let mut game: G = replay_to(record, 0)?;
    let scores: Vec<String> = record.scores.iter().map(|s| s.to_string()).collect();
    let mut line = format!("[{}]", scores.join(" "));
    let mut moves = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let mv = find_move(&game, m.played, &mut moves).ok_or(DecodeError::IllegalMove { ply: i, index: m.played })?;
        line.push(' ');
        line.push_str(&game.move_text(mv));
        game.play(mv);
    }
    Ok(line)
}

/// Writes the example for the position before move `ply`, under symmetry `sym`, into the
/// caller's slices (each of the length documented on [`Example`]; `scratch` holds one
/// position's planes). Every element of the outputs is written. The value target is the
/// game's final score blended with the search's root value, `search_value_weight` of it
/// (Leela's q-ratio), where the record has one.
pub fn decode_position<G: Encoding>(
    record: &GameRecord,
    ply: usize,
    sym: usize,
    search_value_weight: f32,
    scratch: &mut [f32],
    out: ExampleSlices<'_>,
) -> Result<(), DecodeError> {
    let game: G = replay_to(record, ply)?;
    game.encode(scratch);
    G::transform_planes(sym, scratch, out.planes);
    out.policy.fill(0.0);
    out.legal.fill(0.0);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    for &mv in &moves {
        out.legal[G::transform_policy_index(sym, game.policy_index(mv))] = 1.0;
    }
    let m = &record.moves[ply];
    let total: u32 = m.visits.iter().map(|&(_, n)| n).sum();
    for &(index, n) in &m.visits {
        out.policy[G::transform_policy_index(sym, index as usize)] = n as f32 / total.max(1) as f32;
    }
    let players = record.scores.len();
    let mover = game.to_move();
    let w = if m.root_value.is_some() { search_value_weight } else { 0.0 };
    let root = m.root_value.unwrap_or_default();
    for (i, v) in out.values.iter_mut().enumerate() {
        let seat = (mover + i) % players;
        *v = (1.0 - w) * record.scores[seat] + w * root[seat];
    }
    Ok(())
}

/// Mutable views of one example's place in a batch.
pub struct ExampleSlices<'a> {
    /// `G::input_len()` values.
    pub planes: &'a mut [f32],
    /// `G::POLICY_SIZE` values.
    pub policy: &'a mut [f32],
    /// `G::POLICY_SIZE` values.
    pub legal: &'a mut [f32],
    /// `G::NUM_PLAYERS` values.
    pub values: &'a mut [f32],
}

impl Example {
    /// Decodes one example into fresh buffers (see [`decode_position`]).
    pub fn decode<G: Encoding>(
        record: &GameRecord,
        ply: usize,
        sym: usize,
        search_value_weight: f32,
    ) -> Result<Example, DecodeError> {
        let mut ex = Example {
            planes: vec![0.0; G::input_len()],
            policy: vec![0.0; G::POLICY_SIZE],
            legal: vec![0.0; G::POLICY_SIZE],
            values: vec![0.0; G::NUM_PLAYERS],
        };
        let mut scratch = vec![0.0; G::input_len()];
        let slices = ExampleSlices {
            planes: &mut ex.planes,
            policy: &mut ex.policy,
            legal: &mut ex.legal,
            values: &mut ex.values,
        };
        decode_position::<G>(record, ply, sym, search_value_weight, &mut scratch, slices)?;
        Ok(ex)
    }
}
