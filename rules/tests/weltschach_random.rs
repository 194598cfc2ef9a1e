//! Random-game invariants for Weltschach, with an independent (coordinate-based, table-free)
//! attack test to check the move generator's legality filter.

use std::collections::HashSet;

use rules::weltschach::{transform_move, transform_position, Cell, Color, Kind, Move, Weltschach};
use rules::{Encoding, Ending, Game, Material};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Picks a random legal move, a capture half of the time when there is one, so that games
/// reach open positions, promotions and mates within a short ply cap.
fn pick(rng: &mut Rng, pos: &Weltschach, moves: &[Move]) -> Move {
    let captures: Vec<Move> = moves.iter().copied().filter(|m| pos.piece_at(m.to()).is_some()).collect();
    if !captures.is_empty() && rng.below(2) == 0 {
        captures[rng.below(captures.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}

fn ring(x: i32, z: i32) -> i32 {
    (2 * x - 7).abs().max((2 * z - 7).abs()) / 2
}

fn slides(k: Kind, class: usize) -> bool {
    use Kind::*;
    match class {
        0 => matches!(k, Rook | Queen | Duchess | Empress),
        1 => matches!(k, Bishop | Queen | Governor | Empress),
        _ => matches!(k, Unicorn | Duchess | Governor | Empress),
    }
}

fn hops(k: Kind, class: usize) -> bool {
    use Kind::*;
    match class {
        0 => matches!(k, Cannon | Tank | Cannonade | Arsenal),
        1 => matches!(k, Arrow | Tank | Arbalest | Arsenal),
        _ => matches!(k, Sling | Cannonade | Arbalest | Arsenal),
    }
}

fn leaps(k: Kind, class: usize) -> bool {
    use Kind::*;
    match class {
        0 => matches!(k, Knight | Churchwarden | Samurai | Canoe),
        1 => matches!(k, Sexton | Churchwarden | Oberon | Canoe),
        _ => matches!(k, Ninja | Samurai | Oberon | Canoe),
    }
}

fn coords(c: Cell) -> [i32; 3] {
    [c.x() as i32, c.y() as i32, c.z() as i32]
}

/// Pieces strictly between `a` and `b` on their common line, which must exist.
fn between(pos: &Weltschach, a: Cell, b: Cell, m: i32) -> usize {
    let (pa, pb) = (coords(a), coords(b));
    let unit: Vec<i32> = (0..3).map(|i| (pb[i] - pa[i]).signum()).collect();
    (1..m)
        .filter(|&k| {
            let c = Cell::new(
                (pa[0] + k * unit[0]) as usize,
                (pa[1] + k * unit[1]) as usize,
                (pa[2] + k * unit[2]) as usize,
            );
            pos.piece_at(c).is_some()
        })
        .count()
}

/// Whether the piece on `a` could capture on `b`, straight from the rules text.
fn naive_attacks(pos: &Weltschach, a: Cell, b: Cell) -> bool {
    let (color, kind) = pos.piece_at(a).unwrap();
    let own_half = (b.y() < 4) == (color == Color::White);
    if kind.is_triple() && !own_half {
        return false;
    }
    let (pa, pb) = (coords(a), coords(b));
    let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    let m = d.iter().map(|v| v.abs()).max().unwrap();
    if m == 0 {
        return false;
    }
    if d.iter().all(|&v| v == 0 || v.abs() == m) {
        let class = d.iter().filter(|&&v| v != 0).count() - 1;
        let n = between(pos, a, b, m);
        if (n == 0 && slides(kind, class)) || (n == 1 && hops(kind, class)) {
            return true;
        }
    }
    let mut s: Vec<i32> = d.iter().map(|v| v.abs()).collect();
    s.sort();
    let leap = match s.as_slice() {
        [0, 1, 2] => Some(0),
        [1, 1, 2] => Some(1),
        [1, 2, 2] => Some(2),
        _ => None,
    };
    if leap.is_some_and(|c| leaps(kind, c)) {
        return true;
    }
    let (dx, dy, dz) = (d[0], d[1], d[2]);
    let same_ring = ring(pa[0] + dx, pa[2] + dz) == ring(pa[0], pa[2]);
    let one_ortho_xz = (dx == 0) != (dz == 0);
    match kind {
        Kind::Emperor => m == 1,
        Kind::Stockbroker => {
            let fwd = if color == Color::White { 1 } else { -1 };
            m == 1 && dy == fwd && !(dx == 0 && dz == 0) && !(one_ortho_xz && same_ring)
        }
        Kind::Stockfwazir => {
            m == 1
                && if dx == 0 && dz == 0 {
                    true
                } else if dy != 0 {
                    one_ortho_xz && same_ring
                } else {
                    (dx != 0 && dz != 0) || !same_ring
                }
        }
        _ => false,
    }
}

/// Whether the piece on `a` could move to the empty cell `b`, straight from the rules text.
fn naive_quiet(pos: &Weltschach, a: Cell, b: Cell) -> bool {
    let (color, kind) = pos.piece_at(a).unwrap();
    let own_half = (b.y() < 4) == (color == Color::White);
    if kind.is_triple() && !own_half {
        return false;
    }
    let (pa, pb) = (coords(a), coords(b));
    let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    let m = d.iter().map(|v| v.abs()).max().unwrap();
    let (dx, dy, dz) = (d[0], d[1], d[2]);
    match kind {
        Kind::Stockbroker => {
            let fwd = if color == Color::White { 1 } else { -1 };
            let same_ring = ring(pa[0] + dx, pa[2] + dz) == ring(pa[0], pa[2]);
            m == 1 && dy == fwd && ((dx == 0 && dz == 0) || ((dx == 0) != (dz == 0) && same_ring))
        }
        // Everything else moves where it could capture, except that hoppers move like sliders.
        _ => {
            if m > 0 && d.iter().all(|&v| v == 0 || v.abs() == m) {
                let class = d.iter().filter(|&&v| v != 0).count() - 1;
                if hops(kind, class) && between(pos, a, b, m) == 0 {
                    return true;
                }
            }
            // The capture rule with the target treated as an enemy is the movement rule.
            !matches!(
                kind,
                Kind::Cannon
                    | Kind::Arrow
                    | Kind::Sling
                    | Kind::Tank
                    | Kind::Cannonade
                    | Kind::Arbalest
                    | Kind::Arsenal
            ) && naive_attacks(pos, a, b)
        }
    }
}

/// The moves of the side to move by the rules text alone (castling and promotion choices left
/// out), as (from, to) pairs.
fn naive_pseudo_moves(pos: &Weltschach) -> HashSet<(Cell, Cell)> {
    let us = pos.side_to_move();
    let mut out = HashSet::new();
    for a in Cell::all() {
        if !matches!(pos.piece_at(a), Some((c, _)) if c == us) {
            continue;
        }
        for b in Cell::all() {
            let ok = match pos.piece_at(b) {
                None => naive_quiet(pos, a, b),
                Some((c, _)) => c != us && naive_attacks(pos, a, b),
            };
            if ok {
                out.insert((a, b));
            }
        }
    }
    out
}

/// Whether the side that just moved left its Emperor attacked or the Emperors facing.
fn naive_exposed(pos: &Weltschach) -> bool {
    let mover = pos.side_to_move().other();
    let king = pos.emperor(mover);
    let other = pos.emperor(mover.other());
    let attacked =
        Cell::all().any(|c| matches!(pos.piece_at(c), Some((col, _)) if col != mover) && naive_attacks(pos, c, king));
    let (pa, pb) = (coords(king), coords(other));
    let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    let m = d.iter().map(|v| v.abs()).max().unwrap();
    let facing = d[1] != 0 && d.iter().all(|&v| v == 0 || v.abs() == m) && between(pos, king, other, m) == 0;
    attacked || facing
}

#[test]
fn moves_agree_with_an_independent_model_of_the_rules() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut checked, mut rejected, mut in_check) = (0, 0, 0);
    for _game in 0..20 {
        let mut pos = Weltschach::start();
        let mut moves = Vec::new();
        let mut pseudo = Vec::new();
        for ply in 0..70 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.pseudo_legal_moves(&mut pseudo);
            in_check += pos.in_check() as usize;
            let legal: HashSet<Move> = moves.iter().copied().collect();
            let mut checking = Vec::new();
            for &mv in &pseudo {
                let mut after = pos.clone();
                after.play(mv);
                let exposed = naive_exposed(&after);
                if legal.contains(&mv) && after.in_check() {
                    checking.push(mv);
                }
                if mv.is_castle() {
                    // Castling adds the passed-cell condition; only "legal implies safe" holds.
                    assert!(!legal.contains(&mv) || !exposed, "{pos:?} {mv:?}");
                    continue;
                }
                assert_eq!(legal.contains(&mv), !exposed, "{pos:?} {mv:?}");
                checked += 1;
                rejected += exposed as usize;
            }
            assert!(legal.iter().all(|m| pseudo.contains(m)));
            if ply % 5 == 0 {
                let ours: HashSet<(Cell, Cell)> = pseudo
                    .iter()
                    .filter(|m| !m.is_castle() && m.promotion_kind().is_none())
                    .map(|m| (m.from(), m.to()))
                    .collect();
                assert_eq!(ours, naive_pseudo_moves(&pos), "{pos:?}");
            }
            // Give check a third of the time, so that evasions get tested too.
            let mv = if !checking.is_empty() && rng.below(3) == 0 {
                checking[rng.below(checking.len())]
            } else {
                pick(&mut rng, &pos, &moves)
            };
            pos.play(mv);
        }
    }
    eprintln!("{checked} pseudo-moves checked, {rejected} rejected, {in_check} positions in check");
    assert!(checked > 100_000 && rejected > 100 && in_check > 150, "{checked} {rejected} {in_check}");
}

