//! Every knob of the search, in one documented struct (after KataGo's `SearchParams`).
//!
//! Values are expected scores in [0, 1] (win 1, draw 1/2, loss 0), half the [-1, 1] scale of the
//! AlphaZero paper; constants taken from papers that use [-1, 1] are halved where the scale
//! matters (`c_puct_init`, FPU reductions).
//!
//! Each field is declared once ([`crate::settings!`]) with its default and range: a training
//! config's `[search]` section deserializes straight into [`SearchParams`] (its keys are the
//! field names, the [`Tactics`] section's included, flat; a key left out takes its default, an
//! unknown key is an error, the internal fields are no keys), and [`SearchParams::validate`]
//! checks every range.
//!
//! The field docs here are the reference (effect, direction, formula); configs/*.toml document
//! each config key once more for users, with its default (checked against [`Default`] by
//! selfplay/tests/config_defaults.rs).

use serde::{Deserialize, Serialize};

use crate::policy_target::PolicyTarget;
use crate::setting::{read_value, Range, SettingError, SettingValue};
use crate::tactics::{Tactics, MAX_PLY_COUNT, MAX_TEMPERATURE};

/// How a search chooses among the root's moves (the config's `search.root`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Serialize, Deserialize)]
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
    type Err = SettingError;

    /// `puct` or `gumbel`, as the config writes them.
    fn from_str(text: &str) -> Result<RootSearch, SettingError> {
        read_value("root", text)
    }
}

impl SettingValue for RootSearch {
    const KIND: &'static str = "puct or gumbel";
    fn read(text: &str) -> Option<RootSearch> {
        match text.trim() {
            "puct" => Some(RootSearch::Puct),
            "gumbel" => Some(RootSearch::Gumbel),
            _ => None,
        }
    }
}

