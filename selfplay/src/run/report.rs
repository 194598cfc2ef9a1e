//! What a run reports: a metrics line and a progress line per iteration, its gauntlet when due,
//! and the evaluation at the end.

use rules::{Encoding, Material};

use super::outcome::{SelfPlayed, Trained};
use super::Run;
use crate::error::TrainError;
use crate::gauntlet::{gauntlet_due, gauntlet_phase};
use crate::play::worker::GameEnd;
use crate::run::evaluation::{evaluate, evaluated, Evaluation};
use crate::store::events::{IterationEvent, RunEvent};

impl<G: Encoding> Run<G> {
    /// Logs the iteration's event to metrics.jsonl and, with progress on, a line to stderr.
    pub fn record(&self, played: &SelfPlayed, trained: &Trained) -> Result<(), TrainError> {
        let event = self.iteration_event(played, trained);
        self.dir.log_event(&RunEvent::Iteration(event.clone()))?;
        if self.progress {
            eprintln!("{}", event.progress_line());
        }
        Ok(())
    }

    /// The end-of-run evaluation against the baselines (none if `evaluation.games` is 0).
    pub fn evaluate(&self) -> Result<Evaluation, TrainError> {
        if self.config.evaluation.games == 0 {
            return Ok(Evaluation { results: Vec::new(), complete: true });
        }
        evaluate::<G>(&self.config, &self.client, &self.dir, self.stop, self.progress)
    }

    /// Whether the metrics hold the complete end-of-run evaluation of the iterations done.
    pub fn evaluated(&self) -> bool {
        evaluated(&self.config, &self.dir)
    }

    fn iteration_event(&self, played: &SelfPlayed, trained: &Trained) -> IterationEvent {
        let games = &played.games;
        let players = games.first().map_or(0, |g| g.scores.len());
        let mut seat_scores = vec![0.0; players];
        for g in games {
            for (s, v) in seat_scores.iter_mut().zip(&g.scores) {
                *s += *v as f64 / games.len() as f64;
            }
        }
        let count = |end: GameEnd| games.iter().filter(|g| g.end == end).count();
        let resign_checks = games.iter().filter(|g| g.would_have_resigned.is_some()).count();
        let false_resignations =
            games.iter().filter(|g| g.would_have_resigned.is_some_and(|seat| g.scores[seat] > 0.0)).count();
        let secs = played.seconds.max(1e-9);
        let losses = trained.mean_losses();
        IterationEvent {
            iteration: self.state.iteration,
            step: self.state.step,
            games: self.state.games,
            iteration_games: games.len(),
            new_positions: played.new_positions,
            window_positions: self.window.len(),
            mean_game_length: games.iter().map(|g| g.plies as f64).sum::<f64>() / games.len().max(1) as f64,
            seat_scores,
            ended_by_rules: count(GameEnd::Rules),
            resigned: count(GameEnd::Resigned),
            adjudicated: count(GameEnd::MaxPlies) + count(GameEnd::Material),
            adjudicated_by_material: count(GameEnd::Material),
            resign_checks,
            false_resignations,
            selfplay_seconds: played.seconds,
            games_per_hour: games.len() as f64 * 3600.0 / secs,
            positions_per_second: played.evaluated as f64 / secs,
            mean_batch: played.evaluated as f64 / played.forward_passes.max(1) as f64,
            train_seconds: trained.seconds,
            train_steps: trained.steps,
            policy_loss: losses.map(|l| l.0),
            value_loss: losses.map(|l| l.1),
            first_step_policy_loss: trained.first.map(|s| s.policy_loss),
            first_step_value_loss: trained.first.map(|s| s.value_loss),
            interrupted: !trained.complete,
            rollout_weight: played.rollout_weight as f64,
            material_weight: played.material_weight as f64,
            tactics_weight: played.tactics_weight as f64,
            external_games_added: played.external_games,
            sampled_external_positions: trained.sampled_external,
            teacher_share: if trained.steps > 0 { (trained.teacher_share as f64 * 1e4).round() / 1e4 } else { 0.0 },
            sampled_teacher_positions: trained.sampled_teacher,
        }
    }
}

impl<G: Encoding + Material> Run<G> {
    /// Plays the gauntlet if this iteration is due one (every `gauntlet.every` iterations and
    /// after the last); a stop request ends it between games, keeping the games played.
    pub fn gauntlet_if_due(&self) -> Result<(), TrainError> {
        if gauntlet_due(self.config.gauntlet.every, self.state.iteration, self.complete()) {
            gauntlet_phase::<G>(&self.dir, &self.config, self.inference, self.stop, self.progress)?;
        }
        Ok(())
    }
}
