//! The flags of the commands that play a network: which network (`--model`), where it runs and
//! how a search uses it (`NetArgs`).

use clap::Args;

use mcts::{MoveChoice, TreeTactics};

use super::values::{count, number, parsed, share};
use crate::engine::ModelChoice;

/// `--model`: the network of `play`, `analyse` and `uci` (`arena` and `gauntlet` name theirs as
/// players).
#[derive(Debug, Args)]
pub struct ModelArg {
    /// The network to search with: a checkpoint folder or run directory (its newest
    /// checkpoint), `default` (the one shipped in models/ for the variant; the uniform evaluator
    /// where none is) or `none` (the uniform evaluator).
    #[arg(long, default_value = "default")]
    pub model: ModelChoice,
}

/// Where and in which precision networks run, and how many leaves a search sends them at once:
/// the flags of every command that plays a network.
#[derive(Debug, Clone, Args)]
pub struct NetArgs {
    /// Where networks run: auto, cpu or cuda.
    #[arg(long, default_value = "auto", value_parser = parsed::<nn::DeviceChoice>)]
    pub device: nn::DeviceChoice,
    /// Arithmetic of the network on a CPU: auto (bf16 where the CPU computes it natively, else
    /// fp32), fp32 or bf16; batch norms are folded and the layout is channels-last either way.
    #[arg(long, default_value = "auto", value_parser = parsed::<nn::PrecisionChoice>)]
    pub precision: nn::PrecisionChoice,
    /// Leaves a search keeps waiting for the network at once (per search thread): more make
    /// bigger batches and fewer network calls, at a little selectivity per simulation; a fixed
    /// count always searches the same way. (default 8)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    pub leaves: Option<u32>,
    /// Share (0 to 1) of a quiescence search's value (captures until the position is quiet,
    /// squashed to an expected score) blended into every leaf value of network and uniform
    /// search players: keeps a weak network's search from missing captures.
    #[arg(long, value_name = "W", default_value_t = 0.0, value_parser = share())]
    pub tactics: f32,
    /// Full-width plies the tactical judge (of `--tactics` and the tree levers below) looks
    /// before its quiescence (0 to 4): 0 sees captures only; each ply more also sees quiet
    /// threats a move deeper, at several times the cost.
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=mcts::MAX_TACTICS_DEPTH as i64))]
    pub tactics_depth: u32,
    /// Share (0 to 1) of the tactical prior in each new node's prior: a softmax over every
    /// move's quiescence value (after `--tactics-depth` plies), so the search looks at the
    /// captures and threats a full-width search sees however low the network ranks them.
    /// (default 0.5)
    #[arg(long, value_name = "W", value_parser = share())]
    pub tactical_prior: Option<f32>,
    /// Plies below the root that get the tactical prior: 1 the root alone, 0 every ply (0 to
    /// 1000000). (default 0)
    #[arg(long, value_name = "N", value_parser = count::<u32>(0, mcts::MAX_PLY_COUNT.into()))]
    pub tactical_prior_plies: Option<u32>,
    /// Temperature of the tactical prior's softmax, in logits of the expected score (1/6 is
    /// 50 centipawns near equality), 0.01 to 100: lower gives the judge's favourite more of the
    /// prior.
    #[arg(long, value_name = "T", value_parser = number(0.01, mcts::MAX_TEMPERATURE))]
    pub tactical_temperature: Option<f32>,
    /// Share (0 to 1) of the best move's quiescence value in each new node's value. (default
    /// 1)
    #[arg(long, value_name = "W", value_parser = share())]
    pub tactical_value: Option<f32>,
    /// Share (0 to 1) of the minimax of the quiescence values below a move in the value that
    /// selection and the move choice read (implicit minimax backups); 0 is plain Monte-Carlo
    /// means. Two players only. (default 0.5)
    #[arg(long, value_name = "W", value_parser = share())]
    pub minimax: Option<f32>,
    /// How the move is chosen: `visits` (the most visited) or `lcb` (the highest lower
    /// confidence bound on its value, Q - width/sqrt(visits)), which reads values where
    /// visits are few. (default lcb)
    #[arg(long, value_name = "RULE", value_parser = parsed::<MoveChoice>)]
    pub choice: Option<MoveChoice>,
    /// Width of the `lcb` choice's bound, 0 to 100: higher is closer to choosing by visits.
    /// (default 0.2)
    #[arg(long, value_name = "C", value_parser = number(0.0, mcts::MAX_LCB_WIDTH))]
    pub lcb_width: Option<f32>,
    /// Forward passes each network batch is split into, run at once on threads of their own
    /// (1 to 64): a single game's leaves use more than one core. (default: the machine's cores
    /// divided by the games or search threads running at once)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub passes: Option<u32>,
}

impl NetArgs {
    /// The tactics the flags ask for: the leaf values of `--tactics` and `--tactics-depth`,
    /// and the tree levers, each the best measured ([`TreeTactics::recommended`]) where not
    /// given, on every variant.
    pub fn tactics(&self) -> alphabeta::Tactics {
        let d = TreeTactics::recommended();
        let tree = TreeTactics {
            prior: self.tactical_prior.unwrap_or(d.prior),
            prior_plies: self.tactical_prior_plies.unwrap_or(d.prior_plies),
            temperature: self.tactical_temperature.unwrap_or(d.temperature),
            value: self.tactical_value.unwrap_or(d.value),
            minimax: self.minimax.unwrap_or(d.minimax),
            choice: self.choice.unwrap_or(d.choice),
            lcb_width: self.lcb_width.unwrap_or(d.lcb_width),
        };
        // Without a judge the depth changes nothing, so it does not make a player different.
        let depth = if self.tactics > 0.0 || tree.judges() { self.tactics_depth } else { 0 };
        alphabeta::Tactics { weight: self.tactics, depth, tree }
    }

    /// The device, inference form and passes the flags ask for, with `at_once` games or search
    /// threads sharing the network (the default passes share the cores among them).
    pub fn inference(&self, at_once: usize) -> anyhow::Result<nn::Inference> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let passes = self.passes.map_or(cores / at_once.max(1), |p| p as usize);
        Ok(nn::Inference::choose(self.device.resolve()?, self.precision).with_passes(passes))
    }
}
