//! One variant-free interface over every variant's game, so that one Python class serves all four
//! while each call runs monomorphised code of its variant (the CLI's `Session` does the same for
//! the engine). Errors are the rules' one-line messages, which the Python layer turns into
//! exceptions.

use std::any::Any;

use mcts::SearchParams;
use rules::{board_text, ending_text, game_over_text, perft, Ending, FullGame, MoveError, Variant};

use crate::evaluator::PyEvaluator;
use crate::search::{search_games, SearchOutput};

/// Why a move or an action cannot be played.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayError {
    /// Move text that does not read or names no legal move (the rules' message).
    Move(MoveError),
    /// A policy index that no legal move has.
    Action(String),
    /// The game is over ([`game_over_text`]).
    Over(String),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Move(e) => write!(f, "{e}"),
            PlayError::Action(text) | PlayError::Over(text) => f.write_str(text),
        }
    }
}

/// A game of any variant, as the Python `Game` holds it.
pub trait AnyGame: Send + Sync {
    /// The variant played.
    fn variant(&self) -> Variant;
    /// An independent copy (the repetition history included).
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// For the search, which needs every game of a batch as its concrete type.
    fn as_any(&self) -> &dyn Any;
    /// The seat to move.
    fn to_move(&self) -> usize;
    /// The position text.
    fn text(&self) -> String;
    /// The Zobrist hash.
    fn zobrist(&self) -> u64;
    /// The legal moves' text, in generation order.
    fn legal_moves(&self) -> Vec<String>;
    /// The legal moves' policy indices, in generation order.
    fn legal_actions(&self) -> Vec<i64>;
    /// Plays a move given as text.
    fn play_text(&mut self, text: &str) -> Result<(), PlayError>;
    /// Plays the legal move with policy index `action`.
    fn play_action(&mut self, action: i64) -> Result<(), PlayError>;
    /// The policy index of a move given as text.
    fn action_of(&self, text: &str) -> Result<i64, PlayError>;
    /// The text of the legal move with policy index `action`.
    fn move_of(&self, action: i64) -> Result<String, PlayError>;
    /// Each seat's final score, `None` while the game goes on.
    fn outcome(&self) -> Option<Vec<f32>>;
    /// The rule that ended the game.
    fn ending(&self) -> Option<Ending>;
    /// How the game ended, in one sentence.
    fn ending_text(&self) -> Option<String>;
    /// Why nothing can be played any more, in one line; `None` while the game goes on.
    fn over_text(&self) -> Option<String>;
    /// The network input's shape for one position.
    fn input_shape(&self) -> &'static [usize];
    /// The number of policy outputs.
    fn policy_size(&self) -> usize;
    /// Writes the network input planes into `out` (length: the product of the input shape).
    fn encode(&self, out: &mut [f32]);
    /// Leaves of the legal-move tree `depth` plies deep.
    fn perft(&self, depth: u32) -> u64;
    /// The board as text, the last move marked.
    fn board(&self) -> String;
    /// Searches `games` (this game's variant, this one among them or not) with `evaluator`.
    fn search(
        &self,
        games: &[Box<dyn AnyGame>],
        evaluator: &PyEvaluator,
        params: &SearchParams,
        seed: u64,
    ) -> Vec<SearchOutput>;
    /// The classical alpha-beta player's move, score (centipawns), depth and nodes; `None` when
    /// the game is over.
    fn alphabeta(&self, settings: &alphabeta::SearchLimits, seed: u64) -> Option<AlphaBetaOutput>;
}

/// What the alpha-beta player found.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaOutput {
    /// The move to play, as text.
    pub mv: String,
    /// Its policy index.
    pub action: i64,
    /// Its value for the player to move, in centipawns.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the time limit cut an iteration short.
    pub stopped: bool,
}

/// A game and the cells of the move that led to it (marked on the text board).
#[derive(Clone, Debug)]
pub struct Tracked<G> {
    /// The game.
    pub game: G,
    /// The cells the last move left and entered, if it had any.
    pub last: Option<(u16, u16)>,
}

