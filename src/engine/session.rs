//! A position of any variant ([`VariantGame`]) and the evaluator to search it with, so that the
//! UCI loop can switch variants at run time while search stays monomorphised per game.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use arena::players::{load_network, PlayerError};
use mcts::{Evaluator, UniformEvaluator};
use nn::checkpoint::{is_checkpoint, newest_usable, read_state, resolve_checkpoint, RUN_CHECKPOINTS};
use nn::InferenceService;
use nn::NetEvaluator;
use rules::{with_game, BoardMove, KnownVariant, PlayError, SetupError, Variant, VariantGame};

use super::analysis::Analysis;
use super::limits::Limits;
use super::search::{search, EngineSettings};

/// A position to search and the evaluator to search it with.
pub struct Session {
    /// The position; always of the searcher's variant.
    game: VariantGame,
    /// Shared by the sessions [`Session::fork`] made, which search side by side.
    searcher: Arc<Box<dyn Searcher>>,
}

impl Session {
    /// The position.
    pub fn game(&self) -> &VariantGame {
        &self.game
    }

    /// Sets the position: `text` (the start position if `None`) then `moves` in the variant's
    /// notation. On an error, which names the bad part, the position is left as it was.
    pub fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), SetupError> {
        self.game = VariantGame::setup(self.game.variant(), text, moves)?;
        Ok(())
    }

    /// Plays one legal move given as text; on an error, which says why the move cannot be
    /// played, the position is left as it was.
    pub fn play_move(&mut self, text: &str) -> Result<BoardMove, PlayError> {
        self.game.play_text(text)
    }

    /// Searches the position (which must not be over) until a limit or `stop`, reporting
    /// progress to `on_info` about every `settings.info_every`; returns the final analysis.
    pub fn search(
        &mut self,
        limits: &Limits,
        settings: EngineSettings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        self.searcher.search(&self.game, limits, settings, stop, on_info)
    }

    /// The checkpoint folder the network was loaded from; none for the uniform evaluator.
    pub fn model(&self) -> Option<&Path> {
        self.searcher.model()
    }

    /// A session at the start position with this one's evaluator: the two search side by side,
    /// neither waiting for the other, and their leaves meet in the network's batches.
    pub fn fork(&self) -> Session {
        Session { game: VariantGame::start(self.game.variant()), searcher: Arc::clone(&self.searcher) }
    }

    /// Stops the network's inference service, if there is one, once no fork of this session
    /// is left (the last to close stops it).
    pub fn close(self) {
        if let Ok(searcher) = Arc::try_unwrap(self.searcher) {
            searcher.close();
        }
    }
}

/// One variant's evaluator, searching that variant's games (several at once through `&self`).
trait Searcher: Send + Sync {
    /// See [`Session::search`]; `game` is of the searcher's variant.
    fn search(
        &self,
        game: &VariantGame,
        limits: &Limits,
        settings: EngineSettings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Analysis),
    ) -> Analysis;

    /// See [`Session::model`].
    fn model(&self) -> Option<&Path>;

    /// See [`Session::close`].
    fn close(self: Box<Self>);
}

/// The variant a checkpoint (a checkpoint folder or a run directory) was trained for. Says
/// nothing of skipped checkpoints: opening the session, which follows, does.
pub fn model_variant(path: &Path) -> Result<Variant, String> {
    let named = |e: &dyn std::fmt::Display| format!("'{}': {e}", path.display());
    let state = if is_checkpoint(path) {
        read_state(path).map_err(|e| named(&e))?
    } else {
        match newest_usable(&path.join(RUN_CHECKPOINTS)).ok().and_then(|n| n.usable) {
            Some((_, state)) => state,
            // No usable checkpoint: resolving says why (and names the ones skipped).
            None => {
                let dir = resolve_checkpoint(path).map_err(|e| e.to_string())?;
                read_state(&dir).map_err(|e| named(&e))?
            }
        }
    };
    state.variant.parse::<Variant>().map_err(|e| named(&e))
}

/// A model loading error without the arena's "player" wording.
fn model_error(e: PlayerError) -> String {
    match e {
        PlayerError::Checkpoint { path, reason } => format!("'{path}': {reason}"),
        other => other.to_string(),
    }
}

/// A session for `variant` at its start position, searching with the network at `model`, or
/// with the uniform evaluator when there is none. A model that cannot be loaded (missing,
/// corrupt, trained for another variant) is an error that names it.
pub fn open_session(variant: Variant, model: Option<&Path>, inference: nn::Inference) -> Result<Session, String> {
    if model.is_some() && inference.device == nn::Device::Cpu {
        // The search thread and the network share the cores: libtorch's own thread pool on top
        // collapses when they are busy (20 times slower on 2 loaded cores).
        nn::set_threads(1);
    }
    let searcher = with_game!(variant, G => open_searcher::<G>(model, inference))?;
    Ok(Session { game: VariantGame::start(variant), searcher: Arc::new(searcher) })
}

/// The searcher of game `G` (see [`open_session`]).
fn open_searcher<G: KnownVariant>(model: Option<&Path>, inference: nn::Inference) -> Result<Box<dyn Searcher>, String> {
    let (evaluator, network, service, checkpoint): (Box<dyn Evaluator<G> + Send + Sync>, _, _, _) = match model {
        None => (Box::new(UniformEvaluator), None, None, None),
        Some(path) => {
            // Resolved first, so that the session can say which checkpoint of a run it uses.
            let dir = resolve_checkpoint(path).map_err(|e| e.to_string())?;
            let (service, evaluator) = load_network::<G>(&dir, inference).map_err(model_error)?;
            (Box::new(evaluator.clone()), Some(evaluator), Some(service), Some(dir))
        }
    };
    Ok(Box::new(GameSearcher { evaluator, network, service, checkpoint }))
}

struct GameSearcher<G: KnownVariant> {
    evaluator: Box<dyn Evaluator<G> + Send + Sync>,
    /// The network behind `evaluator`, if there is one: asked for the root's draw share.
    network: Option<NetEvaluator<G>>,
    service: Option<InferenceService>,
    /// The checkpoint folder of `network`.
    checkpoint: Option<std::path::PathBuf>,
}

impl<G: KnownVariant> Searcher for GameSearcher<G> {
    fn search(
        &self,
        game: &VariantGame,
        limits: &Limits,
        settings: EngineSettings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Analysis),
    ) -> Analysis {
        let game = G::unerase(game).expect("a session's game and searcher are of one variant");
        // The tree backs up expected scores only; the draw share comes from the network's
        // outcome distribution at the root (two players), the same for every report.
        let draw = self.network.as_ref().filter(|_| G::NUM_PLAYERS == 2).map(|n| n.wdl(game)[1]);
        let mut with_draw = |a: &Analysis| on_info(&Analysis { draw, ..a.clone() });
        let analysis = search(game, self.evaluator.as_ref(), limits, settings, stop, &mut with_draw);
        Analysis { draw, ..analysis }
    }

    fn model(&self) -> Option<&Path> {
        self.checkpoint.as_deref()
    }

    fn close(self: Box<Self>) {
        let GameSearcher { evaluator, network, service, .. } = *self;
        // The service stops once its last client, held by the evaluators, is gone.
        drop((evaluator, network));
        if let Some(service) = service {
            service.join();
        }
    }
}
