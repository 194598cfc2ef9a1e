//! `vzero arena`: a match between players, with ratings.

use std::sync::atomic::Ordering;
use std::time::Duration;

use arena::forfeit::{forfeit_counts, Forfeit};
use arena::players::{load_players, PlayerOptions, PlayerSpec};
use arena::rating::{elo_estimate, sprt, SprtDecision};
use arena::uci::EngineBudget;
use arena::{continue_match, Agent, MatchOptions, MatchResult, PlayedGame};
use rules::{with_game, FullGame};
use selfplay::progress::Progress;
use serde_json::json;

use super::arena_resume::{earlier_games, MatchKey, EVENT, SEED_TAG};
use super::start::{refuse_finished, start_position};
use crate::cli::{usage, ArenaArgs};
use crate::games_out::GamesOut;

/// Plays the match and prints its table.
pub fn run(args: ArenaArgs) -> anyhow::Result<()> {
    // Players, counts and bounds are judged on their text: a mistake is a usage error (exit 2).
    let specs: Vec<PlayerSpec> =
        args.players.iter().map(|p| p.parse()).collect::<Result<_, _>>().map_err(|e| usage(format!("{e}")))?;
    if specs.len() != args.game.variant.players() {
        let (variant, seats) = (args.game.variant, args.game.variant.players());
        return Err(usage(format!("{variant} has {seats} players, {} given", specs.len())));
    }
    if specs.len() == 3 && !args.games.is_multiple_of(THREE_PLAYER_ORDERS) {
        return Err(usage(format!(
            "--games {}: a three-player match plays each of the {THREE_PLAYER_ORDERS} seat orders equally often, \
             so the number of games must be a multiple of {THREE_PLAYER_ORDERS}",
            args.games
        )));
    }
    let sprt_bounds = match &args.sprt {
        None => None,
        Some(_) if specs.len() != 2 => return Err(usage("--sprt needs a two-player variant")),
        Some(text) => {
            let parse = |s: &str| s.trim().parse::<f64>().ok().filter(|x| x.is_finite());
            let bounds = text.split_once(',').and_then(|(a, b)| Some((parse(a)?, parse(b)?)));
            let (elo0, elo1) =
                bounds.ok_or_else(|| usage(format!("--sprt '{text}': expected ELO0,ELO1, e.g. 0,20")))?;
            if elo0 >= elo1 {
                return Err(usage(format!(
                    "--sprt '{text}': ELO0 must be below ELO1 (the test decides between elo = ELO0 and elo = ELO1)"
                )));
            }
            Some((elo0, elo1))
        }
    };
    // Both are at least 1 (their flags' ranges).
    let engine_budget = match (args.engine_nodes, args.engine_movetime) {
        (Some(n), _) => EngineBudget::Nodes(n),
        (None, Some(ms)) => EngineBudget::Movetime(Duration::from_millis(ms)),
        (None, None) => EngineBudget::Nodes(args.sims),
    };
    if let Some(out) = &args.out {
        crate::output::check_out_file(out, None, &[])?;
    }
    let games_out = GamesOut::open("--games-out", args.play.games_out.as_deref())?;
    // The start is judged before any player is loaded: a finished game has no move to play.
    with_game!(args.game.variant, G => start_position::<G>(args.start.position.as_deref(), None)
        .and_then(|start| refuse_finished(rules::game_over_text(&start), false)))?;
    let inference = args.net.inference(args.play.threads)?;
    if inference.device == nn::Device::Cpu && specs.iter().any(|s| s.network_path().is_some()) {
        // The games' searches and the networks share the cores: libtorch's own thread pool on
        // top collapses when they are busy, as `vzero uci` found (20 times slower on 2 cores).
        nn::set_threads(1);
    }
    let out = games_out.as_ref();
    with_game!(args.game.variant, G => arena_match::<G>(&args, &specs, sprt_bounds, engine_budget, inference, out))?;
    games_out.map_or(Ok(()), GamesOut::finish)
}

