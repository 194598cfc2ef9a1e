//! Random Wellisch games checked against an independent, slow reference move generator (its own
//! board model read through the public API, rays walked cell by cell, every candidate played on
//! a copy), reaching every rule; the encoding from the mover's seat; mangled text.

mod common;

use common::move_texts as texts;
use common::wellisch::{assert_policy_injective, cell, pos};
use rules::hex::{Cell, BOARD_R5};
use rules::wellisch::{label, Move, Options, Piece, Wellisch, DRAW_PLIES, PLANES};
use rules::{Encoding, Game};

/// The on-board mask plane of the encoding (rules/src/wellisch/encode.rs lists every plane).
const ON_BOARD: usize = 40;

/// What the reference knows of a position, read through the public API: each cell's owner,
/// piece and pawn direction, the reserves, the castling rights and the seat to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Board {
    /// `(owner, piece, pawn direction)` by cell number; the direction is 0 for other pieces.
    cells: [Option<(usize, Piece, usize)>; 121],
    reserve: [[u8; 3]; 3],
    castling: u8,
    mover: usize,
}

impl Board {
    fn of(g: &Wellisch) -> Board {
        let mut cells = [None; 121];
        for &c in BOARD_R5.cells() {
            if let (Some(owner), Some((piece, dir))) = (g.owner_at(c), g.piece_at(c)) {
                cells[c.index()] = Some((owner, piece, dir));
            }
        }
        Board { cells, reserve: g.reserves(), castling: g.castling(), mover: g.to_move() }
    }

    fn owner_at(&self, c: Cell) -> Option<usize> {
        self.cells[c.index()].map(|(owner, _, _)| owner)
    }

    fn piece_at(&self, c: Cell) -> Option<(Piece, usize)> {
        self.cells[c.index()].map(|(_, piece, dir)| (piece, dir))
    }

    fn put(&mut self, c: Cell, piece: Piece, owner: usize, dir: usize) {
        self.cells[c.index()] = Some((owner, piece, if piece == Piece::Pawn { dir } else { 0 }));
    }

    fn clear(&mut self, c: Cell) {
        self.cells[c.index()] = None;
    }

    fn occupied(&self) -> impl Iterator<Item = Cell> + '_ {
        BOARD_R5.cells().iter().copied().filter(|&c| self.cells[c.index()].is_some())
    }

    fn king(&self, seat: usize) -> Option<Cell> {
        self.occupied().find(|&c| self.cells[c.index()] == Some((seat, Piece::King, 0)))
    }
}

/// Independent attack test: walks the geometry cell by cell, with its own pawn directions.
fn naive_attacked(pos: &Board, target: Cell, seat: usize) -> bool {
    naive_reach(pos, seat, true).iter().any(|&(_, to)| to == target)
}

const EDGE: [(i8, i8); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];
const VERTEX: [(i8, i8); 6] = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)];
const PAWN: [[(i8, i8); 2]; 3] = [[(0, 1), (-1, 1)], [(1, 0), (1, -1)], [(-1, 0), (0, -1)]];

/// Every (from, to) step of the pieces of `seat` (or, with `others`, of every other seat) onto a
/// cell not held by the stepping piece's owner, found by walking the cube coordinates.
fn naive_reach(pos: &Board, seat: usize, others: bool) -> Vec<(Cell, Cell)> {
    let at = |c: Cell, d: (i8, i8)| c.offset(d.0, d.1, 5);
    let mut out = Vec::new();
    for c in pos.occupied() {
        let owner = pos.owner_at(c).unwrap();
        if (owner == seat) == others {
            continue;
        }
        let free = |x: Cell| pos.owner_at(x) != Some(owner);
        let (piece, dir) = pos.piece_at(c).unwrap();
        let steps: &[(i8, i8)] = match piece {
            Piece::King | Piece::Rook => &EDGE,
            Piece::Knight => &VERTEX,
            Piece::Pawn => &PAWN[dir],
            Piece::Queen => &EDGE,
        };
        for &d in steps {
            let mut cur = at(c, d);
            while let Some(x) = cur {
                if free(x) {
                    out.push((c, x));
                }
                let slides = matches!(piece, Piece::Rook | Piece::Queen);
                if !slides || pos.owner_at(x).is_some() {
                    break;
                }
                cur = at(x, d);
            }
        }
        if piece == Piece::Queen {
            out.extend(VERTEX.iter().filter_map(|&d| at(c, d)).filter(|&x| free(x)).map(|x| (c, x)));
        }
    }
    out
}

