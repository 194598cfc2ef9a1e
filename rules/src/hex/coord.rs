//! Cells and directions of the hexagonal grid, in cube coordinates.

/// The largest board radius any variant uses (Glinski and Wellisch: 91 cells).
pub const MAX_RADIUS: i8 = 5;

/// Side of the square axial grid every cell number lives in: `2 * MAX_RADIUS + 1`.
pub const GRID: usize = 2 * MAX_RADIUS as usize + 1;

/// A cell of a hexagonal board, numbered `(q + 5) * 11 + (r + 5)` in the 11 x 11 axial grid.
///
/// One numbering for every radius keeps a cell's meaning (and its bit) the same on every board,
/// makes rays monotonic in the number (rays are ordered lexicographically by `(q, r)`) and makes a
/// step in a fixed direction a fixed shift of a bitboard. Only cells with
/// `max(|q|, |r|, |s|) <= 5` exist; a board of smaller radius uses a subset of them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell `(q, r, -q - r)`, if it lies within radius 5.
    pub const fn new(q: i8, r: i8) -> Option<Cell> {
        if q < -MAX_RADIUS || q > MAX_RADIUS || r < -MAX_RADIUS || r > MAX_RADIUS {
            return None;
        }
        let s = -q - r;
        if s < -MAX_RADIUS || s > MAX_RADIUS {
            return None;
        }
        Some(Cell(((q + MAX_RADIUS) as u8) * GRID as u8 + (r + MAX_RADIUS) as u8))
    }

    /// The cell with grid number `index`, if that grid square is a cell of the radius-5 board.
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index >= GRID * GRID {
            return None;
        }
        let q = (index / GRID) as i8 - MAX_RADIUS;
        let r = (index % GRID) as i8 - MAX_RADIUS;
        Cell::new(q, r)
    }

    /// The cell with grid number `index`, which the caller knows to be a cell (a set bit of a
    /// bitboard); checked in debug builds only, because it sits on the move generator's hot path.
    #[inline(always)]
    pub const fn from_index_unchecked(index: u32) -> Cell {
        debug_assert!(Cell::from_index(index as usize).is_some());
        Cell(index as u8)
    }

    /// The grid number `(q + 5) * 11 + (r + 5)`, below 121.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The single-cell bitboard.
    #[inline(always)]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// Cube coordinate q (the file axis: q + R is the Glinski file).
    pub const fn q(self) -> i8 {
        (self.0 / GRID as u8) as i8 - MAX_RADIUS
    }

    /// Cube coordinate r.
    pub const fn r(self) -> i8 {
        (self.0 % GRID as u8) as i8 - MAX_RADIUS
    }

    /// Cube coordinate s = -q - r.
    pub const fn s(self) -> i8 {
        -self.q() - self.r()
    }

    /// Distance from the centre: the smallest board radius that contains the cell.
    pub const fn ring(self) -> i8 {
        let (q, r, s) = (self.q().abs(), self.r().abs(), self.s().abs());
        let m = if q > r { q } else { r };
        if m > s {
            m
        } else {
            s
        }
    }

    /// The cell's colour 0, 1 or 2, `(q - r) mod 3`; bishops never change it.
    pub const fn colour(self) -> u8 {
        (self.q() - self.r()).rem_euclid(3) as u8
    }

    /// The cell `(dq, dr)` away, if it lies on the board of radius `radius`.
    pub const fn offset(self, dq: i8, dr: i8, radius: i8) -> Option<Cell> {
        let q = self.q() + dq;
        let r = self.r() + dr;
        let s = -q - r;
        if q < -radius || q > radius || r < -radius || r > radius || s < -radius || s > radius {
            return None;
        }
        Cell::new(q, r)
    }

    /// The next cell in direction `dir` on the board of radius `radius`.
    pub const fn step(self, dir: Dir, radius: i8) -> Option<Cell> {
        let (dq, dr, _) = dir.delta();
        self.offset(dq, dr, radius)
    }

    /// The left-right mirror image `(-q, -s, -r)`: files a <-> l, ranks kept; every variant's rules
    /// are invariant under it.
    pub const fn mirror(self) -> Cell {
        Cell(((-self.q() + MAX_RADIUS) as u8) * GRID as u8 + (-self.s() + MAX_RADIUS) as u8)
    }

    /// The top-bottom reflection `(q, s, r)`: White's setup onto Black's, N onto S.
    pub const fn flip(self) -> Cell {
        Cell(((self.q() + MAX_RADIUS) as u8) * GRID as u8 + (self.s() + MAX_RADIUS) as u8)
    }
}

/// The six edge directions `N NE SE S SW NW` (clockwise), as cube deltas `(q, r, s)`.
pub const EDGE_DIRS: [(i8, i8, i8); 6] = [(0, 1, -1), (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0)];

/// The six vertex directions, clockwise from the one between N and NE; vertex direction `i` is the
/// sum of edge directions `i` and `i + 1`.
pub const VERTEX_DIRS: [(i8, i8, i8); 6] = [(1, 1, -2), (2, -1, -1), (1, -2, 1), (-1, -1, 2), (-2, 1, 1), (-1, 2, -1)];

