//! Per-board lookup tables (neighbours, rays, leaps), built at compile time by `const fn` into
//! statics: no lazy initialisation and no work per call.

use super::coord::{Cell, Dir, GRID, KNIGHT_LEAPS};

/// Number of cell numbers (squares of the 11 x 11 grid), on the board or not.
const SLOTS: usize = GRID * GRID;
/// Marks "no cell" in [`HexBoard::step`] tables.
const NONE: u8 = u8::MAX;

/// The lookup tables of one hexagonal board (a radius); indexed by [`Cell::index`].
#[derive(Debug)]
pub struct HexBoard {
    radius: i8,
    len: usize,
    cells: [Cell; 91],
    on_board: u128,
    step: [[u8; 12]; SLOTS],
    rays: [[u128; 12]; SLOTS],
    knight: [u128; SLOTS],
    king: [u128; SLOTS],
    edge_neighbours: [u128; SLOTS],
    vertex_neighbours: [u128; SLOTS],
    edge_lines: [u128; SLOTS],
    vertex_lines: [u128; SLOTS],
    can_step: [u128; 12],
}

/// The radius-5 board: Glinski Chess and Wellisch Chess (91 cells).
pub static BOARD_R5: HexBoard = HexBoard::build(5);
/// The radius-3 board: Mini Hexchess (37 cells).
pub static BOARD_R3: HexBoard = HexBoard::build(3);

impl HexBoard {
    /// Builds every table for the hexagon of radius `radius` (1..=5).
    pub const fn build(radius: i8) -> HexBoard {
        assert!(radius >= 1 && radius <= super::coord::MAX_RADIUS);
        let mut b = HexBoard {
            radius,
            len: 0,
            cells: [Cell::from_index_unchecked(60); 91],
            on_board: 0,
            step: [[NONE; 12]; SLOTS],
            rays: [[0; 12]; SLOTS],
            knight: [0; SLOTS],
            king: [0; SLOTS],
            edge_neighbours: [0; SLOTS],
            vertex_neighbours: [0; SLOTS],
            edge_lines: [0; SLOTS],
            vertex_lines: [0; SLOTS],
            can_step: [0; 12],
        };
        let mut i = 0;
        while i < SLOTS {
            if let Some(c) = Cell::from_index(i) {
                if c.ring() <= radius {
                    b.cells[b.len] = c;
                    b.len += 1;
                    b.on_board |= c.bit();
                }
            }
            i += 1;
        }
        let mut k = 0;
        while k < b.len {
            let c = b.cells[k];
            let ci = c.index();
            let mut d = 0;
            while d < 12 {
                let dir = Dir::ALL[d];
                if let Some(n) = c.step(dir, radius) {
                    b.step[ci][d] = n.index() as u8;
                    b.can_step[d] |= c.bit();
                    b.king[ci] |= n.bit();
                    if dir.is_edge() {
                        b.edge_neighbours[ci] |= n.bit();
                    } else {
                        b.vertex_neighbours[ci] |= n.bit();
                    }
                }
                let mut ray = 0u128;
                let mut cur = c.step(dir, radius);
                while let Some(n) = cur {
                    ray |= n.bit();
                    cur = n.step(dir, radius);
                }
                b.rays[ci][d] = ray;
                if dir.is_edge() {
                    b.edge_lines[ci] |= ray;
                } else {
                    b.vertex_lines[ci] |= ray;
                }
                d += 1;
            }
            let mut l = 0;
            while l < 12 {
                let (dq, dr, _) = KNIGHT_LEAPS[l];
                if let Some(n) = c.offset(dq, dr, radius) {
                    b.knight[ci] |= n.bit();
                }
                l += 1;
            }
            k += 1;
        }
        b
    }

    /// The radius R.
    pub const fn radius(&self) -> i8 {
        self.radius
    }

