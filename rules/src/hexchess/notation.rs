//! Position text (FEN-like, see docs/notation-hex.md) and move text (`f5-f6`, `e10-e11=Q`).

use std::fmt::Write;

use crate::error::{MoveError, PositionError};
use crate::hex::{parse_glinski_label, Cell, GlinskiLabel};
use crate::player::Player;

use super::movegen::{pawn_attacks, pawn_starts, promotion_cells};
use super::piece::{Piece, BLACK, WHITE};
use super::position::{forward, HexChess, HexMove, NO_CELL};
use super::rules::HexRules;

/// The cells of Glinski rank `rank` (1 at the bottom of every file), files left to right.
fn rank_cells<V: HexRules>(rank: i8) -> impl Iterator<Item = Cell> {
    let radius = V::BOARD.radius();
    (-radius..=radius).filter_map(move |q| {
        let bottom = (-radius).max(-radius - q);
        let top = radius.min(radius - q);
        let r = bottom + rank - 1;
        if r <= top {
            Cell::new(q, r)
        } else {
            None
        }
    })
}

/// The label of `cell` in the variant's notation.
pub(crate) fn label<V: HexRules>(cell: Cell) -> GlinskiLabel {
    GlinskiLabel(cell, V::BOARD.radius())
}

/// A syntax error in field `field` at character `at`.
fn syntax(field: &'static str, at: usize, message: impl Into<String>) -> PositionError {
    PositionError::Syntax { field, at, message: message.into() }
}

impl<V: HexRules> HexChess<V> {
    /// Reads position text: board ranks top to bottom, side, en-passant cell, clocks.
    pub(crate) fn parse_text(text: &str) -> Result<Self, PositionError> {
        let fields: Vec<(usize, &str)> =
            text.split_whitespace().map(|f| (f.as_ptr() as usize - text.as_ptr() as usize, f)).collect();
        if fields.len() != 5 {
            let at = fields.get(5).map_or(text.len(), |f| f.0);
            return Err(syntax(
                "fields",
                at,
                format!(
                    "expected 5 fields (board, side, en passant, halfmove clock, fullmove number), found {}",
                    fields.len()
                ),
            ));
        }
        let mut pos = HexChess::<V>::empty();
        pos.parse_board(fields[0].0, fields[0].1)?;

        let (at, side) = fields[1];
        pos.side = match side {
            "w" => WHITE as u8,
            "b" => BLACK as u8,
            _ => return Err(syntax("side to move", at, format!("expected 'w' or 'b', found '{side}'"))),
        };
        if pos.side as Player == BLACK {
            pos.hash ^= super::zobrist::ZOBRIST.black_to_move;
        }

        let (at, ep) = fields[2];
        if ep != "-" {
            let radius = V::BOARD.radius();
            let cell = parse_glinski_label(ep, radius)
                .ok_or_else(|| syntax("en passant", at, format!("expected '-' or a cell, found '{ep}'")))?;
            pos.ep = cell.index() as u8;
            pos.hash ^= super::zobrist::ZOBRIST.en_passant[cell.index()];
        }

        let (at, half) = fields[3];
        pos.halfmove = half
            .parse()
            .map_err(|_| syntax("halfmove clock", at, format!("expected a number 0..=65535, found '{half}'")))?;
        let (at, full) = fields[4];
        pos.fullmove = match full.parse() {
            Ok(n) if n >= 1 => n,
            _ => return Err(syntax("fullmove number", at, format!("expected a number 1..=65535, found '{full}'"))),
        };
        pos.validate()?;
        Ok(pos)
    }

