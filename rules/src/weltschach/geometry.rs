//! Cube geometry: cells, rings of the file grid, the 26 radial directions, ray lengths and the
//! three 24-target leaper sets. Every table is built at compile time by `const fn`, so nothing is
//! initialised lazily on the hot path.
//!
//! Cell index = x + 8·z + 64·y (x = filestack a..h, z = level s..z, y = rank 1..8): one rank is
//! 64 consecutive cells, and the low 6 bits name the file.

use std::fmt;

/// Number of cells of the cube.
pub const CELLS: usize = 512;
/// Number of files (lines parallel to the rank axis), one per (filestack, level).
pub const FILES: usize = 64;

/// One of the 512 cells, named like `vd1` (level, filestack, rank).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

impl Cell {
    /// The cell at filestack `x`, rank `y`, level `z` (each 0..8).
    ///
    /// # Panics
    /// If a coordinate is 8 or more.
    #[track_caller]
    pub const fn new(x: usize, y: usize, z: usize) -> Cell {
        assert!(x < 8 && y < 8 && z < 8, "cell coordinate out of range");
        Cell((x + 8 * z + 64 * y) as u16)
    }

    /// The cell with index `i` (0..512).
    ///
    /// # Panics
    /// If `i` is 512 or more.
    #[track_caller]
    pub const fn from_index(i: usize) -> Cell {
        assert!(i < CELLS, "cell index out of range");
        Cell(i as u16)
    }

    /// Index 0..512 (x + 8z + 64y).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Filestack 0..8 (`a`..`h`), White's left to right.
    pub const fn x(self) -> usize {
        self.0 as usize & 7
    }

    /// Rank 0..8 (`1`..`8`); White moves toward larger ranks.
    pub const fn y(self) -> usize {
        self.0 as usize >> 6
    }

    /// Level 0..8 (`s`..`z`).
    pub const fn z(self) -> usize {
        (self.0 as usize >> 3) & 7
    }

    /// File index 0..64 (x + 8z).
    pub const fn file(self) -> usize {
        self.0 as usize & 63
    }

    /// Reads a cell name such as `vd1`; `None` unless it is exactly level, filestack, rank.
    pub fn parse(text: &str) -> Option<Cell> {
        let b = text.as_bytes();
        if b.len() != 3 {
            return None;
        }
        let z = b[0].wrapping_sub(b's') as usize;
        let x = b[1].wrapping_sub(b'a') as usize;
        let y = b[2].wrapping_sub(b'1') as usize;
        (x < 8 && y < 8 && z < 8).then(|| Cell::new(x, y, z))
    }

    /// All 512 cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).map(Cell::from_index)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", (b's' + self.z() as u8) as char, (b'a' + self.x() as u8) as char, self.y() + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Distance of file (x, z) from the central Tunnel: 0 (Tunnel) ..= 3 (outer ring).
pub const fn ring_xz(x: usize, z: usize) -> u8 {
    let ax = (2 * x as i32 - 7).unsigned_abs();
    let az = (2 * z as i32 - 7).unsigned_abs();
    (if ax > az { ax } else { az } / 2) as u8
}

/// Number of radial directions.
pub const NUM_DIRS: usize = 26;

/// The 26 radial unit steps (dx, dy, dz): 6 orthogonal, then 12 standard diagonal, then 8
/// triagonal, so that a direction's class is a range of indices.
pub const DIRS: [[i8; 3]; NUM_DIRS] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 0, 1],
    [0, 0, -1],
    [0, 1, 0],
    [0, -1, 0],
    [1, 0, 1],
    [1, 0, -1],
    [-1, 0, 1],
    [-1, 0, -1],
    [1, 1, 0],
    [-1, 1, 0],
    [0, 1, 1],
    [0, 1, -1],
    [1, -1, 0],
    [-1, -1, 0],
    [0, -1, 1],
    [0, -1, -1],
    [1, 1, 1],
    [1, 1, -1],
    [-1, 1, 1],
    [-1, 1, -1],
    [1, -1, 1],
    [1, -1, -1],
    [-1, -1, 1],
    [-1, -1, -1],
];