    /// Number of cells, `3R(R+1) + 1`.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Always false (a board has at least 7 cells); here for clippy's sake.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cells in increasing cell number (file by file, bottom to top).
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..self.len]
    }

    /// Whether `cell` lies on this board.
    #[inline(always)]
    pub const fn contains(&self, cell: Cell) -> bool {
        self.on_board & cell.bit() != 0
    }

    /// All cells of the board as a bitboard.
    #[inline(always)]
    pub const fn on_board(&self) -> u128 {
        self.on_board
    }

    /// The neighbour of `cell` in direction `dir`, if it is on the board.
    #[inline(always)]
    pub const fn step(&self, cell: Cell, dir: Dir) -> Option<Cell> {
        let n = self.step[cell.index()][dir.index()];
        if n == NONE {
            None
        } else {
            Some(Cell::from_index_unchecked(n as u32))
        }
    }

    /// Cells whose neighbour in direction `dir` is on the board: mask a bitboard with this before
    /// shifting it by `dir.shift()`, so that no bit wraps into another file.
    #[inline(always)]
    pub const fn can_step(&self, dir: Dir) -> u128 {
        self.can_step[dir.index()]
    }

    /// Every cell from `cell` (exclusive) to the board's edge in direction `dir`.
    #[inline(always)]
    pub const fn ray(&self, cell: Cell, dir: Dir) -> u128 {
        self.rays[cell.index()][dir.index()]
    }

    /// The cells a knight on `cell` leaps to.
    #[inline(always)]
    pub const fn knight(&self, cell: Cell) -> u128 {
        self.knight[cell.index()]
    }

    /// The up to 12 neighbours along edge and vertex directions (a Glinski king's steps).
    #[inline(always)]
    pub const fn king(&self, cell: Cell) -> u128 {
        self.king[cell.index()]
    }

    /// The up to 6 neighbours sharing a side with `cell`.
    #[inline(always)]
    pub const fn edge_neighbours(&self, cell: Cell) -> u128 {
        self.edge_neighbours[cell.index()]
    }

    /// The up to 6 nearest same-colour cells (one vertex step away).
    #[inline(always)]
    pub const fn vertex_neighbours(&self, cell: Cell) -> u128 {
        self.vertex_neighbours[cell.index()]
    }

    /// The union of the six edge rays from `cell` (what a rook sees on an empty board).
    #[inline(always)]
    pub const fn edge_lines(&self, cell: Cell) -> u128 {
        self.edge_lines[cell.index()]
    }

    /// The union of the six vertex rays from `cell` (what a bishop sees on an empty board).
    #[inline(always)]
    pub const fn vertex_lines(&self, cell: Cell) -> u128 {
        self.vertex_lines[cell.index()]
    }

    /// The cells a slider on `cell` reaches in direction `dir` with `occupied` cells blocking:
    /// the ray up to and including the first occupied cell.
    #[inline(always)]
    pub fn slide(&self, cell: Cell, dir: Dir, occupied: u128) -> u128 {
        let ray = self.ray(cell, dir);
        let blockers = ray & occupied;
        if blockers == 0 {
            ray
        } else {
            ray ^ self.ray(nearest(blockers, dir), dir)
        }
    }

    /// A rook's (edge-direction slider's) targets from `cell`, blockers included.
    #[inline(always)]
    pub fn rook_attacks(&self, cell: Cell, occupied: u128) -> u128 {
        let mut a = 0;
        let mut d = 0;
        while d < 6 {
            a |= self.slide(cell, Dir::ALL[d], occupied);
            d += 1;
        }
        a
    }

    /// A bishop's (vertex-direction slider's) targets from `cell`, blockers included.
    #[inline(always)]
    pub fn bishop_attacks(&self, cell: Cell, occupied: u128) -> u128 {
        let mut a = 0;
        let mut d = 6;
        while d < 12 {
            a |= self.slide(cell, Dir::ALL[d], occupied);
            d += 1;
        }
        a
    }
}

/// The cell of `blockers` (a non-empty subset of one ray in direction `dir`) nearest the ray's
/// origin: the lowest bit on increasing rays, the highest on decreasing ones.
#[inline(always)]
pub fn nearest(blockers: u128, dir: Dir) -> Cell {
    debug_assert!(blockers != 0);
    if dir.increasing() {
        Cell::from_index_unchecked(blockers.trailing_zeros())
    } else {
        Cell::from_index_unchecked(127 - blockers.leading_zeros())
    }
}

/// Shifts a bitboard by a signed number of cells (`Dir::shift`), bits leaving the grid dropped.
#[inline(always)]
pub const fn shift(bb: u128, by: i32) -> u128 {
    if by >= 0 {
        bb << by
    } else {
        bb >> -by
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex::Bits;

    #[test]
    fn boards_have_the_right_sizes() {
        assert_eq!(BOARD_R5.len(), 91);
        assert_eq!(BOARD_R3.len(), 37);
        assert_eq!(BOARD_R5.on_board().count_ones(), 91);
    }

    #[test]
    fn rays_are_monotonic_and_shifts_match_steps() {
        for board in [&BOARD_R5, &BOARD_R3] {
            for &c in board.cells() {
                for dir in Dir::ALL {
                    let ray = board.ray(c, dir);
                    let mut cur = board.step(c, dir);
                    let mut walked = 0u128;
                    let mut prev = c;
                    while let Some(n) = cur {
                        assert_eq!(n.index() > prev.index(), dir.increasing());
                        assert_eq!(n.index() as i32 - prev.index() as i32, dir.shift());
                        walked |= n.bit();
                        prev = n;
                        cur = board.step(n, dir);
                    }
                    assert_eq!(ray, walked);
                    assert_eq!(board.can_step(dir) & c.bit() != 0, board.step(c, dir).is_some());
                    assert_eq!(
                        shift(c.bit() & board.can_step(dir), dir.shift()),
                        board.step(c, dir).map_or(0, Cell::bit)
                    );
                }
                assert!(board.knight(c) & !board.on_board() == 0);
                for n in Bits(board.knight(c)) {
                    assert_ne!(n.colour(), c.colour(), "a knight always changes colour");
                }
                for n in Bits(board.vertex_neighbours(c)) {
                    assert_eq!(n.colour(), c.colour());
                }
            }
        }
        // The centre of the big board sees 12 knight leaps and 12 king steps.
        let centre = Cell::new(0, 0).unwrap();
        assert_eq!(BOARD_R5.knight(centre).count_ones(), 12);
        assert_eq!(BOARD_R5.king(centre).count_ones(), 12);
        assert_eq!(BOARD_R5.rook_attacks(centre, 0).count_ones(), 30);
        assert_eq!(BOARD_R5.bishop_attacks(centre, 0).count_ones(), 12);
    }

    #[test]
    fn sliding_stops_at_the_first_blocker() {
        let f1 = Cell::new(0, -5).unwrap();
        let f4 = Cell::new(0, -2).unwrap();
        let up = BOARD_R5.slide(f1, Dir::N, f4.bit());
        assert_eq!(up.count_ones(), 3);
        assert!(up & f4.bit() != 0);
        let down = BOARD_R5.slide(f4, Dir::S, f1.bit());
        assert_eq!(down.count_ones(), 3);
    }
}