crate::settings! {
    /// Parameters of one search; cloned into each [`crate::Search`], changeable between moves.
    pub struct SearchParams {
        // ---- Budget ----
        /// Root visit count at which a move's search stops. With tree reuse the visits inherited from
        /// the previous move count too (lc0 / KataGo `maxVisits` semantics). Higher: stronger, slower.
        /// Under Gumbel search the root's own evaluation is one of them: the halving shares
        /// `simulations - 1`.
        simulations: u32 = 100, Range::from_to(1, MAX_SIMULATIONS);
        /// Most leaves one search keeps waiting for the evaluator at once (virtual loss spreads them).
        /// Higher: bigger batches for the network, but the search gets slightly less selective.
        max_in_flight: u32 = 4, Range::from_to(1, MAX_IN_FLIGHT)
        .because("more leaves waiting at once only spread virtual loss onto moves the search would not visit");

        // ---- Root search ----
        /// How the root spends its budget: PUCT visits (AlphaZero), or Gumbel top-k sampling with
        /// sequential halving and the completed-Q improved policy (Danihelka et al. 2022), which
        /// also changes the selection below the root and the policy target. See [`RootSearch`].
        root: RootSearch = RootSearch::Puct, Range::any();
        /// Gumbel: root moves sampled (without replacement, by Gumbel noise plus log-prior) to share
        /// the budget by sequential halving; capped at the number of legal moves. Higher: wider,
        /// shallower look at the root (the paper's m; 16 in Gumbel MuZero).
        gumbel_actions: u32 = 16, Range::from_to(1, 100_000);
        /// Gumbel: `c_visit` of the value transform `sigma(q) = (c_visit + max_b N(b)) * c_scale * q`
        /// added to the logits. Higher: search values outweigh the prior sooner.
        c_visit: f32 = 50.0, Range::from_to(0.0, 1e6);
        /// Gumbel: `c_scale` of the same transform. Higher: search values outweigh the prior more.
        c_scale: f32 = 1.0, Range::from_to(0.0, 1e6);

        // ---- Selection (PUCT; all but `virtual_loss` and `paranoid` unused by Gumbel search) ----
        /// Exploration constant at zero visits: `c(N) = c_puct_init + ln((N + c_puct_base + 1) / c_puct_base)`
        /// and `U = c(N) * P * sqrt(N) / (1 + n)`. Higher: more exploration. 0.625 is AlphaZero's 1.25
        /// on our halved value scale.
        c_puct_init: f32 = 0.625, Range::from_to(0.0, 1000.0);
        /// Visits over which the exploration constant grows by 1 (log growth term). Lower: exploration
        /// grows sooner in long searches.
        c_puct_base: f32 = 19652.0, Range::above(0.0, 1e9);
        /// First-play urgency below the root: an unvisited child is valued at
        /// `Q(parent) - fpu_reduction * sqrt(sum of priors of visited children)` (lc0). Higher: the
        /// search widens less and deepens more.
        fpu_reduction: f32 = 0.2, Range::from_to(0.0, 10.0);
        /// For three players: every opponent of the root player minimises the root player's value
        /// (paranoid search) instead of maximising its own component (max-n). No effect for two players.
        paranoid: bool = false, Range::any();

        // ---- Root noise (PUCT only: Gumbel search explores by its Gumbel draws) ----
        /// Dirichlet concentration times the number of legal moves: `alpha = dirichlet_alpha_scale / legal`
        /// (KataGo; AlphaZero chess's 0.3 at ~30 moves is ~10). Lower: spikier noise.
        dirichlet_alpha_scale: f32 = 10.0, Range::above(0.0, 1e6);
        /// Weight of the noise in the root priors: `P = (1 - eps) * P + eps * noise`. 0 disables it
        /// (analysis, arena); 0.25 in self-play.
        dirichlet_epsilon: f32 = 0.25, Range::between(0.0, 1.0);

        // ---- Move choice ----
        /// Plies (counted by the search from its start position) played at `temperature`.
        temperature_plies: u32 = 12, Range::from_to(0, MAX_PLY_COUNT);
        /// Temperature after that (a floor under the rest of the game's move choice); 0 plays the most
        /// visited move (ties to the higher prior), or under Gumbel search searches without Gumbel
        /// noise and plays the best of the most visited by `logits + sigma(q)`. Higher: more varied
        /// middlegames and endgames in self-play. Analysis and arena play keep 0
        /// ([`SearchParams::analysis`]).
        final_temperature: f32 = 0.0, Range::from_to(0.0, MAX_TEMPERATURE);

        // ---- Tree reuse ----

        // ---- KataGo self-play refinements (Wu 2019); forced playouts and pruning are PUCT only ----
        /// Playout-cap randomisation: the share of moves searched with only `fast_simulations`, without
        /// noise or forced playouts, and flagged as not a policy target. 0 disables it (KataGo: 0.75).
        fast_fraction: f32 = 0.0, Range::between(0.0, 1.0);
        /// Root visit target of a fast search.
        fast_simulations: u32 = 100, Range::from_to(1, MAX_SIMULATIONS);
        /// Forced playouts: every root child that has been visited gets at least
        /// `sqrt(forced_playout_k * P * total_child_visits)` visits. 0 disables them (KataGo: 2).
        forced_playout_k: f32 = 0.0, Range::from_to(0.0, 100.0);
        /// What a full search's policy target is: `visits` (the root's visit shares), `pruned` (the
        /// visits no value earned taken back, against the evaluator's own prior: root noise, forced
        /// playouts and the tactical prior leave the target), `completed_q` (Gumbel's improved
        /// policy from the evaluator's own prior and the root's values) or `residual` (the improved
        /// policy of the mixed prior with the tactical prior taken back out, so that the play
        /// search's mix gives it). PUCT only; Gumbel search's target is always its improved
        /// policy. The former `policy_target_pruning = true` is `pruned`.
        policy_target: PolicyTarget = PolicyTarget::Visits, Range::any(), was "policy_target_pruning";

        // ---- Decisive moves (Teytaud & Teytaud 2010) ----
        /// A root move that wins at once (the mover scores 1) gets all of the root's prior, so the
        /// search plays it however few simulations it has and whatever the evaluator thought of it.
        /// Costs one move and one result test per root move per search.
        root_wins_first: bool = true, Range::any();
        /// A new position below the root whose mover can win at once is scored as that win, exactly,
        /// without asking the evaluator: the search sees every one-move win (and so every threat to
        /// itself) one ply past its leaves. Costs a move and a result test per legal move of each leaf.
        wins_in_tree: bool = true, Range::any();

        // ---- Exact results in the tree ----
        /// Two players: a new position in the tree that repeats the root, a position between the root
        /// and it, or a position of the game before the root that this search played through
        /// ([`crate::Search::advance`]), is scored as a draw, exactly, without asking the evaluator
        /// (lc0's two-fold rule), so the search stops wandering into repetitions it cannot tell from
        /// progress. The game before the root counts so that a tree reused after a move keeps every
        /// draw it found exact. Not for three players: repetition is no draw under Wellisch's default
        /// rules. Costs a hash comparison per earlier position per leaf.
        repetition_draws: bool = true, Range::any();
        /// MCTS-solver (Winands et al. 2008, lc0's "certain" results, for max-n): exact results in the
        /// tree (finished games, `wins_in_tree` wins, repetition draws) are backed up as exact values.
        /// A node is proven once its mover has a child proven to score 1 for it, or once all its moves
        /// are proven (then worth the best of them for its mover); a proven node is searched no
        /// further and every visit through it backs up its exact value. The root is never proven, but
        /// its move choice never gives up a proven win for more visits nor plays a proven loss while
        /// anything else is left. Off in paranoid three-player search, whose proofs would hold for one
        /// root player only (the tree is reused by the next).
        solver: bool = true, Range::any();
        /// The score each side gets inside the search for a drawn game: a game the rules end drawn
        /// (threefold repetition, the quiet-ply limit, a drawn stalemate, insufficient material) or a
        /// repetition draw in the tree. 0.5 is no contempt; lower: both sides avoid draws (self-play).
        /// A draw is a result in which no seat scores 1 and the seats that score score alike; each
        /// such seat's score is scaled by `draw_value / 0.5`: two players and a three-player
        /// all-round draw score `draw_value` each, Wellisch's survivors' draw (3/4 each) `1.5 *
        /// draw_value`, and an eliminated seat keeps 0. At most 0.5, so that a draw never scores like
        /// a win. It changes the search's values, so the root values
        /// a self-play record keeps (and resigns by) carry it; the game's result does not.
        draw_value: f32 = 0.5, Range::between(0.0, 0.5);

        // ---- Leaf values from random playouts (AlphaGo's lambda) ----
        // The search never reads these: they configure the [`crate::Blend`] evaluator that
        // self-play wraps around the network, and sit here so that one `[search]` section holds them.
        /// Share of a random playout's result in each leaf value at training iteration 0 (see
        /// [`SearchParams::rollout_weight_at`]); 0 disables playouts.
        rollout_weight: f32 = 0.0, Range::between(0.0, 1.0);
        /// Iterations over which `rollout_weight` falls linearly to 0; 0 keeps it constant.
        rollout_iterations: u32 = 0, Range::from_to(0, MAX_PLY_COUNT);
        /// Playouts longer than this many plies stop and score a draw.
        rollout_plies: u32 = 200, Range::from_to(0, MAX_PLY_COUNT);

        // ---- A material prior on leaf values (also read only by self-play's evaluator) ----
        /// Share of the material count's prediction ([`crate::MaterialJudge`], blended by [`crate::Blend`]) in each leaf value at
        /// training iteration 0 (see [`SearchParams::material_weight_at`]); 0 disables it.
        material_weight: f32 = 0.0, Range::between(0.0, 1.0);
        /// Iterations over which `material_weight` falls linearly to 0; 0 keeps it constant.
        material_iterations: u32 = 0, Range::from_to(0, MAX_PLY_COUNT);
    }
    internal {
    /// The same reduction at the root, where a wider look is cheaper to afford.
        fpu_reduction_root: f32 = 0.1, Range::from_to(0.0, 10.0);
    /// Weight of one pending evaluation when selecting: an in-flight visit counts as this many
    /// visits that scored 0 for the mover. Higher: leaves in flight spread further apart.
        virtual_loss: f32 = 1.0, Range::from_to(0.0, 1000.0);
    /// Temperature for the first `temperature_plies` plies: the move is drawn with probability
    /// proportional to `visits^(1 / temperature)`; under Gumbel search it scales the Gumbel
    /// draws instead (1: the paper's sampling). Higher: more varied openings.
        temperature: f32 = 1.0, Range::from_to(0.0, MAX_TEMPERATURE);
    /// Keep the subtree of the played move as the next root, with its visits (AlphaZero). Gumbel
    /// search always starts from a fresh root (mctx).
        reuse_tree: bool = true, Range::any();
    }
    nested {
        /// The tactical settings: the judge's leaf values, its opinion of every move inside the
        /// tree and the move choice ([`Tactics`]); off unless the config says (players search
        /// with [`Tactics::default`]).
        tactics: Tactics = Tactics::off();
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

    /// What players search with: [`SearchParams::analysis`] with `tactics` (the default search
    /// is `Tactics::default()`).
    pub fn playing(simulations: u32, tactics: &Tactics) -> SearchParams {
        SearchParams { tactics: tactics.clone(), ..SearchParams::analysis(simulations) }
    }

    /// Frozen preset for tests written on 2026-11-29: defaults may be retuned, this never changes,
    /// so tests keep their meaning (KataGo's `forTestsV1`). Fields added since hold the value
    /// that searches as before they existed (features off, no contempt; [`Tactics::off`]).
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
            policy_target: PolicyTarget::Visits,
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
            tactics: Tactics::off(),
        }
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
        fading(self.tactics.tactics_weight, self.tactics.tactics_iterations, iteration)
    }

    /// The search self-play runs with the network of training iteration `iteration`: the
    /// tactical prior, tactical value and minimax weight each falling linearly to 0 over
    /// `tree_levers_iterations` (0: constant), every other parameter as it is.
    pub fn tree_levers_at(&self, iteration: u32) -> SearchParams {
        let t = &self.tactics;
        let fade = |w| fading(w, t.tree_levers_iterations, iteration);
        let tactics = Tactics {
            tactical_prior: fade(t.tactical_prior),
            tactical_value: fade(t.tactical_value),
            minimax_weight: fade(t.minimax_weight),
            ..t.clone()
        };
        SearchParams { tactics, ..self.clone() }
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
        let tactics = Tactics {
            tactical_prior: 0.5,
            tactical_value: 1.0,
            minimax_weight: 0.4,
            tree_levers_iterations: 4,
            tactical_temperature: 0.33,
            ..Tactics::off()
        };
        let params = SearchParams { tactics, ..SearchParams::default() };
        let levers = |p: &SearchParams| (p.tactics.tactical_prior, p.tactics.tactical_value, p.tactics.minimax_weight);
        assert_eq!(levers(&params.tree_levers_at(0)), (0.5, 1.0, 0.4));
        assert_eq!(levers(&params.tree_levers_at(1)), (0.375, 0.75, 0.3));
        assert_eq!(levers(&params.tree_levers_at(4)), (0.0, 0.0, 0.0));
        assert_eq!(levers(&params.tree_levers_at(9)), (0.0, 0.0, 0.0));
        let mut later = params.tree_levers_at(2);
        (later.tactics.tactical_prior, later.tactics.tactical_value, later.tactics.minimax_weight) = (0.5, 1.0, 0.4);
        assert_eq!(later, params);
        let kept = SearchParams { tactics: Tactics { tree_levers_iterations: 0, ..params.tactics.clone() }, ..params };
        assert_eq!(kept.tree_levers_at(100), kept);
    }

    /// The defaults lie in their own ranges, and each range refuses a value past its top and
    /// names itself.
    #[test]
    fn the_declared_defaults_are_valid_and_the_ranges_name_themselves() {
        SearchParams::default().validate().unwrap();
        SearchParams::for_tests_v1().validate().unwrap();
        let e = SearchParams { max_in_flight: 257, ..SearchParams::default() }.validate().unwrap_err();
        assert_eq!((e.key, e.value.as_str()), ("max_in_flight", "257"));
        assert!(e.expected.starts_with("from 1 to 256: more leaves"), "{e}");
        let e = SearchParams { c_puct_base: 0.0, ..SearchParams::default() }.validate().unwrap_err();
        assert_eq!(e.to_string(), "search parameter c_puct_base = 0: above 0 and at most 1000000000");
        let e = SearchParams { virtual_loss: f32::NAN, ..SearchParams::default() }.validate().unwrap_err();
        assert_eq!(e.to_string(), "search parameter virtual_loss = NaN: from 0 to 1000");
        let mut p = SearchParams::default();
        assert_eq!(p.set("tactical_prior", "0.25"), Ok(true));
        assert_eq!(p.tactics.tactical_prior, 0.25);
        assert_eq!(p.set("no_such_key", "1"), Ok(false));
        let e = p.set("simulations", "-1").unwrap_err();
        assert_eq!(e.to_string(), "search parameter simulations = -1: from 1 to 100000000");
    }

    /// The config keys are the fields' names in declaration order, the nested section's after
    /// the section's own, and a key left out keeps its default.
    #[test]
    fn the_keys_read_and_write_flat() {
        let keys = SearchParams::keys();
        assert_eq!(keys.first(), Some(&"simulations"));
        assert_eq!(&keys[keys.len() - 2..], &["choice", "lcb_width"]);
        assert!(!keys.contains(&"virtual_loss") && !keys.contains(&"tactics"));
        let json = serde_json::to_value(SearchParams { simulations: 7, ..SearchParams::default() }).unwrap();
        let written: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(written.len(), keys.len());
        let read: SearchParams = serde_json::from_str(r#"{"simulations": 7, "tactical_prior": 0.5}"#).unwrap();
        assert_eq!((read.simulations, read.tactics.tactical_prior, read.max_in_flight), (7, 0.5, 4));
        let e = serde_json::from_str::<SearchParams>(r#"{"virtual_loss": 2}"#).unwrap_err().to_string();
        assert!(e.starts_with("unknown field `virtual_loss`, expected one of `simulations`, `max_in_flight`"), "{e}");
    }
}
