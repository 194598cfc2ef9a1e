//! A variant-agnostic picture of a position: where each cell is drawn, its shape, shade and
//! label, and which piece stands on it.
//!
//! Each variant knows its own geometry (hexagons flat- or pointy-topped, a row of square grids for
//! the cube), so it describes itself through [`Pictured::diagram`]; renderers (the CLI's SVG
//! board and HTML replay) only draw shapes at coordinates and never learn a variant's rules.

use crate::ending::describe_end;
use crate::game::Game;
use crate::player::Player;

/// The outline of a cell. Every shape has "radius" 1 in diagram units (a hexagon's corners are 1
/// from its centre, a square's sides are 1 from it), so neighbouring cells touch when centres are
/// laid out in those units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellShape {
    /// A hexagon with a flat top and bottom (Glinski, Mini Hexchess: files run straight up).
    FlatHex,
    /// A hexagon with a corner on top (Wellisch: rows run left to right).
    PointyHex,
    /// A square of side 2 (Weltschach levels).
    Square,
}

/// One cell of the board.
#[derive(Clone, Debug, PartialEq)]
pub struct DiagramCell {
    /// The variant's own number for the cell; [`Pictured::move_cells`] names cells by it.
    pub key: u16,
    /// Centre, in diagram units, x to the right.
    pub x: f32,
    /// Centre, in diagram units, y downward (as in SVG), so the first player sits at the bottom.
    pub y: f32,
    /// The outline.
    pub shape: CellShape,
    /// Colour class: 0 light, 1 medium, 2 dark (two-colour boards use 0 and 2).
    pub shade: u8,
    /// The cell's name in the variant's notation (`f5`, `vd3`).
    pub label: String,
}

/// A piece standing on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramPiece {
    /// The [`DiagramCell::key`] of its cell.
    pub cell: u16,
    /// The seat it belongs to.
    pub owner: Player,
    /// Its upper-case letter in the variant's position text.
    pub letter: char,
}

/// Text placed on the picture outside the cells (a level's name, a file letter).
#[derive(Clone, Debug, PartialEq)]
pub struct Caption {
    /// Centre of the text, in diagram units.
    pub x: f32,
    /// Centre of the text, in diagram units.
    pub y: f32,
    /// The text.
    pub text: String,
}

/// A part of the picture that may be drawn apart from the rest: the cells and captions whose
/// centres lie in its box. A page too narrow for the whole picture stacks its panels instead of
/// shrinking every cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// Left edge, in diagram units.
    pub x: f32,
    /// Top edge, in diagram units (y downward).
    pub y: f32,
    /// Width, in diagram units.
    pub width: f32,
    /// Height, in diagram units.
    pub height: f32,
}

/// Everything needed to draw one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    /// Every cell of the board, once.
    pub cells: Vec<DiagramCell>,
    /// Every piece on the board, once.
    pub pieces: Vec<DiagramPiece>,
    /// Extra text around the board.
    pub captions: Vec<Caption>,
    /// Whether each cell's label is printed inside it (a 512-cell cube relies on captions).
    pub label_cells: bool,
    /// Seat names in turn order (`White`, `Black`), for the legend.
    pub players: Vec<String>,
    /// Piece letters with their names, for the legend (a variant with many kinds may list only
    /// those on the board).
    pub legend: Vec<(char, String)>,
    /// The parts of the picture a narrow screen may lay out on its own (a Weltschach level);
    /// empty where the picture is one piece.
    pub panels: Vec<Panel>,
    /// The seat to move.
    pub to_move: Player,
}

/// How a variant draws its positions and moves, for `vzero render` and `vzero replay`.
pub trait Pictured: Game {
    /// A picture of the position; `None` (the default) for a variant that cannot draw itself
    /// yet, so a new variant builds before it has one.
    fn diagram(&self) -> Option<Diagram> {
        None
    }

    /// The [`DiagramCell::key`]s of the cells `mv` (a legal move here) leaves and enters, for
    /// drawing it as an arrow; `None` for a move with no cells (a pass) and where
    /// [`Pictured::diagram`] is `None`.
    fn move_cells(&self, mv: Self::Move) -> Option<(u16, u16)> {
        let _ = mv;
        None
    }

    /// The [`DiagramCell::key`] of the mover's king when it is in check, for a board to
    /// highlight; `None` otherwise, and where [`Pictured::diagram`] is `None`.
    fn checked_king(&self) -> Option<u16> {
        None
    }
}

/// How `game` ended in one sentence ([`describe_end`]), seats named as its diagram names
/// them; `None` while the game goes on.
pub fn ending_text<G: Pictured>(game: &G) -> Option<String> {
    let ending = game.ending()?;
    let names = game.diagram().map(|d| d.players).unwrap_or_default();
    Some(describe_end(ending, &game.outcome()?, game.to_move(), &names))
}
