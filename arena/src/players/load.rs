//! Players made ready to play: agents built from their specs, network players loaded from
//! checkpoints into inference services of their own.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use alphabeta::{tactical_evaluator_with, TacticalEvaluator};
use mcts::{RolloutEvaluator, Tactics, UniformEvaluator, MAX_SIMULATIONS};
use nn::checkpoint::{check_format, read_state, resolve_checkpoint};
use nn::{BatchingConfig, Inference, InferenceService, NetConfig, NetEvaluator, PolicyValueNet};
use rules::{Encoding, Game, Material};

use super::{PlayerError, PlayerSpec};
use crate::agent::{Agent, AlphaBetaAgent, GreedyAgent, RandomAgent, SearchAgent};
use crate::uci::{EngineBudget, UciAgent};

/// Agents ready to play, with the inference services their networks run in.
pub struct Players<G: Game> {
    /// One agent per spec, in order.
    pub agents: Vec<Box<dyn Agent<G>>>,
    services: Vec<InferenceService>,
}

impl<G: Game> Players<G> {
    /// Stops the inference services.
    pub fn close(self) {
        drop(self.agents);
        for s in self.services {
            s.join();
        }
    }
}

/// How loaded players search and where their networks run.
#[derive(Clone, Debug)]
pub struct PlayerOptions {
    /// Simulations of a search player whose spec names none.
    pub default_sims: u32,
    /// Leaves in flight of search players (see [`SearchAgent::leaves`]); `None`: analysis's.
    pub leaves: Option<u32>,
    /// The budget `uci:` engines get per move.
    pub engine_budget: EngineBudget,
    /// Where and in which form network players run.
    pub inference: Inference,
    /// How search players use the tactical judge ([`Tactics`]; `Tactics::default()` is the
    /// default search).
    pub tactics: Tactics,
    /// Search players keep each game's tree between their moves ([`SearchAgent::reuse_trees`]).
    pub reuse_trees: bool,
    /// Once set (a stop signal), every player's search ends at once, judge and engine
    /// included, so a match that abandons its games in progress ends within moments.
    pub stop: Option<&'static AtomicBool>,
}

/// The evaluator of a `rollout` player: random playouts of at most 400 plies, seeded alike
/// in every match so that a rollout player is the same opponent each time.
pub fn rollout_evaluator() -> RolloutEvaluator {
    RolloutEvaluator::new(0x5EED, 400)
}

/// Builds the agents for `specs` as `opts` says.
pub fn load_players<G: Encoding + Material>(
    specs: &[PlayerSpec],
    opts: PlayerOptions,
) -> Result<Players<G>, PlayerError> {
    let PlayerOptions { default_sims, leaves, engine_budget, inference, tactics, reuse_trees, stop } = opts;
    let tactics = tactics.for_player();

    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::new();
    let mut services = Vec::new();
    for spec in specs {
        let (spec, movetime) = match spec {
            PlayerSpec::Timed { player, movetime } => (player.as_ref(), Some(*movetime)),
            spec => (spec, None),
        };
        // A timed player's simulations are a cap it may never reach; without one, the time alone.
        let simulations = |given: Option<u32>| match movetime {
            Some(_) => given.unwrap_or(MAX_SIMULATIONS),
            None => given.unwrap_or(default_sims),
        };
        let searching = |label: String, simulations| SearchOptions {
            label: movetime.map_or(label.clone(), |t| format!("{label}@{}", t.as_millis())),
            simulations,
            movetime,
            leaves,
            tactics: tactics.clone(),
            reuse_trees,
            stop,
        };
        let agent: Box<dyn Agent<G>> = match spec {
            PlayerSpec::Random => Box::new(RandomAgent),
            PlayerSpec::Greedy => Box::new(GreedyAgent),
            PlayerSpec::AlphaBeta(limits) => Box::new(AlphaBetaAgent { limits: *limits, stop }),
            PlayerSpec::Mcts(s) => {
                let simulations = simulations(*s);
                Box::new(
                    searching(with_sims("mcts", *s, simulations, movetime), simulations).agent(UniformEvaluator, false),
                )
            }
            PlayerSpec::Rollout(s) => {
                let simulations = simulations(*s);
                let evaluator = rollout_evaluator();
                Box::new(
                    searching(with_sims("rollout", *s, simulations, movetime), simulations).agent(evaluator, false),
                )
            }
            PlayerSpec::Network(path, s) => {
                // A word that is no file (`grredy`) is a misspelt player; a missing path is a
                // missing checkpoint, said as one.
                if !path.exists() && path.components().count() == 1 && !path.starts_with(".") {
                    return Err(PlayerError::Unknown(spec.text()));
                }
                let simulations = simulations(*s);
                let dir = resolve_checkpoint(path)?;
                if dir != *path {
                    eprintln!("vzero: {} plays its checkpoint {}", path.display(), dir.display());
                }
                let (service, evaluator) = load_network::<G>(&dir, inference)?;
                services.push(service);
                let label = with_sims(&path.display().to_string(), *s, simulations, movetime);
                Box::new(searching(label, simulations).agent(evaluator, true))
            }
            PlayerSpec::Uci { command, argv } => {
                let player = format!("uci:{command}");
                let engine = UciAgent::<G>::start(player.clone(), argv.clone(), engine_budget, stop);
                Box::new(engine.map_err(|reason| PlayerError::Engine { player, reason })?)
            }
            PlayerSpec::Timed { .. } => unreachable!("a timed player is unwrapped above and never nests"),
        };
        agents.push(agent);
    }
    Ok(Players { agents, services })
}

