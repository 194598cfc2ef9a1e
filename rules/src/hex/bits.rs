//! 128-bit cell sets: one bit per cell number of the 11 x 11 grid (121 bits used).

use super::coord::Cell;

/// A set of cells, bit `c.index()` for cell `c`.
pub type Bitboard = u128;

/// The cells of a bitboard, lowest cell number first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub Bitboard);

impl Iterator for Bits {
    type Item = Cell;

    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Cell::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}
