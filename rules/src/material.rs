//! Piece values, for players that judge moves by material rather than by search or a network:
//! the greedy baseline and the alpha-beta yardstick, and for scoring self-play games stopped at
//! the move limit. The values per variant are listed in docs/alphabeta.md.

use crate::game::Game;
use crate::player::MAX_PLAYERS;
use crate::scores::Scores;

/// What pieces are worth in a variant; never used by the rules themselves.
pub trait Material: Game {
    /// Whether [`Material::legal_captures`] has a generator of its own, cheaper than listing
    /// every move: a capture search may then list captures alone.
    const CAPTURES_GENERATOR: bool = false;

    /// What `mv` (a legal move here) captures, in pawns (0 for nothing; a king, where kings
    /// can be captured, is worth 1000).
    fn capture_value(&self, mv: Self::Move) -> f32;

    /// What the piece making `mv` (a legal move here) is worth, in pawns: searches try cheap
    /// attackers first among captures of the same victim (MVV-LVA).
    fn mover_value(&self, mv: Self::Move) -> f32;

    /// The legal moves of the side to move that capture, in `moves` (cleared first): what a
    /// quiescence search tries. Variants with a captures-only generator override this.
    fn legal_captures(&self, moves: &mut Vec<Self::Move>) {
        self.legal_moves(moves);
        moves.retain(|&mv| self.capture_value(mv) > 0.0);
    }

    /// The legal captures a capture search tries, in `moves` (cleared first), listed as
    /// [`Material::legal_captures`] lists them, left out only where they would be skipped:
    /// every capture whose victim is worth at least the capturing piece ([`Material::mover_value`])
    /// and more than `floor` centipawns (100 a pawn) is listed, others may be. Variants that can
    /// skip the rest before generating them override this.
    fn worthwhile_captures(&self, moves: &mut Vec<Self::Move>, _floor: i32) {
        self.legal_captures(moves);
    }

    /// The number of legal moves, and the captures among them in `captures` (cleared first), in
    /// one pass where the variant can (no list of the quiet moves is built): a capture search's
    /// first ply, which counts every move for its mobility term. 0 moves is a finished game.
    fn count_and_captures(&self, captures: &mut Vec<Self::Move>) -> u32 {
        self.legal_moves(captures);
        let count = captures.len() as u32;
        captures.retain(|&mv| self.capture_value(mv) > 0.0);
        count
    }

    /// The end test of a captures-only search's nodes ([`Material::legal_captures`]): the
    /// finished game's scores where this test sees one. By default the full one
    /// ([`Game::outcome`]); a variant whose full test lists moves may see checkmate (a check
    /// test first, then the first legal reply) and the draw rules alone, leaving stalemate to
    /// the searches that list every move.
    fn tactical_outcome(&self) -> Option<Scores> {
        self.outcome()
    }

    /// A key for everything a capture search from this position depends on, or `None` where
    /// something besides the position decides it: the position's hash, where every draw rule
    /// that looks at the game's history (repetition, the quiet-move count) can end the game only
    /// here and has not, since every capture restarts both. A judge may then reuse the value it
    /// found for the same key (`alphabeta::JudgeCache`). `None` by default: no reuse.
    fn judge_key(&self) -> Option<u64> {
        None
    }

    /// Each seat's material on the board, in pawns, kings not counted (seats past the variant's
    /// players hold 0): what a static evaluation weighs. Cheap enough to call at every leaf.
    fn material(&self) -> [f32; MAX_PLAYERS];

    /// How a game stopped at the move limit here scores, with seats `margin` (above 0, or
    /// infinite) pawns of material apart ranked ([`material_standings`]). Every seat counts as
    /// still playing unless the variant overrides this.
    fn standings(&self, margin: f32) -> Standings {
        let n = Self::NUM_PLAYERS;
        material_standings(&self.material()[..n], &[true; MAX_PLAYERS][..n], margin)
    }
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

/// How a game stopped at the move limit scores ([`Material::standings`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standings {
    /// Each seat's score.
    pub scores: Scores,
    /// Whether material set any seats apart (`false`: the game is a draw).
    pub by_material: bool,
}

/// How a game stopped at the move limit scores under an adjudication margin of `margin` pawns
/// (`selfplay.adjudicate_material`, the arena's `--adjudicate-material`): seats that far apart
/// in material are ranked by it ([`Material::standings`]); 0 never adjudicates, and every such
/// game is a draw. The one rule of self-play, teacher games and matches.
pub fn move_limit_standings<G: Material>(game: &G, margin: f32) -> Standings {
    game.standings(if margin > 0.0 { margin } else { f32::INFINITY })
}