impl<G: FullGame> Tracked<G> {
    /// The legal move with policy index `action`.
    fn move_with(&self, action: i64) -> Result<G::Move, PlayError> {
        if let Some(reason) = game_over_text(&self.game) {
            return Err(PlayError::Over(reason));
        }
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let index = usize::try_from(action).ok();
        moves.into_iter().find(|&mv| Some(self.game.policy_index(mv)) == index).ok_or_else(|| {
            PlayError::Action(format!(
                "illegal action {action}: no legal move has that policy index (0 to {} in {})",
                G::POLICY_SIZE - 1,
                G::NAME
            ))
        })
    }

    /// The legal move named by `text`.
    fn parse(&self, text: &str) -> Result<G::Move, PlayError> {
        if let Some(reason) = game_over_text(&self.game) {
            return Err(PlayError::Over(reason));
        }
        self.game.parse_move(text).map_err(PlayError::Move)
    }

    fn play(&mut self, mv: G::Move) {
        self.last = self.game.move_cells(mv);
        self.game.play(mv);
    }
}

impl<G: FullGame> AnyGame for Tracked<G> {
    fn variant(&self) -> Variant {
        G::NAME.parse().expect("every game's name is a variant name")
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn to_move(&self) -> usize {
        self.game.to_move()
    }

    fn text(&self) -> String {
        self.game.to_text()
    }

    fn zobrist(&self) -> u64 {
        self.game.hash()
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.into_iter().map(|mv| self.game.move_text(mv)).collect()
    }

    fn legal_actions(&self) -> Vec<i64> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        moves.into_iter().map(|mv| self.game.policy_index(mv) as i64).collect()
    }

    fn play_text(&mut self, text: &str) -> Result<(), PlayError> {
        let mv = self.parse(text)?;
        self.play(mv);
        Ok(())
    }

    fn play_action(&mut self, action: i64) -> Result<(), PlayError> {
        let mv = self.move_with(action)?;
        self.play(mv);
        Ok(())
    }

    fn action_of(&self, text: &str) -> Result<i64, PlayError> {
        Ok(self.game.policy_index(self.parse(text)?) as i64)
    }

    fn move_of(&self, action: i64) -> Result<String, PlayError> {
        Ok(self.game.move_text(self.move_with(action)?))
    }

    fn outcome(&self) -> Option<Vec<f32>> {
        self.game.outcome().map(|s| s.as_slice().to_vec())
    }

    fn ending(&self) -> Option<Ending> {
        self.game.ending()
    }

    fn ending_text(&self) -> Option<String> {
        ending_text(&self.game)
    }

    fn over_text(&self) -> Option<String> {
        game_over_text(&self.game)
    }

    fn input_shape(&self) -> &'static [usize] {
        G::INPUT_SHAPE
    }

    fn policy_size(&self) -> usize {
        G::POLICY_SIZE
    }

    fn encode(&self, out: &mut [f32]) {
        self.game.encode(out);
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(&self.game, depth, true)
    }

    fn board(&self) -> String {
        self.game.diagram().map(|d| board_text(&d, self.last)).unwrap_or_else(|| self.game.to_text())
    }

    fn search(
        &self,
        games: &[Box<dyn AnyGame>],
        evaluator: &PyEvaluator,
        params: &SearchParams,
        seed: u64,
    ) -> Vec<SearchOutput> {
        let states: Vec<G> = games
            .iter()
            .map(|g| g.as_any().downcast_ref::<Tracked<G>>().expect("a search's games are of one variant").game.clone())
            .collect();
        search_games(states, evaluator, params, seed)
    }

    fn alphabeta(&self, settings: &alphabeta::SearchLimits, seed: u64) -> Option<AlphaBetaOutput> {
        let report = alphabeta::search(&self.game, settings, seed)?;
        Some(AlphaBetaOutput {
            mv: self.game.move_text(report.best),
            action: self.game.policy_index(report.best) as i64,
            score: report.value,
            depth: report.depth,
            nodes: report.nodes,
            stopped: report.stopped,
        })
    }
}

/// A game of `variant` at its start position, or at `position` text.
pub fn new_game(variant: Variant, position: Option<&str>) -> Result<Box<dyn AnyGame>, rules::PositionError> {
    rules::with_game!(variant, G => {
        let game = match position {
            Some(text) => <G as rules::Game>::from_text(text)?,
            None => <G as rules::Game>::start(),
        };
        Ok(Box::new(Tracked { game, last: None }) as Box<dyn AnyGame>)
    })
}