    /// Reads the board field (which starts at character `start` of the whole text).
    fn parse_board(&mut self, start: usize, board: &str) -> Result<(), PositionError> {
        let top = 2 * V::BOARD.radius() + 1;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != top as usize {
            return Err(syntax(
                "board",
                start,
                format!("expected {top} ranks separated by '/', found {}", ranks.len()),
            ));
        }
        let mut at = start;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = top - i as i8;
            let cells: Vec<Cell> = rank_cells::<V>(rank).collect();
            let mut next: usize = 0;
            let mut chars = rank_text.char_indices().peekable();
            while let Some((offset, ch)) = chars.next() {
                let here = at + offset;
                if let Some(d) = ch.to_digit(10) {
                    let mut run = d as usize;
                    while let Some(&(_, c)) = chars.peek() {
                        let Some(d) = c.to_digit(10) else { break };
                        // Saturating: a run longer than the rank is refused below, and a
                        // wrapped one must not pass for a short run.
                        run = run.saturating_mul(10).saturating_add(d as usize);
                        chars.next();
                    }
                    if run == 0 {
                        return Err(syntax("board", here, format!("rank {rank}: an empty run cannot be 0")));
                    }
                    next = next.saturating_add(run);
                } else {
                    let piece = Piece::from_letter(ch).filter(|p| V::PIECES.contains(p)).ok_or_else(|| {
                        syntax("board", here, format!("rank {rank}: '{ch}' is not a piece of {} or a digit", V::NAME))
                    })?;
                    let side = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
                    if let Some(&cell) = cells.get(next) {
                        self.put(side, piece, cell);
                    }
                    next += 1;
                }
                if next > cells.len() {
                    let message = format!("rank {rank} describes more than its {} cells", cells.len());
                    return Err(syntax("board", here, message));
                }
            }
            if next < cells.len() {
                return Err(syntax(
                    "board",
                    at + rank_text.len(),
                    format!("rank {rank} describes {next} of its {} cells", cells.len()),
                ));
            }
            at += rank_text.len() + 1;
        }
        Ok(())
    }

    /// Rejects positions the rules cannot reach or handle.
    fn validate(&self) -> Result<(), PositionError> {
        let invalid = |m: String| Err(PositionError::Invalid(m));
        for (side, name) in [(WHITE, "White"), (BLACK, "Black")] {
            let kings = (self.by_piece[Piece::King.index()] & self.by_side[side]).count_ones();
            if kings != 1 {
                return invalid(format!("{name} has {kings} kings, expected 1"));
            }
            let stuck = self.by_piece[Piece::Pawn.index()] & self.by_side[side] & promotion_cells::<V>(side);
            if let Some(cell) = crate::hex::Bits(stuck).next() {
                return invalid(format!("{name} pawn on {}, its promotion cell", label::<V>(cell)));
            }
        }
        let us = self.side as Player;
        let them = us ^ 1;
        let occupied = self.by_side[0] | self.by_side[1];
        if self.attacked(self.king(them), us, occupied, self.by_side[us]) {
            return invalid("the side not to move is in check".to_string());
        }
        if self.ep != NO_CELL {
            let ep = Cell::from_index_unchecked(self.ep as u32);
            let name = label::<V>(ep);
            if !V::DOUBLE_STEP {
                return invalid(format!("en-passant cell {name}, but {} has no double steps", V::NAME));
            }
            // The opponent's pawn stepped from `origin` over `ep` to `landed`.
            let back = forward(them);
            let landed = V::BOARD.step(ep, back);
            let origin = V::BOARD.step(ep, back.opposite());
            let pawn_there = landed.is_some_and(|c| self.piece_at(c) == Some((them, Piece::Pawn)));
            let origin_ok = origin.is_some_and(|c| pawn_starts::<V>(them) & c.bit() != 0 && occupied & c.bit() == 0);
            if occupied & ep.bit() != 0 || !pawn_there || !origin_ok {
                return invalid(format!(
                    "en-passant cell {name} does not follow a double step of the side that just moved"
                ));
            }
        }
        Ok(())
    }

    /// Writes position text.
    pub(crate) fn write_text(&self) -> String {
        let mut out = String::with_capacity(96);
        let top = 2 * V::BOARD.radius() + 1;
        for rank in (1..=top).rev() {
            let mut empty = 0;
            for cell in rank_cells::<V>(rank) {
                match self.piece_at(cell) {
                    None => empty += 1,
                    Some((side, piece)) => {
                        if empty > 0 {
                            write!(out, "{empty}").unwrap();
                            empty = 0;
                        }
                        let letter = piece.letter();
                        out.push(if side == WHITE { letter } else { letter.to_ascii_lowercase() });
                    }
                }
            }
            if empty > 0 {
                write!(out, "{empty}").unwrap();
            }
            if rank > 1 {
                out.push('/');
            }
        }
        out.push_str(if self.side as Player == WHITE { " w " } else { " b " });
        match self.en_passant() {
            Some(cell) => write!(out, "{}", label::<V>(cell)).unwrap(),
            None => out.push('-'),
        }
        write!(out, " {} {}", self.halfmove, self.fullmove).unwrap();
        out
    }

    /// Writes move text: `from-to`, plus `=X` for a promotion.
    pub(crate) fn write_move(&self, mv: HexMove) -> String {
        let mut s = format!("{}-{}", label::<V>(mv.from), label::<V>(mv.to));
        if let Some(p) = mv.promotion {
            s.push('=');
            s.push(p.letter());
        }
        s
    }

    /// Reads move text and finds the legal move it names, or says why there is none.
    pub(crate) fn read_move(&self, text: &str) -> Result<HexMove, MoveError> {
        let err_syntax = |message: String| MoveError::Syntax { text: text.to_string(), message };
        let illegal = |reason: String| MoveError::Illegal { text: text.to_string(), reason };
        let radius = V::BOARD.radius();
        let t = text.trim();
        let sep = t
            .find(['-', 'x'])
            .ok_or_else(|| err_syntax("expected FROM-TO (e.g. f5-f6, or f5xg6 for a capture)".to_string()))?;
        let capture_mark = t.as_bytes()[sep] == b'x';
        let (from_text, rest) = (&t[..sep], &t[sep + 1..]);
        let (to_text, promo_text) = match rest.split_once('=') {
            Some((to, p)) => (to, Some(p)),
            None => (rest, None),
        };
        let cell = |s: &str, what: &str| {
            parse_glinski_label(s, radius)
                .ok_or_else(|| err_syntax(format!("{what} cell '{s}' is not a cell of the {} board", V::NAME)))
        };
        let from = cell(from_text, "origin")?;
        let to = cell(to_text, "destination")?;
        let promotion = match promo_text {
            None => None,
            Some(p) => {
                let mut chars = p.chars();
                match (chars.next().and_then(Piece::from_letter), chars.next()) {
                    (Some(piece), None) => Some(piece),
                    _ => {
                        let letters: Vec<String> = V::PROMOTIONS.iter().map(|p| p.letter().to_string()).collect();
                        let message = format!("promotion '{p}' is not one piece letter ({})", letters.join(" "));
                        return Err(err_syntax(message));
                    }
                }
            }
        };

        let mut moves = Vec::new();
        crate::Game::legal_moves(self, &mut moves);
        if moves.is_empty() {
            return Err(illegal("the game is over".to_string()));
        }
        let us = self.side as Player;
        let Some((side, piece)) = self.piece_at(from) else {
            return Err(illegal(format!("no piece on {}", label::<V>(from))));
        };
        if side != us {
            return Err(illegal(format!(
                "not your piece: the {} on {} is the opponent's",
                piece.name(),
                label::<V>(from)
            )));
        }
        let reaches_last = piece == Piece::Pawn && promotion_cells::<V>(us) & to.bit() != 0;
        if let Some(p) = promotion {
            if !reaches_last {
                return Err(illegal("only a pawn reaching the last cell of its file promotes".to_string()));
            }
            if !V::PROMOTIONS.contains(&p) {
                return Err(illegal(format!("a pawn cannot promote to a {} in {}", p.name(), V::NAME)));
            }
        } else if reaches_last && self.pseudo_targets(from) & to.bit() != 0 {
            let choices: Vec<String> = V::PROMOTIONS.iter().map(|p| p.letter().to_string()).collect();
            return Err(illegal(format!("a promotion needs its piece: add ={}", choices.join(" or ="))));
        }
        if let Some(&mv) = moves.iter().find(|m| m.from == from && m.to == to && m.promotion == promotion) {
            let captures =
                self.by_side[us ^ 1] & to.bit() != 0 || (piece == Piece::Pawn && to.index() as u8 == self.ep);
            if capture_mark && !captures {
                return Err(illegal(format!("'x' marks a capture, but nothing is captured on {}", label::<V>(to))));
            }
            return Ok(mv);
        }
        if self.pseudo_targets(from) & to.bit() != 0 {
            let reason =
                if self.in_check() { "does not get the king out of check" } else { "leaves the king attacked" };
            return Err(illegal(reason.to_string()));
        }
        Err(illegal(format!("the {} on {} cannot move to {}", piece.name(), label::<V>(from), label::<V>(to))))
    }

    /// Where the piece on `from` could move if its own king's safety did not matter.
    fn pseudo_targets(&self, from: Cell) -> u128 {
        let b = V::BOARD;
        let Some((side, piece)) = self.piece_at(from) else { return 0 };
        let own = self.by_side[side];
        let opp = self.by_side[side ^ 1];
        let occupied = own | opp;
        let a = match piece {
            Piece::King => b.king(from),
            Piece::Knight => b.knight(from),
            Piece::Bishop => b.bishop_attacks(from, occupied),
            Piece::Rook => b.rook_attacks(from, occupied),
            Piece::Queen => b.bishop_attacks(from, occupied) | b.rook_attacks(from, occupied),
            Piece::Pawn => {
                let mut pushes = 0;
                if let Some(one) = b.step(from, forward(side)).filter(|c| occupied & c.bit() == 0) {
                    pushes |= one.bit();
                    if V::DOUBLE_STEP && pawn_starts::<V>(side) & from.bit() != 0 {
                        if let Some(two) = b.step(one, forward(side)).filter(|c| occupied & c.bit() == 0) {
                            pushes |= two.bit();
                        }
                    }
                }
                let ep = if self.ep != NO_CELL { 1u128 << self.ep } else { 0 };
                pushes | (pawn_attacks::<V>(side, from.bit()) & (opp | ep))
            }
        };
        a & !own
    }
}
