//! Run events: what a training run reports, one JSON object per line of metrics.jsonl.
//!
//! [`RunEvent`] is the one type written (by [`crate::store::rundir::RunDir::log_event`]) and read (by
//! [`read_events`]: `vzero plot`, `vzero runs status`, the tests). A line is the event's fields
//! with `"event"` naming its kind and `"v"` the format version:
//!
//! ```text
//! {"v":1,"event":"gating","candidate":"step-000000023","best":"step-000000000","games":2,...}
//! ```
//!
//! Version 1 is the format vzero wrote before lines carried `"v"`, so a line without it is
//! version 1. Readers are lenient both ways: a field a line lacks reads as zero (or none), and
//! a kind this version does not know (a newer vzero's signals, say) reads
//! as [`RunEvent::Other`]. New kinds and new fields keep the version; a change that alters what
//! an existing field means bumps it.

use arena::gauntlet::GauntletMatch;
use serde::{Deserialize, Serialize};

/// The format version [`event_line`] writes.
pub const EVENTS_VERSION: u32 = 1;

/// One line of metrics.jsonl.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RunEvent {
    /// A training iteration ended (or was cut short).
    Iteration(IterationEvent),
    /// One match of the evaluation at the end of a run.
    Evaluation(EvaluationEvent),
    /// A gating match between a new network and the best so far.
    Gating(GatingEvent),
    /// The run stopped with an error.
    Error(ErrorEvent),
    /// One match of a gauntlet: a checkpoint against a fixed opponent or another checkpoint.
    Gauntlet(GauntletMatch),
    /// The classical teacher played games for the run (`vzero teach`, `[teacher]`).
    Teacher(TeacherEvent),
    /// The warm start trained on the teacher's positions alone.
    Pretrain(PretrainEvent),
    /// A kind this version does not know (written by a newer vzero); readers skip it.
    #[serde(other)]
    Other,
}

/// The games, rates and losses of one iteration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IterationEvent {
    /// Iterations done (counting this one unless it was interrupted).
    pub iteration: u32,
    /// Training steps done.
    pub step: u64,
    /// Self-play games of the trainer stored so far.
    pub games: u64,
    /// Games played in this iteration.
    pub iteration_games: usize,
    /// Training positions those games added.
    pub new_positions: usize,
    /// Positions in the replay window.
    pub window_positions: usize,
    /// Mean plies per game of this iteration.
    pub mean_game_length: f64,
    /// Mean score of each seat in this iteration's games.
    pub seat_scores: Vec<f64>,
    /// Games ended by the rules.
    pub ended_by_rules: usize,
    /// Games ended by resignation.
    pub resigned: usize,
    /// Games adjudicated at the ply limit (draws, and games scored by material).
    pub adjudicated: usize,
    /// Of those, games scored by material standings (`selfplay.adjudicate_material`); left out
    /// when 0, so lines of runs without the prior keep the first format.
    #[serde(skip_serializing_if = "is_zero")]
    pub adjudicated_by_material: usize,
    /// Games played through with resignation off, to count false resignations.
    pub resign_checks: usize,
    /// Of those, games the would-be resigner did not lose.
    pub false_resignations: usize,
    /// Wall time of self-play.
    pub selfplay_seconds: f64,
    /// Self-play games per hour.
    pub games_per_hour: f64,
    /// Positions the network evaluated per second of self-play.
    pub positions_per_second: f64,
    /// Mean positions per forward pass in self-play.
    pub mean_batch: f64,
    /// Wall time of training.
    pub train_seconds: f64,
    /// Training steps in this iteration.
    pub train_steps: u64,
    /// Mean policy loss of this iteration's steps (none without steps).
    pub policy_loss: Option<f64>,
    /// Mean value loss of this iteration's steps (none without steps).
    pub value_loss: Option<f64>,
    /// Policy loss of the iteration's first step (absent without steps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_step_policy_loss: Option<f64>,
    /// Value loss of the iteration's first step (absent without steps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_step_value_loss: Option<f64>,
    /// Training stopped early on request; `--resume` repeats the rest of the iteration.
    pub interrupted: bool,
    /// Share of random playouts in leaf values during this iteration's self-play (an `f32`
    /// written as the `f64` it converts to, as vzero always has).
    pub rollout_weight: f64,
    /// Share of the material prior in leaf values during this iteration's self-play; left out
    /// when 0, as `adjudicated_by_material` is.
    #[serde(skip_serializing_if = "is_zero")]
    pub material_weight: f64,
    /// Share of the quiescence value in leaf values during this iteration's self-play; left out
    /// when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub tactics_weight: f64,
    /// Games that `vzero selfplay` processes added to the window since the last iteration.
    pub external_games_added: usize,
    /// Training positions sampled from those processes' games.
    pub sampled_external_positions: usize,
    /// The teacher's share of this iteration's training batches; left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub teacher_share: f64,
    /// Training positions sampled from the teacher's games; left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub sampled_teacher_positions: usize,
}

