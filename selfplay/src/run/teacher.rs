//! The warm start: before its first self-play iteration a run with a `[teacher]` makes the
//! teacher's positions (resuming where a stopped run left them) and trains on them alone, so
//! self-play starts from a network that already plays like the teacher.

use std::sync::Arc;

use rules::Encoding;

use super::Run;
use crate::error::TrainError;
use crate::setup::load_into_service;
use crate::store::events::{PretrainEvent, RunEvent, TeacherEvent};
use crate::teach::teach;

impl<G: Encoding> Run<G> {
    /// Does what is left of the warm start; false if a stop request cut it short (`--resume`
    /// goes on from there). Nothing to do without a teacher or after the first iteration.
    pub fn warm_start(&mut self) -> Result<bool, TrainError> {
        let t = self.config.teacher.clone();
        if t.positions == 0 || self.state.iteration > 0 {
            return Ok(true);
        }
        // Fast when the positions are there already (a resumed run reads its shards and stops).
        let taught = teach::<G>(&self.dir, &self.config, t.positions, t.threads, self.stop, self.progress)?;
        if taught.games() > 0 {
            self.dir.log_event(&RunEvent::Teacher(TeacherEvent {
                player: t.player.clone(),
                games: taught.games(),
                positions: taught.positions(),
                total_positions: taught.total_positions,
                seconds: taught.seconds,
                interrupted: taught.interrupted,
            }))?;
        }
        if self.progress {
            eprintln!(
                "teacher: {} positions ({} new in {} games, {:.0} s) by {}",
                taught.total_positions,
                taught.positions(),
                taught.games(),
                taught.seconds,
                t.player
            );
        }
        if taught.interrupted {
            return Ok(false);
        }
        // The games stored before were loaded when the run was opened.
        for g in taught.records {
            self.teacher.push(Arc::new(g));
        }
        self.known_shards.extend(self.dir.shard_paths()?);
        if self.state.step >= t.steps {
            // Trained on them before a stop, or `teacher.steps = 0`: mixed in from here on only.
            return Ok(true);
        }
        let trained = self.train_to(t.steps, 1.0)?;
        self.latest = self.save_checkpoint()?;
        self.best = self.latest.clone();
        if self.config.gating.games > 0 {
            self.dir.write_best(&self.best)?;
        }
        load_into_service(&self.client, &self.best)?;
        let losses = trained.mean_losses();
        self.dir.log_event(&RunEvent::Pretrain(PretrainEvent {
            steps: trained.steps,
            step: self.state.step,
            seconds: trained.seconds,
            policy_loss: losses.map(|l| l.0),
            value_loss: losses.map(|l| l.1),
            interrupted: !trained.complete,
        }))?;
        if self.progress {
            if let Some((policy, value)) = losses {
                eprintln!(
                    "teacher: trained {} steps on them, policy loss {policy:.3}, value loss {value:.3}",
                    trained.steps
                );
            }
        }
        Ok(trained.complete)
    }
}