/// Plays the match of game `G`, prints its report and appends it to `--out`, and every game
/// to `games_out`.
fn arena_match<G: FullGame>(
    a: &ArenaArgs,
    specs: &[PlayerSpec],
    sprt_bounds: Option<(f64, f64)>,
    engine_budget: EngineBudget,
    inference: nn::Inference,
    games_out: Option<&GamesOut>,
) -> anyhow::Result<()> {
    // Installed before the players load, so that their searches see it: a stop ends every
    // search at once, and the games in progress are abandoned rather than finished on moves
    // chosen in a hurry (an alpha-beta player at depth 30 would otherwise take hours).
    let signal = crate::stop::on_stop_signal_static(
        "at once: the games in progress are abandoned; the finished games' results are printed and marked interrupted",
    )?;
    let opts = PlayerOptions {
        default_sims: a.sims,
        leaves: Some(a.net.leaves),
        engine_budget,
        inference,
        tactics: a.net.tactics(),
        reuse_trees: !a.play.fresh_search,
        stop: Some(signal),
    };
    let players = load_players::<G>(specs, opts)?;
    let agents: Vec<&dyn Agent<G>> = players.agents.iter().map(|b| b.as_ref()).collect();
    let opts = MatchOptions {
        games: a.games,
        opening_plies: a.play.opening_plies,
        max_plies: a.play.max_plies,
        adjudicate_material: a.play.adjudication(a.game.variant),
        threads: a.play.threads,
        seed: a.play.seed,
        abandon: Some(signal),
    };
    let start = start_position::<G>(a.start.position.as_deref(), None)?;
    let (start_text, names) = (start.to_text(), agents.iter().map(|p| p.name()).collect::<Vec<_>>());
    let earlier = match games_out.filter(|_| a.resume) {
        Some(out) => {
            let key = MatchKey {
                variant: a.game.variant,
                start: &start_text,
                names: &names,
                seed: a.play.seed,
                games: a.games,
            };
            let earlier = earlier_games(out.path(), &key)?;
            println!(
                "resuming: {} of {} games already in {}; playing the other {}",
                earlier.len(),
                a.games,
                out.path().display(),
                a.games - earlier.len()
            );
            earlier
        }
        None => Vec::new(),
    };
    let bar = Progress::new(true, a.games as u64, "games");
    bar.done_before(earlier.len() as u64);
    let after_game = |r: &MatchResult, game: &PlayedGame| {
        bar.set_position(r.games as u64);
        let text = |g: &PlayedGame| {
            let mut text = g.text(EVENT, a.game.variant, &start_text, &names);
            text.tags.push((SEED_TAG.into(), a.play.seed.to_string()));
            text
        };
        let kept = games_out.is_none_or(|out| out.append(&text(game)));
        let decided = match sprt_bounds {
            Some((e0, e1)) => sprt(&r.first_scores, e0, e1).1 != SprtDecision::Continue,
            None => false,
        };
        decided || signal.load(Ordering::Relaxed) || !kept
    };
    let result = continue_match::<G>(&agents, &start, opts, &earlier, &after_game);
    bar.finish_and_clear();
    // Cut short by a signal (an SPRT decision ends a match early on purpose, and is not).
    let interrupted = signal.load(Ordering::Relaxed) && result.games < a.games;
    if interrupted {
        let abandoned = match result.abandoned {
            0 => String::new(),
            n => format!(" ({n} in progress abandoned)"),
        };
        let resume = match games_out {
            Some(out) => {
                format!(" (the same command with --resume plays the rest; {} keeps the games)", out.path().display())
            }
            None => String::new(),
        };
        println!(
            "stopped by a signal after {} of {} games{abandoned}{resume}; the results so far:",
            result.games, a.games
        );
    }
    let mut record = report(G::NAME, &names, &result, sprt_bounds, a.games);
    record["games_planned"] = json!(a.games);
    record["interrupted"] = json!(interrupted);
    record["abandoned"] = json!(result.abandoned);
    // Games counted from the file, whose moves and time the ms/move figures leave out.
    record["resumed_games"] = json!(earlier.len());
    players.close();
    if let Some(path) = &a.out {
        crate::output::append_json_line(path, &record)?;
    }
    Ok(())
}

/// Seat orders of a three-player match, each played equally often.
const THREE_PLAYER_ORDERS: usize = 6;

