//! Who sits at each seat of a game on the page: a person, or an engine named as the arena names
//! its players (`alphabeta:2`, `greedy`, `random`, `mcts:200`, a network `PATH[:SIMS]`, with
//! `default` for the network shipped in models/ and `none` for the uniform evaluator). Networks
//! are read only inside the folders the server was given ([`Roots`]), and no `uci:` program is
//! ever started from a request. Every engine's search is bounded as an analysis is
//! ([`check_sims`], alpha-beta's depth) and can be called off ([`fixed_move`]'s `stop`).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use arena::{PlayerOptions, PlayerSpec, Players};
use mcts::{SearchParams, UniformEvaluator};
use nn::checkpoint::{list_checkpoints, RUN_CHECKPOINTS};
use rules::{Variant, VariantGame};

use super::wire::Choice;
use crate::engine::{model_variant, models_dir, shipped_model, EngineSettings, Limits, ModelChoice, INFO_EVERY};

/// The word the page uses for a seat a person plays.
pub const PERSON: &str = "you";

/// One seat's player.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// Moves come from the page.
    Person,
    /// An arena player that needs no network: random, greedy, alphabeta, mcts, rollout.
    Fixed(PlayerSpec),
    /// A search with a network (or the uniform evaluator where `model` is `None`), reporting as
    /// `vzero analyse` does while it searches.
    Network {
        /// The checkpoint folder or run directory; none for the uniform evaluator.
        model: Option<PathBuf>,
        /// Root visits per move.
        sims: u32,
    },
}

impl Seat {
    /// Reads a seat's player as the page writes it; `sims` is the visits of a network player
    /// that names none. The error is one line naming the player and what was expected.
    pub fn parse(text: &str, variant: Variant, roots: &Roots, sims: u32) -> Result<Seat, String> {
        let text = text.trim();
        if text == PERSON {
            return Ok(Seat::Person);
        }
        let spec = PlayerSpec::from_str(text).map_err(|e| format!("{e}, or '{PERSON}'"))?;
        match spec {
            PlayerSpec::Uci { .. } => Err(format!(
                "player '{text}': the page starts no programs; name a network, alphabeta:DEPTH, greedy, random or '{PERSON}'"
            )),
            PlayerSpec::Timed { .. } => Err(format!(
                "player '{text}': a seat on the page searches by simulations; give NAME:SIMS, not a time a move"
            )),
            PlayerSpec::Mcts(Some(given)) | PlayerSpec::Rollout(Some(given)) => {
                check_sims(given).map_err(|e| format!("player '{text}': {e}"))?;
                Ok(Seat::Fixed(spec))
            }
            PlayerSpec::Network(path, given) => {
                let sims = check_sims(given.unwrap_or(sims)).map_err(|e| format!("player '{text}': {e}"))?;
                let choice = ModelChoice::from_str(&path.to_string_lossy()).unwrap_or(ModelChoice::Uniform);
                let model = match choice.resolve(variant) {
                    None => None,
                    Some(model) => {
                        let model = roots.check(&model)?;
                        let plays = model_variant(&model)?;
                        if plays != variant {
                            return Err(format!("player '{text}': the network plays {plays}, not {variant}"));
                        }
                        Some(model)
                    }
                };
                Ok(Seat::Network { model, sims })
            }
            fixed => Ok(Seat::Fixed(fixed)),
        }
    }

    /// Whether a person plays this seat.
    pub fn is_person(&self) -> bool {
        *self == Seat::Person
    }

    /// The player as a request names it (`PATH:SIMS`), which a restored game sends back.
    pub fn text(&self) -> String {
        match self {
            Seat::Person => PERSON.to_string(),
            Seat::Fixed(spec) => spec.text(),
            Seat::Network { model: Some(path), sims } => format!("{}:{sims}", path.display()),
            Seat::Network { model: None, sims } => format!("none:{sims}"),
        }
    }

    /// The player as people read it: what searches, by a short name, with the visits it uses
    /// (`network mini-a/step-000000120, 64 sims`), never a whole path.
    pub fn title(&self) -> String {
        match self {
            Seat::Network { model: Some(path), sims } => format!("network {}, {sims} sims", model_name(path)),
            Seat::Network { model: None, sims } => format!("uniform search, {sims} sims"),
            other => other.text(),
        }
    }
}

/// A network's short name: `shipped glinski` for one in models/, else its folder's name, after
/// its run's for one of a run's checkpoints (`mini-a/step-000000120`).
pub fn model_name(path: &Path) -> String {
    let name = |p: &Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    let shipped = models_dir().canonicalize().ok().and_then(|root| path.strip_prefix(root).ok().map(Path::to_path_buf));
    if let Some(variant) = shipped.as_ref().and_then(|inside| inside.components().next()) {
        return format!("shipped {}", variant.as_os_str().to_string_lossy());
    }
    match path.parent() {
        Some(parent) if parent.file_name().is_some_and(|n| n == RUN_CHECKPOINTS) => {
            let run = parent.parent().map_or_else(String::new, |r| format!("{}/", name(r)));
            format!("{run}{}", name(path))
        }
        _ => name(path),
    }
}