/// The twelve knight leaps: every permutation of `(1, 2, -3)` and of `(-1, -2, 3)`, ordered so that
/// leap `i + 6` is the reverse of leap `i`.
pub const KNIGHT_LEAPS: [(i8, i8, i8); 12] = [
    (1, 2, -3),
    (2, 1, -3),
    (3, -1, -2),
    (3, -2, -1),
    (1, -3, 2),
    (2, -3, 1),
    (-1, -2, 3),
    (-2, -1, 3),
    (-3, 1, 2),
    (-3, 2, 1),
    (-1, 3, -2),
    (-2, 3, -1),
];

/// One of the twelve sliding directions: `0..6` the edge directions of [`EDGE_DIRS`], `6..12` the
/// vertex directions of [`VERTEX_DIRS`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Dir(u8);

impl Dir {
    /// Edge direction N `(0, +1, -1)`: up a Glinski file.
    pub const N: Dir = Dir(0);
    /// Edge direction NE `(+1, 0, -1)`.
    pub const NE: Dir = Dir(1);
    /// Edge direction SE `(+1, -1, 0)`.
    pub const SE: Dir = Dir(2);
    /// Edge direction S `(0, -1, +1)`.
    pub const S: Dir = Dir(3);
    /// Edge direction SW `(-1, 0, +1)`.
    pub const SW: Dir = Dir(4);
    /// Edge direction NW `(-1, +1, 0)`.
    pub const NW: Dir = Dir(5);

    /// All twelve, edge directions first.
    pub const ALL: [Dir; 12] = {
        let mut all = [Dir(0); 12];
        let mut i = 0;
        while i < 12 {
            all[i] = Dir(i as u8);
            i += 1;
        }
        all
    };

    /// The direction with number `index` (`0..12`).
    pub const fn new(index: usize) -> Option<Dir> {
        if index < 12 {
            Some(Dir(index as u8))
        } else {
            None
        }
    }

    /// The number `0..12`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is an edge (rook) direction rather than a vertex (bishop) one.
    #[inline(always)]
    pub const fn is_edge(self) -> bool {
        self.0 < 6
    }

    /// The cube delta of one step.
    #[inline(always)]
    pub const fn delta(self) -> (i8, i8, i8) {
        if self.0 < 6 {
            EDGE_DIRS[self.0 as usize]
        } else {
            VERTEX_DIRS[self.0 as usize - 6]
        }
    }

    /// The change of the cell number for one step (`dq * 11 + dr`).
    #[inline(always)]
    pub const fn shift(self) -> i32 {
        let (dq, dr, _) = self.delta();
        dq as i32 * GRID as i32 + dr as i32
    }

    /// Whether cell numbers grow along this direction (so the nearest blocker on a ray is its
    /// lowest set bit); true for directions `0..3` and `6..9`.
    #[inline(always)]
    pub const fn increasing(self) -> bool {
        self.0 % 6 < 3
    }

    /// The reverse direction.
    pub const fn opposite(self) -> Dir {
        Dir(self.0 - self.0 % 6 + (self.0 % 6 + 3) % 6)
    }

    /// The direction's image under [`Cell::mirror`].
    pub const fn mirror(self) -> Dir {
        let (q, r, s) = self.delta();
        Dir::from_delta(-q, -s, -r)
    }

    /// The direction's image under [`Cell::flip`].
    pub const fn flip(self) -> Dir {
        let (q, r, s) = self.delta();
        Dir::from_delta(q, s, r)
    }

    /// The direction whose unit step is `(q, r, s)`; panics (at compile time in tables) if none is.
    const fn from_delta(q: i8, r: i8, s: i8) -> Dir {
        let mut i = 0;
        while i < 12 {
            let (a, b, c) = Dir(i).delta();
            if a == q && b == r && c == s {
                return Dir(i);
            }
            i += 1;
        }
        panic!("not a unit direction")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_coordinates_round_trip_and_count_91_cells() {
        let cells: Vec<Cell> = (0..GRID * GRID).filter_map(Cell::from_index).collect();
        assert_eq!(cells.len(), 91);
        for c in cells {
            assert_eq!(c.q() + c.r() + c.s(), 0);
            assert_eq!(Cell::new(c.q(), c.r()), Some(c));
            assert_eq!(c.mirror().mirror(), c);
            assert_eq!(c.flip().flip(), c);
        }
    }

    #[test]
    fn directions_are_consistent() {
        for d in Dir::ALL {
            let (q, r, s) = d.delta();
            assert_eq!(q + r + s, 0);
            assert_eq!(d.opposite().opposite(), d);
            let (oq, or, os) = d.opposite().delta();
            assert_eq!((oq, or, os), (-q, -r, -s));
            assert_eq!(d.increasing(), d.shift() > 0, "{d:?}");
            assert_eq!(d.mirror().mirror(), d);
            assert_eq!(d.flip().flip(), d);
        }
        for i in 0..6 {
            let (a, b) = (EDGE_DIRS[i], EDGE_DIRS[(i + 1) % 6]);
            assert_eq!(VERTEX_DIRS[i], (a.0 + b.0, a.1 + b.1, a.2 + b.2));
        }
        for i in 0..6 {
            let (a, b) = (KNIGHT_LEAPS[i], KNIGHT_LEAPS[i + 6]);
            assert_eq!((a.0, a.1, a.2), (-b.0, -b.1, -b.2));
        }
        assert_eq!(Dir::N.flip(), Dir::S);
        assert_eq!(Dir::NE.mirror(), Dir::NW);
    }
}
