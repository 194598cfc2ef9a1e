//! The 24 piece types, the two colours, and what each type can do.
//!
//! A board cell holds one byte: 0 for empty, otherwise `colour << 5 | (kind + 1)`, so that
//! colour and kind come out with one shift or mask and a capability lookup is one table read.

use crate::player::Player;

/// The two sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first, toward rank 8.
    White = 0,
    /// Moves toward rank 1.
    Black = 1,
}

impl Color {
    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The seat: 0 for White, 1 for Black.
    pub const fn index(self) -> Player {
        self as Player
    }

    /// The colour of a seat (0 or 1).
    pub const fn from_index(i: Player) -> Color {
        if i == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// Number of piece types.
pub const NUM_KINDS: usize = 24;
/// Number of symmetric (array) types: those that can be captured into a promotion pool.
pub const NUM_POOL_KINDS: usize = 21;

/// A piece type; the discriminant orders simple pieces, pairwise and triple compounds, then the
/// Emperor and the two pawn-like pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Slides orthogonally.
    Rook,
    /// Slides along standard diagonals.
    Bishop,
    /// Slides along triagonals.
    Unicorn,
    /// Hops orthogonally.
    Cannon,
    /// Hops along standard diagonals.
    Arrow,
    /// Hops along triagonals.
    Sling,
    /// Leaps 2:1:0.
    Knight,
    /// Leaps 2:1:1.
    Sexton,
    /// Leaps 2:2:1.
    Ninja,
    /// Rook + Bishop.
    Queen,
    /// Rook + Unicorn.
    Duchess,
    /// Bishop + Unicorn.
    Governor,
    /// Cannon + Arrow.
    Tank,
    /// Cannon + Sling.
    Cannonade,
    /// Arrow + Sling.
    Arbalest,
    /// Knight + Sexton.
    Churchwarden,
    /// Knight + Ninja.
    Samurai,
    /// Sexton + Ninja.
    Oberon,
    /// Rook + Bishop + Unicorn, River-bound.
    Empress,
    /// Cannon + Arrow + Sling, River-bound.
    Arsenal,
    /// Knight + Sexton + Ninja, River-bound.
    Canoe,
    /// The royal piece: one step along any radial.
    Emperor,
    /// The pawn-like front-rank piece.
    Stockbroker,
    /// A Stockbroker that has crossed the River.
    Stockfwazir,
}

/// Letters of the kinds in discriminant order (White upper case, Black lower case in text).
pub const LETTERS: &[u8; NUM_KINDS] = b"RBUCASNXJQDGTOLHMVEYWKPF";

impl Kind {
    /// Every kind in discriminant order.
    pub const ALL: [Kind; NUM_KINDS] = [
        Kind::Rook,
        Kind::Bishop,
        Kind::Unicorn,
        Kind::Cannon,
        Kind::Arrow,
        Kind::Sling,
        Kind::Knight,
        Kind::Sexton,
        Kind::Ninja,
        Kind::Queen,
        Kind::Duchess,
        Kind::Governor,
        Kind::Tank,
        Kind::Cannonade,
        Kind::Arbalest,
        Kind::Churchwarden,
        Kind::Samurai,
        Kind::Oberon,
        Kind::Empress,
        Kind::Arsenal,
        Kind::Canoe,
        Kind::Emperor,
        Kind::Stockbroker,
        Kind::Stockfwazir,
    ];

    /// The kind with discriminant `i`.
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The text letter (upper case).
    pub const fn letter(self) -> char {
        LETTERS[self as usize] as char
    }

    /// How it moves, in a few words, for a legend beside its letter.
    pub const fn moves(self) -> &'static str {
        match self {
            Kind::Rook => "slides orthogonally",
            Kind::Bishop => "slides along standard diagonals",
            Kind::Unicorn => "slides along triagonals",
            Kind::Cannon => "hops orthogonally",
            Kind::Arrow => "hops along standard diagonals",
            Kind::Sling => "hops along triagonals",
            Kind::Knight => "leaps 2:1:0",
            Kind::Sexton => "leaps 2:1:1",
            Kind::Ninja => "leaps 2:2:1",
            Kind::Queen => "rook + bishop",
            Kind::Duchess => "rook + unicorn",
            Kind::Governor => "bishop + unicorn",
            Kind::Tank => "cannon + arrow",
            Kind::Cannonade => "cannon + sling",
            Kind::Arbalest => "arrow + sling",
            Kind::Churchwarden => "knight + sexton",
            Kind::Samurai => "knight + ninja",
            Kind::Oberon => "sexton + ninja",
            Kind::Empress => "rook + bishop + unicorn, River-bound",
            Kind::Arsenal => "cannon + arrow + sling, River-bound",
            Kind::Canoe => "knight + sexton + ninja, River-bound",
            Kind::Emperor => "royal: one step along any radial",
            Kind::Stockbroker => "the pawn: one step along a forward radial",
            Kind::Stockfwazir => "a Stockbroker past the River: one step forward or back",
        }
    }

