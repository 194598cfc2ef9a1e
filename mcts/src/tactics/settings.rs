//! The tactical settings, declared once: the judge's share of leaf values, its depth, its
//! opinion of every move inside the tree (prior, value, minimax backups), the move choice and
//! self-play's fades. The config keys (`search.tactical_prior`, flat in `[search]`), the flags
//! of the commands that play (`--tactical-prior`), the player names (`+prior0.5`), the
//! gauntlet log, Python's keywords and the docs' rows all follow from this declaration.

use serde::{Deserialize, Serialize};

use super::network_plies::NetworkPlies;
use crate::setting::{read_value, Range, SettingError, SettingValue, MAX_PLY_COUNT};

/// The deepest tactical judge. Each ply multiplies a judged node's cost (Wellisch, uniform
/// search at 64 simulations: 0.13 ms a move with quiescence alone, 3.4 at depth 2), so a deeper
/// one is a typing mistake rather than a setting.
pub const MAX_TACTICS_DEPTH: u32 = 4;

/// The highest softmax temperature a key or flag takes (`search.temperature`,
/// `search.tactical_temperature`): past it every move is as likely.
pub const MAX_TEMPERATURE: f32 = 100.0;

/// The widest `lcb` bound (`search.lcb_width`): past it the choice is by visits.
pub const MAX_LCB_WIDTH: f32 = 100.0;