/// The class (0 orthogonal, 1 standard diagonal, 2 triagonal) of each direction.
pub const DIR_CLASS: [u8; NUM_DIRS] = {
    let mut t = [0u8; NUM_DIRS];
    let mut d = 0;
    while d < NUM_DIRS {
        t[d] = if d < 6 {
            0
        } else if d < 18 {
            1
        } else {
            2
        };
        d += 1;
    }
    t
};

/// Index offset of one step in each direction.
pub const DIR_OFFSET: [isize; NUM_DIRS] = {
    let mut t = [0isize; NUM_DIRS];
    let mut d = 0;
    while d < NUM_DIRS {
        t[d] = DIRS[d][0] as isize + 8 * DIRS[d][2] as isize + 64 * DIRS[d][1] as isize;
        d += 1;
    }
    t
};

/// The direction index of a unit step, `None` for (0, 0, 0) or a non-unit vector.
pub const fn dir_index(dx: i32, dy: i32, dz: i32) -> Option<usize> {
    let mut d = 0;
    while d < NUM_DIRS {
        if DIRS[d][0] as i32 == dx && DIRS[d][1] as i32 == dy && DIRS[d][2] as i32 == dz {
            return Some(d);
        }
        d += 1;
    }
    None
}

/// The reverse of each direction.
pub const OPPOSITE: [usize; NUM_DIRS] = {
    let mut t = [0usize; NUM_DIRS];
    let mut d = 0;
    while d < NUM_DIRS {
        t[d] = match dir_index(-(DIRS[d][0] as i32), -(DIRS[d][1] as i32), -(DIRS[d][2] as i32)) {
            Some(o) => o,
            None => panic!("no opposite"),
        };
        d += 1;
    }
    t
};

const fn coords(i: usize) -> (i32, i32, i32) {
    ((i & 7) as i32, (i >> 6) as i32, ((i >> 3) & 7) as i32)
}

const fn on_board(x: i32, y: i32, z: i32) -> bool {
    x >= 0 && x < 8 && y >= 0 && y < 8 && z >= 0 && z < 8
}

/// How many steps each ray runs from each cell before leaving the cube.
pub static RAY_LEN: [[u8; NUM_DIRS]; CELLS] = {
    let mut t = [[0u8; NUM_DIRS]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (x, y, z) = coords(i);
        let mut d = 0;
        while d < NUM_DIRS {
            let mut n = 0;
            while on_board(
                x + (n + 1) * DIRS[d][0] as i32,
                y + (n + 1) * DIRS[d][1] as i32,
                z + (n + 1) * DIRS[d][2] as i32,
            ) {
                n += 1;
            }
            t[i][d] = n as u8;
            d += 1;
        }
        i += 1;
    }
    t
};

/// Number of leap vectors (24 per leaper class).
pub const NUM_LEAPS: usize = 72;

/// The leap vectors: 0..24 Knight 2:1:0, 24..48 Sexton 2:1:1, 48..72 Ninja 2:2:1.
pub const LEAPS: [[i8; 3]; NUM_LEAPS] = {
    let mut t = [[0i8; 3]; NUM_LEAPS];
    let mut n = [0usize; 3];
    let mut dx = -2;
    while dx <= 2 {
        let mut dy = -2;
        while dy <= 2 {
            let mut dz = -2;
            while dz <= 2 {
                let ax = if dx < 0 { -dx } else { dx };
                let ay = if dy < 0 { -dy } else { dy };
                let az = if dz < 0 { -dz } else { dz };
                let twos = (ax == 2) as i32 + (ay == 2) as i32 + (az == 2) as i32;
                let ones = (ax == 1) as i32 + (ay == 1) as i32 + (az == 1) as i32;
                let class = if twos == 1 && ones == 1 {
                    0
                } else if twos == 1 && ones == 2 {
                    1
                } else if twos == 2 && ones == 1 {
                    2
                } else {
                    3
                };
                if class < 3 {
                    t[class * 24 + n[class]] = [dx as i8, dy as i8, dz as i8];
                    n[class] += 1;
                }
                dz += 1;
            }
            dy += 1;
        }
        dx += 1;
    }
    assert!(n[0] == 24 && n[1] == 24 && n[2] == 24);
    t
};

