//! Playing a gauntlet's matches: only the games each pairing lacks, each match logged as it ends.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rules::{Encoding, Game, Material};
use thiserror::Error;

use super::{CheckpointChoice, GauntletMatch, GauntletSetting};
use crate::store::events::{read_events, RunEvent};
use crate::store::rundir::{RunDir, RunIoError};
use arena::players::{load_players, PlayerError, PlayerOptions, PlayerSpec};
use arena::{play_match, Agent, MatchOptions, PlayedGame};
use mcts::game_seed;
use nn::checkpoint::usable_checkpoints;

/// What a gauntlet plays.
#[derive(Clone, Debug)]
pub struct GauntletOptions {
    /// The fixed opponents, as arena players are written (`random`, `greedy`, `alphabeta:1`).
    pub opponents: Vec<String>,
    /// Which checkpoints to measure.
    pub checkpoints: CheckpointChoice,
    /// Also play each measured checkpoint against the one measured before it, which ties
    /// neighbours together where the fixed opponents are all far weaker or stronger.
    pub each_other: bool,
    /// Checkpoints every measured checkpoint also plays, each with the name its matches are
    /// logged under: the run's own gauntlet plays its teacher-only checkpoint and the one its
    /// previous gauntlet measured ([`crate::config::GauntletConfig`]).
    pub anchors: Vec<(String, PathBuf)>,
    /// Games per pairing, counting those played before.
    pub games: usize,
    /// The most games it may set out to play (`--max-games`): a bigger plan is refused before
    /// its first game, as a gauntlet of every checkpoint is easily thousands.
    pub max_games: usize,
    /// Simulations per move of the checkpoints.
    pub sims: u32,
    /// How the checkpoints use the tactical judge.
    pub tactics: mcts::Tactics,
    /// Leaves in flight of the checkpoints' searches (`None`: analysis's).
    pub leaves: Option<u32>,
    /// The checkpoints keep each game's tree between their moves (tree reuse).
    pub reuse_trees: bool,
    /// Longest game in plies; longer games are adjudicated.
    pub max_plies: u32,
    /// Pawns of material that decide a game at `max_plies` (0: a draw).
    pub adjudicate_material: f32,
    /// Random plies opening each game.
    pub opening_plies: u32,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the openings and of the players' random choices.
    pub seed: u64,
    /// Once set (a command's stop signal), every search ends at once and the games in progress
    /// are abandoned, scored nowhere; `None`: a stop lets them finish (a run's own gauntlet).
    pub abandon: Option<&'static std::sync::atomic::AtomicBool>,
}

impl GauntletOptions {
    /// The setting of the games these options play: earlier matches count toward them only
    /// under the same one, and their table is its.
    pub fn setting(&self) -> GauntletSetting {
        GauntletSetting {
            sims: self.sims,
            tactics: self.tactics.for_player(),
            max_plies: self.max_plies,
            adjudicate_material: self.adjudicate_material,
        }
    }
}

