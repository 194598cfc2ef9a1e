//! The training configuration: one TOML file, every key documented in configs/*.toml.
//!
//! The user-facing documentation of each key, with its default, is its comment in the full
//! configs (configs/glinski.toml and the other variants' own); selfplay/tests/config_defaults.rs
//! checks those defaults against the ones here. The field docs below are one-line reminders, and
//! `[search]`'s keys are documented in full on [`mcts::SearchParams`].
//!
//! Unknown keys are errors (a typo must not silently fall back to a default), and
//! `--set section.key=value` overrides any key from the command line.

use std::path::Path;

use mcts::SearchParams;
use nn::{DeviceChoice, PrecisionChoice};
use rules::Variant;
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod overrides;

use overrides::Override;

/// A whole training configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The variant to train (`vzero variants` lists them), written as its name.
    #[serde(with = "by_name")]
    pub variant: Variant,
    /// Seed of every random choice in the run.
    #[serde(default)]
    pub seed: u64,
    /// Where the networks run: `auto`, `cpu` or `cuda`.
    #[serde(default, with = "by_name")]
    pub device: DeviceChoice,
    /// Position text every self-play and evaluation game starts from (default: the variant's
    /// start position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_position: Option<String>,
    /// The network's shape.
    #[serde(default)]
    pub network: NetworkConfig,
    /// How self-play, gating and gauntlets run the network.
    #[serde(default)]
    pub inference: InferenceConfig,
    /// Self-play workers and games.
    #[serde(default)]
    pub selfplay: SelfplayConfig,
    /// The tree search used in self-play (and its playout share in leaf values); keys left out
    /// take [`SearchParams::default`].
    #[serde(default)]
    pub search: SearchParams,
    /// The replay window.
    #[serde(default)]
    pub replay: ReplayConfig,
    /// The optimizer and its schedule.
    #[serde(default)]
    pub training: TrainingConfig,
    /// The evaluation at the end of a run.
    #[serde(default)]
    pub evaluation: EvaluationConfig,
    /// Optional gating of new networks against the best one so far.
    #[serde(default)]
    pub gating: GatingConfig,
    /// Optional gauntlets of the newest checkpoint against fixed opponents during the run.
    #[serde(default)]
    pub gauntlet: GauntletConfig,
    /// Optional classical teacher: labelled games the run starts from.
    #[serde(default)]
    pub teacher: TeacherConfig,
}

/// Serde of a value written as its name: parsed with `FromStr`, written with `Display`.
mod by_name {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// `[network]`: the residual network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels per convolution.
    pub channels: usize,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig { blocks: 4, channels: 32 }
    }
}

/// `[inference]`: the form the network runs in for self-play, gating and gauntlets (training
/// always runs it as trained).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InferenceConfig {
    /// `auto` (bf16 where the CPU computes it natively, else fp32), `fp32` or `bf16`; on a CPU
    /// the batch norms are folded and the layout is channels-last in every case.
    #[serde(with = "by_name")]
    pub precision: PrecisionChoice,
    /// libtorch threads of each of the inference service's forward passes.
    pub threads: usize,
    /// Forward passes each batch is split into, run at once on threads of their own.
    pub passes: usize,
}

impl Default for InferenceConfig {
    fn default() -> Self {
        InferenceConfig { precision: PrecisionChoice::Auto, threads: 1, passes: 2 }
    }
}

/// `[selfplay]`: how games are generated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfplayConfig {
    /// Worker threads, each interleaving `games_per_worker` games.
    pub workers: usize,
    /// Games each worker keeps in progress at once, so the network sees large batches.
    pub games_per_worker: usize,
    /// Games played per iteration (between two training phases).
    pub games_per_iteration: usize,
    /// Longest game in plies; a game reaching it is adjudicated a draw, or by material.
    pub max_plies: u32,
    /// A game reaching `max_plies` with seats at least this many pawns of material apart is
    /// scored by their material standings ([`rules::material_standings`]: two players, the side
    /// ahead wins); a prior, off in a pure-zero run. 0 keeps every such game a draw.
    pub adjudicate_material: f32,
    /// A player whose searched value stays below this for `resign_plies` of its consecutive
    /// moves resigns (scores: as if it lost). 0 disables resignation.
    pub resign_threshold: f32,
    /// Consecutive moves below the threshold before resigning.
    pub resign_plies: u32,
    /// Share of games in which resignation is disabled, to measure false resignations.
    pub resign_playthrough: f32,
    /// Positions per inference batch.
    pub max_batch: usize,
    /// Finished games are written to the run directory (as one shard) at least every this many
    /// games, so a process stopped or killed mid-iteration loses at most the games not yet
    /// written.
    pub flush_games: usize,
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        SelfplayConfig {
            workers: 2,
            games_per_worker: 16,
            games_per_iteration: 64,
            max_plies: 300,
            adjudicate_material: 0.0,
            resign_threshold: 0.0,
            resign_plies: 3,
            resign_playthrough: 0.1,
            max_batch: 256,
            // A lost batch of 16 games is a few percent of a full-size iteration (512), while
            // the shards stay few (32 per such iteration, each one fsync) and the tiny test
            // configs (8 games per iteration) still write one shard per iteration.
            flush_games: 16,
        }
    }
}

