//! The diagram of a Weltschach position: the cube's eight levels as 8x8 grids in two rows of
//! four (levels `s` to `v` above, `w` to `z` below, read like text), rank 1 at the bottom of each,
//! White's side; squares coloured by the parity of x + y + z, the cube's checkerboard, which
//! standard-diagonal moves keep.

use crate::diagram::{Caption, CellShape, Diagram, DiagramCell, DiagramPiece, Panel, Pictured};

use super::geometry::Cell;
use super::piece::Kind;
use super::position::{Move, Weltschach};

/// Horizontal distance between the left edges of two neighbouring levels, in diagram units
/// (a level is 16 units wide; the rest is the gap between them; even, so that text boards
/// space the levels alike).
const LEVEL_PITCH: f32 = 20.0;
/// Vertical distance between the two rows of levels: a level's 16 units, its name above and
/// its file letters below (even, so that text boards keep both rows on the same 2-unit lines).
const ROW_PITCH: f32 = 22.0;
/// Levels side by side in one row of the picture.
const LEVELS_PER_ROW: usize = 4;
const LEVELS: &[u8; 8] = b"stuvwxyz";
const FILESTACKS: &[u8; 8] = b"abcdefgh";

/// Where level `z`'s square a1 is centred, in diagram units.
fn level_origin(z: usize) -> (f32, f32) {
    ((z % LEVELS_PER_ROW) as f32 * LEVEL_PITCH, (z / LEVELS_PER_ROW) as f32 * ROW_PITCH)
}

/// Centre of `cell` in diagram units.
fn centre(cell: Cell) -> (f32, f32) {
    let (left, bottom) = level_origin(cell.z());
    (left + 2.0 * cell.x() as f32, bottom - 2.0 * cell.y() as f32)
}

/// Level names above the grids, filestack letters below each, rank numbers left of each.
fn captions() -> Vec<Caption> {
    let mut out = Vec::new();
    for (z, level) in LEVELS.iter().enumerate() {
        let (left, bottom) = level_origin(z);
        out.push(Caption { x: left + 7.0, y: bottom - 16.0, text: format!("level {}", *level as char) });
        for (x, file) in FILESTACKS.iter().enumerate() {
            out.push(Caption { x: left + 2.0 * x as f32, y: bottom + 1.8, text: (*file as char).to_string() });
        }
        // Every level's, not only a row's first: a narrow page lays the levels out in fewer
        // columns (see [`panels`]), and any of them may begin a row there.
        for y in 0..8 {
            out.push(Caption { x: left - 1.9, y: bottom - 2.0 * y as f32, text: (y + 1).to_string() });
        }
    }
    out
}

/// Each level as a panel of its own: its squares, its name above, its file letters below and
/// the rank numbers left of it, in a box as wide and high as the levels' pitch (so the boxes
/// tile the picture and no caption falls in two).
fn panels() -> Vec<Panel> {
    (0..LEVELS.len())
        .map(|z| {
            let (left, bottom) = level_origin(z);
            let top = bottom - ROW_PITCH + 4.0;
            Panel { x: left - 4.0, y: top, width: LEVEL_PITCH, height: ROW_PITCH }
        })
        .collect()
}