/// Prints the table and returns the JSON record; a match that played fewer games than the
/// `planned` says so in its first line.
fn report(
    variant: &str,
    names: &[String],
    r: &MatchResult,
    sprt_bounds: Option<(f64, f64)>,
    planned: usize,
) -> serde_json::Value {
    let games = if r.games < planned { format!("{} of {planned}", r.games) } else { r.games.to_string() };
    println!("{variant}: {games} games ({} adjudicated at the ply limit)", r.adjudicated);
    let endings: Vec<String> = r.endings.iter().map(|(why, n)| format!("{why} {n}")).collect();
    println!("endings: {}", endings.join(", "));
    // The name column fits the longest name (a uci: command line can be long).
    let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max("player".len());
    // Games that are none of win, draw and loss (a Glinski stalemate's 3/4 and 1/4) get a
    // column where a match has them, so that the others still add up to the games.
    let partial: Vec<usize> = (0..names.len()).map(|i| r.partial(i)).collect();
    let with_partial = partial.iter().any(|&p| p > 0);
    let partial_column = |p: String| if with_partial { format!(" {p:>7}") } else { String::new() };
    let header = partial_column("partial".to_string());
    println!("{:<w$} {:>6} {:>6} {:>6}{header} {:>8} {:>10}", "player", "wins", "draws", "losses", "score", "ms/move");
    for (i, name) in names.iter().enumerate() {
        let (wins, draws, losses) = (r.wins[i], r.draws, r.losses[i]);
        let (score, ms, partial) = (100.0 * r.mean_score(i), r.ms_per_move(i), partial_column(partial[i].to_string()));
        println!("{name:<w$} {wins:>6} {draws:>6} {losses:>6}{partial} {score:>7.1}% {ms:>10.2}");
    }
    let mut record = json!({
        "variant": variant,
        "players": names,
        "games": r.games,
        "wins": r.wins,
        "draws": r.draws,
        "losses": r.losses,
        "partial": partial,
        "endings": r.endings,
        "mean_score": (0..names.len()).map(|i| r.mean_score(i)).collect::<Vec<_>>(),
        "forfeits": r.forfeits.iter().map(Vec::as_slice).map(forfeit_counts).collect::<Vec<_>>(),
        "ms_per_move": (0..names.len()).map(|i| r.ms_per_move(i)).collect::<Vec<_>>(),
    });
    for (name, forfeits) in names.iter().zip(&r.forfeits) {
        if let Some(line) = forfeit_line(name, forfeits) {
            println!("{line}");
        }
    }
    if names.len() == 2 {
        let e = elo_estimate(&r.first_scores);
        println!("Elo of {} over {}: {:+.0} (95% interval {:+.0} to {:+.0})", names[0], names[1], e.elo, e.low, e.high);
        record["elo"] = json!({"elo": e.elo, "low": e.low, "high": e.high});
        if let Some((e0, e1)) = sprt_bounds {
            let (llr, decision) = sprt(&r.first_scores, e0, e1);
            let text = match decision {
                SprtDecision::AcceptH1 => format!("H1 accepted (elo >= {e1})"),
                SprtDecision::AcceptH0 => format!("H0 accepted (elo <= {e0})"),
                SprtDecision::Continue => "no decision yet".to_string(),
            };
            println!("SPRT [{e0}, {e1}]: LLR {llr:.2} (bounds -2.94, 2.94): {text}");
            record["sprt"] = json!({"elo0": e0, "elo1": e1, "llr": llr, "decision": text});
        }
    } else {
        println!("king captures by seat (P1 P2 P3):");
        let mut rates = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let by_seat: Vec<f64> =
                (0..names.len()).map(|s| r.seat_wins[i][s] as f64 / r.seat_games[i][s].max(1) as f64).collect();
            println!(
                "  {:<w$} {}",
                name,
                by_seat.iter().map(|x| format!("{:>5.1}%", 100.0 * x)).collect::<Vec<_>>().join(" ")
            );
            rates.push(by_seat);
        }
        record["capture_rate_by_seat"] = json!(rates);
    }
    record
}

/// `NAME forfeited N games: KIND n (first: DETAIL), ...`, or nothing for a player that never
/// forfeited.
fn forfeit_line(name: &str, forfeits: &[Forfeit]) -> Option<String> {
    let first = |kind: &str| {
        let first = forfeits.iter().find(|f| f.kind() == kind).expect("a forfeit of each counted kind");
        format!(" (first: {first})")
    };
    arena::forfeit::forfeit_line(name, &forfeit_counts(forfeits), first)
}
