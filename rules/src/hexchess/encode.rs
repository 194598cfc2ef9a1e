//! The network's view: input planes from the mover's side, the policy index of a move, and the
//! left-right mirror of both, and the policy map: their inverse, as data. The layout is
//! documented in docs/notation-hex.md.
//!
//! Grid: the hexagon of radius R sits in a square grid of side `2R + 1` by its axial coordinates,
//! column `x = q + R`, row `y = r + R` (element `y * W + x` of a plane). The six edge neighbours of
//! a cell are then six of its eight grid neighbours, so 3 x 3 convolutions see the hex
//! neighbourhood. Off-board squares are 0 in every plane except that the mask plane marks the
//! board. For Black everything is first reflected top-bottom ([`Cell::flip`]), so the mover always
//! plays up the grid (towards larger `y`).

use crate::encoding::Encoding;
use crate::hex::{Bits, Cell, Dir, KNIGHT_LEAPS};
use crate::player::Player;
use crate::policy_map::{PolicyMap, PolicyMove};
use crate::scores::Scores;

use super::game::DRAW_PLIES;
use super::piece::BLACK;
use super::position::{HexChess, HexMove, NO_CELL};
use super::rules::HexRules;

/// Grid side `2R + 1`.
pub(crate) const fn grid_side<V: HexRules>() -> usize {
    2 * V::BOARD.radius() as usize + 1
}

/// Number of input planes: pieces by owner (mover first) and type, then en passant (variants with
/// double steps only), repetition, 100-ply counter, on-board mask.
pub(crate) const fn plane_count<V: HexRules>() -> usize {
    2 * V::PIECES.len() + V::DOUBLE_STEP as usize + 3
}

/// Number of move kinds (policy planes): slides along 6 edge directions up to `2R` cells, along 6
/// vertex directions up to `R` cells, 12 knight leaps, and each under-promotion per pawn direction.
pub(crate) const fn move_kinds<V: HexRules>() -> usize {
    let r = V::BOARD.radius() as usize;
    12 * r + 6 * r + 12 + 3 * (V::PROMOTIONS.len() - 1)
}

/// `cell` as the player `side` sees it.
#[inline]
pub(super) fn view(cell: Cell, side: Player) -> Cell {
    if side == BLACK {
        cell.flip()
    } else {
        cell
    }
}

/// The grid square `y * W + x` of a cell.
#[inline]
pub(super) fn square<V: HexRules>(cell: Cell) -> usize {
    let r = V::BOARD.radius();
    ((cell.r() + r) as usize) * grid_side::<V>() + (cell.q() + r) as usize
}

/// The cell on grid square `sq`, if that square is on the board.
pub(super) fn cell_of_square<V: HexRules>(sq: usize) -> Option<Cell> {
    let w = grid_side::<V>();
    let r = V::BOARD.radius();
    let cell = Cell::new((sq % w) as i8 - r, (sq / w) as i8 - r)?;
    V::BOARD.contains(cell).then_some(cell)
}

/// The grid square of a square's mirror image (off-board squares stay put).
fn mirror_square<V: HexRules>(sq: usize) -> usize {
    cell_of_square::<V>(sq).map_or(sq, |c| square::<V>(c.mirror()))
}

/// The move kind (policy plane) of a move by `delta = (dq, dr)` in the mover's view.
fn kind_of<V: HexRules>(dq: i8, dr: i8, under_promotion: Option<usize>) -> usize {
    let radius = V::BOARD.radius() as usize;
    let ds = -dq - dr;
    if let Some(p) = under_promotion {
        // Pawn directions in the mover's view: forward, then the two capture directions.
        let dirs = [Dir::N, V::PAWN_CAPTURES[0], V::PAWN_CAPTURES[1]];
        let d = dirs.iter().position(|d| d.delta() == (dq, dr, ds)).expect("a pawn moves one step");
        return 18 * radius + 12 + d * (V::PROMOTIONS.len() - 1) + p - 1;
    }
    if let Some(l) = KNIGHT_LEAPS.iter().position(|&l| l == (dq, dr, ds)) {
        return 18 * radius + l;
    }
    for dir in Dir::ALL {
        let (a, b, _) = dir.delta();
        let k = if a != 0 { dq / a } else { dr / b };
        if k >= 1 && a * k == dq && b * k == dr {
            let k = k as usize;
            return if dir.is_edge() {
                dir.index() * 2 * radius + k - 1
            } else {
                12 * radius + (dir.index() - 6) * radius + k - 1
            };
        }
    }
    panic!("({dq}, {dr}) is no move of any piece")
}

