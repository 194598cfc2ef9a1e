//! Zobrist keys, generated at compile time from a fixed seed (the same hashes in every build).

use crate::hex::GRID;
use crate::splitmix;

/// Keys for every (side, piece type, cell number), the side to move and the en-passant cell.
pub(crate) struct Zobrist {
    pub(crate) pieces: [[[u64; GRID * GRID]; 6]; 2],
    pub(crate) black_to_move: u64,
    pub(crate) en_passant: [u64; GRID * GRID],
}

/// The keys; shared by both variants (cell numbers mean the same cells on both boards).
pub(crate) static ZOBRIST: Zobrist = build();

const fn build() -> Zobrist {
    let mut state = 0x005E_ED0F_4EC5_u64;
    let mut z = Zobrist { pieces: [[[0; GRID * GRID]; 6]; 2], black_to_move: 0, en_passant: [0; GRID * GRID] };
    let mut side = 0;
    while side < 2 {
        let mut piece = 0;
        while piece < 6 {
            let mut cell = 0;
            while cell < GRID * GRID {
                z.pieces[side][piece][cell] = splitmix::next(&mut state);
                cell += 1;
            }
            piece += 1;
        }
        side += 1;
    }
    z.black_to_move = splitmix::next(&mut state);
    let mut cell = 0;
    while cell < GRID * GRID {
        z.en_passant[cell] = splitmix::next(&mut state);
        cell += 1;
    }
    z
}
