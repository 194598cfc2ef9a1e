//! One variant's position and evaluator behind a variant-free interface, so that the UCI loop
//! can switch variants at run time while search stays monomorphised per game.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use arena::players::{load_network, PlayerError};
use mcts::{Evaluator, UniformEvaluator};
use nn::checkpoint::{newest_usable, read_state, resolve_checkpoint, RUN_CHECKPOINTS};
use nn::InferenceService;
use nn::NetEvaluator;
use rules::{ending_text, game_over_text, with_game, Diagram, FullGame, Variant};

use super::limits::Limits;
use super::report::Report;
use super::search::{search, Settings};

/// A position to search and the evaluator to search it with.
pub trait Session: Send {
    /// The variant played.
    fn variant(&self) -> Variant;

    /// The seat to move (0-based).
    fn to_move(&self) -> usize;

    /// The position as the variant's position text.
    fn position_text(&self) -> String;

    /// Sets the position: `text` (the start position if `None`) then `moves` in the variant's
    /// notation. On an error, which names the bad part, the position is left as it was.
    fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), String>;

    /// The position as the network sees it: its input planes and its legal moves with their
    /// policy indices.
    fn encoded(&self) -> Encoded;

    /// Why the position has nothing to search (the game is over), if so.
    fn game_over(&self) -> Option<String>;

    /// How the game ended, in one sentence for people ([`rules::ending_text`]), if it is over.
    fn ending(&self) -> Option<String>;

    /// Every legal move, in generation order.
    fn legal_moves(&self) -> Vec<LegalMove>;

    /// Plays one legal move given as text; on an error, which says why the move cannot be
    /// played, the position is left as it was.
    fn play_move(&mut self, text: &str) -> Result<LegalMove, String>;

    /// The picture of the position, for boards drawn for people.
    fn diagram(&self) -> Option<Diagram>;

    /// Searches the position (which must not be over) until a limit or `stop`, reporting
    /// progress to `on_info` about once a second; returns the final report.
    fn search(
        &mut self,
        limits: &Limits,
        settings: Settings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Report),
    ) -> Report;

    /// The checkpoint folder the network was loaded from; none for the uniform evaluator.
    fn model(&self) -> Option<&Path>;

    /// Stops the network's inference service, if there is one.
    fn close(self: Box<Self>);
}

/// A position encoded for a network, variant-free.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// The input shape of one position (`Encoding::INPUT_SHAPE`).
    pub shape: Vec<usize>,
    /// The input planes, row-major in `shape`.
    pub planes: Vec<f32>,
    /// The legal moves in the variant's notation, each with its policy index.
    pub legal: Vec<(String, usize)>,
}

/// A legal move as people see it: its text and where it goes on the board's picture.
#[derive(Clone, Debug, PartialEq)]
pub struct LegalMove {
    /// The move in the variant's notation, as the variant writes it.
    pub text: String,
    /// The diagram keys of the cells it leaves and enters (none for a pass).
    pub cells: Option<(u16, u16)>,
    /// The label of the cell it leaves (none for a pass).
    pub from: Option<String>,
}

/// The variant a checkpoint (a checkpoint folder or a run directory) was trained for. Says
/// nothing of skipped checkpoints: opening the session, which follows, does.
pub fn model_variant(path: &Path) -> Result<Variant, String> {
    let named = |e: &dyn std::fmt::Display| format!("'{}': {e}", path.display());
    let state = if path.join("state.json").exists() {
        read_state(path).map_err(|e| named(&e))?
    } else {
        match newest_usable(&path.join(RUN_CHECKPOINTS)).ok().and_then(|n| n.usable) {
            Some((_, state)) => state,
            // No usable checkpoint: resolving says why (and names the ones skipped).
            None => {
                let dir = resolve_checkpoint(path).map_err(model_error)?;
                read_state(&dir).map_err(|e| named(&e))?
            }
        }
    };
    state.variant.parse::<Variant>().map_err(|e| named(&e))
}

/// A model loading error without the arena's "player" wording.
pub fn model_error(e: impl Into<PlayerError>) -> String {
    match e.into() {
        PlayerError::Checkpoint { path, reason } => format!("'{path}': {reason}"),
        other => other.to_string(),
    }
}

/// A session for `variant` at its start position, searching with the network at `model`, or
/// with the uniform evaluator when there is none. A model that cannot be loaded (missing,
/// corrupt, trained for another variant) is an error that names it.
pub fn open_session(
    variant: Variant,
    model: Option<&Path>,
    inference: nn::Inference,
) -> Result<Box<dyn Session>, String> {
    if model.is_some() && inference.device == nn::Device::Cpu {
        // The search thread and the network share the cores: libtorch's own thread pool on top
        // collapses when they are busy (20 times slower on 2 loaded cores).
        nn::set_threads(1);
    }
    with_game!(variant, G => open_game::<G>(model, inference))
}

