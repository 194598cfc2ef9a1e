//! Position text and move text (documented in docs/notation-weltschach.md).

use super::attacks::facing;
use super::geometry::Cell;
use super::movegen::{generate, generate_pseudo};
use super::piece::{byte_color, byte_kind, byte_letter, Color, Kind, NUM_POOL_KINDS};
use super::position::{Move, Weltschach};
use crate::error::{MoveError, PositionError};

fn syntax(field: &'static str, at: usize, message: impl Into<String>) -> PositionError {
    PositionError::Syntax { field, at, message: message.into() }
}

/// Writes the position text: board, side, unmoved pieces, pools, halfmove clock, move number.
pub fn to_text(pos: &Weltschach) -> String {
    let mut s = String::with_capacity(700);
    for y in (0..8).rev() {
        if y != 7 {
            s.push('/');
        }
        for z in 0..8 {
            if z != 0 {
                s.push(',');
            }
            let mut empty = 0;
            for x in 0..8 {
                let b = pos.board[Cell::new(x, y, z).index()];
                if b == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push(byte_letter(b));
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
        }
    }
    s.push_str(if pos.side == 0 { " w " } else { " b " });
    let unmoved: Vec<String> = Cell::all().filter(|c| pos.is_unmoved(c.index())).map(|c| c.to_string()).collect();
    s.push_str(if unmoved.is_empty() { "-" } else { "" });
    s.push_str(&unmoved.join(","));
    s.push(' ');
    let mut pool = String::new();
    for color in 0..2 {
        for k in 0..NUM_POOL_KINDS {
            let l = Kind::from_index(k).letter();
            let l = if color == 0 { l } else { l.to_ascii_lowercase() };
            pool.extend(std::iter::repeat_n(l, pos.pool[color][k] as usize));
        }
    }
    s.push_str(if pool.is_empty() { "-" } else { &pool });
    s.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    s
}

/// Splits on single spaces, remembering where each field starts.
fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        if ch.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Reads a position text; every error names the field and the character offset.
pub fn from_text(text: &str) -> Result<Weltschach, PositionError> {
    let f = fields(text);
    const NAMES: [&str; 6] = ["board", "side to move", "unmoved pieces", "pools", "halfmove clock", "move number"];
    if f.len() != 6 {
        let at = f.get(6).map_or(text.len(), |x| x.0);
        return Err(syntax(
            NAMES.get(f.len()).copied().unwrap_or("end"),
            at,
            format!("expected 6 space-separated fields ({}), found {}", NAMES.join(", "), f.len()),
        ));
    }
    let mut pos = Weltschach::empty();
    parse_board(&mut pos, f[0].0, f[0].1)?;
    pos.side = match f[1].1 {
        "w" => 0,
        "b" => 1,
        other => return Err(syntax("side to move", f[1].0, format!("expected 'w' or 'b', found '{other}'"))),
    };
    if f[2].1 != "-" {
        let mut at = f[2].0;
        for name in f[2].1.split(',') {
            let cell =
                Cell::parse(name).ok_or_else(|| syntax("unmoved pieces", at, format!("'{name}' is not a cell")))?;
            let ok = pos
                .piece_at(cell)
                .is_some_and(|(_, k)| matches!(k, Kind::Emperor | Kind::Queen | Kind::Duchess | Kind::Governor));
            if !ok {
                return Err(syntax(
                    "unmoved pieces",
                    at,
                    format!("{name} holds no Emperor, Queen, Duchess or Governor (only they castle)"),
                ));
            }
            pos.unmoved[cell.index() >> 6] |= 1 << (cell.index() & 63);
            at += name.len() + 1;
        }
    }
    if f[3].1 != "-" {
        for (i, ch) in f[3].1.char_indices() {
            match Kind::from_letter(ch).filter(|k| k.is_poolable()) {
                Some(k) => {
                    let c = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    pos.pool[c][k as usize] = pos.pool[c][k as usize].saturating_add(1);
                }
                None => return Err(syntax("pools", f[3].0 + i, format!("'{ch}' is not a symmetric piece letter"))),
            }
        }
    }
    pos.halfmove = f[4].1.parse().map_err(|_| syntax("halfmove clock", f[4].0, "expected a number of plies"))?;
    pos.fullmove = f[5]
        .1
        .parse()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| syntax("move number", f[5].0, "expected a number 1 or more"))?;
    validate(&pos)?;
    pos.finish();
    Ok(pos)
}

