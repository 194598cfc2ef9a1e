//! A game of any variant as one value ([`VariantGame`]), chosen at run time, whose every method
//! runs its variant's monomorphised code (shakmaty's `VariantPosition`): what the CLI's engine
//! and the Python module hold, so that neither erases the variant itself.

use crate::board_text::board_text;
use crate::diagram::{ending_text, Diagram, Pictured};
use crate::encoding::Encoding;
use crate::ending::Ending;
use crate::error::{PlayError, PositionError, SetupError};
use crate::full_game::FullGame;
use crate::game::{game_over_text, Game};
use crate::hexchess::{Glinski, MiniHexchess};
use crate::player::Player;
use crate::scores::Scores;
use crate::variant::Variant;
use crate::wellisch::Wellisch;
use crate::weltschach::Weltschach;

/// A game of one of the variants, at any position; one arm per [`Variant`].
// Each arm holds its game inline, as the variant's own type does: a Weltschach position is
// larger than the others, but boxing it would cost an allocation per copy (Python copies games
// freely) to save memory that is only ever a handful of games.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum VariantGame {
    /// Glinski's hexagonal chess.
    Glinski(Glinski),
    /// Mini Hexchess.
    MiniHexchess(MiniHexchess),
    /// Wellisch's three-player hexagonal chess.
    Wellisch(Wellisch),
    /// Gilman's Weltschach.
    Weltschach(Weltschach),
}

/// Runs an expression on the game inside a [`VariantGame`] as its own type:
/// `with_variant_game!(&game, g => g.to_move())` binds `g` to the arm's game, and
/// `with_variant_game!(&game, g: G => f::<G>(g))` also names its type `G`. It expands to a
/// `match` with one arm per variant (as [`with_game!`](crate::with_game) does on a [`Variant`]),
/// so the expression is monomorphised per variant. `$game` may be `&VariantGame`,
/// `&mut VariantGame` or a `VariantGame`, and `g` is bound accordingly.
#[macro_export]
macro_rules! with_variant_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::VariantGame::Glinski($g) => $body,
            $crate::VariantGame::MiniHexchess($g) => $body,
            $crate::VariantGame::Wellisch($g) => $body,
            $crate::VariantGame::Weltschach($g) => $body,
        }
    };
    ($game:expr, $g:ident: $G:ident => $body:expr) => {
        match $game {
            $crate::VariantGame::Glinski($g) => {
                type $G = $crate::hexchess::Glinski;
                $body
            }
            $crate::VariantGame::MiniHexchess($g) => {
                type $G = $crate::hexchess::MiniHexchess;
                $body
            }
            $crate::VariantGame::Wellisch($g) => {
                type $G = $crate::wellisch::Wellisch;
                $body
            }
            $crate::VariantGame::Weltschach($g) => {
                type $G = $crate::weltschach::Weltschach;
                $body
            }
        }
    };
}

/// A variant's game type, one arm of [`VariantGame`]: code generic over it (a search with a
/// network for this variant) reads its variant, and finds its game inside a [`VariantGame`].
pub trait KnownVariant: FullGame + Into<VariantGame> {
    /// The variant this type plays.
    const VARIANT: Variant;

    /// The game inside `game` if it is of this variant.
    fn unerase(game: &VariantGame) -> Option<&Self>;
}

/// `impl KnownVariant` and `From` for each arm.
macro_rules! known_variant {
    ($($arm:ident),*) => {$(
        impl KnownVariant for $arm {
            const VARIANT: Variant = Variant::$arm;

            fn unerase(game: &VariantGame) -> Option<&$arm> {
                match game {
                    VariantGame::$arm(g) => Some(g),
                    _ => None,
                }
            }
        }

        impl From<$arm> for VariantGame {
            fn from(game: $arm) -> VariantGame {
                VariantGame::$arm(game)
            }
        }
    )*};
}

known_variant!(Glinski, MiniHexchess, Wellisch, Weltschach);

/// A legal move as people see it: its text and the cells it joins on the board's picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardMove {
    /// The move in the variant's notation, as the variant writes it.
    pub text: String,
    /// The diagram keys of the cells it leaves and enters (none for a pass).
    pub cells: Option<(u16, u16)>,
}

impl VariantGame {
    /// `variant` at its start position.
    pub fn start(variant: Variant) -> VariantGame {
        crate::with_game!(variant, G => G::start().into())
    }

    /// `variant` at the position `text` (the variant's position text).
    pub fn from_text(variant: Variant, text: &str) -> Result<VariantGame, PositionError> {
        crate::with_game!(variant, G => Ok(G::from_text(text)?.into()))
    }

    /// `variant` at `position` text (the start position if `None`) after `moves` in its
    /// notation; the error names the bad part (the position, or the move by its number).
    pub fn setup<S: AsRef<str>>(
        variant: Variant,
        position: Option<&str>,
        moves: &[S],
    ) -> Result<VariantGame, SetupError> {
        let mut game = match position {
            None => VariantGame::start(variant),
            Some(text) => VariantGame::from_text(variant, text)
                .map_err(|error| SetupError::Position { text: text.to_string(), error })?,
        };
        for (i, text) in moves.iter().map(AsRef::as_ref).enumerate() {
            game.play_text(text).map_err(|error| SetupError::Move { number: i + 1, text: text.to_string(), error })?;
        }
        Ok(game)
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        with_variant_game!(self, _g: G => G::VARIANT)
    }

    /// Number of seats.
    pub fn num_players(&self) -> usize {
        self.variant().players()
    }

    /// The seat to move.
    pub fn to_move(&self) -> Player {
        with_variant_game!(self, g => g.to_move())
    }

    /// The position in the variant's text format ([`VariantGame::from_text`] reads it back).
    pub fn to_text(&self) -> String {
        with_variant_game!(self, g => g.to_text())
    }