/// Index offset of each leap vector.
pub const LEAP_OFFSET: [isize; NUM_LEAPS] = {
    let mut t = [0isize; NUM_LEAPS];
    let mut i = 0;
    while i < NUM_LEAPS {
        t[i] = LEAPS[i][0] as isize + 8 * LEAPS[i][2] as isize + 64 * LEAPS[i][1] as isize;
        i += 1;
    }
    t
};

/// Per cell and leaper class, bit i set when leap `class * 24 + i` stays on the board.
pub static LEAP_MASK: [[u32; 3]; CELLS] = {
    let mut t = [[0u32; 3]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (x, y, z) = coords(c);
        let mut i = 0;
        while i < NUM_LEAPS {
            if on_board(x + LEAPS[i][0] as i32, y + LEAPS[i][1] as i32, z + LEAPS[i][2] as i32) {
                t[c][i / 24] |= 1 << (i % 24);
            }
            i += 1;
        }
        c += 1;
    }
    t
};

/// Bit index of a cross-section step (dx, dz), each in -1..=1, in the Stockbroker masks.
pub const fn xz_bit(dx: i32, dz: i32) -> u32 {
    ((dx + 1) * 3 + (dz + 1)) as u32
}

const fn is_same_ring_ortho(x: i32, z: i32, dx: i32, dz: i32) -> bool {
    (dx == 0) != (dz == 0) && ring_xz((x + dx) as usize, (z + dz) as usize) == ring_xz(x as usize, z as usize)
}

/// Per file, the cross-section steps (bits by [`xz_bit`]) of a Stockbroker's non-capturing moves:
/// along its file, or a standard diagonal to a file of the same ring.
pub static PAWN_MOVE: [u16; FILES] = pawn_masks(false);
/// Per file, the cross-section steps of a Stockbroker's captures: every other forward step.
pub static PAWN_CAPTURE: [u16; FILES] = pawn_masks(true);

const fn pawn_masks(capture: bool) -> [u16; FILES] {
    let mut t = [0u16; FILES];
    let mut f = 0;
    while f < FILES {
        let (x, z) = ((f & 7) as i32, (f >> 3) as i32);
        let mut dx = -1;
        while dx <= 1 {
            let mut dz = -1;
            while dz <= 1 {
                if x + dx >= 0 && x + dx < 8 && z + dz >= 0 && z + dz < 8 {
                    let quiet = (dx == 0 && dz == 0) || is_same_ring_ortho(x, z, dx, dz);
                    if quiet != capture {
                        t[f] |= 1 << xz_bit(dx, dz);
                    }
                }
                dz += 1;
            }
            dx += 1;
        }
        f += 1;
    }
    t
}

/// Per file, the directions (bit d = direction d) of the Stockfwazir, board edges in x and z
/// applied, edges in y not (test [`RAY_LEN`]): along the file both ways, the same-ring standard
/// diagonals both ways, same-rank orthogonals that change ring, and all same-rank diagonals.
pub static FWAZIR_DIRS: [u32; FILES] = {
    let mut t = [0u32; FILES];
    let mut f = 0;
    while f < FILES {
        let (x, z) = ((f & 7) as i32, (f >> 3) as i32);
        let mut d = 0;
        while d < 18 {
            let (dx, dy, dz) = (DIRS[d][0] as i32, DIRS[d][1] as i32, DIRS[d][2] as i32);
            let inside = x + dx >= 0 && x + dx < 8 && z + dz >= 0 && z + dz < 8;
            let ok = if !inside {
                false
            } else if dx == 0 && dz == 0 {
                true
            } else if dy != 0 {
                is_same_ring_ortho(x, z, dx, dz)
            } else if dx != 0 && dz != 0 {
                true
            } else {
                !is_same_ring_ortho(x, z, dx, dz)
            };
            if ok {
                t[f] |= 1 << d;
            }
            d += 1;
        }
        f += 1;
    }
    t
};