fn parse_board(pos: &mut Weltschach, start: usize, text: &str) -> Result<(), PositionError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(syntax(
            "board",
            start,
            format!("expected 8 ranks (8 down to 1) separated by '/', found {}", ranks.len()),
        ));
    }
    let mut at = start;
    for (ri, rank) in ranks.iter().enumerate() {
        let y = 7 - ri;
        let levels: Vec<&str> = rank.split(',').collect();
        if levels.len() != 8 {
            return Err(syntax(
                "board",
                at,
                format!("rank {} needs 8 levels (s..z) separated by ',', found {}", y + 1, levels.len()),
            ));
        }
        for (z, row) in levels.iter().enumerate() {
            let mut x = 0;
            for (i, ch) in row.char_indices() {
                let here = at + i;
                if let Some(n) = ch.to_digit(10).filter(|n| (1..=8).contains(n)) {
                    x += n as usize;
                } else if let Some(k) = Kind::from_letter(ch) {
                    if x >= 8 {
                        return Err(syntax(
                            "board",
                            here,
                            format!("level {} of rank {} has more than 8 cells", (b's' + z as u8) as char, y + 1),
                        ));
                    }
                    let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
                    if k == Kind::Emperor && pos.kings[color.index()] != u16::MAX {
                        return Err(syntax("board", here, format!("a second {color:?} Emperor")));
                    }
                    pos.put(Cell::new(x, y, z).index(), color, k);
                    x += 1;
                } else {
                    return Err(syntax("board", here, format!("'{ch}' is neither a piece letter nor a count 1-8")));
                }
                if x > 8 {
                    return Err(syntax(
                        "board",
                        here,
                        format!("level {} of rank {} has more than 8 cells", (b's' + z as u8) as char, y + 1),
                    ));
                }
            }
            if x != 8 {
                return Err(syntax(
                    "board",
                    at,
                    format!("level {} of rank {} has {x} cells, not 8", (b's' + z as u8) as char, y + 1),
                ));
            }
            at += row.len() + 1;
        }
    }
    Ok(())
}

fn validate(pos: &Weltschach) -> Result<(), PositionError> {
    for color in [Color::White, Color::Black] {
        if pos.kings[color.index()] == u16::MAX {
            return Err(PositionError::Invalid(format!("{color:?} has no Emperor")));
        }
    }
    for cell in Cell::all() {
        let b = pos.board[cell.index()];
        if b == 0 {
            continue;
        }
        let (c, k) = (byte_color(b), Kind::from_index(byte_kind(b)));
        let own_half = (cell.y() < 4) == (c == 0);
        if k == Kind::Stockbroker && !own_half {
            return Err(PositionError::Invalid(format!(
                "Stockbroker on {cell} is beyond the River (it would be a Stockfwazir)"
            )));
        }
        if k.is_triple() && !own_half {
            return Err(PositionError::Invalid(format!(
                "{k:?} on {cell} is beyond the River, which triple compounds never cross"
            )));
        }
    }
    if facing(&pos.board, pos.kings[0] as usize, pos.kings[1] as usize) {
        return Err(PositionError::Invalid("the Emperors face each other".into()));
    }
    if pos.mover_exposed() {
        return Err(PositionError::Invalid("the side not to move is in check".into()));
    }
    Ok(())
}

/// Move text: `vd3-vd4`, a promotion `sa2-sa1=Q`; castling is the Emperor's move (`vd1-vb1`).
pub fn move_text(mv: Move) -> String {
    match mv.promotion_kind() {
        Some(k) => format!("{}-{}={}", mv.from(), mv.to(), k.letter()),
        None => format!("{}-{}", mv.from(), mv.to()),
    }
}

fn kind_name(k: Kind) -> String {
    format!("{k:?}")
}

