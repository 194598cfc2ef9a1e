//! Every knob of the search, in one documented struct (after KataGo's `SearchParams`).
//!
//! Values are expected scores in [0, 1] (win 1, draw 1/2, loss 0), half the [-1, 1] scale of the
//! AlphaZero paper; constants taken from papers that use [-1, 1] are halved where the scale
//! matters (`c_puct_init`, FPU reductions).
//!
//! A training config's `[search]` section deserializes straight into [`SearchParams`]: its keys
//! are the field names, a key left out takes its value in [`SearchParams::default`], an unknown
//! key is an error, and the fields marked "not a config key" keep their defaults.
//!
//! The field docs here are the reference (effect, direction, formula); configs/*.toml document
//! each config key once more for users, with its default (checked against [`Default`] by
//! selfplay/tests/config_defaults.rs).

use serde::{Deserialize, Serialize};

use crate::error::ParamsError;

/// How a search chooses among the root's moves (the config's `search.root`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootSearch {
    /// PUCT everywhere, root Dirichlet noise, the visit shares as the policy target (AlphaZero).
    #[default]
    Puct,
    /// Gumbel top-k sampling and sequential halving at the root, the completed-Q improved
    /// policy as the policy target and as the guide below the root (Gumbel AlphaZero). No
    /// Dirichlet noise, forced playouts, target pruning or first-play urgency; no tree reuse.
    Gumbel,
}

impl std::fmt::Display for RootSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RootSearch::Puct => "puct",
            RootSearch::Gumbel => "gumbel",
        })
    }
}

impl std::str::FromStr for RootSearch {
    type Err = ParamsError;

    /// `puct` or `gumbel`, as the config writes them.
    fn from_str(text: &str) -> Result<RootSearch, ParamsError> {
        match text {
            "puct" => Ok(RootSearch::Puct),
            "gumbel" => Ok(RootSearch::Gumbel),
            _ => Err(ParamsError { field: "root", value: text.to_string(), expected: "puct or gumbel" }),
        }
    }
}