/// Whether `c` is on the promotion edge of pawn direction `d`, from the coordinates.
fn naive_far(c: Cell, d: usize) -> bool {
    [c.r(), c.q(), c.s()][d] == 5
}

/// `c` rotated `k` times by `(q, r, s) -> (r, s, q)`, which carries P1's seat onto P2's and
/// P2's onto P3's.
fn rotated(c: Cell, k: usize) -> Cell {
    let mut c = c;
    for _ in 0..k {
        c = Cell::new(c.r(), c.s()).unwrap();
    }
    c
}

/// Castling cells `(king, queen, king-side rook, queen-side rook)` of `seat`, by rotating P1's.
fn naive_castle_cells(seat: usize) -> [Cell; 4] {
    ["D1", "C1", "E1", "B1"].map(|l| rotated(cell(l), seat))
}

/// An independent, slow legal-move list in move text: walks the geometry for every piece, plays
/// each candidate on a copy and asks `naive_attacked`; castling, promotions and passes by the
/// rules' words.
fn reference_moves(g: &Wellisch) -> Vec<String> {
    if g.outcome().is_some() {
        return vec![];
    }
    let pos = Board::of(g);
    let p = pos.mover;
    let waiting: Vec<Cell> = pos
        .occupied()
        .filter(|&c| pos.owner_at(c) == Some(p) && pos.piece_at(c).unwrap().0 == Piece::Pawn)
        .filter(|&c| naive_far(c, pos.piece_at(c).unwrap().1))
        .collect();
    let mut out = Vec::new();
    if !waiting.is_empty() && pos.reserve[p] != [0; 3] {
        for &w in &waiting {
            for r in 0..3 {
                if pos.reserve[p][r] == 0 {
                    continue;
                }
                let mut q = pos;
                q.clear(w);
                q.put(w, Piece::RESERVE[r], p, p);
                q.reserve[p][r] -= 1;
                let mut inner = reference_basic(&q);
                if inner.is_empty() {
                    inner.push("pass".into());
                }
                out.extend(inner.into_iter().map(|m| format!("{}={},{m}", label(w), Piece::RESERVE[r].letter())));
            }
        }
    } else {
        out = reference_basic(&pos);
        if out.is_empty() {
            out.push("pass".into());
        }
    }
    out.sort();
    out
}

/// The legal moves of `pos.mover` without delayed promotion, from `naive_reach`.
fn reference_basic(pos: &Board) -> Vec<String> {
    let p = pos.mover;
    let mut out = Vec::new();
    let safe = |q: &Board| q.king(p).is_none_or(|k| !naive_attacked(q, k, p));
    for (from, to) in naive_reach(pos, p, false) {
        let (piece, dir) = pos.piece_at(from).unwrap();
        let mut q = *pos;
        q.clear(to);
        q.clear(from);
        q.put(to, piece, p, dir);
        if !safe(&q) {
            continue;
        }
        let text = format!("{}-{}", label(from), label(to));
        if piece == Piece::Pawn && naive_far(to, dir) && pos.reserve[p] != [0; 3] {
            for r in (0..3).filter(|&r| pos.reserve[p][r] > 0) {
                out.push(format!("{text}={}", Piece::RESERVE[r].letter()));
            }
        } else {
            out.push(text);
        }
    }
    let [king, queen, krook, qrook] = naive_castle_cells(p);
    let own_at = |c: Cell, piece: Piece| pos.owner_at(c) == Some(p) && pos.piece_at(c).map(|x| x.0) == Some(piece);
    if own_at(king, Piece::King) && !naive_attacked(pos, king, p) {
        if pos.castling & (1 << (2 * p)) != 0 && own_at(krook, Piece::Rook) && !naive_attacked(pos, krook, p) {
            out.push(format!("{}-{}", label(king), label(krook)));
        }
        if pos.castling & (2 << (2 * p)) != 0
            && own_at(qrook, Piece::Rook)
            && pos.owner_at(queen).is_none()
            && !naive_attacked(pos, qrook, p)
            && !naive_attacked(pos, queen, p)
        {
            out.push(format!("{}-{}", label(king), label(qrook)));
        }
    }
    out
}

/// How many kings have been captured so far (each capture takes its seat out of play).
fn kings_captured(g: &Wellisch) -> usize {
    (0..3).filter(|&seat| !g.is_alive(seat)).count()
}

