//! Hex boards as diagram cells: where each hexagon is drawn and its shade, shared by every hex
//! variant so that only the labels and the orientation differ between them.

use crate::diagram::{CellShape, DiagramCell};

use super::coord::Cell;
use super::tables::HexBoard;

/// Distance between the centres of two neighbouring hexagons of radius 1: `sqrt(3)`.
pub const HEX_PITCH: f32 = 1.732_050_8;

/// Centre of the hexagon at axial coordinates `(q, r)` (cube `s = -q - r`), with +r drawn up.
///
/// Flat-topped: q columns run straight up, so a Glinski file is a vertical line. Pointy-topped:
/// the picture turned by 30 degrees, so rows of constant r run left to right.
///
/// # Panics
/// If `shape` is not a hexagon.
pub fn hex_centre(q: i8, r: i8, shape: CellShape) -> (f32, f32) {
    let (q, r) = (q as f32, r as f32);
    match shape {
        CellShape::FlatHex => (1.5 * q, -HEX_PITCH * (r + q / 2.0)),
        CellShape::PointyHex => (HEX_PITCH * (q + r / 2.0), -1.5 * r),
        CellShape::Square => panic!("hex_centre needs a hexagon shape"),
    }
}

/// The shade of a hex cell in the usual three-colour pattern, with the centre medium
/// (Glinski's board: 31 medium cells, 30 light, 30 dark, and f1 light).
pub fn hex_shade(cell: Cell) -> u8 {
    // Cell::colour, (q - r) mod 3, is constant along bishop lines and 0 at the centre.
    match cell.colour() {
        0 => 1,
        1 => 2,
        _ => 0,
    }
}

/// Every cell of `board` as a diagram cell of `shape`, named by `label`.
pub fn hex_cells(board: &HexBoard, shape: CellShape, label: impl Fn(Cell) -> String) -> Vec<DiagramCell> {
    board
        .cells()
        .iter()
        .map(|&cell| {
            let (x, y) = hex_centre(cell.q(), cell.r(), shape);
            DiagramCell { key: cell.index() as u16, x, y, shape, shade: hex_shade(cell), label: label(cell) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::BOARD_R5;

    #[test]
    fn neighbouring_hexagons_are_one_pitch_apart() {
        for shape in [CellShape::FlatHex, CellShape::PointyHex] {
            for (dq, dr) in [(0, 1), (1, 0), (1, -1)] {
                let (x, y) = hex_centre(dq, dr, shape);
                assert!(((x * x + y * y).sqrt() - HEX_PITCH).abs() < 1e-5, "{shape:?} ({dq}, {dr})");
            }
        }
        assert_eq!(hex_centre(0, 1, CellShape::FlatHex), (0.0, -HEX_PITCH), "north is straight up");
    }

    #[test]
    fn glinski_board_has_31_medium_30_light_30_dark_cells_and_no_touching_twins() {
        let cells = hex_cells(&BOARD_R5, CellShape::FlatHex, |c| format!("{c:?}"));
        let count = |shade| cells.iter().filter(|c| c.shade == shade).count();
        assert_eq!((count(0), count(1), count(2)), (30, 31, 30));
        for a in &cells {
            for b in &cells {
                let d = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
                if (d - HEX_PITCH).abs() < 1e-3 {
                    assert_ne!(a.shade, b.shade, "{} next to {}", a.label, b.label);
                }
            }
        }
        assert_eq!(hex_shade(Cell::new(0, -5).unwrap()), 0, "f1 is light");
    }
}