/// `sims` if one search may be given that many visits: the range of the search's
/// `simulations` setting, which `--sims` and every seat and analysis of the page share.
pub fn check_sims(sims: u32) -> Result<u32, String> {
    match SearchParams::check_text("simulations", &sims.to_string()) {
        Some(Err(e)) => Err(format!("sims {e}")),
        _ => Ok(sims),
    }
}

/// The folders requests may name networks and runs in: models/, the `--model` path and the
/// `--runs` folders, each as its canonical path.
#[derive(Clone, Debug, Default)]
pub struct Roots {
    folders: Vec<PathBuf>,
}

impl Roots {
    /// The roots of `folders`; those that do not exist are left out (nothing inside them can be
    /// named).
    pub fn new(folders: &[PathBuf]) -> Roots {
        Roots { folders: folders.iter().filter_map(|f| f.canonicalize().ok()).collect() }
    }

    /// `path` if it exists inside one of the roots, as its canonical path; otherwise one error,
    /// whether it is missing or outside, so that answers say nothing of what lies outside.
    pub fn check(&self, path: &Path) -> Result<PathBuf, String> {
        match path.canonicalize() {
            Ok(real) if self.folders.iter().any(|root| real.starts_with(root)) => Ok(real),
            _ => Err(format!(
                "'{}' is not inside the folders this server reads (models/, --model and --runs)",
                path.display()
            )),
        }
    }
}

/// The players the page offers for `variant`: a person, the networks it may read (the shipped
/// one, `--model`, the runs and their checkpoints), uniform search and the fixed players. A
/// network's label names no visits: the page sets them beside it, and `text` carries `sims`.
pub fn choices(variant: Variant, model: &ModelChoice, runs: &[PathBuf], sims: u32) -> Vec<Choice> {
    let fixed = |text: String, label: String| Choice { text, label, model: None };
    let mut out = vec![fixed(PERSON.into(), "you (click to move)".into())];
    let mut network = |path: &Path, label: String| {
        if model_variant(path).is_ok_and(|v| v == variant) {
            out.push(Choice {
                text: format!("{}:{sims}", path.display()),
                label,
                model: Some(path.display().to_string()),
            });
        }
    };
    if let Some(shipped) = shipped_model(variant) {
        network(&shipped, format!("shipped network ({})", variant.name()));
    }
    if let ModelChoice::Path(path) = model {
        network(path, format!("--model {}", model_name(path)));
    }
    for run in runs {
        let name = model_name(run);
        network(run, format!("run {name} (newest)"));
        let checkpoints = list_checkpoints(&run.join(RUN_CHECKPOINTS)).unwrap_or_default();
        // The newest few: a long run has hundreds.
        for checkpoint in checkpoints.iter().rev().take(8) {
            let step = checkpoint.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            network(checkpoint, format!("run {name} {step}"));
        }
    }
    out.push(Choice {
        text: format!("none:{sims}"),
        label: "uniform search (no network)".into(),
        model: Some("none".into()),
    });
    for depth in 1..=4 {
        out.push(fixed(format!("alphabeta:{depth}"), format!("alpha-beta, depth {depth}")));
    }
    out.push(fixed("greedy".into(), "greedy (best capture)".into()));
    out.push(fixed("random".into(), "random moves".into()));
    out
}

/// The move a fixed player chooses in `game` (not over), as text. A search ends early once
/// `stop` is set and plays its best move so far: alpha-beta its deepest completed depth, `mcts`
/// and `rollout` their most visited move (searched as a network seat is, in chunks).
pub fn fixed_move(
    spec: &PlayerSpec,
    game: &VariantGame,
    seed: u64,
    opts: PlayerOptions,
    stop: &Arc<AtomicBool>,
) -> Result<String, String> {
    rules::with_variant_game!(game, g: G => {
        let mv = match spec {
            PlayerSpec::AlphaBeta(limits) => {
                alphabeta::search_until(g, limits, seed, stop).ok_or("the game is over")?.best
            }
            PlayerSpec::Mcts(sims) | PlayerSpec::Rollout(sims) => {
                let limits = Limits { nodes: Some(sims.unwrap_or(opts.default_sims)), ..Limits::default() };
                let settings = EngineSettings {
                    threads: 1,
                    multipv: 1,
                    leaves: opts.leaves,
                    tactics: opts.tactics.for_player(),
                    info_every: INFO_EVERY,
                };
                let report = if matches!(spec, PlayerSpec::Mcts(_)) {
                    crate::engine::search(g, &UniformEvaluator, &limits, settings, stop, &mut |_| {})
                } else {
                    let rollouts = arena::rollout_evaluator();
                    crate::engine::search(g, &rollouts, &limits, settings, stop, &mut |_| {})
                };
                return report.best().map(str::to_string).ok_or_else(|| "the search found no move".into());
            }
            _ => {
                let players: Players<G> =
                    arena::load_players::<G>(std::slice::from_ref(spec), opts).map_err(|e| e.to_string())?;
                let mv = players.agents[0].choose(g, seed);
                players.close();
                mv
            }
        };
        Ok(rules::Game::move_text(g, mv))
    })
}
