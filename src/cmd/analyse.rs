//! `vzero analyse`: the best moves of one position by search, as a table or one JSON object.

use std::sync::atomic::Ordering;

use std::path::Path;

use anyhow::{anyhow, bail};
use rules::{Variant, VariantGame};
use serde::Serialize;

use super::start::{refuse_finished, setup_usage};
use crate::cli::AnalyseArgs;
use crate::game_file::load_moves;
use mcts::RootMove;

use crate::engine::{cp_from_q, open_session, uniform_reason, Analysis, EngineSettings, Limits, INFO_EVERY};

/// Searches the position and prints what the search found.
pub fn run(args: AnalyseArgs) -> anyhow::Result<()> {
    let (variant, position, moves) = match &args.game {
        Some(path) => game_position(&args, path)?,
        None => {
            let variant = args.variant.ok_or_else(|| anyhow!("--variant is needed without --game"))?;
            (variant, args.start.position.clone(), args.moves.list())
        }
    };
    let inference = args.net.inference(args.threads)?;
    let model = args.engine.model.resolve(variant);
    let mut session = open_session(variant, model.as_deref(), inference).map_err(|e| anyhow!("--model: {e}"))?;
    let start = session.set_position(position.as_deref(), &moves).map_err(setup_usage);
    let over = || match &args.game {
        Some(path) => refuse_finished_ply(session.game().game_over_text(), path),
        None => refuse_finished(session.game().game_over_text(), args.moves.moves.is_some()),
    };
    if let Err(e) = start.and_then(|()| over()) {
        session.close();
        return Err(e);
    }
    match session.model() {
        Some(dir) => eprintln!("vzero analyse: searching with {}", dir.display()),
        None => eprintln!(
            "vzero analyse: searching with the uniform evaluator ({})",
            uniform_reason(&args.engine.model, variant)
        ),
    }
    let limits = Limits { nodes: Some(args.sims.max(1)), ..Limits::default() };
    let settings = EngineSettings {
        threads: args.threads.max(1),
        multipv: args.multipv.max(1),
        leaves: Some(args.net.leaves),
        tactics: args.net.tactics(),
        info_every: INFO_EVERY,
    };
    let stop = crate::stop::on_stop_signal("now: the search ends and its analysis so far is printed, marked partial")?;
    let report = session.search(&limits, settings, &stop, &mut |_| {});
    let partial = stop.load(Ordering::Relaxed);
    let position = session.game().to_text();
    let model = session.model().map(|p| p.display().to_string());
    session.close();
    if let Some(note) = report.tree_full_note(Some(args.sims)) {
        eprintln!("vzero analyse: {note}; ask for fewer --sims");
    }
    if partial {
        eprintln!(
            "vzero analyse: partial: a stop signal ended the search at {} of {} simulations",
            report.nodes, args.sims
        );
    }
    if args.json {
        let json = AnalysisJson { partial, ..to_json(variant.name(), model.as_deref(), &position, args.sims, &report) };
        println!("{}", serde_json::to_string(&json)?);
    } else {
        print_table(&report, partial.then_some(args.sims));
    }
    Ok(())
}

/// The variant, start and moves of the position `--game`, `--game-index` and `--ply` name: by
/// default the game's last position, or the one before it where the game is over there.
fn game_position(args: &AnalyseArgs, path: &Path) -> anyhow::Result<(Variant, Option<String>, Vec<String>)> {
    let (variant, start, mut moves) = load_moves(path, args.game_index.unwrap_or(0), args.variant)?;
    let plies = moves.len();
    let ply = match args.ply {
        Some(ply) if ply > plies => bail!("--ply {ply} is out of range: the game has {plies} moves (0..={plies})"),
        Some(ply) => ply,
        None => {
            let last = VariantGame::setup(variant, Some(&start), &moves)?;
            if last.outcome().is_some() {
                plies.saturating_sub(1)
            } else {
                plies
            }
        }
    };
    moves.truncate(ply);
    Ok((variant, Some(start), moves))
}