/// Parameters of one search; cloned into each [`crate::Search`], changeable between moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchParams {
    // ---- Budget ----
    /// Root visit count at which a move's search stops. With tree reuse the visits inherited from
    /// the previous move count too (lc0 / KataGo `maxVisits` semantics). Higher: stronger, slower.
    /// Under Gumbel search the root's own evaluation is one of them: the halving shares
    /// `simulations - 1`.
    pub simulations: u32,
    /// Most leaves one search keeps waiting for the evaluator at once (virtual loss spreads them).
    /// Higher: bigger batches for the network, but the search gets slightly less selective.
    pub max_in_flight: u32,

    // ---- Root search ----
    /// How the root spends its budget: PUCT visits (AlphaZero), or Gumbel top-k sampling with
    /// sequential halving and the completed-Q improved policy (Danihelka et al. 2022), which
    /// also changes the selection below the root and the policy target. See [`RootSearch`].
    pub root: RootSearch,
    /// Gumbel: root moves sampled (without replacement, by Gumbel noise plus log-prior) to share
    /// the budget by sequential halving; capped at the number of legal moves. Higher: wider,
    /// shallower look at the root (the paper's m; 16 in Gumbel MuZero).
    pub gumbel_actions: u32,
    /// Gumbel: `c_visit` of the value transform `sigma(q) = (c_visit + max_b N(b)) * c_scale * q`
    /// added to the logits. Higher: search values outweigh the prior sooner.
    pub c_visit: f32,
    /// Gumbel: `c_scale` of the same transform. Higher: search values outweigh the prior more.
    pub c_scale: f32,

    // ---- Selection (PUCT; all but `virtual_loss` and `paranoid` unused by Gumbel search) ----
    /// Exploration constant at zero visits: `c(N) = c_puct_init + ln((N + c_puct_base + 1) / c_puct_base)`
    /// and `U = c(N) * P * sqrt(N) / (1 + n)`. Higher: more exploration. 0.625 is AlphaZero's 1.25
    /// on our halved value scale.
    pub c_puct_init: f32,
    /// Visits over which the exploration constant grows by 1 (log growth term). Lower: exploration
    /// grows sooner in long searches.
    pub c_puct_base: f32,
    /// First-play urgency below the root: an unvisited child is valued at
    /// `Q(parent) - fpu_reduction * sqrt(sum of priors of visited children)` (lc0). Higher: the
    /// search widens less and deepens more.
    pub fpu_reduction: f32,
    /// The same reduction at the root, where a wider look is cheaper to afford. Not a config key.
    #[serde(skip)]
    pub fpu_reduction_root: f32,
    /// Weight of one pending evaluation when selecting: an in-flight visit counts as this many
    /// visits that scored 0 for the mover. Higher: leaves in flight spread further apart. Not a
    /// config key.
    #[serde(skip)]
    pub virtual_loss: f32,
    /// For three players: every opponent of the root player minimises the root player's value
    /// (paranoid search) instead of maximising its own component (max-n). No effect for two players.
    pub paranoid: bool,

    // ---- Root noise (PUCT only: Gumbel search explores by its Gumbel draws) ----
    /// Dirichlet concentration times the number of legal moves: `alpha = dirichlet_alpha_scale / legal`
    /// (KataGo; AlphaZero chess's 0.3 at ~30 moves is ~10). Lower: spikier noise.
    pub dirichlet_alpha_scale: f32,
    /// Weight of the noise in the root priors: `P = (1 - eps) * P + eps * noise`. 0 disables it
    /// (analysis, arena); 0.25 in self-play.
    pub dirichlet_epsilon: f32,

    // ---- Move choice ----
    /// Temperature for the first `temperature_plies` plies: the move is drawn with probability
    /// proportional to `visits^(1 / temperature)`; under Gumbel search it scales the Gumbel
    /// draws instead (1: the paper's sampling). Higher: more varied openings. Not a config key.
    #[serde(skip)]
    pub temperature: f32,
    /// Plies (counted by the search from its start position) played at `temperature`.
    pub temperature_plies: u32,
    /// Temperature after that (a floor under the rest of the game's move choice); 0 plays the most
    /// visited move (ties to the higher prior), or under Gumbel search searches without Gumbel
    /// noise and plays the best of the most visited by `logits + sigma(q)`. Higher: more varied
    /// middlegames and endgames in self-play. Analysis and arena play keep 0
    /// ([`SearchParams::analysis`]).
    pub final_temperature: f32,

    // ---- Tree reuse ----
    /// Keep the subtree of the played move as the next root, with its visits (AlphaZero). Gumbel
    /// search always starts from a fresh root (mctx). Not a config key.
    #[serde(skip)]
    pub reuse_tree: bool,

    // ---- KataGo self-play refinements (Wu 2019); forced playouts and pruning are PUCT only ----
    /// Playout-cap randomisation: the share of moves searched with only `fast_simulations`, without
    /// noise or forced playouts, and flagged as not a policy target. 0 disables it (KataGo: 0.75).
    pub fast_fraction: f32,
    /// Root visit target of a fast search.
    pub fast_simulations: u32,
    /// Forced playouts: every root child that has been visited gets at least
    /// `sqrt(forced_playout_k * P * total_child_visits)` visits. 0 disables them (KataGo: 2).
    pub forced_playout_k: f32,
    /// Policy-target pruning: before reporting the policy target, take forced playouts back from
    /// children that would not have been chosen without them, and drop children left with one visit.
    pub policy_target_pruning: bool,

    // ---- Decisive moves (Teytaud & Teytaud 2010) ----
    /// A root move that wins at once (the mover scores 1) gets all of the root's prior, so the
    /// search plays it however few simulations it has and whatever the evaluator thought of it.
    /// Costs one move and one result test per root move per search.
    pub root_wins_first: bool,
    /// A new position below the root whose mover can win at once is scored as that win, exactly,
    /// without asking the evaluator: the search sees every one-move win (and so every threat to
    /// itself) one ply past its leaves. Costs a move and a result test per legal move of each leaf.
    pub wins_in_tree: bool,

    // ---- Exact results in the tree ----
    /// Two players: a new position in the tree that repeats the root, a position between the root
    /// and it, or a position of the game before the root that this search played through
    /// ([`crate::Search::advance`]), is scored as a draw, exactly, without asking the evaluator
    /// (lc0's two-fold rule), so the search stops wandering into repetitions it cannot tell from
    /// progress. The game before the root counts so that a tree reused after a move keeps every
    /// draw it found exact. Not for three players: repetition is no draw under Wellisch's default
    /// rules. Costs a hash comparison per earlier position per leaf.
    pub repetition_draws: bool,
    /// MCTS-solver (Winands et al. 2008, lc0's "certain" results, for max-n): exact results in the
    /// tree (finished games, `wins_in_tree` wins, repetition draws) are backed up as exact values.
    /// A node is proven once its mover has a child proven to score 1 for it, or once all its moves
    /// are proven (then worth the best of them for its mover); a proven node is searched no
    /// further and every visit through it backs up its exact value. The root is never proven, but
    /// its move choice never gives up a proven win for more visits nor plays a proven loss while
    /// anything else is left. Off in paranoid three-player search, whose proofs would hold for one
    /// root player only (the tree is reused by the next).
    pub solver: bool,
    /// The score each side gets inside the search for a drawn game: a game the rules end drawn
    /// (threefold repetition, the quiet-ply limit, a drawn stalemate, insufficient material) or a
    /// repetition draw in the tree. 0.5 is no contempt; lower: both sides avoid draws (self-play).
    /// A draw is a result in which no seat scores 1 and the seats that score score alike; each
    /// such seat's score is scaled by `draw_value / 0.5`: two players and a three-player
    /// all-round draw score `draw_value` each, Wellisch's survivors' draw (3/4 each) `1.5 *
    /// draw_value`, and an eliminated seat keeps 0. At most 0.5, so that a draw never scores like
    /// a win. It changes the search's values, so the root values
    /// a self-play record keeps (and resigns by) carry it; the game's result does not.
    pub draw_value: f32,

    // ---- Leaf values from random playouts (AlphaGo's lambda) ----
    // The search never reads these: they configure the [`crate::Blend`] evaluator that
    // self-play wraps around the network, and sit here so that one `[search]` section holds them.
    /// Share of a random playout's result in each leaf value at training iteration 0 (see
    /// [`SearchParams::rollout_weight_at`]); 0 disables playouts.
    pub rollout_weight: f32,
    /// Iterations over which `rollout_weight` falls linearly to 0; 0 keeps it constant.
    pub rollout_iterations: u32,
    /// Playouts longer than this many plies stop and score a draw.
    pub rollout_plies: u32,

    // ---- A material prior on leaf values (also read only by self-play's evaluator) ----
    /// Share of the material count's prediction ([`crate::MaterialJudge`], blended by [`crate::Blend`]) in each leaf value at
    /// training iteration 0 (see [`SearchParams::material_weight_at`]); 0 disables it.
    pub material_weight: f32,
    /// Iterations over which `material_weight` falls linearly to 0; 0 keeps it constant.
    pub material_iterations: u32,

    // ---- Tactical leaf values (read only by self-play's evaluator, like the two above) ----
    /// Share of a quiescence search's value (captures until quiet, squashed to an expected
    /// score: `alphabeta::TacticsJudge`) in each leaf value at training iteration 0 (see
    /// [`SearchParams::tactics_weight_at`]); 0 disables it. Players get theirs from `--tactics`.
    pub tactics_weight: f32,
    /// Iterations over which `tactics_weight` falls linearly to 0; 0 keeps it constant.
    pub tactics_iterations: u32,
    /// Full-width plies that search looks before its quiescence (`alphabeta::TacticsJudge::depth`,
    /// 0 to [`MAX_TACTICS_DEPTH`]): 0 sees captures only. Players get theirs from `--tactics-depth`.
    pub tactics_depth: u32,

    // ---- Tactics inside the tree (read by the search; they need a judge, [`crate::Judged`]) ----
    /// Share of the tactical prior in each new node's prior: `P = (1 - w) * P + w * T`, where
    /// `T` is a softmax over the judged value of every move ([`crate::MoveJudge`]) at
    /// `tactical_temperature`. Makes the search look at the captures and threats the judge sees
    /// however low the evaluator ranks them. 0 disables it.
    pub tactical_prior: f32,
    /// Plies below the root where the tactical prior is mixed in: 1 the root alone, `k` the
    /// first `k` plies, 0 every ply.
    pub tactical_prior_plies: u32,
    /// Temperature of the tactical prior's softmax, in logits of the judged expected score
    /// (`alphabeta`'s judge: 0.33 is 100 centipawns near equality). Lower: the judge's favourite
    /// takes more of the prior.
    pub tactical_temperature: f32,
    /// Share of the best judged move's value (a full-width ply and the judge's look beyond it)
    /// in each new node's value. 0 disables it.
    pub tactical_value: f32,
    /// Implicit minimax backups: each move's judged value is minimaxed up the tree (a
    /// move's value becomes its child's best move once the child is expanded), and selection and
    /// the `lcb` move choice value a move by `(1 - w) * Q + w * minimax`. 0 disables it. Two
    /// players only: the max-n minimax of one value per move, the others sharing the rest,
    /// misled Wellisch's search (one seat against two `alphabeta:1`, 64 simulations, with
    /// the tactical prior, value and `lcb` choice: 0.83 with it at 0.5 against 0.92 without).
    /// PUCT only: Gumbel search's selection and choice do not read it.
    pub minimax_weight: f32,
    /// Self-play: iterations over which `tactical_prior`, `tactical_value` and
    /// `minimax_weight` fall linearly to 0 (see [`SearchParams::tree_levers_at`]), so the
    /// network takes over from the classical judge; 0 keeps them constant.
    pub tactical_iterations: u32,
    /// How the move to play is chosen at temperature 0: by visits, or by a lower confidence
    /// bound on the value, which reads values where visits are few (see [`MoveChoice`]). PUCT
    /// only: Gumbel search plays its halving's survivor.
    pub choice: MoveChoice,
    /// Width of the `lcb` move choice: a move scores `Q - lcb_width / sqrt(visits)`. Higher:
    /// closer to choosing by visits.
    pub lcb_width: f32,
}

