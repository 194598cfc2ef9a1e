//! Draw by insufficient material. The game is won only by capturing a king, and a king can be
//! captured only if it stands attacked when its captor's turn comes. With nothing but kings on the
//! board that means two kings side by side (kings step along the edge directions); a king may not
//! step next to another (it would leave itself attacked, docs/rules/wellisch.md), and no other
//! piece is left to attack one, so once no two kings touch, none ever will: every seat still
//! playing draws. With any other piece we claim nothing: two opponents can help a third corner a
//! king.

use crate::hex::{Bits, BOARD_R5};

use super::piece::Piece;
use super::state::Wellisch;

impl Wellisch {
    /// Whether only kings are left and no two stand side by side: three ORs and a compare unless
    /// only kings are left.
    #[inline]
    pub(crate) fn insufficient_material(&self) -> bool {
        let kings = self.pos.kinds[Piece::King as usize];
        self.pos.occupied() == kings && Bits(kings).all(|k| BOARD_R5.edge_neighbours(k) & kings == 0)
    }
}