#[test]
fn random_games_keep_their_invariants() {
    let mut rng = Rng(12345);
    let mut moves = Vec::new();
    let mut captures = Vec::new();
    let mut seen_captures = 0;
    for _game in 0..150 {
        let mut pos = Weltschach::start();
        for _ply in 0..80 {
            pos.legal_moves(&mut moves);
            assert_eq!(pos.count_legal_moves(), moves.len() as u64);
            // The quiescence search's captures-only generator lists the same captures, in order.
            pos.legal_captures(&mut captures);
            let expected: Vec<Move> = moves.iter().copied().filter(|&mv| pos.capture_value(mv) > 0.0).collect();
            assert_eq!(captures, expected, "{pos:?}");
            assert_eq!(pos.hash(), pos.hash_from_scratch(), "{pos:?}");
            assert_eq!(pos.material(), pos.material_on_board(), "the material kept as pieces move: {pos:?}");
            let text = pos.to_text();
            let back = Weltschach::from_text(&text).unwrap();
            assert_eq!(back.to_text(), text);
            assert_eq!(back.hash(), pos.hash());
            let mut indices = HashSet::new();
            for (n, &mv) in moves.iter().enumerate() {
                let i = pos.policy_index(mv);
                assert!(i < Weltschach::POLICY_SIZE);
                assert!(indices.insert(i), "policy index {i} twice in {pos:?}");
                // parse_move generates all moves, so round-trip a sample only.
                if n % 97 == 0 || mv.is_castle() || mv.promotion_kind().is_some() {
                    assert_eq!(pos.parse_move(&pos.move_text(mv)), Ok(mv));
                }
            }
            if moves.is_empty() {
                assert!(pos.outcome().is_some());
                assert!(pos.ending().is_some_and(|r| r != Ending::Other));
                break;
            }
            assert!(pos.outcome().is_none());
            assert_eq!(pos.ending(), None);
            let mv = pick(&mut rng, &pos, &moves);
            seen_captures += pos.piece_at(mv.to()).is_some() as usize;
            let before = pos.clone();
            let mut child = pos.clone();
            child.play(mv);
            assert_eq!(before, pos, "playing on a clone changed the original");
            pos = child;
        }
    }
    assert!(seen_captures > 1000);
}