/// How a search picks the move to play at temperature 0 (the config's `search.choice`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

impl std::str::FromStr for MoveChoice {
    type Err = ParamsError;

    /// `visits` or `lcb`, as the config writes them.
    fn from_str(text: &str) -> Result<MoveChoice, ParamsError> {
        match text {
            "visits" => Ok(MoveChoice::Visits),
            "lcb" => Ok(MoveChoice::Lcb),
            _ => Err(ParamsError { field: "choice", value: text.to_string(), expected: "visits or lcb" }),
        }
    }
}

/// The deepest tactical leaf search. Each ply multiplies a leaf's cost (Wellisch, uniform search
/// at 64 simulations: 0.13 ms a move with quiescence alone, 3.4 at depth 2), so a deeper one
/// is a typing mistake rather than a setting.
pub const MAX_TACTICS_DEPTH: u32 = 4;

impl Default for SearchParams {
    /// The defaults: what a config's `[search]` section leaves out takes (configs/*.toml state
    /// them). AlphaZero's constants on our value scale with a budget sized to a CPU (100
    /// simulations, 4 leaves in flight, 12 plies at temperature 1, then 0), root noise on, the
    /// one-move win checks, repetition draws and the solver on (as lc0), no contempt, KataGo's
    /// refinements off.
    fn default() -> SearchParams {
        SearchParams {
            simulations: 100,
            max_in_flight: 4,
            dirichlet_epsilon: 0.25,
            temperature: 1.0,
            temperature_plies: 12,
            root_wins_first: true,
            wins_in_tree: true,
            repetition_draws: true,
            solver: true,
            ..SearchParams::for_tests_v1()
        }
    }
}

