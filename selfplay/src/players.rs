//! Arena players named on the command line: `random`, `greedy`, `alphabeta:DEPTH[:MS]`
//! (classical alpha-beta to DEPTH plies, at most MS milliseconds a move), `mcts[:SIMS]` (uniform
//! evaluator), `rollout[:SIMS]` (random-playout evaluator), a checkpoint `PATH[:SIMS]` (a
//! checkpoint folder, or a run directory for its newest checkpoint) or `uci:COMMAND` (another
//! program speaking the engine protocol).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use mcts::{RolloutEvaluator, UniformEvaluator};
use nn::{BatchingConfig, InferenceService, PolicyValueNet};
use rules::{Encoding, Game, Material};
use thiserror::Error;

use crate::arena::{Agent, AlphaBetaAgent, GreedyAgent, RandomAgent, SearchAgent};
use crate::checkpoint::{list_checkpoints, verify_checkpoint};
use crate::evaluator::NetEvaluator;
use crate::rundir::RunDir;
use crate::setup::net_config;
use crate::uci_agent::{EngineBudget, UciAgent};

/// One player as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The most valuable capture, else random.
    Greedy,
    /// Classical alpha-beta search ([`alphabeta::search`]): depth and time limit per move.
    AlphaBeta(alphabeta::Settings),
    /// Search with the uniform evaluator.
    Mcts(Option<u32>),
    /// Search with the random-playout evaluator.
    Rollout(Option<u32>),
    /// Search with a trained network.
    Network(PathBuf, Option<u32>),
    /// Another program speaking the engine protocol, started as a child process.
    Uci {
        /// The command as written after `uci:`.
        command: String,
        /// It split into words as a shell would: the program, then its arguments.
        argv: Vec<String>,
    },
}

/// A player could not be set up.
#[derive(Debug, Error)]
pub enum PlayerError {
    /// The text names no player.
    #[error(
        "player '{0}': expected random, greedy, mcts[:SIMS], rollout[:SIMS], alphabeta:DEPTH[:MS], uci:COMMAND or a checkpoint PATH[:SIMS]"
    )]
    Unknown(String),
    /// An `alphabeta` player with a depth or time limit that cannot make a search.
    #[error("player '{text}': expected alphabeta:DEPTH or alphabeta:DEPTH:MS with DEPTH 1 to {max} and MS at least 1 ({reason})", max = alphabeta::MAX_DEPTH)]
    AlphaBeta { text: String, reason: String },
    /// A search player given no simulations, which could not choose a move.
    #[error("player '{0}': a search needs at least 1 simulation")]
    NoSimulations(String),
    /// A `uci:` player whose command line cannot be split into words.
    #[error("player '{0}': expected uci:COMMAND, a command line of words, 'single' or \"double\" quoted where they hold spaces")]
    Command(String),
    /// The engine of a `uci:` player could not be started and set up.
    #[error("player '{player}': {reason}")]
    Engine { player: String, reason: String },
    /// The checkpoint cannot be used.
    #[error("player '{path}': {reason}")]
    Checkpoint { path: String, reason: String },
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(text: &str) -> Result<PlayerSpec, PlayerError> {
        // Everything after `uci:` is the command, colons and spaces included.
        if let Some(command) = text.strip_prefix("uci:") {
            let argv = shlex::split(command).filter(|words| !words.is_empty());
            let argv = argv.ok_or_else(|| PlayerError::Command(text.into()))?;
            return Ok(PlayerSpec::Uci { command: command.into(), argv });
        }
        // Two numbers after the name: the generic `NAME:SIMS` split below would see one.
        if text == "alphabeta" || text.starts_with("alphabeta:") {
            return parse_alphabeta(text, &text["alphabeta".len()..]).map(PlayerSpec::AlphaBeta);
        }
        let (name, sims) = match text.rsplit_once(':') {
            Some((name, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                (name, Some(n.parse::<u32>().map_err(|_| PlayerError::Unknown(text.into()))?))
            }
            _ => (text, None),
        };
        if sims == Some(0) {
            return Err(PlayerError::NoSimulations(text.into()));
        }
        Ok(match name {
            "random" if sims.is_none() => PlayerSpec::Random,
            "greedy" if sims.is_none() => PlayerSpec::Greedy,
            "mcts" => PlayerSpec::Mcts(sims),
            "rollout" => PlayerSpec::Rollout(sims),
            path if Path::new(path).exists() => PlayerSpec::Network(PathBuf::from(path), sims),
            _ => return Err(PlayerError::Unknown(text.into())),
        })
    }
}

/// The settings of `alphabeta:DEPTH[:MS]`; `limits` is the text after `alphabeta`.
fn parse_alphabeta(text: &str, limits: &str) -> Result<alphabeta::Settings, PlayerError> {
    let bad = |reason: &str| PlayerError::AlphaBeta { text: text.into(), reason: reason.into() };
    let number = |field: &str, what: &str| {
        field.parse::<u64>().map_err(|_| bad(&format!("{what} '{field}' is not a whole number")))
    };
    let mut fields = limits.strip_prefix(':').ok_or_else(|| bad("no depth given"))?.split(':');
    let depth = number(fields.next().unwrap_or_default(), "depth")?;
    let time = fields.next().map(|ms| number(ms, "MS")).transpose()?.map(std::time::Duration::from_millis);
    if fields.next().is_some() {
        return Err(bad("more than two numbers"));
    }
    let depth = u32::try_from(depth).unwrap_or(u32::MAX);
    alphabeta::Settings { depth, time, table: true }.validated().map_err(|e| bad(&e.to_string()))
}