crate::settings! {
    /// How a search uses the classical tactical judge (`alphabeta::TacticsJudge`, a quiescence
    /// search after each move). Its default is the best measured search (docs/training.md,
    /// "The tactical search"), which every player searches with unless told otherwise: `play`,
    /// `analyse`, `uci`, `arena`, `gauntlet`, `serve`, Python and a run's own gauntlet;
    /// [`Tactics::off`] is the search before the judge. A training config's `[search]` section
    /// holds the same keys, off unless it sets them.
    pub struct Tactics {
        /// Share (0 to 1) of a quiescence search's value (captures until the position is quiet,
        /// squashed to an expected score) blended into every leaf value: keeps a weak network's
        /// search from missing captures.
        ///
        /// Self-play: at training iteration 0, falling over `tactics_iterations`.
        tactics_weight: f32 = 0.0, Range::between(0.0, 1.0), flag "tactics" "W", tag "tactics";
        /// Self-play: iterations over which `tactics_weight` falls linearly to 0 (0 keeps it).
        tactics_iterations: u32 = 0, Range::from_to(0, MAX_PLY_COUNT);
        /// Full-width plies the tactical judge looks before its quiescence: 0 sees captures
        /// only; each ply more also sees quiet threats a move deeper, at several times the cost.
        tactics_depth: u32 = 0, Range::between(0, MAX_TACTICS_DEPTH), flag "tactics-depth" "D", tag "d";
        /// Share (0 to 1) of the tactical prior in each new node's prior: a softmax over every
        /// move's judged value, so the search looks at the captures and threats a full-width
        /// search sees however low the network ranks them.
        ///
        /// `P = (1 - w) * P + w * T`, `T` the softmax at `tactical_temperature`.
        tactical_prior: f32 = 0.5, Range::between(0.0, 1.0), flag "tactical-prior" "W", tag "prior";
        /// Plies below the root that get the tactical prior: 1 the root alone, `N` the first
        /// `N`, 0 every ply.
        tactical_prior_plies: u32 = 0, Range::from_to(0, MAX_PLY_COUNT), flag "tactical-prior-plies" "N", tag "plies";
        /// Plies below the root whose new nodes the network evaluates: 1 the root alone, `N`
        /// the first `N`, 0 every ply, `auto` 2 for a search at a clock and every ply for one
        /// of so many simulations. A deeper node takes equal priors and its judged value, as
        /// the search without a network does: on a CPU one network evaluation costs several
        /// judged nodes, so at a clock this trades the network's opinion deep in the tree for
        /// more nodes. Above 0 each move's search starts afresh.
        ///
        /// Measured: [`super::network_plies`]'s docs.
        network_plies: NetworkPlies = NetworkPlies::Auto, Range::any(), flag "network-plies" "N", tag "netplies";
        /// Temperature of the tactical prior's softmax, in logits of the expected score (0.33
        /// is 100 centipawns near equality): lower gives the judge's favourite more of the prior.
        tactical_temperature: f32 = 0.33, Range::from_to(0.01, MAX_TEMPERATURE), flag "tactical-temperature" "T", tag "temp";
        /// Share (0 to 1) of the best move's judged value (a full-width ply and the judge's look
        /// beyond it) in each new node's value, the rest the network's; with no network (the
        /// uniform evaluator, whose value says nothing) any share above 0 is the judged value
        /// alone.
        ///
        /// Mini Hexchess, the two-hour network against the search alone at 64 simulations: 72.0%
        /// at 0.5 against 63.0% at 1 (100 games each); Glinski's 62.0% against 59.0%. A network
        /// whose value head is weaker than the judge loses by it: `make train`'s, after eight
        /// iterations, 60.5% against 70.5% at 1 against `alphabeta:3`.
        tactical_value: f32 = 0.5, Range::between(0.0, 1.0), flag "tactical-value" "W", tag "value";
        /// Implicit minimax backups: share (0 to 1) of the minimax of the judged values below a
        /// move in the value that selection and the `lcb` choice read; 0 is plain Monte-Carlo
        /// means. Two players only (it misled Wellisch's search).
        ///
        /// Wellisch, one seat against two `alphabeta:1` at 64 simulations with the tactical
        /// prior, value and `lcb` choice: 0.83 with it at 0.5 against 0.92 without. PUCT only:
        /// Gumbel search's selection and choice do not read it.
        minimax_weight: f32 = 0.5, Range::between(0.0, 1.0), flag "minimax" "W", tag "minimax";
        /// Self-play: iterations over which the tree levers (`tactical_prior`, `tactical_value`
        /// and `minimax_weight`) fall linearly to 0, so the network takes over from the judge
        /// (0 keeps them).
        ///
        /// Named `tactical_iterations` before 2026-12-06, beside `tactics_iterations`, the fade
        /// of the leaf share: two fades of names one letter apart.
        tree_levers_iterations: u32 = 0, Range::from_to(0, MAX_PLY_COUNT), was "tactical_iterations";
        /// How the move is chosen: `visits` (the most visited, AlphaZero's) or `lcb` (the
        /// visited move with the highest `Q - lcb_width / sqrt(visits)`), which reads values
        /// where visits are few.
        ///
        /// PUCT only: Gumbel search plays its halving's survivor.
        choice: MoveChoice = MoveChoice::Lcb, Range::any(), flag "choice" "RULE", tag "";
        /// Width of the `lcb` choice's bound: higher is closer to choosing by visits.
        lcb_width: f32 = 0.2, Range::from_to(0.0, MAX_LCB_WIDTH), flag "lcb-width" "C", tag "width";
    }
}

impl Tactics {
    /// The search before the judge: no tactical leaf values, no judged moves, the most visited
    /// move; every other setting at its default.
    pub fn off() -> Tactics {
        Tactics {
            tactics_weight: 0.0,
            tactical_prior: 0.0,
            tactical_value: 0.0,
            minimax_weight: 0.0,
            choice: MoveChoice::Visits,
            ..Tactics::default()
        }
    }

    /// Whether a lever inside the tree needs judged moves (the evaluator must then be
    /// [`crate::Judged`]).
    pub fn judges(&self) -> bool {
        self.tactical_prior > 0.0 || self.tactical_value > 0.0 || self.minimax_weight > 0.0
    }

    /// The same tactics for a network's search bounded by time (`timed`) or not (by
    /// simulations, or a search without a network), with `network_plies = auto` resolved
    /// ([`NetworkPlies::at_clock`]); a player's name is made from the tactics before this.
    pub fn at_clock(&self, timed: bool) -> Tactics {
        Tactics { network_plies: self.network_plies.at_clock(timed), ..self.clone() }
    }

    /// Whether a new node `depth` plies below the root gets the tactical prior.
    pub fn prior_at(&self, depth: usize) -> bool {
        self.tactical_prior > 0.0 && (self.tactical_prior_plies == 0 || depth < self.tactical_prior_plies as usize)
    }