/// `[replay]`: the window of recent positions (see [`crate::replay::WindowSize`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReplayConfig {
    /// Positions kept before the window grows sublinearly.
    pub window_min: usize,
    /// The most positions kept.
    pub window_max: usize,
    /// Growth exponent.
    pub window_alpha: f64,
    /// Growth scale.
    pub window_beta: f64,
}

impl ReplayConfig {
    /// The window this section describes.
    pub fn window_size(&self) -> crate::replay::WindowSize {
        crate::replay::WindowSize {
            min: self.window_min,
            max: self.window_max,
            alpha: self.window_alpha,
            beta: self.window_beta,
        }
    }
}

impl Default for ReplayConfig {
    fn default() -> Self {
        ReplayConfig { window_min: 20_000, window_max: 500_000, window_alpha: 0.75, window_beta: 0.4 }
    }
}

/// `[training]`: the optimizer and how much it trains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainingConfig {
    /// Iterations of (self-play, training, checkpoint) in the run.
    pub iterations: u32,
    /// Samples per gradient step.
    pub batch_size: usize,
    /// Learning rate (SGD with Nesterov momentum 0.9).
    pub learning_rate: f64,
    /// Multiply the learning rate by `lr_decay` at each step listed in `lr_decay_steps`.
    pub lr_decay: f64,
    /// Steps at which the learning rate decays.
    pub lr_decay_steps: Vec<u64>,
    /// L2 weight decay.
    pub weight_decay: f64,
    /// Samples drawn per new training position: caps how often each position is trained on.
    pub samples_per_position: f64,
    /// Positions in the window before training starts.
    pub min_positions: usize,
    /// Also save a checkpoint every this many steps within an iteration's training (0: only
    /// at the end of each iteration). Bounds the work a crash can lose on long iterations.
    pub checkpoint_steps: u64,
    /// Checkpoints kept on disk: the newest this many plus the best (with gating); 0 keeps all.
    pub keep_checkpoints: usize,
    /// On CUDA, train with the forward pass in fp16 autocast and dynamic loss scaling (weights
    /// and optimizer stay fp32). Ignored on CPU.
    pub mixed_precision: bool,
    /// On a CPU, the layout and arithmetic of the training step: `auto` (channels-last, with
    /// bf16 convolutions where the CPU computes bf16 natively), or one of `nchw-fp32`,
    /// `nhwc-fp32`, `nchw-bf16`, `nhwc-bf16`. Ignored on CUDA.
    #[serde(with = "by_name")]
    pub cpu_form: nn::TrainFormChoice,
    /// Share of the search's root value in each value target; the rest is the game's final
    /// score (Leela's q-ratio). Denser than results alone where most games are draws.
    pub search_value_weight: f32,
}

impl Default for TrainingConfig {
    fn default() -> Self {
        TrainingConfig {
            iterations: 20,
            batch_size: 128,
            learning_rate: 0.02,
            lr_decay: 0.1,
            lr_decay_steps: Vec::new(),
            weight_decay: 1e-4,
            samples_per_position: 4.0,
            min_positions: 1000,
            checkpoint_steps: 0,
            keep_checkpoints: 0,
            mixed_precision: true,
            cpu_form: nn::TrainFormChoice::Auto,
            search_value_weight: 0.0,
        }
    }
}

/// `[evaluation]`: the match against baselines printed at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvaluationConfig {
    /// Games against each baseline (0 skips the evaluation).
    pub games: usize,
    /// Simulations per move of the network player and of the uniform-search baseline.
    pub simulations: u32,
    /// The baselines, as arena players (`mcts`: uniform search at `simulations`).
    pub against: Vec<String>,
}