impl Weltschach {
    /// The picture of this position (see [`crate::Pictured::diagram`]).
    pub(crate) fn draw(&self) -> Diagram {
        let mut cells = Vec::with_capacity(512);
        let mut pieces = Vec::new();
        let mut kinds: Vec<Kind> = Vec::new();
        for cell in Cell::all() {
            let (x, y) = centre(cell);
            let shade = if (cell.x() + cell.y() + cell.z()) % 2 == 0 { 2 } else { 0 };
            let label = format!("{}{}{}", LEVELS[cell.z()] as char, FILESTACKS[cell.x()] as char, cell.y() + 1);
            cells.push(DiagramCell { key: cell.index() as u16, x, y, shape: CellShape::Square, shade, label });
            if let Some((colour, kind)) = self.piece_at(cell) {
                pieces.push(DiagramPiece { cell: cell.index() as u16, owner: colour.index(), letter: kind.letter() });
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
        kinds.sort();
        Diagram {
            cells,
            pieces,
            captions: captions(),
            label_cells: false,
            players: vec!["White".into(), "Black".into()],
            legend: kinds.iter().map(|k| (k.letter(), format!("{k:?} ({})", k.moves()))).collect(),
            panels: panels(),
            to_move: self.side_to_move().index(),
        }
    }

    /// The diagram keys of the cells a move leaves and enters (the Emperor's, when castling).
    pub(crate) fn arrow(mv: Move) -> (u16, u16) {
        (mv.from().index() as u16, mv.to().index() as u16)
    }
}

impl Pictured for Weltschach {
    fn diagram(&self) -> Option<Diagram> {
        Some(self.draw())
    }

    fn move_cells(&self, mv: Move) -> Option<(u16, u16)> {
        Some(Self::arrow(mv))
    }

    fn checked_king(&self) -> Option<u16> {
        self.in_check().then(|| self.kings[self.side as usize])
    }
}

#[cfg(test)]
mod tests {
    use crate::weltschach::Weltschach;
    use crate::{Game, Pictured};

    #[test]
    fn start_draws_512_squares_in_eight_levels_and_every_piece() {
        let game = Weltschach::start();
        let d = game.diagram().unwrap();
        assert_eq!(d.cells.len(), 512);
        assert_eq!(d.pieces.len(), 2 * 176);
        assert_eq!(d.captions.iter().filter(|c| c.text.starts_with("level ")).count(), 8);
        let mut keys: Vec<u16> = d.cells.iter().map(|c| c.key).collect();
        keys.dedup();
        assert_eq!(keys.len(), 512);
        // No two squares overlap: centres are at least a square's side (2 units) apart.
        let mut centres: Vec<(i32, i32)> = d.cells.iter().map(|c| ((c.x * 10.0) as i32, (c.y * 10.0) as i32)).collect();
        centres.sort();
        centres.dedup();
        assert_eq!(centres.len(), 512);
        // Two rows of four 16-unit levels: about twice as wide as high.
        let (xs, ys): (Vec<f32>, Vec<f32>) = d.cells.iter().map(|c| (c.x, c.y)).unzip();
        let span = |v: &[f32]| v.iter().cloned().fold(f32::MIN, f32::max) - v.iter().cloned().fold(f32::MAX, f32::min);
        let (w, h) = (span(&xs) + 2.0, span(&ys) + 2.0);
        assert_eq!((w, h), (4.0 * 16.0 + 3.0 * 4.0, 2.0 * 16.0 + 6.0));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert!(moves.iter().all(|&m| game.move_cells(m).is_some()));
    }

    #[test]
    fn each_level_is_a_panel_holding_its_squares_and_captions() {
        let d = Weltschach::start().diagram().unwrap();
        assert_eq!(d.panels.len(), 8);
        let inside = |p: &crate::Panel, x: f32, y: f32| x >= p.x && x < p.x + p.width && y >= p.y && y < p.y + p.height;
        let holding = |x: f32, y: f32| d.panels.iter().filter(|p| inside(p, x, y)).count();
        assert!(d.cells.iter().all(|c| holding(c.x, c.y) == 1), "every square in one panel");
        assert!(d.captions.iter().all(|c| holding(c.x, c.y) == 1), "every caption in one panel");
        for (z, panel) in d.panels.iter().enumerate() {
            let level = b"stuvwxyz"[z] as char;
            let squares = d.cells.iter().filter(|c| inside(panel, c.x, c.y)).count();
            assert_eq!(squares, 64, "level {level}");
            assert!(d.captions.iter().any(|c| inside(panel, c.x, c.y) && c.text == format!("level {level}")));
        }
        assert!(
            d.legend.iter().any(|(l, name)| *l == 'U' && name == "Unicorn (slides along triagonals)"),
            "{:?}",
            d.legend
        );
    }
}
