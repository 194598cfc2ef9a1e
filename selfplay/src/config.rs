//! The training configuration: one TOML file, every key documented in configs/*.toml.
//!
//! The user-facing documentation of each key, with its default, is its comment in the full
//! configs (configs/glinski.toml and the other variants' own); selfplay/tests/config_defaults.rs
//! checks those defaults against the ones here. Each section is a file of its own (config/*.rs)
//! whose field docs are one-line reminders and whose `limits` declare each key's range beside
//! it, one line per key; `[search]`'s keys are documented and limited on [`mcts::SearchParams`].
//! The rules that relate two keys are [`Config`]'s validation, below.
//!
//! Unknown keys are errors (a typo must not silently fall back to a default), and
//! `--set section.key=value` overrides any key from the command line.

use mcts::SearchParams;
use nn::DeviceChoice;
use rules::Variant;
use serde::{Deserialize, Serialize};

mod by_name;
mod differences;
mod error;
mod evaluation;
mod gating;
mod gauntlet;
mod inference;
mod limits;
mod load;
mod network;
mod overrides;
mod replay;
mod selfplay;
mod teacher;
mod training;

pub use error::ConfigError;
pub use evaluation::EvaluationConfig;
pub use gating::GatingConfig;
pub use gauntlet::GauntletConfig;
pub use inference::InferenceConfig;
pub use limits::{
    MAX_ADJUDICATION_PAWNS, MAX_GAMES, MAX_ITERATIONS, MAX_PLIES, MAX_SIMULATIONS, MAX_STEPS, MAX_WINDOW,
};
pub use network::NetworkConfig;
pub use replay::ReplayConfig;
pub use selfplay::SelfplayConfig;
pub use teacher::{teacher_search, TeacherConfig};
pub use training::TrainingConfig;

use limits::{rule, Limits, OutOfRange};

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

impl Config {
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

    /// The config as TOML, for the copy kept in each run directory.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).expect("a config serialises")
    }

    /// Each section's limits (declared beside its keys), in the file's order, then the rules
    /// that relate two keys; the first value that breaks one is the error.
    fn validate(&self) -> Limits {
        let (evaluation, gauntlet, replay) = (&self.evaluation, &self.gauntlet, &self.replay);
        self.network.limits()?;
        self.inference.limits()?;
        self.selfplay.limits()?;
        self.search.validate().map_err(OutOfRange::from)?;
        replay.limits()?;
        self.training.limits()?;
        evaluation.limits()?;
        self.gating.limits()?;
        self.teacher.limits()?;
        if let Some(reason) = self.teacher.random_plies_rule(self.selfplay.max_plies) {
            rule(self.teacher.positions > 0, "teacher.random_plies", self.teacher.random_plies, reason)?;
        }
        // Its ranges always hold; the rules of two keys are not checked for a gauntlet that
        // never runs, whose defaults may not suit the variant.
        gauntlet.limits()?;
        if gauntlet.every > 0 {
            // Each opponent plays every seat of the rotation (6 orders of three players).
            let rotations = gauntlet.games > 0 && (self.variant.players() != 3 || gauntlet.games.is_multiple_of(6));
            let seats = "must be at least 1 (a multiple of 6 for three players)";
            rule(!rotations, "gauntlet.games", gauntlet.games, seats)?;
            let anyone = !gauntlet.against.is_empty() || gauntlet.each_other || gauntlet.against_teacher;
            let none = "must name at least one opponent (or set each_other or against_teacher)";
            rule(!anyone, "gauntlet.against", "[]", none)?;
            let untaught =
                "needs a teacher (teacher.positions above 0): a run without one has no teacher-only checkpoint";
            rule(gauntlet.against_teacher && self.teacher.positions == 0, "gauntlet.against_teacher", true, untaught)?;
            gauntlet.opponents()?;
        }
        let none = "must name at least one opponent (or set evaluation.games = 0)";
        rule(evaluation.games > 0 && evaluation.against.is_empty(), "evaluation.against", "[]", none)?;
        for (key, simulations, games) in [
            ("evaluation.simulations", evaluation.simulations, evaluation.games),
            ("gating.simulations", self.gating.simulations, self.gating.games),
            ("gauntlet.simulations", gauntlet.simulations, gauntlet.games),
        ] {
            rule(games > 0 && simulations == 0, key, simulations, "must be at least 1 when games are played")?;
        }
        let shape = rules::VariantGame::start(self.variant).input_shape();
        let odd = shape[1..].iter().any(|d| d % 2 == 1);
        let halved = "needs a board grid of even sides (the cube's is 8x8x8; the hexagons' are odd)";
        rule(self.network.trunk == nn::Trunk::Halved && odd, "network.trunk", "halved", halved)?;
        let window = replay.window_min > 0 && replay.window_max >= replay.window_min;
        rule(!window, "replay.window_max", replay.window_max, "must be at least window_min (> 0)")
    }
}

