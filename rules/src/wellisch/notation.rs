//! Position text and move text (docs/notation-wellisch.md), with Wellisch labels `A1`..`K11`.

use std::fmt::Write;

use crate::error::{MoveError, PositionError};
use crate::hex::{parse_wellisch_label, Bits, Cell, WellischLabel, BOARD_R5};
use crate::player::Player;

use super::castling::{king_side, queen_side};
use super::geometry::{CASTLE, FAR_EDGE, RADIUS, TABLES};
use super::piece::{Move, Piece};
use super::position::Pos;
use super::state::{Options, Wellisch, DRAW_PLIES};

/// The cells of Wellisch row `row` (1..=11, `r = row - 6`) from column A towards K.
pub(crate) fn row_cells(row: i8) -> impl Iterator<Item = Cell> {
    let r = row - RADIUS - 1;
    let (s_hi, s_lo) = (RADIUS.min(RADIUS - r), (-RADIUS).max(-RADIUS - r));
    (s_lo..=s_hi).rev().map(move |s| Cell::new(-r - s, r).expect("row cell"))
}

/// The label of a cell, e.g. `D1`.
pub fn label(c: Cell) -> String {
    WellischLabel(c, RADIUS).to_string()
}

/// A syntax error in `field` at character `at`.
fn syntax(field: &'static str, at: usize, message: impl Into<String>) -> PositionError {
    PositionError::Syntax { field, at, message: message.into() }
}

/// Seat `0..3` from its digit `1`..`3`.
fn seat_digit(b: u8) -> Option<Player> {
    matches!(b, b'1'..=b'3').then(|| (b - b'1') as Player)
}

impl Wellisch {
    /// Writes the position text.
    pub(crate) fn write_text(&self) -> String {
        let pos = &self.pos;
        let mut out = String::new();
        for row in (1..=11).rev() {
            for c in row_cells(row) {
                match (pos.owner_at(c), pos.piece_at(c)) {
                    (Some(o), Some((Piece::Pawn, d))) if d != o => {
                        let _ = write!(out, "{}p{}", o + 1, d + 1);
                    }
                    (Some(o), Some((piece, _))) => {
                        let _ = write!(out, "{}{}", o + 1, piece.letter());
                    }
                    _ => out.push('.'),
                }
            }
            if row > 1 {
                out.push('/');
            }
        }
        let _ = write!(out, " {} ", pos.mover + 1);
        if pos.castling == 0 {
            out.push('-');
        }
        for seat in 0..3 {
            let (k, q) = (pos.castling & king_side(seat) != 0, pos.castling & queen_side(seat) != 0);
            if k || q {
                let _ = write!(out, "{}{}{}", seat + 1, if k { "K" } else { "" }, if q { "Q" } else { "" });
            }
        }
        out.push(' ');
        if pos.reserve == [[0; 3]; 3] {
            out.push('-');
        }
        for seat in 0..3 {
            if pos.has_reserve(seat) {
                let _ = write!(out, "{}", seat + 1);
                for (r, piece) in Piece::RESERVE.into_iter().enumerate() {
                    for _ in 0..pos.reserve[seat][r] {
                        out.push(piece.letter());
                    }
                }
            }
        }
        let _ = write!(out, " {}", self.clock);
        if self.options.takeover {
            out.push_str(" takeover");
        }
        if self.options.threefold {
            out.push_str(" threefold");
        }
        if self.n_captures > 0 {
            out.push_str(" out=");
            for (i, &(v, c)) in self.captures[..self.n_captures as usize].iter().enumerate() {
                let _ = write!(out, "{}{}:{}", if i > 0 { "," } else { "" }, v + 1, c + 1);
            }
        }
        out
    }

