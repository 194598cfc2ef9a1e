//! `vzero analyse`: the best moves of one position by search, as a table or one JSON object.

use std::sync::atomic::AtomicBool;

use anyhow::anyhow;
use serde_json::json;

use super::start::{refuse_finished, setup_usage};
use crate::cli::AnalyseArgs;
use mcts::RootMove;

use crate::engine::{cp_from_q, open_session, uniform_reason, Analysis, EngineSettings, Limits, INFO_EVERY};

/// Searches the position and prints what the search found.
pub fn run(args: AnalyseArgs) -> anyhow::Result<()> {
    let inference = args.net.inference(args.threads)?;
    let model = args.engine.model.resolve(args.game.variant);
    let mut session =
        open_session(args.game.variant, model.as_deref(), inference).map_err(|e| anyhow!("--model: {e}"))?;
    let start = session.set_position(args.start.position.as_deref(), &args.moves.list()).map_err(setup_usage);
    if let Err(e) = start.and_then(|()| refuse_finished(session.game().game_over_text(), args.moves.moves.is_some())) {
        session.close();
        return Err(e);
    }
    match session.model() {
        Some(dir) => eprintln!("vzero analyse: searching with {}", dir.display()),
        None => eprintln!(
            "vzero analyse: searching with the uniform evaluator ({})",
            uniform_reason(&args.engine.model, args.game.variant)
        ),
    }
    let limits = Limits { nodes: Some(args.sims.max(1)), ..Limits::default() };
    let settings = EngineSettings {
        threads: args.threads.max(1),
        multipv: args.multipv.max(1),
        leaves: args.net.leaves,
        tactics: args.net.tactics(),
        info_every: INFO_EVERY,
    };
    let report = session.search(&limits, settings, &AtomicBool::new(false), &mut |_| {});
    let position = session.game().to_text();
    let model = session.model().map(|p| p.display().to_string());
    session.close();
    if let Some(note) = report.tree_full_note(Some(args.sims)) {
        eprintln!("vzero analyse: {note}; ask for fewer --sims");
    }
    if args.json {
        println!("{}", to_json(args.game.variant.name(), model.as_deref(), &position, args.sims, &report));
    } else {
        print_table(&report);
    }
    Ok(())
}

/// The report as the JSON object documented in the README (also what the browser page shows).
pub(crate) fn to_json(
    variant: &str,
    model: Option<&str>,
    position: &str,
    sims: u32,
    r: &Analysis,
) -> serde_json::Value {
    let moves: Vec<serde_json::Value> = r
        .lines
        .iter()
        .map(|l| {
            json!({
                "move": l.mv,
                "visits": l.visits,
                "prior": l.prior,
                "q": l.q,
                "values": l.values,
                "pv": l.pv,
            })
        })
        .collect();
    json!({
        "variant": variant,
        "model": model,
        "position": position,
        "to_move": r.mover,
        "sims": sims,
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
        "depth": r.depth(),
        "values": r.values,
        "bestmove": r.best(),
        "moves": moves,
    })
}

/// The report as a table: a summary line, then one row per root move with its visits, prior,
/// mover's score (q and centipawns) and principal variation.
pub(crate) fn print_table(r: &Analysis) {
    let values: Vec<String> = r.values.iter().map(|v| format!("{v:.3}")).collect();
    println!(
        "{} nodes in {:.2} s; seat {} to move; root values (seat order) {}",
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