/// The image of a move kind under the left-right mirror.
fn mirror_kind<V: HexRules>(kind: usize) -> usize {
    let radius = V::BOARD.radius() as usize;
    if kind < 12 * radius {
        let (d, k) = (kind / (2 * radius), kind % (2 * radius));
        Dir::ALL[d].mirror().index() * 2 * radius + k
    } else if kind < 18 * radius {
        let (d, k) = ((kind - 12 * radius) / radius, (kind - 12 * radius) % radius);
        12 * radius + (Dir::ALL[d + 6].mirror().index() - 6) * radius + k
    } else if kind < 18 * radius + 12 {
        let (q, r, s) = KNIGHT_LEAPS[kind - 18 * radius];
        18 * radius + KNIGHT_LEAPS.iter().position(|&l| l == (-q, -s, -r)).expect("leaps are mirror-closed")
    } else {
        let n = V::PROMOTIONS.len() - 1;
        let (d, p) = ((kind - 18 * radius - 12) / n, (kind - 18 * radius - 12) % n);
        // The two capture directions are each other's mirror images; forward stays.
        let d = [0, 2, 1][d];
        18 * radius + 12 + d * n + p
    }
}

impl<V: HexRules> HexChess<V> {
    /// Writes the input planes (see the module comment for the layout).
    pub(crate) fn write_planes(&self, planes: &mut [f32]) {
        let area = grid_side::<V>() * grid_side::<V>();
        assert_eq!(planes.len(), plane_count::<V>() * area, "planes buffer has the wrong length");
        planes.fill(0.0);
        let us = self.side as Player;
        for (o, owner) in [us, us ^ 1].into_iter().enumerate() {
            for (i, piece) in V::PIECES.iter().enumerate() {
                let plane = (o * V::PIECES.len() + i) * area;
                for cell in Bits(self.by_side[owner] & self.by_piece[piece.index()]) {
                    planes[plane + square::<V>(view(cell, us))] = 1.0;
                }
            }
        }
        let mut next = 2 * V::PIECES.len();
        if V::DOUBLE_STEP {
            if self.ep != NO_CELL {
                let ep = Cell::from_index_unchecked(self.ep as u32);
                planes[next * area + square::<V>(view(ep, us))] = 1.0;
            }
            next += 1;
        }
        let constants = [self.reps.min(2) as f32 / 2.0, self.halfmove.min(DRAW_PLIES) as f32 / DRAW_PLIES as f32, 1.0];
        for (k, value) in constants.into_iter().enumerate() {
            let plane = (next + k) * area;
            for &cell in V::BOARD.cells() {
                planes[plane + square::<V>(cell)] = value;
            }
        }
    }

    /// The policy index `kind * H * W + square(from)` of a move, both in the mover's view.
    pub(crate) fn move_index(&self, mv: HexMove) -> usize {
        let us = self.side as Player;
        let (from, to) = (view(mv.from, us), view(mv.to, us));
        let under = mv.promotion.and_then(|p| V::PROMOTIONS.iter().position(|&q| q == p)).filter(|&i| i > 0);
        let kind = kind_of::<V>(to.q() - from.q(), to.r() - from.r(), under);
        kind * grid_side::<V>() * grid_side::<V>() + square::<V>(from)
    }
}

/// Mirrors encoded planes left-right (`sym` 1) or copies them (`sym` 0).
pub(crate) fn transform_planes<V: HexRules>(sym: usize, src: &[f32], dst: &mut [f32]) {
    assert!(sym < 2, "hex chess has 2 symmetries, got {sym}");
    assert_eq!(src.len(), dst.len());
    if sym == 0 {
        dst.copy_from_slice(src);
        return;
    }
    let area = grid_side::<V>() * grid_side::<V>();
    for (s, d) in src.chunks_exact(area).zip(dst.chunks_exact_mut(area)) {
        for (sq, &value) in s.iter().enumerate() {
            d[mirror_square::<V>(sq)] = value;
        }
    }
}