#[cfg(test)]
mod tests {
    use super::limits::testing::check_cases;
    use super::*;

    /// Each rule of two keys refuses its broken case and takes the case just inside it.
    #[test]
    fn each_two_key_rule_refuses_its_broken_case_and_takes_the_one_beside_it() {
        let base = Config::parse("variant = \"glinski\"\n", "t", &[]).unwrap();
        check_cases(
            &base,
            Config::validate,
            &[
                (|c| (c.gauntlet.every, c.gauntlet.games) = (1, 0), Some("gauntlet.games")),
                (|c| (c.gauntlet.every, c.gauntlet.games, c.gauntlet.simulations) = (1, 1, 1), None),
                (
                    |c| (c.variant, c.gauntlet.every, c.gauntlet.games) = (Variant::Wellisch, 1, 10),
                    Some("gauntlet.games"),
                ),
                (|c| (c.variant, c.gauntlet.every, c.gauntlet.games) = (Variant::Wellisch, 1, 12), None),
                (|c| (c.variant, c.gauntlet.every) = (Variant::Wellisch, 0), None),
                (|c| (c.gauntlet.every, c.gauntlet.against) = (1, vec![]), Some("gauntlet.against")),
                (|c| (c.gauntlet.every, c.gauntlet.against) = (0, vec![]), None),
                (|c| (c.gauntlet.every, c.gauntlet.against, c.gauntlet.each_other) = (1, vec![], true), None),
                (|c| (c.gauntlet.every, c.gauntlet.against_teacher) = (1, true), Some("gauntlet.against_teacher")),
                (|c| (c.gauntlet.every, c.gauntlet.against_teacher, c.teacher.positions) = (1, true, 10), None),
                (|c| (c.gauntlet.every, c.gauntlet.against) = (1, vec!["runs/a".into()]), Some("gauntlet.against")),
                (|c| (c.gauntlet.every, c.gauntlet.against) = (0, vec!["runs/a".into()]), None),
                (|c| c.evaluation.against = vec![], Some("evaluation.against")),
                (|c| (c.evaluation.games, c.evaluation.against) = (0, vec![]), None),
                (|c| c.evaluation.simulations = 0, Some("evaluation.simulations")),
                (|c| (c.evaluation.games, c.evaluation.simulations) = (0, 0), None),
                (|c| (c.gating.games, c.gating.simulations) = (1, 0), Some("gating.simulations")),
                (|c| (c.gating.games, c.gating.simulations) = (0, 0), None),
                (|c| c.gauntlet.simulations = 0, Some("gauntlet.simulations")),
                (|c| (c.gauntlet.games, c.gauntlet.simulations) = (0, 0), None),
                (|c| c.replay.window_min = 0, Some("replay.window_max")),
                (|c| c.replay.window_max = c.replay.window_min, None),
                (|c| c.replay.window_max = c.replay.window_min - 1, Some("replay.window_max")),
                (|c| c.search.simulations = 0, Some("search.simulations")),
                (|c| c.network.trunk = nn::Trunk::Halved, Some("network.trunk")),
                (|c| (c.variant, c.network.trunk) = (Variant::Weltschach, nn::Trunk::Halved), None),
            ],
        );
    }
}
