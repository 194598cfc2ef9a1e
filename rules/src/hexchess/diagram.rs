//! The diagram of a two-player hex chess position: flat-topped hexagons, Glinski labels, White
//! at the bottom.

use crate::diagram::{CellShape, Diagram, DiagramPiece, Pictured};
use crate::hex::{hex_cells, Bits};
use crate::player::Player;

use super::notation::label;
use super::piece::{Piece, BLACK, WHITE};
use super::position::{HexChess, HexMove};
use super::rules::HexRules;

impl<V: HexRules> HexChess<V> {
    /// The picture of this position (see [`crate::Pictured::diagram`]).
    pub(crate) fn draw(&self) -> Diagram {
        let cells = hex_cells(V::BOARD, CellShape::FlatHex, |cell| label::<V>(cell).to_string());
        let mut pieces = Vec::new();
        for side in [WHITE, BLACK] {
            for piece in Piece::ALL {
                for cell in Bits(self.by_side[side] & self.by_piece[piece.index()]) {
                    pieces.push(DiagramPiece { cell: cell.index() as u16, owner: side, letter: piece.letter() });
                }
            }
        }
        let legend = V::PIECES.iter().map(|p| (p.letter(), capitalised(p.name()))).collect();
        Diagram {
            cells,
            pieces,
            captions: Vec::new(),
            label_cells: true,
            players: vec!["White".into(), "Black".into()],
            legend,
            panels: Vec::new(),
            to_move: self.side as Player,
        }
    }

    /// The diagram keys of the cells a move leaves and enters (see [`crate::Pictured::move_cells`]).
    pub(crate) fn arrow(mv: HexMove) -> (u16, u16) {
        (mv.from.index() as u16, mv.to.index() as u16)
    }
}

/// `name` with its first letter in upper case.
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

impl<V: HexRules> Pictured for HexChess<V> {
    fn diagram(&self) -> Option<Diagram> {
        Some(self.draw())
    }

    fn move_cells(&self, mv: HexMove) -> Option<(u16, u16)> {
        Some(Self::arrow(mv))
    }

    fn checked_king(&self) -> Option<u16> {
        self.in_check().then(|| self.king(self.side as Player).index() as u16)
    }
}

#[cfg(test)]
mod tests {
    use crate::hexchess::{Glinski, MiniHexchess};
    use crate::{Game, Pictured};

    /// Pieces in a position text's board field.
    fn pieces_in_text(text: &str) -> usize {
        text.split(' ').next().unwrap().chars().filter(|c| c.is_ascii_alphabetic()).count()
    }

    fn check<G: Pictured>(cells: usize, corner: &str) {
        let game = G::start();
        let d = game.diagram().expect("hex variants draw themselves");
        assert_eq!(d.cells.len(), cells);
        assert_eq!(d.pieces.len(), pieces_in_text(&game.to_text()));
        let mut labels: Vec<&str> = d.cells.iter().map(|c| c.label.as_str()).collect();
        labels.sort();
        labels.dedup();
        assert_eq!(labels.len(), cells, "labels are unique");
        assert!(labels.contains(&corner));
        let keys: Vec<u16> = d.cells.iter().map(|c| c.key).collect();
        assert!(d.pieces.iter().all(|p| keys.contains(&p.cell)));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for mv in moves {
            let (from, to) = game.move_cells(mv).unwrap();
            assert!(keys.contains(&from) && keys.contains(&to) && from != to);
        }
    }

    #[test]
    fn glinski_start_draws_91_cells_and_36_pieces() {
        check::<Glinski>(91, "f11");
        let d = Glinski::start().diagram().unwrap();
        let f1 = d.cells.iter().find(|c| c.label == "f1").unwrap();
        assert!(d.cells.iter().all(|c| c.y <= f1.y), "f1 is at the bottom");
        let king = d.pieces.iter().find(|p| p.letter == 'K' && p.owner == 0).unwrap();
        assert_eq!(d.cells.iter().find(|c| c.key == king.cell).unwrap().label, "g1");
    }

    #[test]
    fn mini_start_draws_37_cells_without_a_queen() {
        check::<MiniHexchess>(37, "d7");
        let d = MiniHexchess::start().diagram().unwrap();
        assert!(d.legend.iter().all(|&(letter, _)| letter != 'Q'));
    }
}
