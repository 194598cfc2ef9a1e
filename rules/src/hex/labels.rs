//! Cell names: Glinski-style labels (`f1`, `e10`; Glinski Chess, Mini Hexchess) and Wellisch
//! labels (`A1`, `K9`), as docs/notation-hex.md and docs/notation-wellisch.md define them.

use std::fmt;

use super::coord::Cell;

/// Glinski file letters; there is no `j`.
const GLINSKI_FILES: &[u8; 11] = b"abcdefghikl";
/// Wellisch column letters, indexed by `R - s`.
const WELLISCH_COLUMNS: &[u8; 11] = b"ABCDEFGHIJK";

/// A cell displayed with its Glinski label on the board of radius `.1`: file `q + R`, rank 1 at
/// the bottom of each file.
#[derive(Clone, Copy, Debug)]
pub struct GlinskiLabel(pub Cell, pub i8);

impl fmt::Display for GlinskiLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let GlinskiLabel(cell, radius) = *self;
        let (q, r) = (cell.q(), cell.r());
        let file = GLINSKI_FILES[(q + radius) as usize] as char;
        let rank = r - (-radius).max(-radius - q) + 1;
        write!(f, "{file}{rank}")
    }
}

/// Reads a Glinski label (`f1`, `e10`) of the board of radius `radius`; `None` if it names no cell.
pub fn parse_glinski_label(text: &str, radius: i8) -> Option<Cell> {
    let bytes = text.as_bytes();
    let (&file, digits) = bytes.split_first()?;
    let file = GLINSKI_FILES[..(2 * radius + 1) as usize].iter().position(|&c| c == file)? as i8;
    let rank = parse_rank(digits)?;
    let q = file - radius;
    let bottom = (-radius).max(-radius - q);
    let top = radius.min(radius - q);
    let r = bottom + rank - 1;
    if r > top {
        return None;
    }
    Cell::new(q, r)
}

/// A cell displayed with its Wellisch label on the board of radius `.1`: column `R - s`, row
/// `r + R + 1`.
#[derive(Clone, Copy, Debug)]
pub struct WellischLabel(pub Cell, pub i8);

impl fmt::Display for WellischLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let WellischLabel(cell, radius) = *self;
        let column = WELLISCH_COLUMNS[(radius - cell.s()) as usize] as char;
        write!(f, "{column}{}", cell.r() + radius + 1)
    }
}

/// Reads a Wellisch label (`A1`, `K9`) of the board of radius `radius`; `None` if it names no cell.
pub fn parse_wellisch_label(text: &str, radius: i8) -> Option<Cell> {
    let bytes = text.as_bytes();
    let (&column, digits) = bytes.split_first()?;
    let column = WELLISCH_COLUMNS[..(2 * radius + 1) as usize].iter().position(|&c| c == column)? as i8;
    let row = parse_rank(digits)?;
    let s = radius - column;
    let r = row - radius - 1;
    let q = -r - s;
    let cell = Cell::new(q, r)?;
    (cell.ring() <= radius).then_some(cell)
}

/// A rank or row number 1..=99 without leading zeros.
fn parse_rank(digits: &[u8]) -> Option<i8> {
    if digits.is_empty() || digits.len() > 2 || digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits.iter().fold(0i8, |n, d| n * 10 + (d - b'0') as i8);
    (n >= 1).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(q: i8, r: i8) -> Cell {
        Cell::new(q, r).unwrap()
    }

    #[test]
    fn glinski_labels_match_the_spec_examples() {
        for (label, q, r) in [("f1", 0, -5), ("g1", 1, -5), ("e1", -1, -4), ("f11", 0, 5), ("i8", 3, 2), ("c8", -3, 5)]
        {
            assert_eq!(GlinskiLabel(cell(q, r), 5).to_string(), label);
            assert_eq!(parse_glinski_label(label, 5), Some(cell(q, r)), "{label}");
        }
        // Mini Hexchess (R = 3): d1 is the bottom centre, d7 the top.
        assert_eq!(parse_glinski_label("d1", 3), Some(cell(0, -3)));
        assert_eq!(parse_glinski_label("d7", 3), Some(cell(0, 3)));
        assert_eq!(parse_glinski_label("h1", 3), None);
        assert_eq!(parse_glinski_label("a5", 3), None);
        for bad in ["", "f", "f0", "f12", "j3", "F1", "f01", "a7"] {
            assert_eq!(parse_glinski_label(bad, 5), None, "{bad}");
        }
    }

    #[test]
    fn wellisch_labels_match_the_spec_examples() {
        for (label, q, r) in [("A1", 0, -5), ("F1", 5, -5), ("K6", 5, 0), ("K9", 2, 3), ("C8", -5, 2)] {
            assert_eq!(WellischLabel(cell(q, r), 5).to_string(), label);
            assert_eq!(parse_wellisch_label(label, 5), Some(cell(q, r)), "{label}");
        }
        assert_eq!(parse_wellisch_label("A7", 5), None);
    }

    #[test]
    fn every_cell_label_round_trips() {
        for radius in [3, 5] {
            let cells: Vec<Cell> = (0..121).filter_map(Cell::from_index).filter(|c| c.ring() <= radius).collect();
            for c in cells {
                assert_eq!(parse_glinski_label(&GlinskiLabel(c, radius).to_string(), radius), Some(c));
                assert_eq!(parse_wellisch_label(&WellischLabel(c, radius).to_string(), radius), Some(c));
            }
        }
    }
}
