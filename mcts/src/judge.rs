//! Tactics inside the tree, not only at its leaves: a classical judge's opinion of every move
//! of each new node. What a PUCT search visits is chosen by its prior, and a prior without
//! tactics never looks at the capture or the threat that a full-width search sees (lc0 found
//! refutations under a 0.2% prior missed). So the search can mix the judge's opinion into the
//! node's priors ([`SearchParams::tactical_prior`]), take the best judged move's value as the
//! node's value ([`SearchParams::tactical_value`]) and minimax the judged values up the tree
//! for selection and move choice ([`SearchParams::minimax_weight`], implicit minimax backups,
//! Lanctot et al. 2014). `alphabeta::TacticsJudge` is the judge: a quiescence search after each
//! move.

use serde::{Deserialize, Serialize};

use rules::{Game, MAX_PLAYERS};

use crate::batch::Batch;
use crate::evaluator::Evaluator;
use crate::params::{MoveChoice, SearchParams};

/// The search's tactical levers as one value, for players that get them from command-line
/// flags rather than a config: each field is the [`SearchParams`] key of the same name
/// (`prior` is `tactical_prior`, `minimax` is `minimax_weight`). The default is every lever
/// off, the search as it was before them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TreeTactics {
    /// [`SearchParams::tactical_prior`].
    pub prior: f32,
    /// [`SearchParams::tactical_prior_plies`].
    pub prior_plies: u32,
    /// [`SearchParams::tactical_temperature`].
    pub temperature: f32,
    /// [`SearchParams::tactical_value`].
    pub value: f32,
    /// [`SearchParams::minimax_weight`].
    pub minimax: f32,
    /// [`SearchParams::choice`].
    pub choice: MoveChoice,
    /// [`SearchParams::lcb_width`].
    pub lcb_width: f32,
}

impl Default for TreeTactics {
    fn default() -> TreeTactics {
        TreeTactics::of(&SearchParams::for_tests_v1())
    }
}

impl TreeTactics {
    /// The best measured levers (docs/training.md, "The tactical search"): what `play`,
    /// `analyse`, `uci`, `arena` and `gauntlet` search with unless told otherwise (but on
    /// Weltschach, whose judge is too slow yet).
    pub fn recommended() -> TreeTactics {
        TreeTactics { prior: 0.5, value: 1.0, minimax: 0.5, choice: MoveChoice::Lcb, ..TreeTactics::default() }
    }

    /// The levers as `params` sets them.
    pub fn of(params: &SearchParams) -> TreeTactics {
        TreeTactics {
            prior: params.tactical_prior,
            prior_plies: params.tactical_prior_plies,
            temperature: params.tactical_temperature,
            value: params.tactical_value,
            minimax: params.minimax_weight,
            choice: params.choice,
            lcb_width: params.lcb_width,
        }
    }

    /// Sets these levers in `params`.
    pub fn apply_to(&self, params: &mut SearchParams) {
        params.tactical_prior = self.prior;
        params.tactical_prior_plies = self.prior_plies;
        params.tactical_temperature = self.temperature;
        params.tactical_value = self.value;
        params.minimax_weight = self.minimax;
        params.choice = self.choice;
        params.lcb_width = self.lcb_width;
    }

    /// Whether any lever needs judged moves (the evaluator must then be [`Judged`]).
    pub fn judges(&self) -> bool {
        self.prior > 0.0 || self.value > 0.0 || self.minimax > 0.0
    }

    /// What a player's name gets for the levers that are on: `+prior1+value1+minimax0.5+lcb`,
    /// or nothing when all are off.
    pub fn suffix(&self) -> String {
        let mut s = String::new();
        if self.prior > 0.0 {
            s += &format!("+prior{}", self.prior);
            if self.prior_plies > 0 {
                s += &format!("p{}", self.prior_plies);
            }
        }
        if self.value > 0.0 {
            s += &format!("+value{}", self.value);
        }
        if self.minimax > 0.0 {
            s += &format!("+minimax{}", self.minimax);
        }
        if self.choice == MoveChoice::Lcb {
            s += "+lcb";
        }
        s
    }

    /// The command-line flags that ask for exactly these levers.
    pub fn flags(&self) -> String {
        format!(
            "--tactical-prior {} --tactical-prior-plies {} --tactical-temperature {} --tactical-value {} --minimax {} --choice {} --lcb-width {}",
            self.prior, self.prior_plies, self.temperature, self.value, self.minimax, self.choice, self.lcb_width
        )
    }
}