/// A small deterministic generator (xorshift64*), so the tests need no RNG crate.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Which rules a sample of games reached.
#[derive(Default, Debug)]
struct Reached {
    castle_king_side: usize,
    castle_queen_side: usize,
    promotion: usize,
    delayed: usize,
    delayed_pass: usize,
    forced_pass: usize,
    king_capture: usize,
    takeover: usize,
    draw100: usize,
}

#[test]
fn random_games_keep_the_invariants_and_reach_every_rule() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut reached = Reached::default();
    let mut buf = vec![0f32; Wellisch::input_len()];
    let mut moves = Vec::new();
    for game in 0..240 {
        // Styles bias the choice so every rule shows up: 0 captures, 1 pawns, 2 quiet.
        let style = game % 3;
        let options = Options { takeover: game % 4 == 1, threefold: game % 8 == 3 };
        let mut g = Wellisch::start_with(options);
        for ply in 0..600 {
            assert_eq!(g.hash(), g.compute_hash(), "incremental hash, game {game} ply {ply}");
            let text = g.to_text();
            let back = Wellisch::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.to_text(), text);
            assert_eq!((Board::of(&back), back.hash(), back.outcome()), (Board::of(&g), g.hash(), g.outcome()));
            g.legal_moves(&mut moves);
            assert_eq!(g.count_legal_moves(), moves.len() as u64);
            assert_eq!(texts(&g), reference_moves(&g), "legal moves against the reference in {text}");
            if g.outcome().is_some() {
                assert!(moves.is_empty());
                break;
            }
            if ply % 17 == 0 {
                buf.fill(f32::NAN);
                g.encode(&mut buf);
                assert!(buf.iter().all(|x| x.is_finite()), "encode writes every element");
            }
            assert_policy_injective(&g, &moves);
            let snapshot = g.clone();
            let p = g.to_move();
            for (i, &m) in moves.iter().enumerate() {
                let mut child = g.clone();
                child.play(m);
                // A pass is forced (no other move exists), so it may leave the king attacked.
                let board = Board::of(&child);
                if let (false, Some(k)) = (m.is_pass(), board.king(p)) {
                    assert!(
                        !naive_attacked(&board, k, p),
                        "{} leaves P{}'s king attacked in {text}",
                        g.move_text(m),
                        p + 1
                    );
                }
                if ply % 5 == 0 || i % 7 == 0 {
                    assert_eq!(g.parse_move(&g.move_text(m)), Ok(m));
                }
            }
            assert_eq!(g, snapshot, "playing on clones leaves the state unchanged");

            let captures = |m: &Move| m.to().is_some_and(|t| g.owner_at(t).is_some() && !m.is_castle());
            let takes_king =
                |m: &Move| m.to().is_some_and(|t| captures(m) && g.piece_at(t).is_some_and(|x| x.0 == Piece::King));
            let pawn_move = |m: &Move| m.from().is_some_and(|f| g.piece_at(f).is_some_and(|x| x.0 == Piece::Pawn));
            let pick = |rng: &mut Rng, pred: &dyn Fn(&Move) -> bool| {
                let c: Vec<Move> = moves.iter().copied().filter(|m| pred(m)).collect();
                (!c.is_empty()).then(|| c[rng.below(c.len())])
            };
            let roll = rng.below(100);
            let mv = match style {
                0 => pick(&mut rng, &takes_king)
                    .or_else(|| if roll < 50 { pick(&mut rng, &|m: &Move| m.is_castle()) } else { None })
                    .or_else(|| if roll < 60 { pick(&mut rng, &captures) } else { None }),
                1 => pick(&mut rng, &|m: &Move| m.promotion().is_some() || m.delayed().is_some())
                    .or_else(|| if roll < 70 { pick(&mut rng, &pawn_move) } else { None })
                    .or_else(|| if roll < 85 { pick(&mut rng, &captures) } else { None }),
                _ => pick(&mut rng, &|m: &Move| !captures(m) && !pawn_move(m)),
            }
            .unwrap_or_else(|| moves[rng.below(moves.len())]);

            if mv.is_castle() {
                if mv.to() == Some(naive_castle_cells(p)[2]) {
                    reached.castle_king_side += 1;
                } else {
                    reached.castle_queen_side += 1;
                }
            }
            reached.promotion += mv.promotion().is_some() as usize;
            reached.delayed += mv.delayed().is_some() as usize;
            reached.delayed_pass += (mv.delayed().is_some() && mv.is_pass()) as usize;
            reached.forced_pass += (mv.delayed().is_none() && mv.is_pass()) as usize;
            let before = kings_captured(&g);
            g.play(mv);
            if kings_captured(&g) > before {
                reached.king_capture += 1;
                reached.takeover += (g.outcome().is_none()) as usize;
                assert!(g.outcome().is_none() || g.outcome().unwrap().as_slice().contains(&1.0));
            }
            if let Some(s) = g.outcome() {
                assert!((s.sum() - 1.5).abs() < 1e-6, "scores sum to 3/2");
                if g.clock() == DRAW_PLIES {
                    reached.draw100 += 1;
                }
            }
        }
    }
    println!("{reached:?}");
    let r = &reached;
    for (name, n) in [
        ("king-side castling", r.castle_king_side),
        ("queen-side castling", r.castle_queen_side),
        ("promotion from the reserve", r.promotion),
        ("delayed promotion", r.delayed),
        ("forced pass", r.forced_pass),
        ("king capture", r.king_capture),
        ("takeover", r.takeover),
        ("100-ply draw", r.draw100),
    ] {
        assert!(n > 0, "random games never reached {name}: {r:?}");
    }
}