/// Leaves in flight of analysis: the default before issue 23 (now 4), so analysis stays unchanged.
const ANALYSIS_MAX_IN_FLIGHT: u32 = 8;

/// Most leaves a search may keep waiting at once: past a batch or two the search mostly sends
/// leaves that virtual loss pushed onto poor moves, and a bigger value is a typing mistake.
pub const MAX_IN_FLIGHT: u32 = 256;

/// The most simulations one search is given (`search.simulations`, `--sims`, uci's
/// `Simulations`): past it a search outgrows memory before it ends.
pub const MAX_SIMULATIONS: u32 = 100_000_000;

/// The highest softmax temperature a key or flag takes (`search.temperature`,
/// `search.tactical_temperature`, `--tactical-temperature`): past it every move is as likely.
pub const MAX_TEMPERATURE: f32 = 100.0;

/// The widest `lcb` bound (`search.lcb_width`, `--lcb-width`): past it the choice is by visits.
pub const MAX_LCB_WIDTH: f32 = 100.0;

/// The most plies or iterations a count of the search names (`search.tactical_prior_plies`,
/// `--tactical-prior-plies`, the fades): no game or run comes near a million.
pub const MAX_PLY_COUNT: u32 = 1_000_000;

impl SearchParams {
    /// Analysis and arena play: no noise, no contempt, always the most visited move (or a proven
    /// win), with the defaults' exact results (win checks, repetition draws, solver).
    pub fn analysis(simulations: u32) -> SearchParams {
        SearchParams {
            simulations,
            max_in_flight: ANALYSIS_MAX_IN_FLIGHT,
            dirichlet_epsilon: 0.0,
            temperature: 0.0,
            temperature_plies: 0,
            final_temperature: 0.0,
            draw_value: 0.5,
            ..SearchParams::default()
        }
    }

