//! A position of any variant ([`VariantGame`]) and the evaluator to search it with, so that the
//! UCI loop can switch variants at run time while search stays monomorphised per game.

use std::any::Any;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use alphabeta::JudgeCache;
use arena::players::{load_network, PlayerError};
use mcts::{Evaluator, Search, UniformEvaluator};
use nn::checkpoint::{is_checkpoint, newest_usable, read_state, resolve_checkpoint, RUN_CHECKPOINTS};
use nn::InferenceService;
use nn::NetEvaluator;
use rules::{with_game, BoardMove, Game, KnownVariant, PlayError, SetupError, Variant, VariantGame};

use super::analysis::Analysis;
use super::limits::Limits;
use super::search::{engine_params, for_search, search_on, EngineSettings};

/// A position to search and the evaluator to search it with, and the tree of the last search
/// while the position continues its game.
pub struct Session {
    /// The position; always of the searcher's variant.
    game: VariantGame,
    /// How the position was reached: a later position whose line continues this one's continues
    /// the same game, and the last search's tree is searched on.
    line: Line,
    /// The last search's tree and the line it searched from; dropped when a position is set
    /// that does not continue it.
    kept: Option<KeptTree>,
    /// Shared by the sessions [`Session::fork`] made, which search side by side.
    searcher: Arc<Box<dyn Searcher>>,
}

/// A position as set: its text (the start position if `None`) and the moves played from it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Line {
    text: Option<String>,
    moves: Vec<String>,
}

impl Line {
    /// The moves that lead from `earlier` to this line, if this line continues it.
    fn after<'a>(&'a self, earlier: &Line) -> Option<&'a [String]> {
        (self.text == earlier.text && self.moves.starts_with(&earlier.moves))
            .then(|| &self.moves[earlier.moves.len()..])
    }
}

/// A search's tree (an `mcts::Search` of the session's game type) kept for the next search, and
/// the line of its root.
struct KeptTree {
    line: Line,
    search: Box<dyn Any + Send>,
}

impl Session {
    /// The position.
    pub fn game(&self) -> &VariantGame {
        &self.game
    }

    /// Sets the position: `text` (the start position if `None`) then `moves` in the variant's
    /// notation. On an error, which names the bad part, the position is left as it was.
    /// A position that continues the last searched one's game (the same text, its moves and
    /// more) keeps that search's tree.
    pub fn set_position(&mut self, text: Option<&str>, moves: &[String]) -> Result<(), SetupError> {
        self.game = VariantGame::setup(self.game.variant(), text, moves)?;
        self.line = Line { text: text.map(str::to_string), moves: moves.to_vec() };
        if self.kept.as_ref().is_some_and(|k| self.line.after(&k.line).is_none()) {
            self.kept = None;
        }
        Ok(())
    }

    /// Plays one legal move given as text; on an error, which says why the move cannot be
    /// played, the position is left as it was.
    pub fn play_move(&mut self, text: &str) -> Result<BoardMove, PlayError> {
        let played = self.game.play_text(text)?;
        self.line.moves.push(text.to_string());
        Ok(played)
    }

    /// Forgets the last search's tree: the next search starts afresh (UCI `ucinewgame`).
    pub fn forget_tree(&mut self) {
        self.kept = None;
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
        let kept = self.kept.take().and_then(|k| Some((k.search, self.line.after(&k.line)?)));
        let (analysis, search) = self.searcher.search(&self.game, kept, limits, settings, stop, on_info);
        self.kept = Some(KeptTree { line: self.line.clone(), search });
        analysis
    }

    /// The checkpoint folder the network was loaded from; none for the uniform evaluator.
    pub fn model(&self) -> Option<&Path> {
        self.searcher.model()
    }

    /// A session at the start position with this one's evaluator: the two search side by side,
    /// neither waiting for the other, and their leaves meet in the network's batches.
    pub fn fork(&self) -> Session {
        Session {
            game: VariantGame::start(self.game.variant()),
            line: Line::default(),
            kept: None,
            searcher: Arc::clone(&self.searcher),
        }
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
    /// See [`Session::search`]; `game` is of the searcher's variant. `kept` is an earlier
    /// search's tree of this searcher and the moves played since it: searched on if they lead
    /// to `game`. Returns the analysis and the search, to keep for the next move.
    fn search(
        &self,
        game: &VariantGame,
        kept: Option<(Box<dyn Any + Send>, &[String])>,
        limits: &Limits,
        settings: EngineSettings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Analysis),
    ) -> (Analysis, Box<dyn Any + Send>);

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
    Ok(Session { game: VariantGame::start(variant), line: Line::default(), kept: None, searcher: Arc::new(searcher) })
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
    Ok(Box::new(GameSearcher { evaluator, network, service, checkpoint, judged: Arc::default() }))
}

/// `search` advanced through `moves` (the variant's notation), if they are legal from its root
/// and lead to `game`; the subtree below them is kept where the search had visited it.
fn caught_up<G: Game>(mut search: Search<G>, moves: &[String], game: &G) -> Option<Search<G>> {
    for text in moves {
        let mv = search.root_state().parse_move(text).ok()?;
        search.advance(mv);
    }
    let at = search.root_state();
    (at.hash() == game.hash() && at.to_text() == game.to_text()).then_some(search)
}

struct GameSearcher<G: KnownVariant> {
    evaluator: Box<dyn Evaluator<G> + Send + Sync>,
    /// The network behind `evaluator`, if there is one: asked for the root's draw share.
    network: Option<NetEvaluator<G>>,
    service: Option<InferenceService>,
    /// The checkpoint folder of `network`.
    checkpoint: Option<std::path::PathBuf>,
    /// The tactical judge's values, kept across the game's moves (and games: they are the
    /// positions', whatever the game).
    judged: Arc<JudgeCache>,
}

impl<G: KnownVariant> Searcher for GameSearcher<G> {
    fn search(
        &self,
        game: &VariantGame,
        kept: Option<(Box<dyn Any + Send>, &[String])>,
        limits: &Limits,
        settings: EngineSettings,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Analysis),
    ) -> (Analysis, Box<dyn Any + Send>) {
        let game = G::unerase(game).expect("a session's game and searcher are of one variant");
        // The tree backs up expected scores only; the draw share comes from the network's
        // outcome distribution at the root (two players), the same for every report.
        let draw = self.network.as_ref().filter(|_| G::NUM_PLAYERS == 2).map(|n| n.wdl(game)[1]);
        let mut with_draw = |a: &Analysis| on_info(&Analysis { draw, ..a.clone() });
        let settings = for_search(settings, limits, self.network.is_some());
        let mut tree = kept
            .and_then(|(search, moves)| caught_up(*search.downcast::<Search<G>>().ok()?, moves, game))
            .unwrap_or_else(|| Search::new(game.clone(), engine_params(&settings), 0));
        let analysis =
            search_on(&mut tree, self.evaluator.as_ref(), &self.judged, limits, settings, stop, &mut with_draw);
        (Analysis { draw, ..analysis }, Box::new(tree))
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