    /// The kind named by a letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        let u = c.to_ascii_uppercase() as u8;
        LETTERS.iter().position(|&l| l == u).map(Kind::from_index)
    }

    /// The material value in pawns (the Emperor, which is never captured, 0). Estimates, not
    /// measurements: a single mover by its reach on the cube (the orthogonal and standard-diagonal
    /// sliders 5, triagonal slider and hoppers and leapers 2-3), a compound a little under the sum
    /// of its parts, the River-bound triples less for staying on their own half (docs/alphabeta.md).
    pub const fn value(self) -> f32 {
        match self {
            Kind::Rook | Kind::Bishop => 5.0,
            Kind::Unicorn | Kind::Cannon | Kind::Arrow | Kind::Knight | Kind::Sexton | Kind::Ninja => 3.0,
            Kind::Sling => 2.0,
            Kind::Queen => 9.0,
            Kind::Duchess | Kind::Governor => 7.0,
            Kind::Tank | Kind::Churchwarden | Kind::Samurai | Kind::Oberon => 5.5,
            Kind::Cannonade | Kind::Arbalest => 4.5,
            Kind::Empress => 9.0,
            Kind::Arsenal | Kind::Canoe => 6.0,
            Kind::Emperor => 0.0,
            Kind::Stockbroker => 1.0,
            Kind::Stockfwazir => 1.5,
        }
    }

    /// True for the three triple compounds, which may not cross the River.
    pub const fn is_triple(self) -> bool {
        matches!(self, Kind::Empress | Kind::Arsenal | Kind::Canoe)
    }

    /// True for the 21 symmetric types a captured piece returns to the pool as.
    pub const fn is_poolable(self) -> bool {
        (self as usize) < NUM_POOL_KINDS
    }
}

/// Capability bits of a kind. Classes: 0 orthogonal, 1 standard diagonal, 2 triagonal.
pub mod caps {
    /// Slides along class c: `SLIDE << c`.
    pub const SLIDE: u16 = 1;
    /// Hops along class c: `HOP << c`.
    pub const HOP: u16 = 1 << 3;
    /// Leaps of class c (Knight, Sexton, Ninja): `LEAP << c`.
    pub const LEAP: u16 = 1 << 6;
    /// Steps one cell along every radial.
    pub const KING: u16 = 1 << 9;
    /// Stockbroker steps.
    pub const PAWN: u16 = 1 << 10;
    /// Stockfwazir steps.
    pub const FWAZIR: u16 = 1 << 11;
    /// May not move or capture beyond the River.
    pub const RIVER: u16 = 1 << 12;
}

const fn kind_caps(k: usize) -> u16 {
    use caps::*;
    let (o, d, t) = (0, 1, 2);
    match k {
        0 => SLIDE << o,
        1 => SLIDE << d,
        2 => SLIDE << t,
        3 => HOP << o,
        4 => HOP << d,
        5 => HOP << t,
        6 => LEAP << o,
        7 => LEAP << d,
        8 => LEAP << t,
        9 => (SLIDE << o) | (SLIDE << d),
        10 => (SLIDE << o) | (SLIDE << t),
        11 => (SLIDE << d) | (SLIDE << t),
        12 => (HOP << o) | (HOP << d),
        13 => (HOP << o) | (HOP << t),
        14 => (HOP << d) | (HOP << t),
        15 => (LEAP << o) | (LEAP << d),
        16 => (LEAP << o) | (LEAP << t),
        17 => (LEAP << d) | (LEAP << t),
        18 => (SLIDE * 7) | RIVER,
        19 => (HOP * 7) | RIVER,
        20 => (LEAP * 7) | RIVER,
        21 => KING,
        22 => PAWN,
        23 => FWAZIR,
        _ => 0,
    }
}

/// Capabilities by board byte (0 for an empty cell).
pub static CAPS: [u16; 64] = {
    let mut t = [0u16; 64];
    let mut k = 0;
    while k < NUM_KINDS {
        t[k + 1] = kind_caps(k);
        t[32 + k + 1] = kind_caps(k);
        k += 1;
    }
    t
};

/// The board byte of a piece.
#[inline(always)]
pub const fn piece_byte(color: Color, kind: Kind) -> u8 {
    ((color as u8) << 5) | (kind as u8 + 1)
}

/// Colour index (0/1) of a non-empty board byte.
#[inline(always)]
pub const fn byte_color(b: u8) -> usize {
    (b >> 5) as usize
}

/// Kind index of a non-empty board byte.
#[inline(always)]
pub const fn byte_kind(b: u8) -> usize {
    ((b & 31) - 1) as usize
}

/// The text letter of a board byte: upper case White, lower case Black.
pub fn byte_letter(b: u8) -> char {
    let l = LETTERS[byte_kind(b)] as char;
    if byte_color(b) == 0 {
        l
    } else {
        l.to_ascii_lowercase()
    }
}
