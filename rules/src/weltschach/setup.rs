//! The start position: the RECONSTRUCTION that docs/rules/weltschach.md describes. Gilman's setup
//! diagrams are not available; this layout follows the text's constraints (112 symmetric pieces on
//! ranks 1-2, Stockbrokers on rank 3, face-to-face mirror for Black) and gives 339 legal first
//! moves, none a capture.

use super::geometry::Cell;
use super::piece::{Color, Kind};
use super::position::Weltschach;

/// White's rank 1, rows = levels s..z, columns = filestacks a..h (docs/rules/weltschach.md).
pub const RANK1: [&str; 8] =
    ["GSADQASG", "SMCTLCMS", "ACHOVHCA", "QLVKEOTD", "DTOYWVLQ", "ACHVOHCA", "SMCLTCMS", "GSAQDASG"];
/// White's rank 2; `.` marks the 16 empty Frame cells.
pub const RANK2: [&str; 8] =
    [".JXRRXJ.", "J.NBBN.J", "XN.UU.NX", "RBU..UBR", "RBU..UBR", "XN.UU.NX", "J.NBBN.J", ".JXRRXJ."];

/// The reconstructed start position (White to move, every Emperor, Queen, Duchess and Governor
/// unmoved).
pub fn start() -> Weltschach {
    let mut pos = Weltschach::empty();
    for z in 0..8 {
        for x in 0..8 {
            let back = Kind::from_letter(RANK1[z].as_bytes()[x] as char).expect("setup letter");
            let second = Kind::from_letter(RANK2[z].as_bytes()[x] as char);
            for (color, y1, y2, y3) in [(Color::White, 0, 1, 2), (Color::Black, 7, 6, 5)] {
                let c1 = Cell::new(x, y1, z).index();
                pos.put(c1, color, back);
                if matches!(back, Kind::Emperor | Kind::Queen | Kind::Duchess | Kind::Governor) {
                    pos.unmoved[c1 >> 6] |= 1 << (c1 & 63);
                }
                if let Some(k) = second {
                    pos.put(Cell::new(x, y2, z).index(), color, k);
                }
                pos.put(Cell::new(x, y3, z).index(), color, Kind::Stockbroker);
            }
        }
    }
    pos.finish();
    pos
}