    /// The same tactics for a player: the judge's depth, which changes nothing where nothing
    /// is judged, at 0 there, so that it does not make one player two names.
    pub fn for_player(&self) -> Tactics {
        let judged = self.tactics_weight > 0.0 || self.judges();
        Tactics { tactics_depth: if judged { self.tactics_depth } else { 0 }, ..self.clone() }
    }

    /// What a player's name gets for these tactics: `+TAGvalue` for every tagged setting
    /// that differs from [`Tactics::off`] (`+prior0.5+value0.5+minimax0.5+lcb` for the
    /// default), nothing when all are off.
    pub fn suffix(&self) -> String {
        let off = Tactics::off();
        Tactics::settings()
            .into_iter()
            .filter_map(|s| {
                let tag = s.tag?;
                let value = self.get(s.key)?;
                (Some(&value) != off.get(s.key).as_ref()).then(|| format!("+{tag}{value}"))
            })
            .collect()
    }

    /// The command-line flags that ask for exactly these tactics.
    pub fn flags(&self) -> String {
        let flags = Tactics::settings().into_iter().filter_map(|s| Some(format!("--{} {}", s.flag?, self.get(s.key)?)));
        flags.collect::<Vec<_>>().join(" ")
    }
}

/// How a search picks the move to play at temperature 0 (the config's `search.choice`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveChoice {
    /// The most visited move (ties to the higher prior): AlphaZero's.
    #[default]
    Visits,
    /// The visited move with the highest lower confidence bound `Q - lcb_width / sqrt(visits)`,
    /// `Q` mixed with the minimax value by `minimax_weight`: a clearly better move found late is
    /// not lost to an earlier one's visit count (lc0 and KataGo choose by such bounds too).
    Lcb,
}

impl std::fmt::Display for MoveChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MoveChoice::Visits => "visits",
            MoveChoice::Lcb => "lcb",
        })
    }
}

impl SettingValue for MoveChoice {
    const KIND: &'static str = "visits or lcb";
    fn read(text: &str) -> Option<MoveChoice> {
        match text.trim() {
            "visits" => Some(MoveChoice::Visits),
            "lcb" => Some(MoveChoice::Lcb),
            _ => None,
        }
    }
}

impl std::str::FromStr for MoveChoice {
    type Err = SettingError;

    /// `visits` or `lcb`, as the config writes them.
    fn from_str(text: &str) -> Result<MoveChoice, SettingError> {
        read_value("choice", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_named_by_its_levers_and_off_by_nothing() {
        assert_eq!(Tactics::default().suffix(), "+prior0.5+value0.5+minimax0.5+lcb");
        assert_eq!(Tactics::off().suffix(), "");
        let leaf = Tactics { tactics_weight: 0.3, tactics_depth: 2, ..Tactics::off() };
        assert_eq!(leaf.suffix(), "+tactics0.3+d2");
        let unjudged = Tactics { tactics_depth: 2, ..Tactics::off() };
        assert_eq!(unjudged.for_player(), Tactics::off());
        assert!(!Tactics::off().judges() && Tactics::default().judges());
    }

    #[test]
    fn the_flags_ask_for_the_same_tactics() {
        let tactics = Tactics { tactical_prior_plies: 3, lcb_width: 0.5, ..Tactics::default() };
        let flags = tactics.flags();
        let mut read = Tactics::off();
        for pair in flags.split(" --") {
            let (flag, value) = pair.trim_start_matches("--").split_once(' ').unwrap();
            let setting = Tactics::settings().into_iter().find(|s| s.flag == Some(flag)).unwrap();
            assert_eq!(read.set(setting.key, value), Ok(true));
        }
        assert_eq!(read, tactics, "{flags}");
    }

    #[test]
    fn which_plies_get_the_prior() {
        let root_only = Tactics { tactical_prior_plies: 1, ..Tactics::default() };
        assert!(root_only.prior_at(0) && !root_only.prior_at(1));
        assert!(Tactics::default().prior_at(40));
        assert!(!Tactics::off().prior_at(0));
    }
}
