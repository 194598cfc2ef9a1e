//! Values of positions, in centipawns from the root player's point of view: finished games by
//! their result, others by material plus a small mobility term.

use rules::{Material, Player, Scores, MAX_PLAYERS};

/// The value of a won game (a loss is its negative), in centipawns: far above any material
/// (Weltschach's 176 pieces a side are worth about 1,400 pawns).
pub const MATE: i32 = 10_000_000;

/// Centipawns of lead that [`expected_score`] maps to 0.73 (a logistic's 1): three pawns, the
/// scale of the material prior (`rules::MATERIAL_VALUE_SCALE`), so a queen's lead is 0.95.
pub const EXPECTED_SCORE_SCALE: f32 = 300.0;

/// The expected score (0 to 1) of a side whose search value is `centipawns`:
/// `1 / (1 + exp(-centipawns / EXPECTED_SCORE_SCALE))`, exactly 1 or 0 for a found win or
/// loss. How the teacher's values and the tactical leaf values become value targets.
pub fn expected_score(centipawns: i32) -> f32 {
    match centipawns {
        v if v > DECIDED => 1.0,
        v if v < -DECIDED => 0.0,
        v => 1.0 / (1.0 + (-(v as f32) / EXPECTED_SCORE_SCALE).exp()),
    }
}

/// Values beyond this in size come from a finished game, not from material: the table stores
/// them relative to the node, so a win found at different depths keeps preferring the faster.
pub(crate) const DECIDED: i32 = MATE / 4;

/// Above every value a search returns: the open window's bounds.
pub(crate) const INFINITY: i32 = MATE + 1_000;

/// Centipawns per legal move of difference in mobility: small, so that material decides and
/// mobility only breaks near-ties (50 more moves than the opponent are worth half a pawn).
pub const MOBILITY_CENTIPAWNS: f32 = 1.0;

/// The latest known number of legal moves of each seat along the searched line: each node
/// counts its mover's moves anyway, so the others' counts are from earlier in the line (at
/// most a move or two old) and cost nothing.
pub(crate) type Mobility = [u32; MAX_PLAYERS];

/// A finished game's value for `root`: `(2 * score - 1) * MATE` (a win `MATE`, a draw 0,
/// Glinski's stalemate 3/4 half a win), brought `ply` closer to 0 so that the fastest win and
/// the slowest loss are preferred.
pub(crate) fn decided(scores: &Scores, root: Player, ply: usize) -> i32 {
    let value = ((2.0 * scores.get(root) - 1.0) * MATE as f32) as i32;
    let ply = ply as i32;
    match value {
        v if v > 0 => v - ply,
        v if v < 0 => v + ply,
        _ => 0,
    }
}

/// The static value for `root` of a position that goes on: its material less the mean material
/// of the others (paranoid: for three players the two others count as one side), in centipawns,
/// plus [`MOBILITY_CENTIPAWNS`] per legal move of its mobility less the others' mean.
pub(crate) fn static_value<G: Material>(game: &G, root: Player, mobility: &Mobility) -> i32 {
    let material = game.material();
    let players = G::NUM_PLAYERS;
    let others = (players - 1) as f32;
    let mean_other = |values: &[f32]| (values.iter().sum::<f32>() - values[root]) / others;
    let mut counts = [0.0; MAX_PLAYERS];
    for (count, &m) in counts.iter_mut().zip(mobility) {
        *count = m as f32;
    }
    let material_edge = material[root] - mean_other(&material[..players]);
    let mobility_edge = counts[root] - mean_other(&counts[..players]);
    (100.0 * material_edge + MOBILITY_CENTIPAWNS * mobility_edge).round() as i32
}