/// Judges every legal move of a position at once.
pub trait MoveJudge<G: Game> {
    /// Fills `values[j]` with the expected score (0 to 1) of `state`'s mover after `moves[j]`.
    fn judge_moves(&self, state: &G, moves: &[G::Move], values: &mut [f32]);
}

/// An evaluator whose answers carry judged moves wherever the search asks for them: `inner`'s
/// priors and values, and `judge`'s value of each move. A search whose parameters use no
/// judged values asks for none, and then this is `inner` alone.
#[derive(Clone, Copy, Debug)]
pub struct Judged<E, J> {
    /// Gives the priors and values.
    pub inner: E,
    /// Judges the moves.
    pub judge: J,
}

impl<G: Game, E: Evaluator<G>, J: MoveJudge<G>> Evaluator<G> for Judged<E, J> {
    fn max_batch_size(&self) -> usize {
        self.inner.max_batch_size()
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        self.inner.evaluate(batch);
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            if let Some(values) = slot.move_values {
                self.judge.judge_moves(slot.state, slot.moves, values);
            }
        }
    }
}

/// Judged expected scores are clamped this far inside (0, 1) before their logit: a found mate
/// takes nearly all of the tactical prior without making the others' weights zero.
const CLAMP: f32 = 1e-4;

/// The tactical prior: a softmax over the judged values' logits at `temperature` (in logit
/// units), written to `out`. Works on logits so that a pawn means the same near equality and
/// a queen up, as the centipawns behind an expected score do.
pub(crate) fn judged_priors(values: &[f32], temperature: f32, out: &mut [f32]) {
    let logit = |v: f32| {
        let v = v.clamp(CLAMP, 1.0 - CLAMP);
        (v / (1.0 - v)).ln() / temperature.max(1e-3)
    };
    let top = values.iter().map(|&v| logit(v)).fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for (o, &v) in out.iter_mut().zip(values) {
        *o = (logit(v) - top).exp();
        sum += *o;
    }
    out.iter_mut().for_each(|o| *o /= sum);
}

/// Mixes the tactical prior of `values` into `priors` as `params` says.
pub(crate) fn mix_priors(priors: &mut [f32], values: &[f32], params: &SearchParams) {
    let mut tactical = vec![0.0; values.len()];
    judged_priors(values, params.tactical_temperature, &mut tactical);
    let w = params.tactical_prior.clamp(0.0, 1.0);
    for (p, t) in priors.iter_mut().zip(tactical) {
        *p = (1.0 - w) * *p + w * t;
    }
}

/// What each of the other seats expects when the mover expects `mover`: the rest of the utility
/// sum (`num_players / 2`) shared equally, `1 - mover` for two players.
pub(crate) fn others_share(num_players: usize, mover: f32) -> f32 {
    (num_players as f32 / 2.0 - mover) / (num_players - 1) as f32
}

/// Each seat's value when the seat `mover` expects `value` and the others share the rest of the
/// utility sum equally (for three players, as paranoid alpha-beta sees them).
pub fn seat_vector(num_players: usize, mover: usize, value: f32) -> [f32; MAX_PLAYERS] {
    let other = others_share(num_players, value);
    let mut v = [0.0; MAX_PLAYERS];
    for (seat, x) in v[..num_players].iter_mut().enumerate() {
        *x = if seat == mover { value } else { other };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tactical_prior_favours_the_better_move_by_its_logit() {
        let mut out = [0.0; 3];
        // 0.5 and 0.73 are a logit of 1 apart: at temperature 1 their weights differ by e.
        judged_priors(&[0.5, 1.0 / (1.0 + (-1.0f32).exp()), 0.5], 1.0, &mut out);
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!((out[1] / out[0] - std::f32::consts::E).abs() < 1e-3, "{out:?}");
        assert_eq!(out[0], out[2]);
        // A won move takes nearly everything, a lost one nearly nothing, and none is zero.
        judged_priors(&[1.0, 0.5, 0.0], 0.25, &mut out);
        assert!(out[0] > 0.999 && out[2] > 0.0, "{out:?}");
    }

    #[test]
    fn the_others_share_the_rest_of_the_utility_sum() {
        assert_eq!(seat_vector(2, 1, 0.8)[..2], [0.19999999, 0.8]);
        let three = seat_vector(3, 0, 0.9);
        assert!((three[..3].iter().sum::<f32>() - 1.5).abs() < 1e-6 && three[1] == three[2]);
    }
}
