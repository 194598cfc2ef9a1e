//! The network's view: input planes from the mover's seat, the policy index of a move, and the
//! policy map: the inverse of the canonical indices, as data (moves promoting a pawn other than
//! the first waiting one take free indices of the promotion blocks, which depend on the
//! position and are not in the map).
//!
//! **Frame.** Every cell is first rotated by `rotate_by(c, 3 - mover)` (the inverse of the
//! rotation that carries P1's seat onto the mover's), so the mover's home edge is `r = -5`,
//! the next seat's is `q = -5` and the last seat's `s = -5`, whoever moves. The hexagon is then
//! embedded in the 11 x 11 axial grid: row `5 - r` (the mover's home edge is the bottom row 10),
//! column `q + 5`. The two grid corners with `|s| > 5` (15 squares on each side) are off the
//! board; plane [`ON_BOARD`] marks the 91 real cells. In this grid the 6 edge neighbours of a
//! cell are 6 of its 8 grid neighbours, so 3 x 3 convolutions see them all.
//!
//! **Planes** (seats are relative: 0 = mover, 1 = next, 2 = last in turn order):
//! - `0..15`: pieces, `5 * seat + kind` with kinds K, Q, R, N, P;
//! - `15..18`: pawns moving in the forward directions of relative seat 0, 1, 2 (differs from
//!   the owner only under the takeover rule);
//! - `18..27`: reserves, `18 + 3 * seat + i` for Q, R, N: the count, on every cell;
//! - `27..30`: the seat's pawns waiting on their promotion edge;
//! - `30..36`: castling rights, `30 + 2 * seat` king-side, `+ 1` queen-side (all ones or zeros);
//! - `36`: the 100-ply clock / 100;
//! - `37..40`: whether the seat still plays;
//! - `40`: the on-board mask; `41`: takeover rule on; `42`: threefold repetition on.
//!
//! **Policy.** A move's index is `block * BASE + inner` with `BASE = 121 * (84 + 1)`:
//! - `inner = kind * 121 + grid(from)` for a piece move (kind-major, so that kind `k` is one
//!   11 x 11 plane and a convolutional policy head maps onto it), with `kind` (directions taken in the
//!   rotated frame, numbered as in [`crate::hex::EDGE_DIRS`] and [`crate::hex::VERTEX_DIRS`]):
//!   `10 * edge_dir + (distance - 1)` for edge moves of 1..10 cells (rook, queen, king and pawn
//!   steps, and castling, which moves the king onto its own rook 1 or 2 cells away);
//!   `60 + vertex_dir` for knight and queen vertex steps; `66 + 3 * edge_dir + i` for a pawn
//!   step that promotes at once to reserve piece `i` (Q, R, N). `inner = 84 * 121` (the first
//!   square of an 85th plane) is a pass.
//!   From one cell only one piece moves, so (from, kind) names the move.
//! - `block = 0` without a delayed promotion, `1 + i` with a delayed promotion to reserve
//!   piece `i` of the *first* waiting pawn (lowest grid number in the rotated frame).
//!
//! A delayed promotion turns the move space into a product (which pawn, which piece, which
//! move); keeping every pawn in the index would multiply the policy by up to 33. Several pawns
//! waiting with a non-empty reserve is rare, so only the first waiting pawn gets canonical
//! blocks: moves that promote another pawn take, in generation order, the lowest indices of
//! blocks 1 to 3 that no canonical move of this position uses. The map is therefore injective on
//! the legal moves of every position, and means the same across positions wherever at most one
//! pawn waits.
//!
//! **Symmetry.** None is used. The mirror that swaps the two opponents' seats (`q <-> s` in the
//! mover's frame) is not a symmetry of the game: it reverses the turn order (the seat on the
//! mover's left would move next instead of last), and it swaps the king's and queen's start
//! cells, which castling depends on.

use crate::encoding::Encoding;
use crate::hex::{Bits, Cell, BOARD_R5, EDGE_DIRS, VERTEX_DIRS};
use crate::player::Player;
use crate::policy_map::{PolicyMap, PolicyMove};
use crate::scores::Scores;

use super::castling::{king_side, queen_side};
use super::geometry::rot;
use super::notation::label;
use super::piece::{Move, Piece};
use super::state::{Wellisch, DRAW_PLIES};

