//! Test helpers: an independent, deliberately naive reference move generator for Glinski Chess and
//! Mini Hexchess written straight from the rules (docs/rules/glinski.md,
//! docs/rules/mini-hexchess.md; a map of cube coordinates, rays walked one step at a time, legality
//! by making the move and scanning every enemy piece), a position-text builder, in `wellisch`
//! the helpers of the Wellisch tests, and in `perft_file` the reader of the perft reference files.

#![allow(dead_code)]

pub mod perft_file;
pub mod wellisch;

use std::collections::{BTreeSet, HashMap};

use rules::hex::{parse_glinski_label, Cell, GlinskiLabel};
use rules::hexchess::{HexChess, HexRules, Piece, BLACK, WHITE};
use rules::Game;

/// Which of the two variants the reference follows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Glinski,
    Mini,
}

/// A move as plain data: origin, destination, promotion piece.
pub type Plain = (Cell, Cell, Option<Piece>);

const EDGE: [(i8, i8); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)];
const VERTEX: [(i8, i8); 6] = [(1, 1), (-1, -1), (2, -1), (-2, 1), (-1, 2), (1, -2)];

fn knight_leaps() -> Vec<(i8, i8)> {
    let mut out = Vec::new();
    for (a, b, c) in [(1i8, 2i8, -3i8), (-1, -2, 3)] {
        for p in [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)] {
            out.push((p.0, p.1));
        }
    }
    out
}

/// The reference position: a map from `(q, r)` to (side, piece).
#[derive(Clone, Debug)]
pub struct Reference {
    pub kind: Kind,
    pub radius: i8,
    pub board: HashMap<(i8, i8), (usize, Piece)>,
    pub side: usize,
    pub ep: Option<(i8, i8)>,
}

impl Reference {
    /// Reads the board of a game through its public API.
    pub fn of<V: HexRules>(game: &HexChess<V>, kind: Kind) -> Reference {
        let radius = if kind == Kind::Glinski { 5 } else { 3 };
        let mut board = HashMap::new();
        for i in 0..121 {
            if let Some(c) = Cell::from_index(i) {
                if c.ring() <= radius {
                    if let Some(p) = game.piece_at(c) {
                        board.insert((c.q(), c.r()), p);
                    }
                }
            }
        }
        Reference { kind, radius, board, side: game.to_move(), ep: game.en_passant().map(|c| (c.q(), c.r())) }
    }

    fn on(&self, (q, r): (i8, i8)) -> bool {
        q.abs() <= self.radius && r.abs() <= self.radius && (q + r).abs() <= self.radius
    }

    fn forward(side: usize) -> (i8, i8) {
        if side == WHITE {
            (0, 1)
        } else {
            (0, -1)
        }
    }

    fn pawn_captures(&self, side: usize) -> [(i8, i8); 2] {
        let white = match self.kind {
            Kind::Glinski => [(1, 0), (-1, 1)],
            Kind::Mini => [(1, 1), (-1, 2)],
        };
        if side == WHITE {
            white
        } else {
            // Black's are White's reflected top-bottom: (q, r, s) -> (q, s, r).
            white.map(|(q, r)| (q, -q - r))
        }
    }