/// A session of game `G` at its start position (see [`open_session`]).
fn open_game<G: FullGame>(model: Option<&Path>, inference: nn::Inference) -> Result<Box<dyn Session>, String> {
    let (evaluator, network, service, checkpoint): (Box<dyn Evaluator<G> + Send + Sync>, _, _, _) = match model {
        None => (Box::new(UniformEvaluator), None, None, None),
        Some(path) => {
            // Resolved first, so that the session can say which checkpoint of a run it uses.
            let dir = resolve_checkpoint(path).map_err(model_error)?;
            let (service, evaluator) = load_network::<G>(&dir, inference).map_err(model_error)?;
            (Box::new(evaluator.clone()), Some(evaluator), Some(service), Some(dir))
        }
    };
    Ok(Box::new(GameSession { game: G::start(), evaluator, network, service, checkpoint }))
}

struct GameSession<G: FullGame> {
    game: G,
    evaluator: Box<dyn Evaluator<G> + Send + Sync>,
    /// The network behind `evaluator`, if there is one: asked for the root's draw share.
    network: Option<NetEvaluator<G>>,
    service: Option<InferenceService>,
    /// The checkpoint folder of `network`.
    checkpoint: Option<std::path::PathBuf>,
}

impl<G: FullGame> Session for GameSession<G> {
    fn variant(&self) -> Variant {
        G::NAME.parse().expect("every game's name is a variant name")
    }

    fn to_move(&self) -> usize {
        self.game.to_move()
    }

    fn position_text(&self) -> String {
        self.game.to_text()
    }

    fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), String> {
        let mut game = match text {
            None => G::start(),
            Some(text) => G::from_text(text).map_err(|e| format!("position '{text}': {e}"))?,
        };
        for (i, text) in moves.iter().enumerate() {
            if let Some(reason) = game_over_text(&game) {
                return Err(format!("move {} ('{text}'): {reason}", i + 1));
            }
            let mv = game.parse_move(text).map_err(|e| format!("move {} ('{text}'): {e}", i + 1))?;
            game.play(mv);
        }
        self.game = game;
        Ok(())
    }

    fn encoded(&self) -> Encoded {
        let mut planes = vec![0.0; G::input_len()];
        self.game.encode(&mut planes);
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let legal = moves.into_iter().map(|mv| (self.game.move_text(mv), self.game.policy_index(mv))).collect();
        Encoded { shape: G::INPUT_SHAPE.to_vec(), planes, legal }
    }

    fn game_over(&self) -> Option<String> {
        game_over_text(&self.game)
    }

    fn ending(&self) -> Option<String> {
        ending_text(&self.game)
    }

    fn legal_moves(&self) -> Vec<LegalMove> {
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let diagram = self.game.diagram();
        moves.into_iter().map(|mv| legal_move(&self.game, diagram.as_ref(), mv)).collect()
    }

    fn play_move(&mut self, text: &str) -> Result<LegalMove, String> {
        if let Some(reason) = game_over_text(&self.game) {
            return Err(reason);
        }
        let mv = self.game.parse_move(text).map_err(|e| e.to_string())?;
        let played = legal_move(&self.game, self.game.diagram().as_ref(), mv);
        self.game.play(mv);
        Ok(played)
    }

    fn diagram(&self) -> Option<Diagram> {
        self.game.diagram()
    }

    fn search(
        &mut self,
        limits: &Limits,
        settings: Settings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Report),
    ) -> Report {
        // The tree backs up expected scores only; the draw share comes from the network's
        // outcome distribution at the root (two players), the same for every report.
        let draw = self.network.as_ref().filter(|_| G::NUM_PLAYERS == 2).map(|n| n.wdl(&self.game)[1]);
        let mut with_draw = |r: &Report| on_info(&Report { draw, ..r.clone() });
        let report = search(&self.game, self.evaluator.as_ref(), limits, settings, stop, &mut with_draw);
        Report { draw, ..report }
    }

    fn model(&self) -> Option<&Path> {
        self.checkpoint.as_deref()
    }

    fn close(self: Box<Self>) {
        let GameSession { evaluator, network, service, .. } = *self;
        // The service stops once its last client, held by the evaluators, is gone.
        drop((evaluator, network));
        if let Some(service) = service {
            service.join();
        }
    }
}

/// `mv` (legal in `game`) as text and cells, its start cell named by `diagram`'s labels.
fn legal_move<G: FullGame>(game: &G, diagram: Option<&Diagram>, mv: G::Move) -> LegalMove {
    let cells = game.move_cells(mv);
    let from = cells.and_then(|(from, _)| diagram?.cells.iter().find(|c| c.key == from).map(|c| c.label.clone()));
    LegalMove { text: game.move_text(mv), cells, from }
}