/// Refuses a position of a recorded game where the game is over (`over`).
fn refuse_finished_ply(over: Option<String>, path: &Path) -> anyhow::Result<()> {
    match over {
        None => Ok(()),
        Some(reason) => Err(crate::cli::usage(format!(
            "--game {}: at that ply {reason}; there is no move to search (choose an earlier --ply)",
            path.display()
        ))),
    }
}

/// What `vzero analyse --json` prints and the browser page shows: a search's report. Its keys
/// are in alphabetical order and its numbers are f64, as the text has always been written
/// (docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct AnalysisJson {
    /// The move to play (the first line's), if the position has one.
    pub bestmove: Option<String>,
    /// The first line's length in plies.
    pub depth: usize,
    /// The network's checkpoint folder; null for the uniform evaluator.
    pub model: Option<String>,
    /// The root moves reported, best first.
    pub moves: Vec<MoveJson>,
    /// Completed visits at the root.
    pub nodes: u32,
    /// The position searched, as text.
    pub position: String,
    /// A stop signal ended the search before its simulations: what it found so far. Left out
    /// when false, as in the reports written before it existed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// The simulations asked for.
    pub sims: u32,
    /// Milliseconds the search took.
    pub time_ms: u64,
    /// The seat to move, from 0.
    pub to_move: usize,
    /// The root's value, one expected final score per seat.
    pub values: Vec<f64>,
    /// The variant's name.
    pub variant: String,
}

/// One root move of an [`AnalysisJson`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct MoveJson {
    /// The move as text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its prior in the search.
    pub prior: f64,
    /// Its principal variation, from the move on.
    pub pv: Vec<String>,
    /// The mover's mean score after it; null when never visited.
    pub q: Option<f64>,
    /// Each seat's mean score after it; null when never visited.
    pub values: Option<Vec<f64>>,
    /// Completed visits of its subtree.
    pub visits: u32,
}

/// The report `r` of a search of `position` as JSON.
pub(crate) fn to_json(variant: &str, model: Option<&str>, position: &str, sims: u32, r: &Analysis) -> AnalysisJson {
    let wide = |v: &[f32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<f64>>();
    let moves = r
        .lines
        .iter()
        .map(|l| MoveJson {
            mv: l.mv.clone(),
            prior: f64::from(l.prior),
            pv: l.pv.clone(),
            q: l.q.map(f64::from),
            values: l.values.as_deref().map(wide),
            visits: l.visits,
        })
        .collect();
    AnalysisJson {
        bestmove: r.best().map(String::from),
        depth: r.depth(),
        model: model.map(String::from),
        moves,
        nodes: r.nodes,
        partial: false,
        position: position.to_string(),
        sims,
        time_ms: r.time.as_millis() as u64,
        to_move: r.mover,
        values: wide(&r.values),
        variant: variant.to_string(),
    }
}

/// The report as a table: a summary line (saying `partial` when a stop cut short the search of
/// `cut_short_of` simulations), then one row per root move with its visits, prior, mover's score
/// (q and centipawns) and principal variation.
pub(crate) fn print_table(r: &Analysis, cut_short_of: Option<u32>) {
    let values: Vec<String> = r.values.iter().map(|v| format!("{v:.3}")).collect();
    let partial = cut_short_of.map_or_else(String::new, |sims| format!(" (partial: stopped at {} of {sims})", r.nodes));
    println!(
        "{} nodes in {:.2} s{partial}; seat {} to move; root values (seat order) {}",
        r.nodes,
        r.time.as_secs_f64(),
        r.mover + 1,
        values.join(" ")
    );
    println!("{:<4} {:<12} {:>8} {:>7} {:>7} {:>7}  pv", "#", "move", "visits", "prior", "q", "cp");
    for (i, l) in r.lines.iter().enumerate() {
        let (q, cp) = score_columns(l);
        println!("{:<4} {:<12} {:>8} {:>7.3} {:>7} {:>7}  {}", i + 1, l.mv, l.visits, l.prior, q, cp, l.pv.join(" "));
    }
}

/// A line's q and centipawns as table cells (`-` for a move never visited).
fn score_columns(l: &RootMove<String>) -> (String, String) {
    match l.q {
        Some(q) => (format!("{q:.3}"), cp_from_q(q).to_string()),
        None => ("-".into(), "-".into()),
    }
}