    fn is_start(&self, side: usize, at: (i8, i8)) -> bool {
        if self.kind != Kind::Glinski {
            return false;
        }
        let labels = if side == WHITE {
            ["b1", "c2", "d3", "e4", "f5", "g4", "h3", "i2", "k1"]
        } else {
            ["b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "k7"]
        };
        labels.iter().any(|l| {
            let c = parse_glinski_label(l, 5).unwrap();
            (c.q(), c.r()) == at
        })
    }

    fn promotions(&self) -> Vec<Piece> {
        match self.kind {
            Kind::Glinski => vec![Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight],
            Kind::Mini => vec![Piece::Rook, Piece::Bishop, Piece::Knight],
        }
    }

    fn add(a: (i8, i8), d: (i8, i8)) -> (i8, i8) {
        (a.0 + d.0, a.1 + d.1)
    }

    /// Whether the piece `piece` of `side` on `from` attacks `target`.
    fn attacks(&self, from: (i8, i8), side: usize, piece: Piece, target: (i8, i8)) -> bool {
        let slide = |dirs: &[(i8, i8)]| {
            dirs.iter().any(|&d| {
                let mut c = Self::add(from, d);
                while self.on(c) {
                    if c == target {
                        return true;
                    }
                    if self.board.contains_key(&c) {
                        return false;
                    }
                    c = Self::add(c, d);
                }
                false
            })
        };
        match piece {
            Piece::Pawn => self.pawn_captures(side).iter().any(|&d| Self::add(from, d) == target),
            Piece::Knight => knight_leaps().iter().any(|&d| Self::add(from, d) == target),
            Piece::King => EDGE.iter().chain(VERTEX.iter()).any(|&d| Self::add(from, d) == target),
            Piece::Rook => slide(&EDGE),
            Piece::Bishop => slide(&VERTEX),
            Piece::Queen => slide(&EDGE) || slide(&VERTEX),
        }
    }

    /// Whether `side`'s king is attacked.
    pub fn king_attacked(&self, side: usize) -> bool {
        let king = *self.board.iter().find(|(_, &(s, p))| s == side && p == Piece::King).expect("a king").0;
        self.board.iter().any(|(&at, &(s, p))| s != side && self.attacks(at, s, p, king))
    }

    /// Moves that follow the pieces' movement rules, ignoring the own king's safety.
    pub fn pseudo_moves(&self) -> Vec<(i8, i8, i8, i8, Option<Piece>)> {
        let mut out = Vec::new();
        let us = self.side;
        for (&from, &(s, piece)) in &self.board {
            if s != us {
                continue;
            }
            let mut targets: Vec<(i8, i8)> = Vec::new();
            match piece {
                Piece::Pawn => {
                    let f = Self::forward(us);
                    let one = Self::add(from, f);
                    if self.on(one) && !self.board.contains_key(&one) {
                        targets.push(one);
                        let two = Self::add(one, f);
                        if self.is_start(us, from) && self.on(two) && !self.board.contains_key(&two) {
                            targets.push(two);
                        }
                    }
                    for d in self.pawn_captures(us) {
                        let t = Self::add(from, d);
                        let enemy = self.board.get(&t).is_some_and(|&(s, _)| s != us);
                        if self.on(t) && (enemy || self.ep == Some(t)) {
                            targets.push(t);
                        }
                    }
                    for t in targets {
                        let last = !self.on(Self::add(t, f));
                        if last {
                            for p in self.promotions() {
                                out.push((from.0, from.1, t.0, t.1, Some(p)));
                            }
                        } else {
                            out.push((from.0, from.1, t.0, t.1, None));
                        }
                    }
                    continue;
                }
                _ => {
                    for q in -self.radius..=self.radius {
                        for r in -self.radius..=self.radius {
                            let t = (q, r);
                            if self.on(t)
                                && self.attacks(from, us, piece, t)
                                && self.board.get(&t).is_none_or(|&(s, _)| s != us)
                            {
                                targets.push(t);
                            }
                        }
                    }
                }
            }
            for t in targets {
                out.push((from.0, from.1, t.0, t.1, None));
            }
        }
        out
    }

    /// The position after a pseudo-legal move (no clocks; only what legality needs).
    pub fn after(&self, (fq, fr, tq, tr, promo): (i8, i8, i8, i8, Option<Piece>)) -> Reference {
        let mut next = self.clone();
        let (from, to) = ((fq, fr), (tq, tr));
        let (side, piece) = next.board.remove(&from).unwrap();
        if piece == Piece::Pawn && Some(to) == self.ep && !self.board.contains_key(&to) {
            let back = Self::forward(side);
            next.board.remove(&(to.0 - back.0, to.1 - back.1));
        }
        next.board.insert(to, (side, promo.unwrap_or(piece)));
        next.ep = None;
        if piece == Piece::Pawn && (tr - fr).abs() == 2 && tq == fq {
            next.ep = Some((fq, (fr + tr) / 2));
        }
        next.side ^= 1;
        next
    }

    /// The legal moves as plain data.
    pub fn legal(&self) -> BTreeSet<Plain> {
        self.pseudo_moves()
            .into_iter()
            .filter(|&m| !self.after(m).king_attacked(self.side))
            .map(|(fq, fr, tq, tr, p)| (Cell::new(fq, fr).unwrap(), Cell::new(tq, tr).unwrap(), p))
            .collect()
    }

    /// Reference perft (slow).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves: Vec<_> =
            self.pseudo_moves().into_iter().filter(|&m| !self.after(m).king_attacked(self.side)).collect();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.after(m).perft(depth - 1)).sum()
    }
}