/// Every symmetry maps the legal moves, their policy indices and the planes consistently.
fn check_symmetries(pos: &Weltschach) {
    let n = Weltschach::input_len();
    let (mut planes, mut img_planes, mut mapped) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut moves, mut img_moves) = (Vec::new(), Vec::new());
    pos.legal_moves(&mut moves);
    pos.encode(&mut planes);
    for sym in 0..Weltschach::NUM_SYMMETRIES {
        let img = transform_position(sym, pos);
        img.legal_moves(&mut img_moves);
        let expected: HashSet<Move> = moves.iter().map(|&m| transform_move(sym, m)).collect();
        assert_eq!(img_moves.iter().copied().collect::<HashSet<_>>(), expected, "sym {sym}");
        for &mv in &moves {
            assert_eq!(
                img.policy_index(transform_move(sym, mv)),
                Weltschach::transform_policy_index(sym, pos.policy_index(mv)),
                "sym {sym} {mv:?}"
            );
        }
        if pos.repetitions() == 0 {
            img.encode(&mut img_planes);
            Weltschach::transform_planes(sym, &planes, &mut mapped);
            assert!(img_planes == mapped, "planes under sym {sym}");
        }
    }
}

#[test]
fn symmetries_map_legal_moves_to_legal_moves() {
    let mut rng = Rng(777);
    let mut moves = Vec::new();
    for game in 0..4 {
        let mut pos = Weltschach::start();
        for ply in 0..60 {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if ply % 15 == 14 || (game == 0 && ply == 0) {
                check_symmetries(&pos);
            }
            pos.play(pick(&mut rng, &pos, &moves));
        }
    }
}