    /// The Zobrist hash of everything that makes positions equal for repetition.
    pub fn hash(&self) -> u64 {
        with_variant_game!(self, g => g.hash())
    }

    /// The legal moves' text, in generation order.
    pub fn legal_moves(&self) -> Vec<String> {
        with_variant_game!(self, g => legal(g).into_iter().map(|mv| g.move_text(mv)).collect())
    }

    /// The legal moves' policy indices, in generation order (an action is an `i64`, as
    /// OpenSpiel's `Action` is).
    pub fn legal_actions(&self) -> Vec<i64> {
        with_variant_game!(self, g => legal(g).into_iter().map(|mv| g.policy_index(mv) as i64).collect())
    }

    /// The legal moves' text and cells, in generation order.
    pub fn legal_board_moves(&self) -> Vec<BoardMove> {
        with_variant_game!(self, g => legal(g).into_iter().map(|mv| board_move(g, mv)).collect())
    }

    /// Plays the legal move named by `text`, and returns it; on an error the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<BoardMove, PlayError> {
        with_variant_game!(self, g => {
            let mv = parse(g, text)?;
            Ok(play(g, mv))
        })
    }

    /// Plays the legal move with policy index `action`, and returns it; on an error the game is
    /// unchanged.
    pub fn play_action(&mut self, action: i64) -> Result<BoardMove, PlayError> {
        with_variant_game!(self, g => {
            let mv = move_with(g, action)?;
            Ok(play(g, mv))
        })
    }

    /// The policy index of the legal move named by `text`.
    pub fn action_of(&self, text: &str) -> Result<i64, PlayError> {
        with_variant_game!(self, g => Ok(g.policy_index(parse(g, text)?) as i64))
    }

    /// The text of the legal move with policy index `action`.
    pub fn move_of(&self, action: i64) -> Result<String, PlayError> {
        with_variant_game!(self, g => Ok(g.move_text(move_with(g, action)?)))
    }

    /// Each seat's final score, `None` while the game goes on.
    pub fn outcome(&self) -> Option<Scores> {
        with_variant_game!(self, g => g.outcome())
    }

    /// The rule that ended the game, `None` while it goes on.
    pub fn ending(&self) -> Option<Ending> {
        with_variant_game!(self, g => g.ending())
    }

    /// How the game ended in one sentence ([`ending_text`]), `None` while it goes on.
    pub fn ending_text(&self) -> Option<String> {
        with_variant_game!(self, g => ending_text(g))
    }

    /// Why nothing can be played any more, in one line ([`game_over_text`]); `None` while the
    /// game goes on.
    pub fn game_over_text(&self) -> Option<String> {
        with_variant_game!(self, g => game_over_text(g))
    }

    /// The network input's shape for one position ([`Encoding::INPUT_SHAPE`]).
    pub fn input_shape(&self) -> &'static [usize] {
        with_variant_game!(self, _g: G => G::INPUT_SHAPE)
    }

    /// The number of policy outputs ([`Encoding::POLICY_SIZE`]).
    pub fn policy_size(&self) -> usize {
        with_variant_game!(self, _g: G => G::POLICY_SIZE)
    }

    /// Writes the network input planes, seen by the player to move, into `planes` (length: the
    /// product of [`VariantGame::input_shape`]).
    pub fn encode(&self, planes: &mut [f32]) {
        with_variant_game!(self, g => g.encode(planes))
    }

    /// Leaves of the legal-move tree `depth` plies deep (bulk-counted, as `vzero perft`).
    pub fn perft(&self, depth: u32) -> u64 {
        with_variant_game!(self, g => crate::perft::perft(g, depth, true))
    }

    /// The diagram key of the mover's king when it is in check ([`Pictured::checked_king`]).
    pub fn checked_king(&self) -> Option<u16> {
        with_variant_game!(self, g => g.checked_king())
    }

    /// The picture of the position, if the variant can draw itself.
    pub fn diagram(&self) -> Option<Diagram> {
        with_variant_game!(self, g => g.diagram())
    }

    /// The board as text ([`board_text`]) with the cells of `last` marked, or the position text
    /// where the variant has no picture.
    pub fn board_text(&self, last: Option<(u16, u16)>) -> String {
        self.diagram().map(|d| board_text(&d, last)).unwrap_or_else(|| self.to_text())
    }
}

/// Every legal move of `game`.
fn legal<G: Game>(game: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// `mv` (legal in `game`) as text and cells.
fn board_move<G: FullGame>(game: &G, mv: G::Move) -> BoardMove {
    BoardMove { text: game.move_text(mv), cells: game.move_cells(mv) }
}

/// Plays `mv` (legal in `game`) and returns it as text and cells.
fn play<G: FullGame>(game: &mut G, mv: G::Move) -> BoardMove {
    let played = board_move(game, mv);
    game.play(mv);
    played
}

/// The legal move of `game` named by `text`.
fn parse<G: Game>(game: &G, text: &str) -> Result<G::Move, PlayError> {
    if let Some(reason) = game_over_text(game) {
        return Err(PlayError::Over(reason));
    }
    Ok(game.parse_move(text)?)
}

/// The legal move of `game` with policy index `action`.
fn move_with<G: KnownVariant>(game: &G, action: i64) -> Result<G::Move, PlayError> {
    if let Some(reason) = game_over_text(game) {
        return Err(PlayError::Over(reason));
    }
    let index = usize::try_from(action).ok();
    legal(game).into_iter().find(|&mv| Some(game.policy_index(mv)) == index).ok_or(PlayError::Action {
        action,
        last: G::POLICY_SIZE - 1,
        variant: G::VARIANT,
    })
}

#[cfg(test)]
mod tests;