/// The legal moves of a game as plain data.
pub fn plain_moves<G: Game<Move = rules::hexchess::HexMove>>(game: &G) -> BTreeSet<Plain> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let set: BTreeSet<Plain> = moves.iter().map(|m| (m.from, m.to, m.promotion)).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves generated");
    set
}

/// Builds position text from piece placements like `("g1", 'K')` (upper case White, lower case
/// Black) and the trailing fields (`"w - 0 1"`), on the board of radius `radius`.
pub fn position_text(radius: i8, pieces: &[(&str, char)], rest: &str) -> String {
    let files = &"abcdefghikl"[..(2 * radius + 1) as usize];
    let mut ranks = Vec::new();
    for rank in (1..=2 * radius + 1).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for f in files.chars() {
            let label = format!("{f}{rank}");
            if parse_glinski_label(&label, radius).is_none() {
                continue;
            }
            match pieces.iter().find(|(l, _)| *l == label) {
                Some(&(_, p)) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    format!("{} {rest}", ranks.join("/"))
}

/// A move's text through the labels (for readable assertion messages).
pub fn plain_text(radius: i8, (from, to, promo): Plain) -> String {
    let mut s = format!("{}-{}", GlinskiLabel(from, radius), GlinskiLabel(to, radius));
    if let Some(p) = promo {
        s.push('=');
        s.push(p.letter());
    }
    s
}

/// The legal move texts of a game, sorted.
pub fn move_texts<G: Game>(game: &G) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| game.move_text(m)).collect();
    texts.sort();
    texts
}

/// Both sides, for loops.
pub const SIDES: [usize; 2] = [WHITE, BLACK];

/// The text of a game's position with every cell moved by `map` and, if `swap`, the colours and
/// the side to move exchanged (clocks kept).
pub fn transformed_text<V: HexRules>(game: &HexChess<V>, map: fn(Cell) -> Cell, swap: bool) -> String {
    let radius = V::BOARD.radius();
    let mut pieces: Vec<(String, char)> = Vec::new();
    for &c in V::BOARD.cells() {
        if let Some((side, piece)) = game.piece_at(c) {
            let white = (side == WHITE) != swap;
            let ch = if white { piece.letter() } else { piece.letter().to_ascii_lowercase() };
            pieces.push((GlinskiLabel(map(c), radius).to_string(), ch));
        }
    }
    let text = game.to_text();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let side = if (game.to_move() == WHITE) != swap { "w" } else { "b" };
    let ep = game.en_passant().map_or("-".to_string(), |c| GlinskiLabel(map(c), radius).to_string());
    let borrowed: Vec<(&str, char)> = pieces.iter().map(|(l, c)| (l.as_str(), *c)).collect();
    position_text(radius, &borrowed, &format!("{side} {ep} {} {}", fields[3], fields[4]))
}