/// Size of the displacement table: every (dx, dy, dz) in -7..=7.
pub const DISP_SPAN: usize = 15 * 15 * 15;

/// Index of the displacement from `from` to `to` in tables of [`DISP_SPAN`] entries.
#[inline(always)]
pub fn disp_index(from: usize, to: usize) -> usize {
    let dx = (to & 7) + 7 - (from & 7);
    let dz = ((to >> 3) & 7) + 7 - ((from >> 3) & 7);
    let dy = (to >> 6) + 7 - (from >> 6);
    dx + 15 * dz + 225 * dy
}

/// Number of move kinds: 26 directions × 7 distances, then the 72 leaps.
pub const NUM_KINDS: usize = NUM_DIRS * 7 + NUM_LEAPS;
/// The kind of a displacement with no radial or leap meaning.
pub const NO_KIND: u8 = 255;

/// Move kind of each displacement: `dir * 7 + distance - 1` for radial lines, `182 + leap` for
/// leaps, [`NO_KIND`] otherwise. It doubles as the "is this cell on a line through that one" test.
pub static KIND_OF_DISP: [u8; DISP_SPAN] = {
    let mut t = [NO_KIND; DISP_SPAN];
    let mut d = 0;
    while d < NUM_DIRS {
        let mut k = 1;
        while k <= 7 {
            let dx = DIRS[d][0] as i32 * k + 7;
            let dy = DIRS[d][1] as i32 * k + 7;
            let dz = DIRS[d][2] as i32 * k + 7;
            t[(dx + 15 * dz + 225 * dy) as usize] = (d * 7 + k as usize - 1) as u8;
            k += 1;
        }
        d += 1;
    }
    let mut i = 0;
    while i < NUM_LEAPS {
        let dx = LEAPS[i][0] as i32 + 7;
        let dy = LEAPS[i][1] as i32 + 7;
        let dz = LEAPS[i][2] as i32 + 7;
        t[(dx + 15 * dz + 225 * dy) as usize] = (NUM_DIRS * 7 + i) as u8;
        i += 1;
    }
    t
};

/// The radial direction from `from` to `to`, if they share one of the 26 lines (and differ).
#[inline(always)]
pub fn line_dir(from: usize, to: usize) -> Option<usize> {
    let k = KIND_OF_DISP[disp_index(from, to)];
    (k < (NUM_DIRS * 7) as u8).then_some(k as usize / 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_map_matches_spec() {
        let rows = ["33333333", "32222223", "32111123", "32100123", "32100123", "32111123", "32222223", "33333333"];
        for (z, row) in rows.iter().enumerate() {
            for (x, ch) in row.bytes().enumerate() {
                assert_eq!(ring_xz(x, z), ch - b'0', "file x={x} z={z}");
            }
        }
    }

    #[test]
    fn cell_names_round_trip() {
        for c in Cell::all() {
            assert_eq!(Cell::parse(&c.to_string()), Some(c));
        }
        let c = Cell::parse("vd1").unwrap();
        assert_eq!((c.x(), c.y(), c.z()), (3, 0, 3));
        assert_eq!(Cell::parse("vd9"), None);
        assert_eq!(Cell::parse("rd1"), None);
    }

    #[test]
    fn pawn_counts_per_file_match_spec() {
        let caps = ["13333331", "36666663", "36666663", "36666663", "36666663", "36666663", "36666663", "13333331"];
        for f in 0..FILES {
            assert_eq!(PAWN_MOVE[f].count_ones(), 3, "file {f}");
            assert_eq!(PAWN_CAPTURE[f].count_ones() as u8, caps[f >> 3].as_bytes()[f & 7] - b'0', "file {f}");
        }
    }

    #[test]
    fn leap_tables_have_24_each() {
        let c = Cell::parse("we4").unwrap().index();
        assert_eq!(LEAP_MASK[c].map(u32::count_ones), [24, 24, 24]);
        let corner = Cell::parse("sa1").unwrap().index();
        assert_eq!(LEAP_MASK[corner].map(u32::count_ones), [6, 3, 3]);
    }
}