    /// Reads position text (the inverse of [`Wellisch::write_text`]).
    pub(crate) fn read_text(text: &str) -> Result<Wellisch, PositionError> {
        // Fields with their character offsets.
        let mut fields = Vec::new();
        let mut start = None;
        for (i, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            match (ch.is_whitespace(), start) {
                (true, Some(s)) => {
                    fields.push((s, &text[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        let names = ["board", "seat to move", "castling", "reserves", "clock"];
        if fields.len() < names.len() {
            return Err(syntax(
                names[fields.len()],
                text.len(),
                "missing field (expected: board seat castling reserves clock [takeover] [threefold] [out=V:C,...])",
            ));
        }
        let mut pos = Pos::EMPTY;
        read_board(&mut pos, fields[0].0, fields[0].1)?;

        let (at, f) = fields[1];
        pos.mover = match f.as_bytes() {
            [b] => seat_digit(*b).ok_or_else(|| syntax("seat to move", at, format!("'{f}' is not 1, 2 or 3")))? as u8,
            _ => return Err(syntax("seat to move", at, format!("'{f}' is not 1, 2 or 3"))),
        };

        let (at, f) = fields[2];
        if f != "-" {
            let mut seat = None;
            for (i, b) in f.bytes().enumerate() {
                match (b, seat) {
                    (b'1'..=b'3', _) => seat = seat_digit(b),
                    (b'K', Some(s)) if pos.castling & king_side(s) == 0 => pos.castling |= king_side(s),
                    (b'Q', Some(s)) if pos.castling & queen_side(s) == 0 => pos.castling |= queen_side(s),
                    _ => {
                        return Err(syntax(
                            "castling",
                            at + i,
                            format!("unexpected '{}' (expected '-' or e.g. 1KQ2K3Q)", b as char),
                        ))
                    }
                }
            }
        }

        let (at, f) = fields[3];
        if f != "-" {
            let mut seat = None;
            for (i, b) in f.bytes().enumerate() {
                match (b, seat, Piece::from_letter(b as char).and_then(Piece::reserve_index)) {
                    (b'1'..=b'3', _, _) => seat = seat_digit(b),
                    (_, Some(s), Some(r)) if pos.reserve[s][r] < 30 => pos.reserve[s][r] += 1,
                    _ => {
                        return Err(syntax(
                            "reserves",
                            at + i,
                            format!("unexpected '{}' (expected '-' or e.g. 1QR2N)", b as char),
                        ))
                    }
                }
            }
        }

        let (at, f) = fields[4];
        let clock: u8 = f
            .parse()
            .ok()
            .filter(|&n| n <= DRAW_PLIES)
            .ok_or_else(|| syntax("clock", at, format!("'{f}' is not a number 0..=100")))?;

        let mut options = Options::default();
        let mut captures = Vec::new();
        for &(at, f) in &fields[5..] {
            match f {
                "takeover" if !options.takeover => options.takeover = true,
                "threefold" if !options.threefold => options.threefold = true,
                _ if f.starts_with("out=") && captures.is_empty() => {
                    for (j, part) in f[4..].split(',').enumerate() {
                        let b = part.as_bytes();
                        let pair = match b {
                            [v, b':', c] => seat_digit(*v).zip(seat_digit(*c)).filter(|(v, c)| v != c),
                            _ => None,
                        };
                        let (v, c) = pair.ok_or_else(|| {
                            syntax("out", at + 4, format!("capture {} '{part}' is not VICTIM:CAPTOR (e.g. 2:1)", j + 1))
                        })?;
                        captures.push((v as u8, c as u8));
                    }
                }
                _ => {
                    return Err(syntax(
                        "options",
                        at,
                        format!("unknown or repeated option '{f}' (expected takeover, threefold, out=V:C)"),
                    ))
                }
            }
        }
        validate(&pos, options, &captures)?;
        Ok(Wellisch::from_parts(pos, options, clock, &captures))
    }

    /// Move text: `A2-A3`, `A10-A11=Q`, castling `D1-E1`, `pass`, delayed promotion `I11=R,A2-A3`.
    pub(crate) fn write_move(&self, mv: Move) -> String {
        let mut s = String::new();
        if let Some((pawn, r)) = mv.delayed() {
            let _ = write!(s, "{}={},", label(pawn), Piece::RESERVE[r].letter());
        }
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => {
                let _ = write!(s, "{}-{}", label(from), label(to));
                if let Some(r) = mv.promotion() {
                    let _ = write!(s, "={}", Piece::RESERVE[r].letter());
                }
            }
            _ => s.push_str("pass"),
        }
        s
    }

    /// Reads move text and finds the legal move it names, or says why there is none.
    pub(crate) fn read_move(&self, text: &str) -> Result<Move, MoveError> {
        let syn = |message: String| MoveError::Syntax { text: text.to_string(), message };
        let illegal = |reason: String| MoveError::Illegal { text: text.to_string(), reason };
        let cell = |l: &str| {
            parse_wellisch_label(l, RADIUS).ok_or_else(|| syn(format!("'{l}' is not a Wellisch cell A1..K11")))
        };
        let piece = |l: &str| {
            Piece::from_letter(l.chars().next().unwrap_or(' '))
                .and_then(Piece::reserve_index)
                .filter(|_| l.len() == 1)
                .ok_or_else(|| syn(format!("'{l}' is not a promotion piece Q, R or N")))
        };
        let (delayed, body) = match text.split_once(',') {
            Some((d, body)) => {
                let (c, p) =
                    d.split_once('=').ok_or_else(|| syn(format!("delayed promotion '{d}' should read like I11=R")))?;
                (Some((cell(c)?, piece(p)?)), body)
            }
            None => (None, text),
        };
        let parsed = if body == "pass" {
            None
        } else {
            let (squares, promo) = match body.split_once('=') {
                Some((sq, p)) => (sq, Some(piece(p)?)),
                None => (body, None),
            };
            let (a, b) =
                squares.split_once('-').ok_or_else(|| syn(format!("'{body}' is not FROM-TO, FROM-TO=Q or pass")))?;
            Some((cell(a)?, cell(b)?, promo))
        };

        if self.end.is_some() {
            return Err(illegal("the game is over".into()));
        }
        let mut moves = Vec::new();
        self.moves(&mut moves);
        let found = moves.iter().copied().find(|m| {
            m.delayed() == delayed
                && match parsed {
                    None => m.is_pass(),
                    Some((f, t, p)) => m.from() == Some(f) && m.to() == Some(t) && m.promotion() == p,
                }
        });
        if let Some(m) = found {
            return Ok(m);
        }
        Err(illegal(self.why_illegal(delayed, parsed)))
    }

    /// Explains why a well-formed move is not legal here.
    fn why_illegal(&self, delayed: Option<(Cell, usize)>, parsed: Option<(Cell, Cell, Option<usize>)>) -> String {
        let pos = &self.pos;
        let p = pos.mover as usize;
        let mut after = pos;
        let promoted;
        match delayed {
            None if pos.must_promote() => {
                return format!(
                    "P{} must first promote a waiting pawn (e.g. {}=Q,...)",
                    p + 1,
                    label(Bits(pos.waiting(p)).next().expect("waiting pawn"))
                );
            }
            None => {}
            Some((c, r)) => {
                if pos.waiting(p) & c.bit() == 0 {
                    return format!("{} is not a pawn of P{} waiting on its promotion edge", label(c), p + 1);
                }
                if pos.reserve[p][r] == 0 {
                    return format!("P{}'s reserve holds no {}", p + 1, Piece::RESERVE[r].letter());
                }
                let mut x = *pos;
                x.promote_waiting(c, r);
                promoted = x;
                after = &promoted;
            }
        }
        let Some((from, to, promo)) = parsed else {
            return "a pass is only allowed when no other move is legal".into();
        };
        let Some(owner) = after.owner_at(from) else {
            return format!("no piece on {}", label(from));
        };
        if owner != p {
            return format!("the piece on {} belongs to P{}, but P{} is to move", label(from), owner + 1, p + 1);
        }
        let (piece, dir) = after.piece_at(from).expect("piece");
        let name = format!("{:?}", piece).to_lowercase();
        if let Some(cells) = (piece == Piece::King).then_some(CASTLE[p]) {
            if (to == cells.krook || to == cells.qrook)
                && after.owner[p] & after.kinds[Piece::Rook as usize] & to.bit() != 0
            {
                return "castling is not allowed here (king or rook moved, king in check, queen's cell occupied, or a landing cell attacked)".into();
            }
        }
        if after.owner[p] & to.bit() != 0 && !(piece == Piece::King && (to == CASTLE[p].krook || to == CASTLE[p].qrook))
        {
            return format!("{} holds a piece of P{} already", label(to), p + 1);
        }
        let occ = after.occupied();
        let reach = match piece {
            Piece::King => BOARD_R5.edge_neighbours(from),
            Piece::Queen => BOARD_R5.rook_attacks(from, occ) | BOARD_R5.vertex_neighbours(from),
            Piece::Rook => BOARD_R5.rook_attacks(from, occ),
            Piece::Knight => BOARD_R5.vertex_neighbours(from),
            Piece::Pawn => TABLES.pawn_targets[dir][from.index()],
        } & !after.owner[p];
        if reach & to.bit() == 0 {
            return format!("the {name} on {} cannot move to {}", label(from), label(to));
        }
        let promoting = piece == Piece::Pawn && FAR_EDGE[dir] & to.bit() != 0 && after.has_reserve(p);
        match (promoting, promo) {
            (false, Some(_)) => {
                return "only a pawn reaching its promotion edge with a non-empty reserve promotes".into()
            }
            (true, None) => {
                return format!("the pawn must promote on {}: add =Q, =R or =N from the reserve", label(to))
            }
            (true, Some(r)) if after.reserve[p][r] == 0 => {
                return format!("P{}'s reserve holds no {}", p + 1, Piece::RESERVE[r].letter())
            }
            _ => {}
        }
        format!("it would leave P{}'s king attacked", p + 1)
    }
}

/// Reads the board field into `pos`.
fn read_board(pos: &mut Pos, at0: usize, f: &str) -> Result<(), PositionError> {
    let rows: Vec<&str> = f.split('/').collect();
    if rows.len() != 11 {
        return Err(syntax("board", at0, format!("{} rows, expected 11 separated by '/' (row 11 first)", rows.len())));
    }
    let mut at = at0;
    for (i, rowtext) in rows.iter().enumerate() {
        let row = 11 - i as i8;
        let cells: Vec<Cell> = row_cells(row).collect();
        let b = rowtext.as_bytes();
        let (mut j, mut k) = (0, 0);
        while j < b.len() {
            if k >= cells.len() {
                return Err(syntax("board", at + j, format!("row {row} has more than {} cells", cells.len())));
            }
            let c = cells[k];
            if b[j] == b'.' {
                j += 1;
            } else {
                let owner = seat_digit(b[j]).ok_or_else(|| {
                    syntax(
                        "board",
                        at + j,
                        format!("unexpected '{}' (expected '.' or a seat 1-3 and a piece)", b[j] as char),
                    )
                })?;
                match b.get(j + 1) {
                    Some(b'p') => {
                        let dir = b.get(j + 2).and_then(|&d| seat_digit(d)).ok_or_else(|| {
                            syntax("board", at + j + 2, "expected the pawn's direction seat 1-3 after 'p'")
                        })?;
                        pos.put(c, Piece::Pawn, owner, dir);
                        j += 3;
                    }
                    Some(&l) => {
                        let piece = Piece::from_letter(l as char).ok_or_else(|| {
                            syntax(
                                "board",
                                at + j + 1,
                                format!("unexpected '{}' (expected K, Q, R, N, P or p)", l as char),
                            )
                        })?;
                        pos.put(c, piece, owner, owner);
                        j += 2;
                    }
                    None => return Err(syntax("board", at + j + 1, "a seat digit must be followed by a piece letter")),
                }
            }
            k += 1;
        }
        if k != cells.len() {
            return Err(syntax("board", at + b.len(), format!("row {row} has {k} cells, expected {}", cells.len())));
        }
        at += b.len() + 1;
    }
    Ok(())
}

/// Checks that the parsed position can arise under the rules it names.
fn validate(pos: &Pos, options: Options, captures: &[(u8, u8)]) -> Result<(), PositionError> {
    let invalid = |m: String| Err(PositionError::Invalid(m));
    let max = if options.takeover { 2 } else { 1 };
    if captures.len() > max {
        return invalid(format!("{} captured kings listed, at most {max} under these rules", captures.len()));
    }
    let mut alive = [true; 3];
    for &(v, c) in captures {
        if !alive[v as usize] || !alive[c as usize] {
            return invalid(format!("capture {}:{} names a seat already out", v + 1, c + 1));
        }
        alive[v as usize] = false;
    }
    for seat in 0..3 {
        let kings = (pos.kinds[Piece::King as usize] & pos.owner[seat]).count_ones();
        if alive[seat] && kings != 1 {
            return invalid(format!("P{} has {kings} kings, expected 1", seat + 1));
        }
        if !alive[seat] && kings != 0 {
            return invalid(format!("P{} is out but still has a king", seat + 1));
        }
        if !alive[seat] && options.takeover && captures.len() < 2 && (pos.owner[seat] != 0 || pos.has_reserve(seat)) {
            return invalid(format!("P{} is out under the takeover rule but still owns pieces", seat + 1));
        }
        for side in [king_side(seat), queen_side(seat)] {
            if pos.castling & side == 0 {
                continue;
            }
            let cells = CASTLE[seat];
            let rook = if side == king_side(seat) { cells.krook } else { cells.qrook };
            let own = pos.owner[seat];
            if !alive[seat]
                || own & pos.kinds[Piece::King as usize] & cells.king.bit() == 0
                || own & pos.kinds[Piece::Rook as usize] & rook.bit() == 0
            {
                return invalid(format!(
                    "P{} may not castle to {}: its king and rook are not on their start cells",
                    seat + 1,
                    label(rook)
                ));
            }
        }
    }
    let ended = captures.len() == max;
    if !ended && !alive[pos.mover as usize] {
        return invalid(format!("P{} is to move but is out", pos.mover + 1));
    }
    Ok(())
}