/// Reads move text and returns the legal move it names, or why it cannot be played.
pub fn parse_move(pos: &Weltschach, text: &str) -> Result<Move, MoveError> {
    let bad = |message: &str| MoveError::Syntax { text: text.to_string(), message: message.to_string() };
    let illegal = |reason: String| MoveError::Illegal { text: text.to_string(), reason };
    let t = text.trim();
    if t.len() < 7 || !t.is_ascii() {
        return Err(bad("expected from-cell, '-' or 'x', to-cell, optional '=' and piece letter (e.g. vd3-vd4)"));
    }
    let from = Cell::parse(&t[0..3])
        .ok_or_else(|| bad("the first 3 characters are not a cell (level s-z, filestack a-h, rank 1-8)"))?;
    if !matches!(&t[3..4], "-" | "x") {
        return Err(bad("expected '-' or 'x' after the from-cell"));
    }
    let to = Cell::parse(&t[4..7])
        .ok_or_else(|| bad("characters 5-7 are not a cell (level s-z, filestack a-h, rank 1-8)"))?;
    let promo = match &t[7..] {
        "" => None,
        rest if rest.len() == 2 && rest.starts_with('=') => {
            let k =
                Kind::from_letter(rest.chars().nth(1).unwrap()).ok_or_else(|| bad("unknown piece letter after '='"))?;
            if !k.is_poolable() {
                return Err(illegal(format!("promotion is only to a symmetric piece, not to a {}", kind_name(k))));
            }
            Some(k)
        }
        _ => return Err(bad("expected '=' and one piece letter after the to-cell")),
    };
    let mut moves = Vec::new();
    generate(pos, &mut moves);
    let matches = |m: &Move| m.from() == from && m.to() == to && m.promotion_kind() == promo;
    if let Some(&mv) = moves.iter().find(|m| matches(m)) {
        if pos.drawn_by_rule() {
            let why = crate::Game::ending(pos).map_or("a draw rule", |e| e.name());
            return Err(illegal(format!("the game is over ({why})")));
        }
        return Ok(mv);
    }
    let us = pos.side as usize;
    let Some((color, kind)) = pos.piece_at(from) else {
        return Err(illegal(format!("there is no piece on {from}")));
    };
    if color.index() != us {
        return Err(illegal(format!(
            "the piece on {from} is {:?}'s, and {:?} is to move",
            color,
            Color::from_index(us)
        )));
    }
    let mut pseudo = Vec::new();
    generate_pseudo(pos, &mut pseudo);
    if let Some(&mv) = pseudo.iter().find(|m| matches(m)) {
        let mut after = pos.clone();
        after.apply(mv);
        if facing(&after.board, after.kings[0] as usize, after.kings[1] as usize) {
            return Err(illegal("the Emperors would face each other with nothing between".into()));
        }
        if mv.is_castle() {
            return Err(illegal("castling out of, through or into check".into()));
        }
        return Err(illegal("it leaves the Emperor in check".into()));
    }
    if pseudo.iter().any(|m| m.from() == from && m.to() == to) {
        return Err(illegal(match promo {
            Some(k) if to.y() == 0 || to.y() == 7 => {
                if kind != Kind::Stockfwazir {
                    format!("only a Stockfwazir promotes, not a {}", kind_name(kind))
                } else if pos.pool[us][k as usize] == 0 {
                    format!("no captured {} of yours is left to promote to", kind_name(k))
                } else {
                    format!("a {} may only be promoted to on your own first rank", kind_name(k))
                }
            }
            Some(_) => "promotion happens only on rank 1 or 8".into(),
            None => "unexpected promotion mismatch".into(),
        }));
    }
    if kind.is_triple() && (to.y() < 4) != (us == 0) {
        return Err(illegal(format!("the {} may not cross the River", kind_name(kind))));
    }
    if let Some((c, _)) = pos.piece_at(to) {
        if c.index() == us {
            return Err(illegal(format!("{to} holds a piece of your own")));
        }
    }
    Err(illegal(format!("the {} on {from} cannot move to {to}", kind_name(kind))))
}

/// A position shows itself as its text, which says everything that makes it.
impl std::fmt::Debug for Weltschach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weltschach({})", to_text(self))
    }
}

impl Weltschach {
    /// Builds a position from a list like `"Kvd1* kve8 Rsa1 psb6"`: a piece letter (upper case White,
    /// lower case Black) and a cell, `*` marking a castling-relevant piece as unmoved; `side` moves.
    /// For tests (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn from_placements(side: crate::Player, list: &str) -> Result<Weltschach, PositionError> {
        let mut pos = Weltschach::empty();
        pos.side = side as u8;
        let mut at = 0;
        for item in list.split_whitespace() {
            let offset = list[at..].find(item).map_or(at, |i| at + i);
            at = offset + item.len();
            let err =
                |m: &str| PositionError::Syntax { field: "placements", at: offset, message: format!("'{item}': {m}") };
            let mut chars = item.chars();
            let letter = chars.next().ok_or_else(|| err("empty"))?;
            let kind = Kind::from_letter(letter).ok_or_else(|| err("unknown piece letter"))?;
            let rest: &str = chars.as_str();
            let (name, unmoved) = match rest.strip_suffix('*') {
                Some(n) => (n, true),
                None => (rest, false),
            };
            let cell = Cell::parse(name).ok_or_else(|| err("not a cell"))?;
            if pos.board[cell.index()] != 0 {
                return Err(err("cell already occupied"));
            }
            let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
            pos.put(cell.index(), color, kind);
            if unmoved {
                pos.unmoved[cell.index() >> 6] |= 1 << (cell.index() & 63);
            }
        }
        let text = to_text(&pos);
        from_text(&text)
    }
}