impl IterationEvent {
    /// The iteration as the trainer's progress line says it (and the browser page's run view):
    /// games, rate, step, losses and the window.
    pub fn progress_line(&self) -> String {
        // An iteration that trained no step (the window still filling) has no losses to show.
        let losses = match (self.policy_loss, self.value_loss) {
            (Some(policy), Some(value)) => format!("policy loss {policy:.3}, value loss {value:.3}"),
            _ => "no training step yet".to_string(),
        };
        format!(
            "iteration {:>3}: {} games, {:.0} games/h, step {}, {losses}, window {} positions",
            self.iteration, self.iteration_games, self.games_per_hour, self.step, self.window_positions
        )
    }
}

/// Teacher games played for the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TeacherEvent {
    /// The teacher, as an arena player (`alphabeta:2`).
    pub player: String,
    /// Games played now.
    pub games: usize,
    /// Labelled positions they hold.
    pub positions: u64,
    /// Labelled positions the run holds in all.
    pub total_positions: u64,
    /// Wall time.
    pub seconds: f64,
    /// Stopped on request before the positions asked for.
    pub interrupted: bool,
}

/// Training on the teacher's positions alone, before the first self-play.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PretrainEvent {
    /// Steps taken now.
    pub steps: u64,
    /// The run's step count after them.
    pub step: u64,
    /// Wall time.
    pub seconds: f64,
    /// Mean policy loss of the steps.
    pub policy_loss: Option<f64>,
    /// Mean value loss of the steps.
    pub value_loss: Option<f64>,
    /// Stopped on request before the steps asked for.
    pub interrupted: bool,
}

/// The network against one opponent at the end of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvaluationEvent {
    /// Which network played: empty (and left out) for the run's trained network, the
    /// checkpoint's name for another (`step-000000000`, the untrained one).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub network: String,
    /// The opponent's name.
    pub opponent: String,
    /// Games played.
    pub games: usize,
    /// The network's mean score.
    pub network_score: f64,
    /// Games the network won outright.
    pub network_wins: usize,
    /// Games that ended with every player on the same score.
    pub draws: usize,
    /// Games the match was to play (0 in lines of a vzero that did not record it). Left out
    /// when 0, as is `interrupted` when false, so such lines keep the first format.
    #[serde(skip_serializing_if = "is_zero")]
    pub games_planned: usize,
    /// A stop signal ended the match before its planned games: the run is not finished, and
    /// `--resume` plays the evaluation again.
    #[serde(skip_serializing_if = "is_zero")]
    pub interrupted: bool,
}

/// A gating match: the candidate replaces the best network if it reaches the threshold.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GatingEvent {
    /// The new checkpoint's folder name (`step-N`).
    pub candidate: Option<String>,
    /// The best checkpoint's folder name.
    pub best: Option<String>,
    /// Games played.
    pub games: usize,
    /// The candidate's mean score.
    pub candidate_score: f64,
    /// The score it needed (without `sprt`).
    pub threshold: f64,
    /// `[elo0, elo1]` of the SPRT that decided instead of the threshold (absent: the threshold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<[f64; 2]>,
    /// It became the best.
    pub accepted: bool,
}

/// Why a run stopped with an error.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ErrorEvent {
    /// The error with its causes.
    pub message: String,
}

/// A line as written: the version beside the event's own fields.
#[derive(Serialize)]
struct LineOut<'a> {
    v: u32,
    #[serde(flatten)]
    event: &'a RunEvent,
}

