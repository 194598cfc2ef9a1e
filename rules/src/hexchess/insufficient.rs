//! Draw by insufficient material: material with which no sequence of legal moves can end the
//! game other than as a draw. The combinations and the reasoning are in docs/notation-hex.md;
//! the tests below check the reasoning on every placement of the pieces.

use super::piece::Piece;
use super::position::HexChess;
use super::rules::HexRules;

impl<V: HexRules> HexChess<V> {
    /// Whether only the two kings are left where stalemate is a draw (Mini Hexchess): a king never
    /// gives check, so nothing but a draw can follow. With one more piece of any kind mates exist
    /// on both boards, and in Glinski Chess bare kings can still reach a stalemate, which scores
    /// 3/4 to 1/4, so neither ends the game. A constant `false` for Glinski, and two ORs and a
    /// compare otherwise: cheap enough for every move generation.
    #[inline(always)]
    pub(super) fn insufficient_material(&self) -> bool {
        V::STALEMATE_SCORE == 0.5 && (self.by_side[0] | self.by_side[1]) == self.by_piece[Piece::King.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexchess::piece::{BLACK, WHITE};
    use crate::hexchess::rules::{GlinskiRules, MiniRules};
    use crate::movesink::Count;

    /// Positions without a legal move: checkmates and stalemates.
    #[derive(Debug, PartialEq)]
    struct Terminal {
        mates: u64,
        stalemates: u64,
    }

    /// The terminal positions among every legal placement of the two kings and White's `extra`
    /// pieces, either side to move (Black's extra pieces give the same counts by symmetry).
    fn terminal<V: HexRules>(extra: &[Piece]) -> Terminal {
        let cells = V::BOARD.cells();
        let n = cells.len();
        let pieces = 2 + extra.len();
        let mut found = Terminal { mates: 0, stalemates: 0 };
        let mut at = vec![0usize; pieces];
        for code in 0..n.pow(pieces as u32) {
            let mut rest = code;
            for a in at.iter_mut() {
                *a = rest % n;
                rest /= n;
            }
            let occupied: u128 = at.iter().map(|&a| cells[a].bit()).fold(0, |x, b| x | b);
            if occupied.count_ones() as usize != pieces {
                continue;
            }
            for side in [WHITE, BLACK] {
                let mut pos = HexChess::<V>::empty();
                pos.put(WHITE, Piece::King, cells[at[0]]);
                pos.put(BLACK, Piece::King, cells[at[1]]);
                for (&piece, &a) in extra.iter().zip(&at[2..]) {
                    pos.put(WHITE, piece, cells[a]);
                }
                pos.side = side as u8;
                let them = side ^ 1;
                if pos.attacked(pos.king(them), side, occupied, pos.by_side[side]) {
                    continue; // the side not to move is in check: no game gets here
                }
                let mut counter = Count(0);
                pos.generate(&mut counter);
                if counter.0 == 0 {
                    if pos.in_check() {
                        found.mates += 1;
                    } else {
                        found.stalemates += 1;
                    }
                }
            }
        }
        found
    }

    #[test]
    fn bare_kings_never_mate_and_stalemate_only_in_a_corner() {
        // A king in a corner, the other two cells away along the board's edge: 6 corners, 2 sides.
        for counts in [terminal::<GlinskiRules>(&[]), terminal::<MiniRules>(&[])] {
            assert_eq!(counts, Terminal { mates: 0, stalemates: 12 });
        }
    }

    #[test]
    fn bare_kings_are_a_draw_only_where_stalemate_is_one() {
        let bare = |text: &str| crate::Game::from_text(text).map(|p: HexChess<MiniRules>| p.insufficient_material());
        assert_eq!(bare("1/3/5/7/3k3/7/3K3 w - 0 1"), Ok(true));
        let glinski =
            |text: &str| crate::Game::from_text(text).map(|p: HexChess<GlinskiRules>| p.insufficient_material());
        assert_eq!(glinski("1/3/5/7/9/11/11/11/2K8/11/k10 w - 0 1"), Ok(false));
    }

    #[test]
    fn one_minor_piece_can_mate_on_both_boards() {
        let mates = |t: Terminal| t.mates;
        assert_eq!(mates(terminal::<GlinskiRules>(&[Piece::Bishop])), 60);
        assert_eq!(mates(terminal::<GlinskiRules>(&[Piece::Knight])), 24);
        assert_eq!(mates(terminal::<MiniRules>(&[Piece::Bishop])), 36);
        assert_eq!(mates(terminal::<MiniRules>(&[Piece::Knight])), 24);
    }
}
