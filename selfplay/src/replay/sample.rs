//! Turning one recorded position into a training example: the position (replayed, or rebuilt
//! from a window's snapshots), encoded, with the policy target, the legal-move mask and the
//! value target laid out beside it; and a record as one line of game text.

use rules::Encoding;

use crate::replay::playback::DecodeError;
use crate::replay::record::GameRecord;

/// A decoded training example, by value (tests and tools; the trainer's sampler writes into its
/// batch buffers with [`write_example`], from the window's snapshots).
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

/// The game state before move `ply` of `record`, replayed from its start.
pub fn replay_to<G: Encoding>(record: &GameRecord, ply: usize) -> Result<G, DecodeError> {
    record.replay::<G>()?.position_at(ply)
}

/// The game as one line of text: its scores, then its moves in the variant's notation.
pub fn record_to_text<G: Encoding>(record: &GameRecord) -> Result<String, DecodeError> {
    let mut replay = record.replay::<G>()?;
    let scores: Vec<String> = record.scores.iter().map(|s| s.to_string()).collect();
    let mut line = format!("[{}]", scores.join(" "));
    while let Some(step) = replay.step() {
        let step = step?;
        line.push(' ');
        line.push_str(&step.position.move_text(step.mv));
    }
    Ok(line)
}

/// Writes the example for the position before move `ply` of `record`, replayed from its start
/// (see [`write_example`]).
pub fn decode_position<G: Encoding>(
    record: &GameRecord,
    ply: usize,
    sym: usize,
    search_value_weight: f32,
    scratch: &mut [f32],
    out: ExampleSlices<'_>,
) -> Result<(), DecodeError> {
    let game: G = replay_to(record, ply)?;
    write_example(&game, record, ply, sym, search_value_weight, scratch, out);
    Ok(())
}

/// Writes the example for `game`, the position before move `ply` of `record`, under symmetry
/// `sym`, into the caller's slices (each of the length documented on [`Example`]; `scratch`
/// holds one position's planes). Every element of the outputs is written. The value target is
/// the game's final score blended with the search's root value, `search_value_weight` of it
/// (Leela's q-ratio), where the record has one; a teacher game's stored target as it is.
pub fn write_example<G: Encoding>(
    game: &G,
    record: &GameRecord,
    ply: usize,
    sym: usize,
    search_value_weight: f32,
    scratch: &mut [f32],
    out: ExampleSlices<'_>,
) {
    write_planes(game, sym, scratch, out.planes);
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
    write_values(game, record, ply, search_value_weight, out.values);
}

/// `game` encoded under symmetry `sym` into `planes` (`scratch` holds the plain encoding).
pub(crate) fn write_planes<G: Encoding>(game: &G, sym: usize, scratch: &mut [f32], planes: &mut [f32]) {
    game.encode(scratch);
    G::transform_planes(sym, scratch, planes);
}

/// The policy target of [`write_example`] for a policy too large to lay out whole: each legal
/// move's policy index under symmetry `sym` appended to `listed`, its visit share to `shares`.
pub(crate) fn write_listed_policy<G: Encoding>(
    game: &G,
    record: &GameRecord,
    ply: usize,
    sym: usize,
    listed: &mut nn::ListedMoves,
    shares: &mut Vec<f32>,
) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let m = &record.moves[ply];
    let total = m.visits.iter().map(|&(_, n)| n).sum::<u32>().max(1) as f32;
    let mut visits: Vec<(u32, u32)> = m.visits.clone();
    visits.sort_unstable();
    for &mv in &moves {
        let index = game.policy_index(mv);
        let n = visits.binary_search_by_key(&(index as u32), |&(i, _)| i).map_or(0, |k| visits[k].1);
        listed.indices.push(G::transform_policy_index(sym, index) as i64);
        shares.push(n as f32 / total);
    }
    listed.counts.push(moves.len());
}

/// The value target of [`write_example`] into `values`.
pub(crate) fn write_values<G: Encoding>(
    game: &G,
    record: &GameRecord,
    ply: usize,
    search_value_weight: f32,
    values: &mut [f32],
) {
    let m = &record.moves[ply];
    let players = record.scores.len();
    let mover = game.to_move();
    // A teacher game's root value is its value target already (see `TEACHER_GAME`).
    let w = match m.root_value {
        Some(_) if record.is_teacher() => 1.0,
        Some(_) => search_value_weight,
        None => 0.0,
    };
    let root = m.root_value.unwrap_or_default();
    for (i, v) in values.iter_mut().enumerate() {
        let seat = (mover + i) % players;
        *v = (1.0 - w) * record.scores[seat] + w * root[seat];
    }
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