/// Mirrors a policy index left-right (`sym` 1) or keeps it (`sym` 0).
pub(crate) fn transform_policy_index<V: HexRules>(sym: usize, index: usize) -> usize {
    assert!(sym < 2, "hex chess has 2 symmetries, got {sym}");
    if sym == 0 {
        return index;
    }
    let area = grid_side::<V>() * grid_side::<V>();
    let (kind, sq) = (index / area, index % area);
    mirror_kind::<V>(kind) * area + mirror_square::<V>(sq)
}

/// 1.0 on grid squares that are board cells, 0.0 on the padding around the hexagon.
pub(crate) fn board_mask<V: HexRules>() -> Vec<f32> {
    let w = grid_side::<V>();
    (0..w * w).map(|sq| if cell_of_square::<V>(sq).is_some() { 1.0 } else { 0.0 }).collect()
}

impl<V: HexRules> Encoding for HexChess<V> {
    const INPUT_SHAPE: &'static [usize] = &[plane_count::<V>(), grid_side::<V>(), grid_side::<V>()];
    const POLICY_SIZE: usize = move_kinds::<V>() * grid_side::<V>() * grid_side::<V>();
    const NUM_SYMMETRIES: usize = 2;

    fn encode(&self, planes: &mut [f32]) {
        self.write_planes(planes);
    }

    fn policy_index(&self, mv: HexMove) -> usize {
        self.move_index(mv)
    }

    fn policy_map() -> PolicyMap {
        policy_map::<V>()
    }

    fn outcomes() -> Vec<Scores> {
        let mut all = vec![Scores::win2(0), Scores::draw(2), Scores::win2(1)];
        let s = V::STALEMATE_SCORE;
        if s != 0.5 && s != 1.0 {
            all.extend([Scores::new(&[s, 1.0 - s]), Scores::new(&[1.0 - s, s])]);
        }
        all
    }

    fn transform_planes(sym: usize, src: &[f32], dst: &mut [f32]) {
        transform_planes::<V>(sym, src, dst);
    }

    fn transform_policy_index(sym: usize, index: usize) -> usize {
        transform_policy_index::<V>(sym, index)
    }

    fn board_mask() -> Option<Vec<f32>> {
        Some(board_mask::<V>())
    }
}

/// The displacement `(dq, dr)` of move kind `kind` in the mover's view, and the promotion piece
/// it names, if any.
fn kind_delta<V: HexRules>(kind: usize) -> ((i8, i8), Option<char>) {
    let radius = V::BOARD.radius() as usize;
    let times = |dir: Dir, n: usize| {
        let (q, r, _) = dir.delta();
        ((q * n as i8, r * n as i8), None)
    };
    if kind < 12 * radius {
        times(Dir::ALL[kind / (2 * radius)], kind % (2 * radius) + 1)
    } else if kind < 18 * radius {
        times(Dir::ALL[6 + (kind - 12 * radius) / radius], (kind - 12 * radius) % radius + 1)
    } else if kind < 18 * radius + 12 {
        let (q, r, _) = KNIGHT_LEAPS[kind - 18 * radius];
        ((q, r), None)
    } else {
        let n = V::PROMOTIONS.len() - 1;
        let (d, p) = ((kind - 18 * radius - 12) / n, (kind - 18 * radius - 12) % n);
        let dir = [Dir::N, V::PAWN_CAPTURES[0], V::PAWN_CAPTURES[1]][d];
        let (delta, _) = times(dir, 1);
        (delta, Some(V::PROMOTIONS[p + 1].letter()))
    }
}

/// The map of every policy index, and the cells behind the grid squares for White and Black.
pub(crate) fn policy_map<V: HexRules>() -> PolicyMap {
    let area = grid_side::<V>() * grid_side::<V>();
    let mut moves = Vec::with_capacity(move_kinds::<V>() * area);
    for kind in 0..move_kinds::<V>() {
        let ((dq, dr), promotion) = kind_delta::<V>(kind);
        for sq in 0..area {
            let to = cell_of_square::<V>(sq)
                .and_then(|from| Cell::new(from.q() + dq, from.r() + dr))
                .filter(|&to| V::BOARD.contains(to));
            moves.push(to.map(|to| PolicyMove { promotion, ..PolicyMove::step(sq, square::<V>(to)) }));
        }
    }
    let cells = (0..2)
        .map(|side| {
            (0..area)
                .map(|sq| cell_of_square::<V>(sq).map(|c| super::notation::label::<V>(view(c, side)).to_string()))
                .collect()
        })
        .collect();
    PolicyMap { moves, cells }
}
