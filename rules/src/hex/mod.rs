//! Hexagonal board geometry shared by every hex variant (Glinski, Mini Hexchess, Wellisch).
//!
//! Cells are named by cube coordinates `(q, r, s)` with `q + r + s = 0` (docs/notation-hex.md).
//! Every board is a hexagon of radius R <= 5 centred on `(0, 0, 0)`; all of them use one cell
//! numbering, the 11 x 11 axial grid `(q + 5) * 11 + (r + 5)`, so a cell means the same thing on
//! every board and a step in a fixed direction is a fixed bit shift of a 128-bit bitboard.

mod bits;
mod coord;
mod diagram;
mod labels;
mod tables;

pub use bits::{Bitboard, Bits};
pub use coord::{Cell, Dir, EDGE_DIRS, GRID, KNIGHT_LEAPS, MAX_RADIUS, VERTEX_DIRS};
pub use diagram::{hex_cells, hex_centre, hex_shade, HEX_PITCH};
pub use labels::{parse_glinski_label, parse_wellisch_label, GlinskiLabel, WellischLabel};
pub use tables::{nearest, shift, HexBoard, BOARD_R3, BOARD_R5};
