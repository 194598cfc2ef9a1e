//! The policy map as data: what move each policy index stands for, so that programs outside
//! vzero (Python reading an exported network) can turn policy outputs into moves without the
//! rules. Indices are in the mover's frame, like the encoding; [`PolicyMap::cells`] names the
//! board cell behind each grid square for every seat that can be to move.

/// What one policy index stands for, in the encoding's grid as the player to move sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyMove {
    /// The grid square the piece leaves (flat over the spatial dimensions of
    /// [`crate::Encoding::INPUT_SHAPE`], row-major); `None` for a pass or a placement.
    pub from: Option<usize>,
    /// The grid square the piece lands on; `None` for a pass.
    pub to: Option<usize>,
    /// The piece letter the moving pawn promotes to, when the index names one (a pawn reaching
    /// the last rank without one promotes to the variant's default piece).
    pub promotion: Option<char>,
    /// The piece letter another piece becomes with this move (Wellisch's delayed promotion of
    /// the mover's first waiting pawn).
    pub with_promotion: Option<char>,
}

impl PolicyMove {
    /// A move from `from` to `to` that names no promotion.
    pub fn step(from: usize, to: usize) -> PolicyMove {
        PolicyMove { from: Some(from), to: Some(to), promotion: None, with_promotion: None }
    }
}

/// A variant's whole policy map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyMap {
    /// By policy index: the move it stands for, or `None` when no legal move can have it (its
    /// target lies off the board).
    pub moves: Vec<Option<PolicyMove>>,
    /// By seat to move, then by grid square: the name of the board cell the square shows, or
    /// `None` for padding around the board.
    pub cells: Vec<Vec<Option<String>>>,
}