/// A gauntlet could not be played.
#[derive(Debug, Error)]
pub enum GauntletError {
    /// An opponent or checkpoint cannot play.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// The run directory could not be read or written.
    #[error(transparent)]
    Io(#[from] RunIoError),
    /// The run's metrics.jsonl, which keeps the results, cannot be written (found before any
    /// game is played).
    #[error("cannot keep the gauntlet's results in {} ({why}), so no game was played (--table-only shows those there)", log.display())]
    Unwritable {
        /// The metrics log.
        log: PathBuf,
        /// Why it cannot be written.
        why: RunIoError,
    },
    /// Nothing to measure yet.
    #[error("{0}: the run has no readable checkpoint yet")]
    NoCheckpoint(PathBuf),
    /// An opponent that learns: it would move the scale the gauntlet measures on.
    #[error("opponent '{0}' is a run directory, whose newest checkpoint moves as the run learns: a gauntlet's opponents are fixed players (name one checkpoint folder, RUN/checkpoints/step-N, to make it an anchor)")]
    NotFixed(String),
    /// A game count the seat rotation cannot honour.
    #[error("{games} games: {reason}")]
    Games { games: usize, reason: &'static str },
    /// More games to play than `--max-games` allows.
    #[error("{}: more than --max-games {max}; expected at most {max} games to play (choose fewer --checkpoints, e.g. every:K, or fewer --games, or raise --max-games)", .plan.describe())]
    TooMany {
        /// What the gauntlet would have played.
        plan: GauntletPlan,
        /// `--max-games`.
        max: usize,
    },
    /// The device the networks were to run on cannot be used (a run's gauntlet phase says so
    /// as the run does: see `TrainError`'s conversion).
    #[error(transparent)]
    Device(#[from] nn::device::DeviceError),
}

impl From<durable::Error> for GauntletError {
    fn from(e: durable::Error) -> GauntletError {
        GauntletError::Io(e.into())
    }
}

/// What a gauntlet is about to play, said before its first game: a gauntlet of every
/// checkpoint can be hundreds of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GauntletPlan {
    /// Checkpoints measured.
    pub checkpoints: usize,
    /// Fixed opponents each plays.
    pub opponents: usize,
    /// Pairings in all: checkpoints times opponents, and with `--each-other` one more for
    /// each checkpoint after the first.
    pub pairings: usize,
    /// Games per pairing.
    pub games: usize,
    /// Games still to play.
    pub to_play: usize,
    /// Games of these pairings an earlier gauntlet played (not played again).
    pub played: usize,
}

impl GauntletPlan {
    /// `P pairings (C checkpoints x O opponents), G games each: N games to play, M played before`.
    pub fn describe(&self) -> String {
        let neighbours = self.pairings - self.checkpoints * self.opponents;
        let each_other = if neighbours > 0 { format!(" + {neighbours} between neighbours") } else { String::new() };
        let before = if self.played > 0 { format!(", {} played before", self.played) } else { String::new() };
        format!(
            "{} pairings ({} checkpoints x {} opponents{each_other}), {} games each: {} games to play{before}",
            self.pairings, self.checkpoints, self.opponents, self.games, self.to_play
        )
    }
}

/// One pairing: a checkpoint and what it plays.
struct Pairing {
    player: PathBuf,
    opponent_name: String,
    opponent: PlayerSpec,
}

/// Plays every pairing of `opts` its missing games, logging each match to the run as it ends
/// (and handing it to `on_match`, after handing what it will play to `on_plan`, and each game
/// as it ends to `on_game` with the names of its match's players, the checkpoint first); stops
/// between games once `stop` is set or `on_game` returns true. Returns the new matches.
pub fn run_gauntlet<G: Encoding + Material>(
    dir: &RunDir,
    opts: &GauntletOptions,
    inference: nn::Inference,
    stop: &AtomicBool,
    on_plan: &mut dyn FnMut(&GauntletPlan),
    on_match: &mut dyn FnMut(&GauntletMatch),
    on_game: &(dyn Fn(&PlayedGame, &[String]) -> bool + Sync),
) -> Result<Vec<GauntletMatch>, GauntletError> {
    check_games::<G>(opts.games)?;
    if inference.device == nn::Device::Cpu {
        // The games' searches and the networks share the cores: libtorch's own thread pool on
        // top collapses when they are busy (1.6 s instead of 20 ms a move on 2 loaded cores).
        nn::set_threads(1);
    }
    let pairings = pairings(dir, opts)?;
    let earlier: Vec<GauntletMatch> = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default())
        .events
        .into_iter()
        .filter_map(|e| match e {
            RunEvent::Gauntlet(g) if g.setting() == opts.setting() => Some(g),
            _ => None,
        })
        .collect();
    let had =
        |pairing: &Pairing| games_of(&earlier, &folder_name(&pairing.player), &pairing.opponent_name).min(opts.games);
    let played_before: usize = pairings.iter().map(had).sum();
    let checkpoints: BTreeSet<&PathBuf> = pairings.iter().map(|p| &p.player).collect();
    let plan = GauntletPlan {
        checkpoints: checkpoints.len(),
        opponents: opts.opponents.len() + opts.anchors.len(),
        pairings: pairings.len(),
        games: opts.games,
        to_play: pairings.len() * opts.games - played_before,
        played: played_before,
    };
    if plan.to_play > opts.max_games {
        return Err(GauntletError::TooMany { plan, max: opts.max_games });
    }
    on_plan(&plan);
    let mut played: Vec<GauntletMatch> = Vec::new();
    for pairing in &pairings {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let player_name = folder_name(&pairing.player);
        let have = games_of(&earlier, &player_name, &pairing.opponent_name)
            + games_of(&played, &player_name, &pairing.opponent_name);
        if have >= opts.games {
            continue;
        }
        if played.is_empty() {
            // Before the first game, not after the last: results that cannot be kept are lost.
            durable::check_writable(&dir.metrics())
                .map_err(|e| GauntletError::Unwritable { log: dir.metrics(), why: e.into() })?;
        }
        let mut names = vec![player_name.clone()];
        names.extend(std::iter::repeat_n(pairing.opponent_name.clone(), G::NUM_PLAYERS - 1));
        let after_game = |game: &PlayedGame| on_game(game, &names) || stop.load(Ordering::Relaxed);
        let event = play_pairing::<G>(pairing, &player_name, opts, opts.games - have, have, inference, &after_game)?;
        if event.games == 0 {
            break;
        }
        dir.log_event(&RunEvent::Gauntlet(event.clone()))?;
        on_match(&event);
        played.push(event);
    }
    Ok(played)
}

/// The games of `matches` between `player` and `opponent`.
fn games_of(matches: &[GauntletMatch], player: &str, opponent: &str) -> usize {
    matches.iter().filter(|g| g.player == player && g.opponent == opponent).map(|g| g.games).sum()
}

/// Three players rotate through six seat orders, which a game count must fill evenly.
fn check_games<G: Game>(games: usize) -> Result<(), GauntletError> {
    if games == 0 {
        return Err(GauntletError::Games { games, reason: "a gauntlet needs at least one game per pairing" });
    }
    if G::NUM_PLAYERS == 3 && !games.is_multiple_of(6) {
        let reason = "a three-player gauntlet plays each of the 6 seat orders equally often (use a multiple of 6)";
        return Err(GauntletError::Games { games, reason });
    }
    Ok(())
}

/// The pairings of `opts` over the run's readable checkpoints, oldest first.
fn pairings(dir: &RunDir, opts: &GauntletOptions) -> Result<Vec<Pairing>, GauntletError> {
    let opponents: Vec<(String, PlayerSpec)> =
        opts.opponents.iter().map(|o| Ok((o.clone(), o.parse::<PlayerSpec>()?))).collect::<Result<_, PlayerError>>()?;
    if let Some((name, _)) = opponents.iter().find(|(_, spec)| !spec.is_fixed()) {
        return Err(GauntletError::NotFixed(name.clone()));
    }
    let (readable, skipped) = usable_checkpoints(&dir.checkpoints())?;
    for s in &skipped {
        eprintln!("vzero: warning: gauntlet: skipping checkpoint {s}");
    }
    let chosen = opts.checkpoints.select(&readable);
    if chosen.is_empty() {
        return Err(GauntletError::NoCheckpoint(dir.root().to_path_buf()));
    }
    let mut out = Vec::new();
    for (i, player) in chosen.iter().enumerate() {
        for (name, spec) in &opponents {
            out.push(Pairing { player: player.clone(), opponent_name: name.clone(), opponent: spec.clone() });
        }
        for (name, anchor) in opts.anchors.iter().filter(|(_, path)| path != player) {
            let opponent = PlayerSpec::Network(anchor.clone(), Some(opts.sims));
            out.push(Pairing { player: player.clone(), opponent_name: name.clone(), opponent });
        }
        if opts.each_other && i > 0 {
            let previous = &chosen[i - 1];
            let opponent = PlayerSpec::Network(previous.clone(), Some(opts.sims));
            out.push(Pairing { player: player.clone(), opponent_name: folder_name(previous), opponent });
        }
    }
    Ok(out)
}

/// Plays `games` games of one pairing, of which `have` were played before (so the openings
/// differ from theirs), until `after_game` returns true.
fn play_pairing<G: Encoding + Material>(
    pairing: &Pairing,
    player_name: &str,
    opts: &GauntletOptions,
    games: usize,
    have: usize,
    inference: nn::Inference,
    after_game: &(dyn Fn(&PlayedGame) -> bool + Sync),
) -> Result<GauntletMatch, GauntletError> {
    let mut specs = vec![PlayerSpec::Network(pairing.player.clone(), Some(opts.sims))];
    specs.extend(std::iter::repeat_n(pairing.opponent.clone(), G::NUM_PLAYERS - 1));
    let budget = arena::uci::EngineBudget::Nodes(opts.sims);
    let player_opts = PlayerOptions {
        default_sims: opts.sims,
        leaves: opts.leaves,
        engine_budget: budget,
        inference,
        tactics: opts.tactics.clone(),
        reuse_trees: opts.reuse_trees,
        stop: opts.abandon,
    };
    let players = load_players::<G>(&specs, player_opts)?;
    let agents: Vec<&dyn Agent<G>> = players.agents.iter().map(|a| a.as_ref()).collect();
    let pairing_seed = name_hash(player_name) ^ name_hash(&pairing.opponent_name).rotate_left(17);
    let match_opts = MatchOptions {
        games,
        opening_plies: opts.opening_plies,
        max_plies: opts.max_plies,
        adjudicate_material: opts.adjudicate_material,
        threads: opts.threads,
        seed: game_seed(opts.seed ^ pairing_seed, have as u64),
        abandon: opts.abandon,
    };
    let began = std::time::Instant::now();
    let result = play_match::<G>(&agents, &G::start(), match_opts, &|_, game| after_game(game));
    let wall_seconds = began.elapsed().as_secs_f64();
    let opponents = 1..G::NUM_PLAYERS;
    let opponent_forfeits: Vec<arena::forfeit::Forfeit> = result.forfeits[opponents.clone()].concat();
    let mut event = GauntletMatch {
        player: player_name.to_string(),
        opponent: pairing.opponent_name.clone(),
        sims: opts.sims,
        max_plies: opts.max_plies,
        adjudicate_material: opts.adjudicate_material,
        games: result.games,
        score: result.score[0],
        wins: result.wins[0],
        draws: result.draws,
        player_moves: result.moves[0] as u64,
        player_seconds: result.thinking[0].as_secs_f64(),
        opponent_moves: opponents.clone().map(|i| result.moves[i] as u64).sum(),
        opponent_seconds: opponents.map(|i| result.thinking[i].as_secs_f64()).sum(),
        opponent_forfeits: arena::forfeit::forfeit_counts(&opponent_forfeits),
        wall_seconds,
        games_planned: games,
        interrupted: result.games < games,
        ..GauntletMatch::default()
    };
    event.set_tactics(&opts.tactics.for_player());
    drop(agents);
    players.close();
    Ok(event)
}

/// The last component of a path, as the gauntlet names checkpoints.
pub(super) fn folder_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// FNV-1a of a name: pairings get unrelated openings from one seed.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