/// Number of input planes.
pub const PLANES: usize = 43;
/// The on-board mask plane.
pub const ON_BOARD: usize = 40;
/// Grid side.
pub(super) const SIDE: usize = 11;
/// Squares of one plane.
pub(super) const AREA: usize = SIDE * SIDE;
/// Move kinds from one cell.
pub const KINDS: usize = 84;
/// Policy indices of one delayed-promotion block: the move-kind planes and a plane for the pass.
pub const BASE: usize = AREA * (KINDS + 1);
/// Number of policy outputs: the plain block and one block per delayed promotion piece.
pub const POLICY: usize = 4 * BASE;

/// The grid square of a cell seen from `mover`'s seat.
#[inline(always)]
pub(crate) fn grid(c: Cell, mover: Player) -> usize {
    let c = rot(c, 3 - mover);
    (5 - c.r()) as usize * SIDE + (c.q() + 5) as usize
}

/// The on-board squares of the grid (the same for every seat: the rotations map the hexagon
/// onto itself), for networks that zero the padding.
pub(crate) fn board_mask() -> Vec<f32> {
    let mut mask = vec![0.0; AREA];
    for c in Bits(crate::hex::BOARD_R5.on_board()) {
        mask[grid(c, 0)] = 1.0;
    }
    mask
}

impl Wellisch {
    /// Fills `planes` (length `PLANES * 121`).
    pub(crate) fn write_planes(&self, planes: &mut [f32]) {
        assert_eq!(planes.len(), PLANES * AREA, "encode buffer length");
        planes.fill(0.0);
        let pos = &self.pos;
        let m = pos.mover as usize;
        let mut set = |plane: usize, bb: u128| {
            for c in Bits(bb) {
                planes[plane * AREA + grid(c, m)] = 1.0;
            }
        };
        let kinds = [pos.kinds[0], pos.kinds[1], pos.kinds[2], pos.kinds[3], pos.all_pawns()];
        for rel in 0..3 {
            let seat = (m + rel) % 3;
            for (k, &bb) in kinds.iter().enumerate() {
                set(5 * rel + k, bb & pos.owner[seat]);
            }
            set(15 + rel, pos.pawns[seat]);
            set(27 + rel, pos.waiting(seat));
        }
        let mut fill = |plane: usize, v: f32| planes[plane * AREA..(plane + 1) * AREA].fill(v);
        for rel in 0..3 {
            let seat = (m + rel) % 3;
            for r in 0..3 {
                fill(18 + 3 * rel + r, pos.reserve[seat][r] as f32);
            }
            fill(30 + 2 * rel, (pos.castling & king_side(seat) != 0) as u8 as f32);
            fill(31 + 2 * rel, (pos.castling & queen_side(seat) != 0) as u8 as f32);
            fill(37 + rel, self.is_alive(seat) as u8 as f32);
        }
        fill(36, self.clock as f32 / DRAW_PLIES as f32);
        fill(41, self.options.takeover as u8 as f32);
        fill(42, self.options.threefold as u8 as f32);
        for c in Bits(crate::hex::BOARD_R5.on_board()) {
            planes[ON_BOARD * AREA + grid(c, m)] = 1.0;
        }
    }

    /// The index of `mv` within its block (see the module docs).
    fn inner_index(&self, mv: Move) -> usize {
        let (Some(from), Some(to)) = (mv.from(), mv.to()) else { return KINDS * AREA };
        let m = self.pos.mover as usize;
        let (a, b) = (rot(from, 3 - m), rot(to, 3 - m));
        let (dq, dr) = (b.q() - a.q(), b.r() - a.r());
        let ds = -dq - dr;
        let kind = if let Some(j) = VERTEX_DIRS.iter().position(|&v| v == (dq, dr, ds)) {
            60 + j
        } else {
            let dist = dq.abs().max(dr.abs()).max(ds.abs());
            let unit = (dq / dist, dr / dist, ds / dist);
            let e = EDGE_DIRS.iter().position(|&v| v == unit).expect("a move along an edge or vertex direction");
            match mv.promotion() {
                Some(i) => 66 + 3 * e + i,
                None => 10 * e + dist as usize - 1,
            }
        };
        kind * AREA + grid(from, m)
    }