/// A line's version, read before its event: lines without one are version 1.
#[derive(Deserialize)]
struct Version {
    #[serde(default = "first_version")]
    v: u32,
}

fn first_version() -> u32 {
    1
}

/// `event` as one line of metrics.jsonl, newline included.
pub fn event_line(event: &RunEvent) -> String {
    let mut line = serde_json::to_string(&LineOut { v: EVENTS_VERSION, event }).expect("an event serialises");
    line.push('\n');
    line
}

/// The events of a metrics.jsonl text, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventLog {
    /// The events read.
    pub events: Vec<RunEvent>,
    /// Lines that are not events (a crash can cut the last one short).
    pub skipped_lines: usize,
}

impl EventLog {
    /// The iteration events, in order.
    pub fn iterations(&self) -> impl DoubleEndedIterator<Item = &IterationEvent> {
        self.events.iter().filter_map(|e| match e {
            RunEvent::Iteration(it) => Some(it),
            _ => None,
        })
    }

    /// The final evaluation: the matches logged since the last iteration, the latest of each
    /// network against each opponent, in the order first played (none while the run trains).
    pub fn final_evaluation(&self) -> Vec<&EvaluationEvent> {
        let since = self.events.iter().rposition(|e| matches!(e, RunEvent::Iteration(_))).map_or(0, |i| i + 1);
        let mut out: Vec<&EvaluationEvent> = Vec::new();
        for event in &self.events[since..] {
            let RunEvent::Evaluation(m) = event else { continue };
            match out.iter_mut().find(|o| o.network == m.network && o.opponent == m.opponent) {
                Some(played) => *played = m,
                None => out.push(m),
            }
        }
        out
    }

    /// The last error logged, if any.
    pub fn last_error(&self) -> Option<&ErrorEvent> {
        self.events.iter().rev().find_map(|e| match e {
            RunEvent::Error(err) => Some(err),
            _ => None,
        })
    }
}

/// Reads the events of a metrics.jsonl text; blank lines are ignored, unreadable ones counted.
pub fn read_events(text: &str) -> EventLog {
    let mut log = EventLog::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        // A newer format's fields may not parse as this version's: only its version is read.
        let event = match serde_json::from_str::<Version>(line) {
            Ok(Version { v }) if v > EVENTS_VERSION => Ok(RunEvent::Other),
            Ok(_) => serde_json::from_str::<RunEvent>(line),
            Err(e) => Err(e),
        };
        match event {
            Ok(event) => log.events.push(event),
            Err(_) => log.skipped_lines += 1,
        }
    }
    log
}

/// Whether a line of a JSON-lines log is one JSON value: what an append keeps as the log's
/// last line, rather than setting it aside as torn (`durable::append_line`).
pub fn is_json_line(line: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
}

/// Whether a count or share is 0: such fields are left out of the lines, which then read as the
/// first format's did.
fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip_with_their_version() {
        let events = [
            RunEvent::Iteration(IterationEvent { step: 20, seat_scores: vec![0.5, 0.5], ..Default::default() }),
            RunEvent::Evaluation(EvaluationEvent { opponent: "random".into(), games: 4, ..Default::default() }),
            RunEvent::Gating(GatingEvent { candidate: Some("step-000000020".into()), ..Default::default() }),
            RunEvent::Error(ErrorEvent { message: "disk full".into() }),
            RunEvent::Gauntlet(GauntletMatch { player: "step-000000020".into(), games: 4, ..Default::default() }),
        ];
        let text: String = events.iter().map(event_line).collect();
        assert!(text.lines().all(|l| l.starts_with("{\"v\":1,\"event\":\"")), "{text}");
        let log = read_events(&text);
        assert_eq!(log.events, events);
        assert_eq!(log.skipped_lines, 0);
    }

    #[test]
    fn unknown_kinds_and_newer_versions_are_other_and_cut_lines_are_skipped() {
        let log = read_events(concat!(
            "{\"v\":1,\"event\":\"signal\",\"name\":\"SIGTERM\"}\n",
            "{\"v\":2,\"event\":\"iteration\",\"step\":\"a string in a future format\"}\n",
            "\n",
            "{\"event\":\"itera"
        ));
        assert_eq!(log.events, vec![RunEvent::Other, RunEvent::Other]);
        assert_eq!(log.skipped_lines, 1);
    }
}