    /// Frozen preset for tests written on 2026-11-29: defaults may be retuned, this never changes,
    /// so tests keep their meaning (KataGo's `forTestsV1`). The one full list of the fields:
    /// [`SearchParams::default`] is written as its differences from this preset. Fields added
    /// since hold the value that searches as before they existed (features off, no contempt).
    pub fn for_tests_v1() -> SearchParams {
        SearchParams {
            simulations: 1000,
            max_in_flight: 1,
            root: RootSearch::Puct,
            gumbel_actions: 16,
            c_visit: 50.0,
            c_scale: 1.0,
            c_puct_init: 0.625,
            c_puct_base: 19652.0,
            fpu_reduction: 0.2,
            fpu_reduction_root: 0.1,
            virtual_loss: 1.0,
            paranoid: false,
            dirichlet_alpha_scale: 10.0,
            dirichlet_epsilon: 0.0,
            temperature: 0.0,
            temperature_plies: 0,
            final_temperature: 0.0,
            reuse_tree: true,
            fast_fraction: 0.0,
            fast_simulations: 100,
            forced_playout_k: 0.0,
            policy_target_pruning: false,
            root_wins_first: false,
            wins_in_tree: false,
            repetition_draws: false,
            solver: false,
            draw_value: 0.5,
            rollout_weight: 0.0,
            rollout_iterations: 0,
            rollout_plies: 200,
            material_weight: 0.0,
            material_iterations: 0,
            tactics_weight: 0.0,
            tactics_iterations: 0,
            tactics_depth: 0,
            tactical_prior: 0.0,
            tactical_prior_plies: 0,
            tactical_temperature: 0.33,
            tactical_value: 0.0,
            minimax_weight: 0.0,
            tactical_iterations: 0,
            choice: MoveChoice::Visits,
            lcb_width: 0.2,
        }
    }

