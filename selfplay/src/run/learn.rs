//! The training phase: gradient steps on the replay window until each position seen has been
//! sampled about `samples_per_position` times.

use std::time::Instant;

use rand::SeedableRng;
use rules::Encoding;

use super::outcome::Trained;
use super::Run;
use crate::config::Config;
use crate::error::TrainError;
use crate::progress::Progress;
use crate::replay::sampler::{sample_mixed_batch, TeacherMix};
use mcts::game_seed;

/// Salt that separates the training sampler's random stream from the games'.
const SAMPLER_SALT: u64 = 0x5A4D_504C_4552;

impl<G: Encoding> Run<G> {
    /// The training phase (the whole loop is [`super::train()`]): learns from the window once it
    /// holds `training.min_positions`, step by step until the steps the positions seen allow are
    /// done or a stop is requested; saves the in-iteration checkpoints `training.checkpoint_steps`
    /// asks for. Teacher positions make up [`crate::config::TeacherConfig::share_at`] of each
    /// batch.
    pub fn learn(&mut self) -> Result<Trained, TrainError> {
        let t = &self.config.training;
        let seen = self.window.seen() + self.lost.positions;
        let target_steps = steps_allowed(&self.config, seen) + self.pretrain_steps();
        let ready = self.window.len() >= t.min_positions;
        let share = self.config.teacher.share_at(self.state.iteration);
        let target = if ready { target_steps } else { self.state.step };
        let mut trained = self.train_to(target, share)?;
        trained.complete = !(ready && self.state.step < target_steps);
        Ok(trained)
    }

    /// Refuses to go on when damaged shards took so many of the run's games that the window
    /// holds fewer than `training.min_positions` positions: the iterations would train on
    /// nothing and the run would end as finished. With enough left, it says what was lost and
    /// goes on (the lost games still count as seen: see [`super::resume::LostGames`]).
    pub(super) fn check_replay(&self) -> Result<(), TrainError> {
        let lost = self.lost;
        if lost.games == 0 {
            return Ok(());
        }
        let (left, min) = (self.window.len(), self.config.training.min_positions);
        let damaged =
            format!("{} of the run's {} games are in damaged shards (each named above)", lost.games, lost.counted);
        if left < min {
            return Err(TrainError::Run(format!(
                "{damaged}; the {left} positions left are fewer than training.min_positions = {min}, \
                 too few to train on: restore the shards from a copy, or start a new run"
            )));
        }
        eprintln!("vzero train: {damaged}; going on with the {left} positions left");
        Ok(())
    }

    /// Training steps a warm start takes before the first self-play (0 without a teacher).
    pub(super) fn pretrain_steps(&self) -> u64 {
        if self.config.teacher.positions > 0 {
            self.config.teacher.steps
        } else {
            0
        }
    }

    /// Steps until the step count reaches `target` or a stop is requested, a `teacher_share` of
    /// each batch from the teacher's games.
    pub(super) fn train_to(&mut self, target: u64, teacher_share: f32) -> Result<Trained, TrainError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        nn::set_threads(cores);
        let begun = Instant::now();
        let t = &self.config.training;
        let mut trained = Trained { teacher_share, ..Trained::default() };
        let bar =
            Progress::new(self.progress && target > self.state.step, target.saturating_sub(self.state.step), "steps");
        while self.state.step < target && !self.stop_requested() {
            self.trainer.set_learning_rate(learning_rate(&self.config, self.state.step));
            let seed = game_seed(self.config.seed ^ SAMPLER_SALT, self.state.step);
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
            let mix = TeacherMix { window: Some(&self.teacher), share: teacher_share };
            let from = sample_mixed_batch::<G>(
                &self.window,
                mix,
                t.batch_size,
                t.search_value_weight,
                &mut rng,
                &mut self.batch,
            )?;
            trained.sampled_external += from.external;
            trained.sampled_teacher += from.teacher;
            let s = self.trainer.step(&self.net, &self.batch);
            // With fp16 loss scaling a non-finite step is skipped and the scale lowered; in
            // fp32 it means the network has diverged, and every later step would be wasted.
            let finite = s.policy_loss.is_finite() && s.value_loss.is_finite();
            if !finite && self.trainer.loss_scaler().is_none() {
                let what = format!("the loss is not finite (policy {}, value {})", s.policy_loss, s.value_loss);
                return Err(TrainError::Diverged { step: self.state.step + 1, what });
            }
            trained.first.get_or_insert(s);
            trained.loss_sums.0 += s.policy_loss;
            trained.loss_sums.1 += s.value_loss;
            trained.steps += 1;
            self.state.step += 1;
            bar.inc(1);
            let every = t.checkpoint_steps;
            if every > 0 && self.state.step.is_multiple_of(every) && self.state.step < target {
                self.save_checkpoint()?;
            }
        }
        bar.finish_and_clear();
        trained.seconds = begun.elapsed().as_secs_f64();
        trained.complete = self.state.step >= target;
        Ok(trained)
    }
}

/// Training steps allowed once `seen` positions exist: each position sampled about
/// `samples_per_position` times.
fn steps_allowed(config: &Config, seen: u64) -> u64 {
    (seen as f64 * config.training.samples_per_position / config.training.batch_size as f64) as u64
}

/// The learning rate at `step` under the step-decay schedule.
fn learning_rate(config: &Config, step: u64) -> f64 {
    let t = &config.training;
    let decays = t.lr_decay_steps.iter().filter(|&&s| step >= s).count();
    t.learning_rate * t.lr_decay.powi(decays as i32)
}
