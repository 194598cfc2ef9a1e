//! The diagram of a Wellisch position: pointy-topped hexagons, so rows run left to right and P1's
//! home row is at the bottom, with Wellisch labels and a colour per seat.

use crate::diagram::{CellShape, Diagram, DiagramPiece, Pictured};
use crate::game::Game;
use crate::hex::{hex_cells, BOARD_R5};

use super::notation::label;
use super::piece::{Move, Piece};
use super::state::Wellisch;

impl Wellisch {
    /// The picture of this position (see [`crate::Pictured::diagram`]).
    pub(crate) fn draw(&self) -> Diagram {
        let cells = hex_cells(&BOARD_R5, CellShape::PointyHex, label);
        let pieces = BOARD_R5
            .cells()
            .iter()
            .filter_map(|&cell| {
                let (piece, _) = self.pos.piece_at(cell)?;
                let owner = self.pos.owner_at(cell)?;
                Some(DiagramPiece { cell: cell.index() as u16, owner, letter: piece.letter() })
            })
            .collect();
        let legend = [
            (Piece::King, "King"),
            (Piece::Queen, "Queen (rook + knight)"),
            (Piece::Rook, "Rook"),
            (Piece::Knight, "Knight"),
            (Piece::Pawn, "Pawn"),
        ];
        Diagram {
            cells,
            pieces,
            captions: Vec::new(),
            label_cells: true,
            players: vec!["P1".into(), "P2".into(), "P3".into()],
            legend: legend.iter().map(|&(p, name)| (p.letter(), name.to_string())).collect(),
            panels: Vec::new(),
            to_move: self.pos.mover as usize,
        }
    }

    /// The diagram keys of the cells a move leaves and enters; castling runs from the king to its
    /// rook, and a pass has none.
    pub(crate) fn arrow(mv: Move) -> Option<(u16, u16)> {
        Some((mv.from()?.index() as u16, mv.to()?.index() as u16))
    }
}

impl Pictured for Wellisch {
    fn diagram(&self) -> Option<Diagram> {
        Some(self.draw())
    }

    fn move_cells(&self, mv: Move) -> Option<(u16, u16)> {
        Self::arrow(mv)
    }

    fn checked_king(&self) -> Option<u16> {
        let seat = self.to_move();
        self.in_check(seat).then(|| self.pos.king(seat)).flatten().map(|k| k.index() as u16)
    }
}

#[cfg(test)]
mod tests {
    use crate::wellisch::Wellisch;
    use crate::{Game, Pictured};

    #[test]
    fn start_draws_91_pointy_cells_and_every_piece_of_three_seats() {
        let game = Wellisch::start();
        let d = game.diagram().unwrap();
        assert_eq!(d.cells.len(), 91);
        let text = game.to_text();
        let board = text.split(' ').next().unwrap();
        let pieces = board.chars().filter(|c| "KQRNP".contains(*c)).count();
        assert_eq!(d.pieces.len(), pieces);
        for seat in 0..3 {
            assert_eq!(d.pieces.iter().filter(|p| p.owner == seat && p.letter == 'K').count(), 1);
        }
        let a1 = d.cells.iter().find(|c| c.label == "A1").unwrap();
        assert!(d.cells.iter().all(|c| c.y <= a1.y + 1e-3), "row 1 is at the bottom");
    }
}