    /// Checks every field's range, so a bad config fails when it is read rather than as an odd
    /// search hours later.
    pub fn validate(&self) -> Result<(), ParamsError> {
        fn check(field: &'static str, value: f32, ok: bool, expected: &'static str) -> Result<(), ParamsError> {
            if ok && value.is_finite() {
                Ok(())
            } else {
                Err(ParamsError { field, value: value.to_string(), expected })
            }
        }
        let unit = |v: f32| (0.0..=1.0).contains(&v);
        // Every range has a top: a value past it is a typing mistake (a search that outgrows
        // memory, a constant that makes every other term vanish), refused when read.
        let up_to = |v: f32, max: f32| (0.0..=max).contains(&v);
        let count = |v: u32, max: u32| (1..=max).contains(&v);
        let sims_ok = count(self.simulations, MAX_SIMULATIONS);
        check("simulations", self.simulations as f32, sims_ok, "from 1 to 100000000")?;
        let in_flight = (1..=MAX_IN_FLIGHT).contains(&self.max_in_flight);
        check(
            "max_in_flight",
            self.max_in_flight as f32,
            in_flight,
            "from 1 to 256: more leaves waiting at once only spread virtual loss onto moves the search would not visit",
        )?;
        let actions_ok = count(self.gumbel_actions, 100_000);
        check("gumbel_actions", self.gumbel_actions as f32, actions_ok, "from 1 to 100000")?;
        check("c_visit", self.c_visit, up_to(self.c_visit, 1e6), "from 0 to 1000000")?;
        check("c_scale", self.c_scale, up_to(self.c_scale, 1e6), "from 0 to 1000000")?;
        check("c_puct_init", self.c_puct_init, up_to(self.c_puct_init, 1000.0), "from 0 to 1000")?;
        let base_ok = self.c_puct_base > 0.0 && self.c_puct_base <= 1e9;
        check("c_puct_base", self.c_puct_base, base_ok, "above 0 and at most 1000000000")?;
        check("fpu_reduction", self.fpu_reduction, up_to(self.fpu_reduction, 10.0), "from 0 to 10")?;
        let root_ok = up_to(self.fpu_reduction_root, 10.0);
        check("fpu_reduction_root", self.fpu_reduction_root, root_ok, "from 0 to 10")?;
        check("virtual_loss", self.virtual_loss, up_to(self.virtual_loss, 1000.0), "from 0 to 1000")?;
        let alpha_ok = self.dirichlet_alpha_scale > 0.0 && self.dirichlet_alpha_scale <= 1e6;
        check("dirichlet_alpha_scale", self.dirichlet_alpha_scale, alpha_ok, "above 0 and at most 1000000")?;
        check("dirichlet_epsilon", self.dirichlet_epsilon, unit(self.dirichlet_epsilon), "between 0 and 1")?;
        check("temperature", self.temperature, up_to(self.temperature, MAX_TEMPERATURE), "from 0 to 100")?;
        let final_ok = up_to(self.final_temperature, MAX_TEMPERATURE);
        check("final_temperature", self.final_temperature, final_ok, "from 0 to 100")?;
        check("fast_fraction", self.fast_fraction, unit(self.fast_fraction), "between 0 and 1")?;
        let fast_ok = count(self.fast_simulations, MAX_SIMULATIONS);
        check("fast_simulations", self.fast_simulations as f32, fast_ok, "from 1 to 100000000")?;
        check("forced_playout_k", self.forced_playout_k, up_to(self.forced_playout_k, 100.0), "from 0 to 100")?;
        check("draw_value", self.draw_value, (0.0..=0.5).contains(&self.draw_value), "between 0 and 0.5")?;
        check("rollout_weight", self.rollout_weight, unit(self.rollout_weight), "between 0 and 1")?;
        check("material_weight", self.material_weight, unit(self.material_weight), "between 0 and 1")?;
        check("tactics_weight", self.tactics_weight, unit(self.tactics_weight), "between 0 and 1")?;
        let depth_ok = self.tactics_depth <= MAX_TACTICS_DEPTH;
        check("tactics_depth", self.tactics_depth as f32, depth_ok, "between 0 and 4")?;
        check("tactical_prior", self.tactical_prior, unit(self.tactical_prior), "between 0 and 1")?;
        let temperature_ok = (0.01..=MAX_TEMPERATURE).contains(&self.tactical_temperature);
        check("tactical_temperature", self.tactical_temperature, temperature_ok, "from 0.01 to 100")?;
        check("tactical_value", self.tactical_value, unit(self.tactical_value), "between 0 and 1")?;
        check("minimax_weight", self.minimax_weight, unit(self.minimax_weight), "between 0 and 1")?;
        check("lcb_width", self.lcb_width, up_to(self.lcb_width, MAX_LCB_WIDTH), "from 0 to 100")?;
        for (field, value) in [
            ("temperature_plies", self.temperature_plies),
            ("rollout_iterations", self.rollout_iterations),
            ("rollout_plies", self.rollout_plies),
            ("material_iterations", self.material_iterations),
            ("tactics_iterations", self.tactics_iterations),
            ("tactical_prior_plies", self.tactical_prior_plies),
            ("tactical_iterations", self.tactical_iterations),
        ] {
            check(field, value as f32, value <= MAX_PLY_COUNT, "from 0 to 1000000")?;
        }
        Ok(())
    }