#[test]
fn symmetries_keep_castling_and_promotions() {
    for side in [0, 1] {
        let mut pos =
            Weltschach::from_placements(side, "Kvd1* Qva1* Gsa1* Dvh1* kve8* qvh8* gzh8* Fsa2 Fsb7 fub2 fuc7").unwrap();
        pos.set_pool(Color::White, Kind::Queen, 1);
        pos.set_pool(Color::White, Kind::Empress, 1);
        pos.set_pool(Color::Black, Kind::Canoe, 2);
        pos.set_pool(Color::Black, Kind::Knight, 1);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert!(moves.iter().any(|m| m.is_castle()) && moves.iter().any(|m| m.promotion_kind().is_some()));
        check_symmetries(&pos);
    }
}

#[test]
fn encoding_is_seen_from_the_mover() {
    let mut white = Weltschach::start();
    let n = Weltschach::input_len();
    assert_eq!(Weltschach::INPUT_SHAPE, &[93, 8, 8, 8]);
    let mut a = vec![f32::NAN; n];
    white.encode(&mut a);
    assert!(a.iter().all(|v| v.is_finite()));
    // The start is a face-to-face mirror: after a symmetric pair of moves Black sees what White saw.
    white.play(white.parse_move("vd3-vd4").unwrap());
    white.play(white.parse_move("vd6-vd5").unwrap());
    let mut b = vec![0.0; n];
    white.encode(&mut b);
    let mut black = white.clone();
    black.play(black.parse_move("sa3-sa4").unwrap());
    let mut w = white.clone();
    w.play(w.parse_move("sa3-sa4").unwrap());
    w.play(w.parse_move("sa6-sa5").unwrap());
    let mut c = vec![0.0; n];
    let mut d = vec![0.0; n];
    black.encode(&mut c);
    // Black to move after sa3-sa4 sees its Stockbroker on sa6 as "own, rank 3".
    assert_eq!(c[22 * 512 + Cell::parse("sa3").unwrap().index()], 1.0);
    assert_eq!(c[(24 + 22) * 512 + Cell::parse("sa4").unwrap().index()], 0.0);
    assert_eq!(c[(24 + 22) * 512 + Cell::parse("sa5").unwrap().index()], 1.0);
    w.encode(&mut d);
    assert_eq!(d[22 * 512 + Cell::parse("sa4").unwrap().index()], 1.0);
    // Policy: mover's view; vd6-vd5 for Black has the same index as vd3-vd4 for White.
    let start = Weltschach::start();
    let mut after = start.clone();
    after.play(start.parse_move("sa3-sa4").unwrap());
    assert_eq!(
        start.policy_index(start.parse_move("vd3-vd4").unwrap()),
        after.policy_index(after.parse_move("vd6-vd5").unwrap())
    );
}

#[test]
fn both_sides_see_the_mirror_start_alike() {
    let white = Weltschach::start();
    let black = Weltschach::from_text(&white.to_text().replace(" w ", " b ")).unwrap();
    let n = Weltschach::input_len();
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    white.encode(&mut a);
    black.encode(&mut b);
    assert!(a == b);
    let (mut wm, mut bm) = (Vec::new(), Vec::new());
    white.legal_moves(&mut wm);
    black.legal_moves(&mut bm);
    let wi: HashSet<usize> = wm.iter().map(|&m| white.policy_index(m)).collect();
    let bi: HashSet<usize> = bm.iter().map(|&m| black.policy_index(m)).collect();
    assert_eq!(wi, bi);
}