    /// The policy index of a legal move (see the module docs).
    pub(crate) fn index_of(&self, mv: Move) -> usize {
        let inner = self.inner_index(mv);
        let Some((pawn, r)) = mv.delayed() else { return inner };
        if pawn == self.first_waiting() {
            return (1 + r) * BASE + inner;
        }
        // Another pawn than the first waits: hand out the free indices of blocks 1 to 3.
        let mut moves = Vec::new();
        self.moves(&mut moves);
        let first = self.first_waiting();
        let mut used = vec![false; POLICY];
        for &x in &moves {
            if x.delayed().is_none_or(|(p, _)| p == first) {
                used[self.index_of(x)] = true;
            }
        }
        let mut next = BASE;
        for &x in &moves {
            if x.delayed().is_some_and(|(p, _)| p != first) {
                while used[next] {
                    next += 1;
                }
                if x == mv {
                    return next;
                }
                next += 1;
            }
        }
        panic!("policy_index: {mv:?} is not a legal move here")
    }

    /// The mover's waiting pawn with the lowest grid number in the mover's frame.
    fn first_waiting(&self) -> Cell {
        let m = self.pos.mover as usize;
        Bits(self.pos.waiting(m)).min_by_key(|&c| grid(c, m)).expect("a waiting pawn")
    }
}

impl Encoding for Wellisch {
    const INPUT_SHAPE: &'static [usize] = &[PLANES, 11, 11];
    const POLICY_SIZE: usize = POLICY;

    fn encode(&self, planes: &mut [f32]) {
        self.write_planes(planes);
    }

    fn policy_index(&self, mv: Move) -> usize {
        self.index_of(mv)
    }

    fn policy_map() -> PolicyMap {
        policy_map()
    }

    /// A king capture ranks the seats 1, 1/2, 0 (with the takeover rule after the second
    /// capture); a draw gives 1/2 each, or 3/4 to both survivors of one capture.
    fn outcomes() -> Vec<Scores> {
        let mut all = vec![Scores::draw(3)];
        for (a, b, c) in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)] {
            let mut ranked = [0.0; 3];
            (ranked[a], ranked[b], ranked[c]) = (1.0, 0.5, 0.0);
            all.push(Scores::new(&ranked));
        }
        for out in 0..3 {
            let mut survivors = [0.75; 3];
            survivors[out] = 0.0;
            all.push(Scores::new(&survivors));
        }
        all
    }

    fn board_mask() -> Option<Vec<f32>> {
        Some(board_mask())
    }
}

/// The displacement `(dq, dr)` of move kind `kind` in the mover's frame, and the reserve piece
/// an immediate promotion names, if any.
fn kind_delta(kind: usize) -> ((i8, i8), Option<char>) {
    let scaled = |(q, r, _): (i8, i8, i8), n: usize| (q * n as i8, r * n as i8);
    match kind {
        0..60 => (scaled(EDGE_DIRS[kind / 10], kind % 10 + 1), None),
        60..66 => (scaled(VERTEX_DIRS[kind - 60], 1), None),
        _ => (scaled(EDGE_DIRS[(kind - 66) / 3], 1), Some(Piece::RESERVE[(kind - 66) % 3].letter())),
    }
}

/// The grid square of the mover's-frame cell `(q, r)`, if it is on the board.
fn square_of(q: i8, r: i8) -> Option<usize> {
    let cell = Cell::new(q, r).filter(|&c| BOARD_R5.contains(c))?;
    Some((5 - cell.r()) as usize * SIDE + (cell.q() + 5) as usize)
}

/// The map of every canonical policy index, and the cells behind the grid squares per seat.
pub(crate) fn policy_map() -> PolicyMap {
    let mut moves = Vec::with_capacity(POLICY);
    for block in 0..POLICY / BASE {
        let with_promotion = block.checked_sub(1).map(|r| Piece::RESERVE[r].letter());
        for inner in 0..BASE {
            let (kind, sq) = (inner / AREA, inner % AREA);
            let entry = if kind == KINDS {
                (sq == 0).then_some(PolicyMove { from: None, to: None, promotion: None, with_promotion })
            } else {
                let ((dq, dr), promotion) = kind_delta(kind);
                let (q, r) = ((sq % SIDE) as i8 - 5, 5 - (sq / SIDE) as i8);
                square_of(q, r).and(square_of(q + dq, r + dr)).map(|to| PolicyMove {
                    promotion,
                    with_promotion,
                    ..PolicyMove::step(sq, to)
                })
            };
            moves.push(entry);
        }
    }
    let cells = (0..3)
        .map(|seat| {
            let mut names = vec![None; AREA];
            for c in Bits(BOARD_R5.on_board()) {
                names[grid(c, seat)] = Some(label(c));
            }
            names
        })
        .collect();
    PolicyMap { moves, cells }
}