impl Default for EvaluationConfig {
    fn default() -> Self {
        let against = ["random", "mcts", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3"];
        EvaluationConfig { games: 100, simulations: 100, against: against.map(String::from).to_vec() }
    }
}

/// `[gating]`: after each iteration the new network plays the best network so far and
/// replaces it for self-play only if it scores at least `threshold` (AlphaGo Zero's gating;
/// AlphaZero and KataGo train without it). Decisions go to metrics.jsonl.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GatingConfig {
    /// Games per gating match; 0 turns gating off.
    pub games: usize,
    /// Mean score the new network needs to become the best.
    pub threshold: f64,
    /// Simulations per move in gating games.
    pub simulations: u32,
}

impl Default for GatingConfig {
    fn default() -> Self {
        GatingConfig { games: 0, threshold: 0.55, simulations: 50 }
    }
}

/// `[gauntlet]`: every `every` iterations (and after the last) the newest checkpoint plays
/// fixed opponents that never learn, and the results go to metrics.jsonl on one rating scale
/// (`vzero gauntlet RUN --table-only` prints it, `vzero plot` draws it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GauntletConfig {
    /// Iterations between gauntlets; 0 turns them off.
    pub every: u32,
    /// The fixed opponents, as arena players are written (`random`, `greedy`, `alphabeta:1`).
    pub against: Vec<String>,
    /// Games against each opponent.
    pub games: usize,
    /// Simulations per move of the checkpoint.
    pub simulations: u32,
}

impl Default for GauntletConfig {
    fn default() -> Self {
        GauntletConfig { every: 0, against: vec!["random".into(), "greedy".into()], games: 10, simulations: 64 }
    }
}

/// `[teacher]`: before its first self-play iteration the run has an alpha-beta player play
/// `positions` labelled positions (`vzero teach`), trains `steps` steps on them alone, and then
/// mixes them into its training batches at a share that fades to 0 (expert iteration's warm
/// start). `positions = 0` (the default) is a pure-zero run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TeacherConfig {
    /// Labelled positions to make before the first iteration; 0 turns the teacher off.
    pub positions: u64,
    /// The teacher, as an arena player: `alphabeta:DEPTH` or `alphabeta:DEPTH:MS`.
    pub player: String,
    /// Uniformly random plies opening each teacher game (not labelled), so games differ.
    pub random_plies: u32,
    /// Centipawns of the policy target's softmax over the teacher's root-move scores.
    pub policy_temperature: f32,
    /// Centipawns of the softmax the teacher's move is drawn from (0: always its best).
    pub choice_temperature: f32,
    /// Share of the teacher's squashed evaluation in each value target; the rest is the result.
    pub value_mix: f32,
    /// Training steps on teacher positions alone before the first self-play.
    pub steps: u64,
    /// Share of teacher positions in training batches after that, at iteration 0.
    pub share: f32,
    /// Iterations over which `share` falls linearly to 0 (0: it stays).
    pub fade_iterations: u32,
    /// Threads playing teacher games.
    pub threads: usize,
}

impl Default for TeacherConfig {
    fn default() -> Self {
        TeacherConfig {
            positions: 0,
            player: "alphabeta:2".into(),
            random_plies: 6,
            policy_temperature: 200.0,
            choice_temperature: 50.0,
            value_mix: 0.5,
            steps: 1000,
            share: 0.5,
            fade_iterations: 10,
            threads: 2,
        }
    }
}