/// A search player's label: its name and the simulations it searches, `name:N`; a timed one
/// names only the simulations given as its cap (its time follows).
fn with_sims(name: &str, given: Option<u32>, simulations: u32, movetime: Option<Duration>) -> String {
    match (movetime, given) {
        (Some(_), None) => name.to_string(),
        _ => format!("{name}:{simulations}"),
    }
}

/// How one search player searches, whatever its evaluator.
struct SearchOptions {
    label: String,
    simulations: u32,
    movetime: Option<Duration>,
    leaves: Option<u32>,
    tactics: Tactics,
    reuse_trees: bool,
    stop: Option<&'static AtomicBool>,
}

impl SearchOptions {
    /// The player searching with `evaluator` (a `network` or not): `leaves` in flight
    /// (analysis's where none are given), `tactics`' tactical search values blended into its
    /// leaf values and its tree levers set (both named in its label; `auto` network plies
    /// resolved for its budget), its trees kept between moves or not, and its search and judge
    /// ended by the stop flag if there is one.
    fn agent<E>(self, evaluator: E, network: bool) -> SearchAgent<TacticalEvaluator<'static, E>> {
        let label = format!("{}{}", self.label, self.tactics.suffix());
        // `network_plies = auto` takes the player's budget after its name is made: a timed
        // network player keeps its network near the root without being named for it; a player
        // with no network has nothing to keep there, and keeps its trees.
        let tactics = self.tactics.at_clock(network && self.movetime.is_some());
        // One judge cache for all of the player's games and moves.
        let evaluator = tactical_evaluator_with(&tactics, evaluator, self.stop, Arc::default());
        let mut agent = SearchAgent::new(label, evaluator, self.simulations);
        agent.leaves = self.leaves.unwrap_or(agent.leaves);
        agent.reuse_trees = self.reuse_trees;
        agent.movetime = self.movetime;
        agent.tactics = tactics;
        agent.stop = self.stop;
        agent
    }
}

/// An inference service running the checkpoint at `path` (a checkpoint folder or a run
/// directory) for game `G`, and an evaluator for it; arena players and `vzero uci` load alike.
pub fn load_network<G: Encoding>(
    path: &Path,
    inference: Inference,
) -> Result<(InferenceService, NetEvaluator<G>), PlayerError> {
    let dir = resolve_checkpoint(path)?;
    let bad = |reason: String| PlayerError::Checkpoint { path: path.display().to_string(), reason };
    let state = read_state(&dir).map_err(|e| bad(e.to_string()))?;
    if state.variant != G::NAME {
        return Err(bad(format!("the checkpoint plays {}, not {}", state.variant, G::NAME)));
    }
    check_format(&state).map_err(bad)?;
    let cfg = NetConfig::for_game::<G>(state.blocks, state.channels).with_trunk(state.trunk);
    let batching = BatchingConfig::new(256, Duration::from_millis(1), &inference);
    let device = inference.device;
    let (service, client) = InferenceService::spawn(move || PolicyValueNet::new(&cfg, device), batching);
    match client.load_weights(dir.join("weights.safetensors")) {
        Ok(Ok(())) => {}
        Ok(Err(reason)) => return Err(bad(reason)),
        Err(e) => return Err(bad(e.to_string())),
    }
    Ok((service, NetEvaluator::new(client, 256)))
}