    /// The exploration constant `c(N)` at `parent_visits`.
    pub fn c_puct(&self, parent_visits: f32) -> f32 {
        self.c_puct_init + ((parent_visits + self.c_puct_base + 1.0) / self.c_puct_base).ln()
    }

    /// The playout share in leaf values for self-play with the network of training iteration
    /// `iteration`: `rollout_weight`, falling linearly to 0 over `rollout_iterations`.
    pub fn rollout_weight_at(&self, iteration: u32) -> f32 {
        fading(self.rollout_weight, self.rollout_iterations, iteration)
    }

    /// The material prior's share in leaf values for self-play with the network of training
    /// iteration `iteration`: `material_weight`, falling linearly to 0 over `material_iterations`.
    pub fn material_weight_at(&self, iteration: u32) -> f32 {
        fading(self.material_weight, self.material_iterations, iteration)
    }

    /// The quiescence value's share in leaf values for self-play with the network of training
    /// iteration `iteration`: `tactics_weight`, falling linearly to 0 over `tactics_iterations`.
    pub fn tactics_weight_at(&self, iteration: u32) -> f32 {
        fading(self.tactics_weight, self.tactics_iterations, iteration)
    }

    /// The search self-play runs with the network of training iteration `iteration`: the
    /// tactical prior, tactical value and minimax weight each falling linearly to 0 over
    /// `tactical_iterations` (0: constant), every other parameter as it is.
    pub fn tree_levers_at(&self, iteration: u32) -> SearchParams {
        let fade = |w| fading(w, self.tactical_iterations, iteration);
        SearchParams {
            tactical_prior: fade(self.tactical_prior),
            tactical_value: fade(self.tactical_value),
            minimax_weight: fade(self.minimax_weight),
            ..self.clone()
        }
    }

    /// The temperature for a move at `ply`.
    pub fn temperature_at(&self, ply: u32) -> f32 {
        if ply < self.temperature_plies {
            self.temperature
        } else {
            self.final_temperature
        }
    }
}

/// `weight` at `iteration`, falling linearly to 0 over `iterations` (0: constant).
fn fading(weight: f32, iterations: u32, iteration: u32) -> f32 {
    if iterations == 0 {
        return weight;
    }
    weight * (1.0 - iteration as f32 / iterations as f32).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Analysis searches as it did before issue 23 retuned the defaults (the frozen preset with 8
    /// leaves in flight and the one-move win checks on), with issue 22's exact results added on
    /// purpose: repetition draws and the solver, which only replace estimates by exact values.
    /// Contempt and the temperature floor are self-play's and stay off.
    #[test]
    fn analysis_is_unchanged_by_the_defaults() {
        let before = SearchParams {
            simulations: 400,
            max_in_flight: 8,
            root_wins_first: true,
            wins_in_tree: true,
            repetition_draws: true,
            solver: true,
            ..SearchParams::for_tests_v1()
        };
        assert_eq!(SearchParams::analysis(400), before);
    }

    #[test]
    fn the_tree_levers_fade_to_zero_over_their_iterations_and_nothing_else_does() {
        let params = SearchParams {
            tactical_prior: 0.5,
            tactical_value: 1.0,
            minimax_weight: 0.4,
            tactical_iterations: 4,
            tactical_temperature: 0.33,
            ..SearchParams::default()
        };
        let levers = |p: &SearchParams| (p.tactical_prior, p.tactical_value, p.minimax_weight);
        assert_eq!(levers(&params.tree_levers_at(0)), (0.5, 1.0, 0.4));
        assert_eq!(levers(&params.tree_levers_at(1)), (0.375, 0.75, 0.3));
        assert_eq!(levers(&params.tree_levers_at(4)), (0.0, 0.0, 0.0));
        assert_eq!(levers(&params.tree_levers_at(9)), (0.0, 0.0, 0.0));
        let later = params.tree_levers_at(2);
        assert_eq!(SearchParams { tactical_prior: 0.5, tactical_value: 1.0, minimax_weight: 0.4, ..later }, params);
        let kept = SearchParams { tactical_iterations: 0, ..params.clone() };
        assert_eq!(kept.tree_levers_at(100), kept);
    }
}