#[test]
fn encoding_is_seen_from_the_movers_seat() {
    assert_eq!(Wellisch::input_len(), PLANES * 121);
    // The setup is symmetric under the 120-degree rotation, so each seat sees the same planes.
    let start = Wellisch::start().to_text();
    let planes: Vec<Vec<f32>> = ["1", "2", "3"]
        .iter()
        .map(|m| {
            let g = Wellisch::from_text(&start.replacen(" 1 1KQ", &format!(" {m} 1KQ"), 1)).unwrap();
            let mut buf = vec![0.0; Wellisch::input_len()];
            g.encode(&mut buf);
            buf
        })
        .collect();
    assert_eq!(planes[0], planes[1]);
    assert_eq!(planes[0], planes[2]);
    // The mover's king (plane 0) is on the bottom row 10, column q + 5 = 8 (D1 = (3, -5)).
    let king: Vec<usize> = (0..121).filter(|&i| planes[0][i] == 1.0).collect();
    assert_eq!(king, vec![10 * 11 + 8]);
    // The next seat's king (plane 5) is P2's C8 = (-5, 2) for P1.
    let king2: Vec<usize> = (0..121).filter(|&i| planes[0][5 * 121 + i] == 1.0).collect();
    assert_eq!(king2, vec![(5 - 2) * 11]);
    assert_eq!(planes[0][ON_BOARD * 121..][..121].iter().sum::<f32>(), 91.0);
    assert_eq!(Some(planes[0][ON_BOARD * 121..][..121].to_vec()), Wellisch::board_mask());
    assert_eq!(planes[1][ON_BOARD * 121..][..121], planes[2][ON_BOARD * 121..][..121]);

    // Policy indices agree between seats for rotated moves.
    let p1 = Wellisch::start();
    let mut moves = Vec::new();
    p1.legal_moves(&mut moves);
    for seat in 1..3 {
        let g = Wellisch::from_text(&start.replacen(" 1 1KQ", &format!(" {} 1KQ", seat + 1), 1)).unwrap();
        for &m in &moves {
            let (f, t) = (rotated(m.from().unwrap(), seat), rotated(m.to().unwrap(), seat));
            let text = format!("{}-{}", label(f), label(t));
            let rm = g.parse_move(&text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(g.policy_index(rm), p1.policy_index(m), "{} vs {text}", p1.move_text(m));
        }
    }
    assert_policy_injective(&p1, &moves);
}

#[test]
fn mangled_text_is_rejected_without_panicking() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let alphabet: Vec<char> =
        "123KQRNPp./- =,:abcdefghijkABCDEFGHIJK0456789takeoverthreefoldout=pass\u{e9}\u{1F600}".chars().collect();
    let texts =
        [Wellisch::start().to_text(), pos("A1:1K B2:1P2 A2:1N F1:3R K9:3K", "1 - 1Q 0 takeover out=2:1").to_text()];
    for i in 0..20_000 {
        let mut chars: Vec<char> = texts[i % 2].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len() + 1);
            match rng.below(3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 if at < chars.len() => chars[at] = alphabet[rng.below(alphabet.len())],
                _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(g) = Wellisch::from_text(&text) {
            assert_eq!(Wellisch::from_text(&g.to_text()).unwrap(), g, "{text}");
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            for &m in &moves {
                assert_eq!(g.parse_move(&g.move_text(m)), Ok(m));
            }
        }
    }
    let g = Wellisch::start();
    for _ in 0..20_000 {
        let len = rng.below(12);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        let _ = g.parse_move(&text);
    }
}
