//! Draws inside the search: which results are draws, what a draw scores there with contempt
//! ([`crate::SearchParams::draw_value`]), and which new positions repeat an earlier one
//! ([`crate::SearchParams::repetition_draws`]).

use rules::{Scores, MAX_PLAYERS};

use crate::tree::score_array;

/// A draw's score for each seat without contempt (what [`Scores::draw`] gives).
const NO_CONTEMPT: f32 = 0.5;

/// Whether `scores` is a draw: no seat scores 1 and every seat that scores at all scores the
/// same (a two-player 1/2 each, a three-player 1/2 each, Wellisch's 3/4 to both survivors; not
/// Glinski's 3/4 to 1/4 stalemate, which is a partial win).
pub(crate) fn is_draw(scores: &[f32]) -> bool {
    let mut share = None;
    for &s in scores.iter().filter(|&&s| s > 0.0) {
        if s >= 1.0 || share.is_some_and(|x| x != s) {
            return false;
        }
        share = Some(s);
    }
    share.is_some()
}

/// What the result `scores` is worth in the tree: the result itself, but a draw with each
/// scoring seat's score scaled by `draw_value / 0.5` (so two players score `draw_value` each).
pub(crate) fn tree_value(scores: &Scores, draw_value: f32) -> [f32; MAX_PLAYERS] {
    let mut v = score_array(scores);
    if draw_value != NO_CONTEMPT && is_draw(scores.as_slice()) {
        for s in &mut v {
            *s = (*s * draw_value / NO_CONTEMPT).min(1.0);
        }
    }
    v
}

/// Whether a position with hash `hash` repeats an earlier one: one of `game` (the game before
/// the root) or `path` (the root and the positions between it and this one).
#[inline]
pub(crate) fn repeats(hash: u64, game: &[u64], path: &[u64]) -> bool {
    path.contains(&hash) || game.contains(&hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_results_without_a_winner_shared_alike() {
        assert!(is_draw(&[0.5, 0.5]));
        assert!(is_draw(&[0.5, 0.5, 0.5]));
        assert!(is_draw(&[0.75, 0.0, 0.75]));
        assert!(!is_draw(&[1.0, 0.0]));
        assert!(!is_draw(&[0.75, 0.25]), "Glinski's stalemate is a partial win");
        assert!(!is_draw(&[1.0, 0.5, 0.0]));
        assert!(!is_draw(&[0.75, 0.75, 1.0]));
    }

    #[test]
    fn contempt_scales_the_draws_only() {
        let two = Scores::draw(2);
        assert_eq!(tree_value(&two, 0.5), [0.5, 0.5, 0.0]);
        assert_eq!(tree_value(&two, 0.25), [0.25, 0.25, 0.0]);
        assert_eq!(tree_value(&Scores::new(&[0.75, 0.0, 0.75]), 0.25), [0.375, 0.0, 0.375]);
        assert_eq!(tree_value(&Scores::draw(3), 0.0), [0.0; 3]);
        let win = Scores::win2(1);
        assert_eq!(tree_value(&win, 0.25), [0.0, 1.0, 0.0]);
        let stalemate = Scores::new(&[0.25, 0.75]);
        assert_eq!(tree_value(&stalemate, 0.25), [0.25, 0.75, 0.0]);
    }
}
