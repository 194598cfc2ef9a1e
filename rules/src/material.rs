//! Piece values, for players that judge moves by material rather than by search or a network:
//! the greedy baseline and the alpha-beta yardstick. The values per variant are listed in
//! docs/alphabeta.md.

use crate::game::{Game, Player, MAX_PLAYERS};

/// What pieces are worth in a variant; never used by the rules themselves.
pub trait Material: Game {
    /// What `mv` (a legal move here) captures, in pawns (0 for nothing; a king, where kings
    /// can be captured, is worth 1000).
    fn capture_value(&self, mv: Self::Move) -> f32;

    /// What the piece making `mv` (a legal move here) is worth, in pawns: searches try cheap
    /// attackers first among captures of the same victim (MVV-LVA).
    fn mover_value(&self, mv: Self::Move) -> f32;

    /// Each seat's material on the board, in pawns, kings not counted (seats past the variant's
    /// players hold 0): what a static evaluation weighs. Cheap enough to call at every leaf.
    fn material(&self) -> [f32; MAX_PLAYERS];
}

/// Pawns of lead that [`material_values`] maps to a 0.73 expected score for two players
/// (a queen's lead, 9 pawns, to 0.95): a prior that prefers material without being certain.
pub const MATERIAL_VALUE_SCALE: f32 = 3.0;

/// Expected scores that a material count alone predicts: per seat, a logistic of its lead over
/// the seats' mean material, centred so that the values sum to `num_players / 2` (the utility
/// sum of every variant) and lie in [0, 1]. Two players: `sigmoid(lead / MATERIAL_VALUE_SCALE)`.
/// A search prior for young networks (`search.material_weight`), never a rule.
pub fn material_values<G: Material>(state: &G) -> [f32; MAX_PLAYERS] {
    let n = G::NUM_PLAYERS;
    let material = state.material();
    let mean = material[..n].iter().sum::<f32>() / n as f32;
    let mut s = [0.0f32; MAX_PLAYERS];
    for (s, m) in s[..n].iter_mut().zip(&material[..n]) {
        // 2 * (m - mean) is the lead over the other seat when there are two.
        *s = 1.0 / (1.0 + (-2.0 * (m - mean) / MATERIAL_VALUE_SCALE).exp());
    }
    let centre = s[..n].iter().sum::<f32>() / n as f32;
    // With three seats the centred logistics span up to 4/3; 0.75 keeps them inside [0, 1].
    let spread = if n == 2 { 1.0 } else { 0.75 };
    let mut values = [0.0f32; MAX_PLAYERS];
    for (v, s) in values[..n].iter_mut().zip(&s[..n]) {
        *v = 0.5 + spread * (s - centre);
    }
    values
}

/// Two players: the seat ahead by at least `margin` pawns of material, if any (a game stopped
/// at the move limit can be scored as its win: `selfplay.adjudicate_material`). Always `None`
/// for three players, whose standings material alone does not settle.
pub fn material_leader<G: Material>(state: &G, margin: f32) -> Option<Player> {
    if G::NUM_PLAYERS != 2 {
        return None;
    }
    let m = state.material();
    let lead = m[0] - m[1];
    if lead >= margin {
        Some(0)
    } else if -lead >= margin {
        Some(1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wellisch::Wellisch;
    use crate::{Game, Glinski};

    #[test]
    fn equal_material_is_an_even_game() {
        for v in material_values(&Glinski::start())[..2].iter() {
            assert!((v - 0.5).abs() < 1e-6, "{v}");
        }
        let w = material_values(&Wellisch::start());
        assert!(w[..3].iter().all(|v| (v - 0.5).abs() < 1e-6), "{w:?}");
        assert_eq!(material_leader(&Glinski::start(), 0.5), None);
    }

    #[test]
    fn a_lead_raises_the_leader_and_sums_stay_fixed() {
        let mut g = Glinski::start();
        let mut moves = Vec::new();
        // A fixed game that takes the first capture it sees, until material differs.
        for i in 0..400 {
            if g.outcome().is_some() {
                break;
            }
            let m = g.material();
            if (m[0] - m[1]).abs() >= 1.0 {
                break;
            }
            g.legal_moves(&mut moves);
            let capture = moves.iter().copied().find(|&mv| g.capture_value(mv) > 0.0);
            g.play(capture.unwrap_or(moves[(i * 7) % moves.len()]));
        }
        let m = g.material();
        let lead = m[0] - m[1];
        assert!(lead.abs() >= 1.0, "the game reached unequal material");
        let v = material_values(&g);
        assert!((v[0] + v[1] - 1.0).abs() < 1e-6);
        let want = 1.0 / (1.0 + (-lead / MATERIAL_VALUE_SCALE).exp());
        assert!((v[0] - want).abs() < 1e-5, "{} vs {want}", v[0]);
        assert_eq!(material_leader(&g, lead.abs()), Some(if lead > 0.0 { 0 } else { 1 }));
        assert_eq!(material_leader(&g, lead.abs() + 0.5), None);
    }
}