impl TeacherConfig {
    /// The teacher's search limits (the config was validated, so `player` parses).
    pub fn settings(&self) -> Result<alphabeta::SearchLimits, String> {
        match self.player.parse::<arena::players::PlayerSpec>() {
            Ok(arena::players::PlayerSpec::AlphaBeta(settings)) => Ok(settings),
            Ok(_) => Err("must be an alpha-beta player (alphabeta:DEPTH or alphabeta:DEPTH:MS)".into()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The teacher's share of training batches in iteration `iteration` (self-play's).
    pub fn share_at(&self, iteration: u32) -> f32 {
        if self.fade_iterations == 0 {
            return self.share;
        }
        self.share * (1.0 - iteration as f32 / self.fade_iterations as f32).max(0.0)
    }
}

/// Why `opponent` cannot be a fixed opponent (a checkpoint, or not a player at all): the value
/// to name and the reason; `None` if it can.
fn not_fixed(opponent: &str) -> Option<(String, &'static str)> {
    match opponent.parse::<arena::players::PlayerSpec>() {
        Ok(arena::players::PlayerSpec::Network(..)) => {
            Some((opponent.to_string(), "must be a fixed opponent, not a checkpoint"))
        }
        Ok(_) => None,
        Err(_) => Some((
            opponent.chars().take(100).collect(),
            "is not an arena player (random, greedy, mcts:N, rollout:N, alphabeta:D)",
        )),
    }
}

/// Why a configuration was rejected; the message names the file and key.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// The TOML does not parse or has unknown keys or values of the wrong type.
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    /// A `--set` override is not `key=value`.
    #[error("--set '{0}': expected section.key=value")]
    BadOverride(String),
    /// A `--set` override names no key or gives a value of the wrong kind.
    #[error("--set '{text}': {message}")]
    Override { text: String, message: String },
    /// A value is out of range.
    #[error("{path}: {key} = {value}: {reason}")]
    Invalid { path: String, key: String, value: String, reason: &'static str },
    /// A value a `--set` override gave is out of range.
    #[error("--set {key}={value}: {reason}")]
    InvalidOverride { key: String, value: String, reason: &'static str },
}

impl Config {
    /// Reads `path`, applies `overrides` (`section.key=value`, values in TOML syntax; a bare
    /// word is taken as a string), and validates.
    pub fn load(path: &Path, overrides: &[String]) -> Result<Config, ConfigError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io { path: name.clone(), source })?;
        Config::parse(&text, &name, overrides)
    }

    /// Parses config text; `name` is used in messages.
    pub fn parse(text: &str, name: &str, overrides: &[String]) -> Result<Config, ConfigError> {
        let parse_err = |message: String| ConfigError::Parse { path: name.to_string(), message };
        // The file alone first, so its mistakes are reported with their line.
        let located = |e: toml::de::Error| {
            let line = e.span().map(|s| text[..s.start].matches('\n').count() + 1);
            parse_err(match line {
                Some(line) => format!("line {line}: {}", e.message().trim_end()),
                None => e.message().trim_end().to_string(),
            })
        };
        let from_file = toml::from_str::<Config>(text).map_err(located)?;
        let mut table: toml::Table = text.parse().map_err(located)?;
        // What kind of value each key takes, for the messages of overrides that give another.
        let resolved: toml::Table = from_file.to_toml().parse().expect("a config's TOML parses");
        let mut applied = Vec::new();
        for text in overrides {
            let o = Override::read(text)?;
            o.apply(&mut table)?;
            // Checked one at a time: the first that does not fit is to blame.
            if let Err(e) = toml::Value::Table(table.clone()).try_into::<Config>() {
                return Err(o.wrong_kind(&resolved, e.message()));
            }
            applied.push(o);
        }
        let config: Config = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| parse_err(format!("after --set: {}", e.message().trim_end())))?;
        config.validate(name).map_err(|e| blame_override(e, &applied))?;
        Ok(config)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The device the config names and the form inference runs the network in there.
    pub fn inference(&self) -> Result<nn::Inference, nn::device::DeviceError> {
        Ok(nn::Inference::choose(self.device.resolve()?, self.inference.precision)
            .with_threads(self.inference.threads)
            .with_passes(self.inference.passes))
    }

    fn validate(&self, name: &str) -> Result<(), ConfigError> {
        let invalid = |key: &str, value: String, reason: &'static str| ConfigError::Invalid {
            path: name.to_string(),
            key: key.to_string(),
            value,
            reason,
        };
        let margin = self.selfplay.adjudicate_material;
        if !margin.is_finite() || margin < 0.0 {
            return Err(invalid(
                "selfplay.adjudicate_material",
                margin.to_string(),
                "must be 0 or a positive number of pawns",
            ));
        }
        let positive = [
            ("network.blocks", self.network.blocks),
            ("network.channels", self.network.channels),
            ("selfplay.workers", self.selfplay.workers),
            ("selfplay.games_per_worker", self.selfplay.games_per_worker),
            ("selfplay.games_per_iteration", self.selfplay.games_per_iteration),
            ("selfplay.max_batch", self.selfplay.max_batch),
            ("selfplay.flush_games", self.selfplay.flush_games),
            ("training.batch_size", self.training.batch_size),
            ("inference.threads", self.inference.threads),
            ("inference.passes", self.inference.passes),
        ];
        for (key, value) in positive {
            if value == 0 {
                return Err(invalid(key, "0".into(), "must be at least 1"));
            }
        }
        // Sizes past these are typing mistakes, not experiments (memory or time would run out).
        let at_most = [
            ("network.blocks", self.network.blocks, 256),
            ("network.channels", self.network.channels, 4096),
            ("selfplay.workers", self.selfplay.workers, 4096),
            ("selfplay.games_per_worker", self.selfplay.games_per_worker, 1 << 16),
            ("selfplay.max_batch", self.selfplay.max_batch, 1 << 16),
            ("selfplay.flush_games", self.selfplay.flush_games, 1 << 20),
            ("training.batch_size", self.training.batch_size, 1 << 16),
            ("replay.window_max", self.replay.window_max, 1 << 32),
            ("inference.threads", self.inference.threads, 256),
            ("inference.passes", self.inference.passes, 64),
        ];
        for (key, value, max) in at_most {
            if value > max {
                return Err(invalid(
                    key,
                    value.to_string(),
                    "is absurdly large (see the limit in selfplay/src/config.rs)",
                ));
            }
        }
        if self.selfplay.max_plies == 0 {
            return Err(invalid("selfplay.max_plies", "0".into(), "must be at least 1"));
        }
        self.validate_gauntlet(name)?;
        self.validate_teacher(name)?;
        self.validate_evaluation(name)?;
        for (key, sims, games) in [
            ("evaluation.simulations", self.evaluation.simulations, self.evaluation.games),
            ("gating.simulations", self.gating.simulations, self.gating.games),
            ("gauntlet.simulations", self.gauntlet.simulations, self.gauntlet.games),
        ] {
            if games > 0 && sims == 0 {
                return Err(invalid(key, "0".into(), "must be at least 1 when games are played"));
            }
        }
        let shares = [
            ("selfplay.resign_playthrough", self.selfplay.resign_playthrough as f64),
            ("training.search_value_weight", self.training.search_value_weight as f64),
            ("selfplay.resign_threshold", self.selfplay.resign_threshold as f64),
            ("replay.window_alpha", self.replay.window_alpha),
        ];
        for (key, value) in shares {
            if !(0.0..=1.0).contains(&value) {
                return Err(invalid(key, value.to_string(), "must be between 0 and 1"));
            }
        }
        let positive = [
            ("training.learning_rate", self.training.learning_rate),
            ("training.lr_decay", self.training.lr_decay),
            ("training.samples_per_position", self.training.samples_per_position),
            ("replay.window_beta", self.replay.window_beta),
        ];
        for (key, value) in positive {
            if !value.is_finite() || value <= 0.0 {
                return Err(invalid(key, value.to_string(), "must be a positive finite number"));
            }
        }
        let decay = self.training.weight_decay;
        if !decay.is_finite() || decay < 0.0 {
            return Err(invalid("training.weight_decay", decay.to_string(), "must be 0 or a positive finite number"));
        }
        // The candidate's mean score is in [0, 1]: above 1 no network would ever be promoted
        // (0 promotes every one, still logging how it scored).
        let threshold = self.gating.threshold;
        if !(0.0..=1.0).contains(&threshold) {
            return Err(invalid(
                "gating.threshold",
                threshold.to_string(),
                "must be between 0 and 1: it is the mean score a new network needs, and no score is above 1",
            ));
        }
        if self.training.iterations == 0 {
            return Err(invalid(
                "training.iterations",
                "0".into(),
                "must be at least 1: a run of no iterations trains nothing",
            ));
        }
        if self.replay.window_min == 0 || self.replay.window_max < self.replay.window_min {
            return Err(invalid(
                "replay.window_max",
                self.replay.window_max.to_string(),
                "must be at least window_min (> 0)",
            ));
        }
        self.search.validate().map_err(|e| ConfigError::Invalid {
            path: name.to_string(),
            key: format!("search.{}", e.field),
            value: e.value,
            reason: e.expected,
        })
    }

