//! `[teacher]`: the optional classical teacher a run starts from, and each key's limits.

use serde::{Deserialize, Serialize};

use super::limits::{rule, share, shortened, up_to, within, zero_to, Limits, MAX_ITERATIONS, MAX_PLIES, MAX_STEPS};

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
    /// Uniformly random plies opening each teacher game (not labelled), so games differ:
    /// below `selfplay.max_plies` ([`TeacherConfig::random_plies_rule`]), and short enough
    /// that games outlast them (`teach` gives up after 200 games in a row that do not).
    pub random_plies: u32,
    /// Centipawns of the policy target's softmax over the teacher's root-move scores (0: the
    /// best move alone).
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

impl TeacherConfig {
    /// Each key within its range (the counts of positions, plies, steps and iterations take
    /// any value), checked whether the teacher is on or not.
    pub(super) fn limits(&self) -> Limits {
        let player = "must be alphabeta:DEPTH or alphabeta:DEPTH:MS";
        match self.player.parse::<arena::players::PlayerSpec>() {
            Ok(arena::players::PlayerSpec::AlphaBeta(_)) => {}
            // What is wrong with the depth or time, and their range (`depth 31: expected 1 to 30`).
            Err(arena::players::PlayerError::AlphaBeta { reason, .. }) => {
                let expected =
                    format!("{player} with DEPTH 1 to {} and MS at least 1 ({reason})", alphabeta::MAX_DEPTH);
                rule(true, "teacher.player", shortened(&self.player), expected)?;
            }
            _ => rule(true, "teacher.player", shortened(&self.player), player)?,
        }
        // A softmax over 100,000 centipawns (a thousand pawns) is uniform over any scores; 0
        // is the best move alone.
        zero_to("teacher.policy_temperature", self.policy_temperature.into(), 100_000.0, " centipawns")?;
        zero_to("teacher.choice_temperature", self.choice_temperature.into(), 100_000.0, " centipawns")?;
        up_to("teacher.positions", self.positions, MAX_STEPS)?;
        up_to("teacher.random_plies", self.random_plies.into(), MAX_PLIES)?;
        up_to("teacher.steps", self.steps, MAX_STEPS)?;
        up_to("teacher.fade_iterations", self.fade_iterations.into(), MAX_ITERATIONS)?;
        share("teacher.value_mix", self.value_mix)?;
        share("teacher.share", self.share)?;
        within("teacher.threads", self.threads, 1..=256, "must be 1 to 256")
    }

    /// Why `random_plies` makes no labelled position in games of at most `max_plies` plies
    /// (`selfplay.max_plies`): every teacher game ends within its random plies. Checked when the
    /// config's teacher is on, and by `teach` whatever the config says (`vzero teach
    /// --positions` teaches with it off).
    pub fn random_plies_rule(&self, max_plies: u32) -> Option<String> {
        (self.random_plies >= max_plies).then(|| {
            format!(
                "must be below selfplay.max_plies ({max_plies}), or every teacher game ends before its first \
                 labelled position"
            )
        })
    }

    /// The teacher's search limits (the config was validated, so `player` parses).
    pub fn settings(&self) -> Result<alphabeta::SearchLimits, String> {
        teacher_search(&self.player)
    }

    /// The teacher's share of training batches in iteration `iteration` (self-play's).
    pub fn share_at(&self, iteration: u32) -> f32 {
        if self.fade_iterations == 0 {
            return self.share;
        }
        self.share * (1.0 - iteration as f32 / self.fade_iterations as f32).max(0.0)
    }
}

/// The search limits of a teacher written as `text` (`teacher.player`, `vzero teach --teacher`),
/// or why it is none.
pub fn teacher_search(text: &str) -> Result<alphabeta::SearchLimits, String> {
    match text.parse::<arena::players::PlayerSpec>() {
        Ok(arena::players::PlayerSpec::AlphaBeta(settings)) => Ok(settings),
        Ok(_) => Err("must be an alpha-beta player (alphabeta:DEPTH or alphabeta:DEPTH:MS)".into()),
        Err(e) => Err(e.to_string()),
    }
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

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &TeacherConfig::default(),
            TeacherConfig::limits,
            &[
                (|c| c.player = "alphabeta:1:50".into(), None),
                (|c| c.player = "greedy".into(), Some("teacher.player")),
                (|c| c.player = "alphabeta:0".into(), Some("teacher.player")),
                (|c| c.policy_temperature = 0.0, None),
                (|c| c.policy_temperature = -f32::MIN_POSITIVE, Some("teacher.policy_temperature")),
                (|c| c.policy_temperature = 100_000.0, None),
                (|c| c.policy_temperature = 100_001.0, Some("teacher.policy_temperature")),
                (|c| c.policy_temperature = f32::INFINITY, Some("teacher.policy_temperature")),
                (|c| c.choice_temperature = 0.0, None),
                (|c| c.choice_temperature = -f32::MIN_POSITIVE, Some("teacher.choice_temperature")),
                (|c| c.choice_temperature = f32::NAN, Some("teacher.choice_temperature")),
                (|c| c.choice_temperature = 100_001.0, Some("teacher.choice_temperature")),
                (|c| c.positions = 1_000_000_001, Some("teacher.positions")),
                (|c| c.random_plies = 100_001, Some("teacher.random_plies")),
                (|c| c.steps = 1_000_000_001, Some("teacher.steps")),
                (|c| c.fade_iterations = 1_000_001, Some("teacher.fade_iterations")),
                (|c| c.value_mix = 0.0, None),
                (|c| c.value_mix = 1.0, None),
                (|c| c.value_mix = 1.0 + f32::EPSILON, Some("teacher.value_mix")),
                (|c| c.share = -f32::MIN_POSITIVE, Some("teacher.share")),
                (|c| c.share = 1.0, None),
                (|c| c.threads = 0, Some("teacher.threads")),
                (|c| c.threads = 1, None),
                (|c| c.threads = 256, None),
                (|c| c.threads = 257, Some("teacher.threads")),
            ],
        );
    }
}