/// How a game stopped at the move limit scores when `margin` pawns of material set seats apart
/// (`selfplay.adjudicate_material`; infinite: never, the game is a draw). The seats still
/// playing (`in_play`), ranked by `material`, take the points of the places they hold: place
/// `k` of `n` seats is worth `(n - 1 - k) / (n - 1)`, so two players score 1 and 0 and
/// Wellisch's three 1, 1/2 and 0, as a king capture ranks them. Neighbours in that ranking less
/// than `margin` pawns apart share their places' points, which makes an undecided game the
/// rules' draw (1/2 each, or 3/4 to each of two survivors); seats out of play score 0.
pub fn material_standings(material: &[f32], in_play: &[bool], margin: f32) -> Standings {
    let n = material.len();
    debug_assert!(n >= 2 && in_play.len() == n && margin > 0.0);
    let mut ranked: Vec<usize> = (0..n).filter(|&seat| in_play[seat]).collect();
    ranked.sort_by(|&a, &b| material[b].total_cmp(&material[a]));
    let place_points = |place: usize| (n - 1 - place) as f32 / (n - 1) as f32;
    let mut points = [0.0f32; MAX_PLAYERS];
    let (mut first, mut groups) = (0, 0);
    while first < ranked.len() {
        let mut last = first;
        while last + 1 < ranked.len() && material[ranked[last]] - material[ranked[last + 1]] < margin {
            last += 1;
        }
        let share = (first..=last).map(place_points).sum::<f32>() / (last + 1 - first) as f32;
        for &seat in &ranked[first..=last] {
            points[seat] = share;
        }
        first = last + 1;
        groups += 1;
    }
    Standings { scores: Scores::new(&points[..n]), by_material: groups > 1 }
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
        for margin in [0.5, f32::INFINITY] {
            let draw = Standings { scores: Scores::draw(2), by_material: false };
            assert_eq!(Glinski::start().standings(margin), draw);
            let draw = Standings { scores: Scores::draw(3), by_material: false };
            assert_eq!(Wellisch::start().standings(margin), draw);
        }
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
        let win = Scores::win2(if lead > 0.0 { 0 } else { 1 });
        assert_eq!(g.standings(lead.abs()), Standings { scores: win, by_material: true });
        assert!(!g.standings(lead.abs() + 0.5).by_material);
    }

    fn scores(standings: Standings) -> Vec<f32> {
        standings.scores.as_slice().to_vec()
    }

    #[test]
    fn three_seats_take_their_places_points_and_close_ones_share() {
        let all = [true; 3];
        assert_eq!(scores(material_standings(&[1.0, 10.0, 4.0], &all, 2.0)), [0.0, 1.0, 0.5]);
        assert_eq!(scores(material_standings(&[10.0, 9.5, 1.0], &all, 2.0)), [0.75, 0.75, 0.0]);
        assert_eq!(scores(material_standings(&[10.0, 4.0, 3.5], &all, 2.0)), [1.0, 0.25, 0.25]);
        // A chain of close neighbours is one group even when its ends lie further apart.
        let chain = material_standings(&[5.0, 4.0, 3.0], &all, 1.5);
        assert_eq!((scores(chain), chain.by_material), (vec![0.5; 3], false));
        // A seat out of play scores 0; two survivors within the margin draw 3/4 each.
        let out = [true, false, true];
        assert_eq!(scores(material_standings(&[3.0, 0.0, 9.0], &out, 2.0)), [0.5, 0.0, 1.0]);
        let close = material_standings(&[3.0, 0.0, 4.0], &out, 2.0);
        assert_eq!((scores(close), close.by_material), (vec![0.75, 0.0, 0.75], false));
    }

    #[test]
    fn wellisch_standings_follow_material_and_skip_the_seat_that_is_out() {
        // The start with P1's queen and P2's knight gone.
        let text = ".2P..3P3N/2R2P...3P3R/2Q2P....3P3K/2K2N2P...3P3N3Q/2R2P2P....3P3P3R/\
                    2N2P.......3P3N/2P........3P/........./...1P1P.../1P1P1P1N1P1P1P/1N1R.1K1R1N \
                    1 1KQ2KQ3KQ - 0";
        let g = Wellisch::from_text(text).expect("a legal position");
        assert_eq!(scores(g.standings(2.0)), [0.0, 0.5, 1.0]);
        assert_eq!(scores(g.standings(4.0)), [0.0, 0.75, 0.75]);
        assert!(!g.standings(10.0).by_material);
        // Under the takeover rule with P1 out: P2 and P3 take the first two places.
        let out = ".2P..3P3N/2R2P...3P3R/2Q2P....3P3K/2K2N2P...3P3N3Q/2R2P2P....3P3P3R/\
                   2N2P.......3P3N/2P........3P/........./......../......./...... \
                   2 2KQ3KQ - 0 takeover out=1:3";
        let g = Wellisch::from_text(out).expect("a legal position");
        assert_eq!(scores(g.standings(2.0)), [0.0, 0.5, 1.0]);
        let draw = g.standings(f32::INFINITY);
        assert_eq!((scores(draw), draw.by_material), (vec![0.0, 0.75, 0.75], false));
        assert_eq!(draw.scores, g.draw_scores(), "an undecided game is the rules' draw");
    }
}