    /// `[teacher]`'s player is an alpha-beta player and its shares and temperatures make sense.
    fn validate_teacher(&self, name: &str) -> Result<(), ConfigError> {
        let t = &self.teacher;
        let invalid = |key: &str, value: String, reason: &'static str| ConfigError::Invalid {
            path: name.to_string(),
            key: format!("teacher.{key}"),
            value,
            reason,
        };
        if t.settings().is_err() {
            let value = t.player.chars().take(100).collect();
            return Err(invalid("player", value, "must be alphabeta:DEPTH or alphabeta:DEPTH:MS"));
        }
        let unit = |v: f32| v.is_finite() && (0.0..=1.0).contains(&v);
        for (key, value) in [("value_mix", t.value_mix), ("share", t.share)] {
            if !unit(value) {
                return Err(invalid(key, value.to_string(), "must be between 0 and 1"));
            }
        }
        if !(t.policy_temperature.is_finite() && t.policy_temperature > 0.0) {
            let value = t.policy_temperature.to_string();
            return Err(invalid("policy_temperature", value, "must be a positive number of centipawns"));
        }
        if !(t.choice_temperature.is_finite() && t.choice_temperature >= 0.0) {
            let value = t.choice_temperature.to_string();
            return Err(invalid("choice_temperature", value, "must be 0 or a positive number of centipawns"));
        }
        if !(1..=256).contains(&t.threads) {
            return Err(invalid("threads", t.threads.to_string(), "must be 1 to 256"));
        }
        Ok(())
    }

    /// `[gauntlet]` names fixed opponents only, and as many games as the seat rotation fills.
    fn validate_gauntlet(&self, name: &str) -> Result<(), ConfigError> {
        let g = &self.gauntlet;
        let invalid = |key: &str, value: String, reason: &'static str| ConfigError::Invalid {
            path: name.to_string(),
            key: format!("gauntlet.{key}"),
            value,
            reason,
        };
        if g.every == 0 {
            return Ok(());
        }
        if g.games == 0 || (self.variant.players() == 3 && !g.games.is_multiple_of(6)) {
            return Err(invalid(
                "games",
                g.games.to_string(),
                "must be at least 1 (a multiple of 6 for three players)",
            ));
        }
        if g.against.is_empty() {
            return Err(invalid("against", "[]".into(), "must name at least one opponent"));
        }
        match g.against.iter().find_map(|o| not_fixed(o)) {
            Some((value, reason)) => Err(invalid("against", value, reason)),
            None => Ok(()),
        }
    }

    /// `[evaluation]` plays fixed opponents only.
    fn validate_evaluation(&self, name: &str) -> Result<(), ConfigError> {
        let e = &self.evaluation;
        let invalid = |value: String, reason: &'static str| ConfigError::Invalid {
            path: name.to_string(),
            key: "evaluation.against".into(),
            value,
            reason,
        };
        if e.games > 0 && e.against.is_empty() {
            return Err(invalid("[]".into(), "must name at least one opponent (or set evaluation.games = 0)"));
        }
        match e.against.iter().find_map(|o| not_fixed(o)) {
            Some((value, reason)) => Err(invalid(value, reason)),
            None => Ok(()),
        }
    }

    /// The keys whose values differ from `other`'s, as `key: this -> other` (empty when the two
    /// configs are the same run's).
    pub fn differences(&self, other: &Config) -> Vec<String> {
        fn flatten(prefix: &str, table: &toml::Table, out: &mut std::collections::BTreeMap<String, String>) {
            for (key, value) in table {
                let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                match value {
                    toml::Value::Table(inner) => flatten(&name, inner, out),
                    other => {
                        out.insert(name, other.to_string());
                    }
                }
            }
        }
        let [mine, theirs] = [self, other].map(|c| {
            let mut out = std::collections::BTreeMap::new();
            flatten("", &c.to_toml().parse::<toml::Table>().expect("a config's TOML parses"), &mut out);
            out
        });
        let keys: std::collections::BTreeSet<&String> = mine.keys().chain(theirs.keys()).collect();
        let none = "(unset)".to_string();
        keys.into_iter()
            .filter(|k| mine.get(*k) != theirs.get(*k))
            .map(|k| format!("{k}: {} -> {}", mine.get(k).unwrap_or(&none), theirs.get(k).unwrap_or(&none)))
            .collect()
    }

    /// The config as TOML, for the copy kept in each run directory.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("a config serialises")
    }
}

/// A range error of a key that a `--set` override gave, as that override's: the config file is
/// not to blame for it.
fn blame_override(error: ConfigError, applied: &[Override]) -> ConfigError {
    let ConfigError::Invalid { key, value, reason, path } = error else { return error };
    match applied.iter().rev().find(|o| o.key == key) {
        Some(o) => ConfigError::InvalidOverride { key, value: o.raw.clone(), reason },
        None => ConfigError::Invalid { path, key, value, reason },
    }
}