/// The checkpoint folder a path names: itself, or a run directory's newest readable checkpoint.
pub fn resolve_checkpoint(path: &Path) -> Result<PathBuf, PlayerError> {
    let bad = |reason: String| PlayerError::Checkpoint { path: path.display().to_string(), reason };
    if path.join("state.json").exists() {
        verify_checkpoint(path).map_err(|e| bad(e.to_string()))?;
        return Ok(path.to_path_buf());
    }
    let checkpoints = list_checkpoints(&RunDir::open(path).checkpoints())
        .map_err(|_| bad("neither a checkpoint nor a run directory".into()))?;
    checkpoints
        .into_iter()
        .rev()
        .find(|c| verify_checkpoint(c).is_ok())
        .ok_or_else(|| bad("the run has no readable checkpoint".into()))
}

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

/// Builds the agents for `specs`, searching `default_sims` simulations where a spec names none
/// and giving `uci:` engines `engine_budget` per move.
pub fn load_players<G: Encoding + Material>(
    specs: &[PlayerSpec],
    default_sims: u32,
    engine_budget: EngineBudget,
    device: nn::Device,
) -> Result<Players<G>, PlayerError> {
    let mut agents: Vec<Box<dyn Agent<G>>> = Vec::new();
    let mut services = Vec::new();
    for spec in specs {
        let agent: Box<dyn Agent<G>> = match spec {
            PlayerSpec::Random => Box::new(RandomAgent),
            PlayerSpec::Greedy => Box::new(GreedyAgent),
            PlayerSpec::AlphaBeta(settings) => Box::new(AlphaBetaAgent { settings: *settings }),
            PlayerSpec::Mcts(s) => {
                let simulations = s.unwrap_or(default_sims);
                Box::new(SearchAgent { label: format!("mcts:{simulations}"), evaluator: UniformEvaluator, simulations })
            }
            PlayerSpec::Rollout(s) => {
                let simulations = s.unwrap_or(default_sims);
                let evaluator = RolloutEvaluator::new(0x5EED, 400);
                Box::new(SearchAgent { label: format!("rollout:{simulations}"), evaluator, simulations })
            }
            PlayerSpec::Network(path, s) => {
                let simulations = s.unwrap_or(default_sims);
                let (service, evaluator) = load_network::<G>(path, device)?;
                services.push(service);
                Box::new(SearchAgent { label: format!("{}:{simulations}", path.display()), evaluator, simulations })
            }
            PlayerSpec::Uci { command, argv } => {
                let player = format!("uci:{command}");
                let engine = UciAgent::<G>::start(player.clone(), argv.clone(), engine_budget);
                Box::new(engine.map_err(|reason| PlayerError::Engine { player, reason })?)
            }
        };
        agents.push(agent);
    }
    Ok(Players { agents, services })
}

/// An inference service running the checkpoint at `path` (a checkpoint folder or a run
/// directory) for game `G`, and an evaluator for it; arena players and `vzero uci` load alike.
pub fn load_network<G: Encoding>(
    path: &Path,
    device: nn::Device,
) -> Result<(InferenceService, NetEvaluator<G>), PlayerError> {
    let dir = resolve_checkpoint(path)?;
    let bad = |reason: String| PlayerError::Checkpoint { path: path.display().to_string(), reason };
    let state = crate::checkpoint::read_state(&dir).map_err(|e| bad(e.to_string()))?;
    if state.variant != G::NAME {
        return Err(bad(format!("the checkpoint plays {}, not {}", state.variant, G::NAME)));
    }
    crate::checkpoint::check_format(&state).map_err(bad)?;
    let cfg = net_config::<G>(state.blocks, state.channels);
    let batching = BatchingConfig { max_batch: 256, max_wait: Duration::from_millis(1) };
    let (service, client) = InferenceService::spawn(move || PolicyValueNet::new(&cfg, device), batching);
    match client.load_weights(dir.join("weights.safetensors")) {
        Ok(Ok(())) => {}
        Ok(Err(reason)) => return Err(bad(reason)),
        Err(e) => return Err(bad(e.to_string())),
    }
    Ok((service, NetEvaluator::new(client, 256)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uci_player_takes_the_whole_command_line_colons_and_quotes_included() {
        let spec: PlayerSpec = r#"uci:vzero uci --model "runs/a b:64" --x=y:1"#.parse().unwrap();
        let argv = ["vzero", "uci", "--model", "runs/a b:64", "--x=y:1"].map(String::from).to_vec();
        assert_eq!(spec, PlayerSpec::Uci { command: r#"vzero uci --model "runs/a b:64" --x=y:1"#.into(), argv });
        assert!(matches!("uci:".parse::<PlayerSpec>(), Err(PlayerError::Command(_))));
        assert!(matches!("uci:'unclosed".parse::<PlayerSpec>(), Err(PlayerError::Command(_))));
    }
}
