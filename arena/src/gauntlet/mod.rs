//! Gauntlets: a run's checkpoints against fixed opponents that never learn (random, greedy,
//! alpha-beta), on one rating scale, so a run is measured by a ruler that does not move with
//! it. This module holds what a gauntlet is made of: which checkpoints it measures, the result
//! of one pairing's match ([`GauntletMatch`], which a run logs the moment the match ends), the
//! setting its games were played under ([`GauntletSetting`]) and the table that puts every
//! player of one setting on one scale. Playing a run's gauntlet is `selfplay`'s.

use std::collections::BTreeMap;

use mcts::{MoveChoice, Tactics};
use serde::{Deserialize, Serialize};

mod choice;
mod pairs;
mod setting;
mod table;

pub use choice::CheckpointChoice;
pub use pairs::{head_to_head, HeadToHead};
pub use setting::{gauntlet_settings, setting_to_show, GauntletSetting};
pub use table::{gauntlet_table_from_matches, GauntletRow, GauntletTable};

/// The opponent that anchors the scale at Elo 0 when it took part.
pub const ANCHOR: &str = "random";

/// Games of one gauntlet match, added to any earlier games of the same pairing (a gauntlet
/// plays only the games it does not have yet).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GauntletMatch {
    /// The checkpoint's folder name (`step-N`).
    pub player: String,
    /// The opponent: a fixed player as written on the command line (`greedy`, `alphabeta:1`),
    /// or another checkpoint's folder name.
    pub opponent: String,
    /// Simulations per move of the checkpoints.
    pub sims: u32,
    /// How the checkpoints used the tactical judge ([`GauntletMatch::tactics`]).
    #[serde(flatten)]
    pub judge: JudgeRecord,
    /// Longest game in plies; longer games are adjudicated.
    pub max_plies: u32,
    /// Pawns of material that decided a game at `max_plies` (`--adjudicate-material`); left
    /// out when 0 (every such game a draw), as in the lines written before it existed.
    #[serde(skip_serializing_if = "is_zero")]
    pub adjudicate_material: f32,
    /// Games played in this match.
    pub games: usize,
    /// The checkpoint's total score over them (a win 1, a draw 1/2; three players: its score
    /// in each game, where an even game also gives 1/2).
    pub score: f64,
    /// Games the checkpoint won outright.
    pub wins: usize,
    /// Games that ended with every player on the same score.
    pub draws: usize,
    /// Moves the checkpoint chose (random opening plies excluded).
    pub player_moves: u64,
    /// Seconds it spent choosing them.
    pub player_seconds: f64,
    /// Moves the opponent chose.
    pub opponent_moves: u64,
    /// Seconds it spent choosing them.
    pub opponent_seconds: f64,
    /// The opponent's forfeits by kind (`crashed`, `illegal move`, ...): games it lost without
    /// playing them out, as a `uci:` engine that dies mid-game does. Counted in `score` as the
    /// checkpoint's wins, so a score of 100% may say more about the engine than the network.
    /// Left out when there are none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub opponent_forfeits: BTreeMap<String, usize>,
    /// Wall-clock seconds the match took, all its games at once (0 in lines of a vzero that
    /// did not record it): what rating a run beside its training costs.
    #[serde(skip_serializing_if = "is_zero")]
    pub wall_seconds: f64,
    /// Games this match set out to play (0 in lines of a vzero that did not record it).
    #[serde(skip_serializing_if = "is_zero")]
    pub games_planned: usize,
    /// A stop signal ended the match before its planned games; a later gauntlet plays the rest.
    /// Left out when false, so complete matches keep the lines they always had.
    #[serde(skip_serializing_if = "is_false")]
    pub interrupted: bool,
}

impl GauntletMatch {
    /// `OPPONENT forfeited N games: crashed n, ...`, or none when it forfeited none: said after
    /// the match's line by `vzero gauntlet` and a run's gauntlet phase.
    pub fn forfeit_line(&self) -> Option<String> {
        crate::forfeit::forfeit_line(&self.opponent, &self.opponent_forfeits, |_| String::new())
    }

    /// How the checkpoints used the tactical judge in this match.
    pub fn tactics(&self) -> Tactics {
        self.judge.search_tactics.clone().unwrap_or_else(Tactics::off)
    }

    /// Records `tactics` as the checkpoints'.
    pub fn set_tactics(&mut self, tactics: &Tactics) {
        self.judge.search_tactics = (*tactics != Tactics::off()).then(|| tactics.clone());
    }
}

/// How a gauntlet's checkpoints used the tactical judge, as its line says it: `search_tactics`
/// with every key of [`Tactics`], left out when the judge was off; lines written before it
/// existed (the leaf share, its depth and the tree levers under names of their own, or nothing
/// for the plain search) are read into it, so a line written again says the same.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "JudgeFields")]
pub struct JudgeRecord {
    #[serde(skip_serializing_if = "Option::is_none")]
    search_tactics: Option<Tactics>,
}

/// What a line may hold of the judge: the current key, or the older ones.
#[derive(Default, Deserialize)]
#[serde(default)]
struct JudgeFields {
    search_tactics: Option<Tactics>,
    #[serde(flatten)]
    older: OlderTactics,
}

impl From<JudgeFields> for JudgeRecord {
    fn from(fields: JudgeFields) -> JudgeRecord {
        let tactics = fields.search_tactics.unwrap_or_else(|| fields.older.tactics());
        JudgeRecord { search_tactics: (tactics != Tactics::off()).then_some(tactics) }
    }
}

/// The tactics as gauntlet lines wrote them before `search_tactics`: the leaf share and
/// depth, and the tree levers under names of their own.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
struct OlderTactics {
    /// `tactics_weight`.
    tactics: f32,
    /// `tactics_depth`.
    tactics_depth: u32,
    /// The levers inside the tree.
    tree_tactics: Option<OlderTreeTactics>,
}

/// The tree levers of older lines: each field the [`Tactics`] key its comment names.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default)]
struct OlderTreeTactics {
    prior: f32,         // tactical_prior
    prior_plies: u32,   // tactical_prior_plies
    temperature: f32,   // tactical_temperature
    value: f32,         // tactical_value
    minimax: f32,       // minimax_weight
    choice: MoveChoice, // choice
    lcb_width: f32,     // lcb_width
}

impl Default for OlderTreeTactics {
    fn default() -> OlderTreeTactics {
        let off = Tactics::off();
        OlderTreeTactics {
            prior: off.tactical_prior,
            prior_plies: off.tactical_prior_plies,
            temperature: off.tactical_temperature,
            value: off.tactical_value,
            minimax: off.minimax_weight,
            choice: off.choice,
            lcb_width: off.lcb_width,
        }
    }
}

impl OlderTactics {
    /// The tactics the older line meant.
    fn tactics(&self) -> Tactics {
        let tree = self.tree_tactics.clone().unwrap_or_default();
        Tactics {
            tactics_weight: self.tactics,
            tactics_depth: self.tactics_depth,
            tactical_prior: tree.prior,
            tactical_prior_plies: tree.prior_plies,
            tactical_temperature: tree.temperature,
            tactical_value: tree.value,
            minimax_weight: tree.minimax,
            choice: tree.choice,
            lcb_width: tree.lcb_width,
            ..Tactics::off()
        }
    }
}

fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The training step a checkpoint folder name (`step-N`) stands for.
pub fn checkpoint_step(name: &str) -> Option<u64> {
    name.strip_prefix("step-")?.parse().ok()
}
