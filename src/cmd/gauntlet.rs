//! `vzero gauntlet`: a run's checkpoints against fixed opponents, rated on one scale.

use anyhow::Context;
use rules::{with_game, KnownVariant};
use selfplay::gauntlet::{
    gauntlet_matches, gauntlet_settings, gauntlet_table_from_log, head_to_head_from_log, run_gauntlet, GauntletMatch,
    GauntletOptions, GauntletPlan, GauntletRow, GauntletSetting, GauntletTable, HeadToHead,
};
use selfplay::read_events;
use selfplay::Config;
use selfplay::RunDir;

use crate::cli::GauntletArgs;
use crate::games_out::GamesOut;

/// Plays the missing games and prints the table.
pub fn run(args: GauntletArgs) -> anyhow::Result<()> {
    // The table needs only the run's config and log; playing needs the whole run.
    let dir = if args.table_only { RunDir::unchecked(&args.run) } else { RunDir::existing(&args.run)? };
    let config = Config::load(&dir.config(), &[])
        .with_context(|| format!("{}: not a run directory (no readable config.toml)", args.run.display()))?;
    let opts = GauntletOptions {
        opponents: args.against.0.clone(),
        checkpoints: args.checkpoints,
        each_other: args.each_other,
        anchors: Vec::new(),
        games: args.games,
        max_games: args.max_games,
        sims: args.sims,
        tactics: args.net.tactics(),
        leaves: Some(args.net.leaves),
        reuse_trees: !args.play.fresh_search,
        max_plies: args.play.max_plies,
        adjudicate_material: args.play.adjudication(config.variant),
        opening_plies: args.play.opening_plies,
        threads: args.play.threads,
        seed: args.play.seed,
        abandon: None,
    };
    if !args.table_only {
        let games_out = GamesOut::open("--games-out", args.play.games_out.as_deref())?;
        let inference = args.net.inference(args.play.threads)?;
        with_game!(config.variant, G => play::<G>(&dir, &opts, inference, games_out.as_ref()))?;
        games_out.map_or(Ok(()), GamesOut::finish)?;
    }
    let log = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default());
    // The table of these flags' setting; else, of a run's own gauntlet or one played with other
    // flags, the last match's at these simulations, its setting named in the table's title.
    let setting = opts.setting();
    let Some(table) = gauntlet_table_from_log(&log, Some(&setting), Some(args.sims)) else {
        println!("{}", no_table(&args.run, args.sims, &gauntlet_settings(&gauntlet_matches(&log))));
        return Ok(());
    };
    print!("{}", table_text(&table, &head_to_head_from_log(&log, &table), &config.variant.to_string()));
    let others: Vec<String> = gauntlet_settings(&gauntlet_matches(&log))
        .iter()
        .filter(|s| **s != table.setting)
        .map(|s| format!("--sims {} {}", s.sims, s.flags()))
        .collect();
    if !others.is_empty() {
        println!(
            "note: the run has gauntlet results under other settings too, each a table of its own \
             (--table-only with its flags): {}",
            others.join("; ")
        );
    }
    Ok(())
}

/// What `--table-only` says when the run has no results at `sims` simulations: the counts it
/// has results at, if any.
fn no_table(run: &std::path::Path, sims: u32, settings: &[GauntletSetting]) -> String {
    let mut counts: Vec<u32> = settings.iter().map(|s| s.sims).collect();
    counts.sort_unstable();
    counts.dedup();
    if counts.is_empty() {
        return format!("{}: no gauntlet results yet", run.display());
    }
    let counts: Vec<String> = counts.iter().map(|n| format!("--sims {n}")).collect();
    format!(
        "{}: no gauntlet results at {sims} simulations; expected one of the counts it has results at: {}",
        run.display(),
        counts.join(", ")
    )
}

/// Plays the gauntlet's missing matches, printing each as it ends and appending its games to
/// `games_out`.
fn play<G: KnownVariant>(
    dir: &RunDir,
    opts: &GauntletOptions,
    inference: nn::Inference,
    games_out: Option<&GamesOut>,
) -> anyhow::Result<()> {
    let stop = crate::stop::on_stop_signal_static(
        "at once: the games in progress are abandoned; each match keeps its finished games, marked interrupted",
    )?;
    // Every search ends at the signal, and the games it cut short are scored nowhere.
    let opts = &GauntletOptions { abandon: Some(stop), ..opts.clone() };
    let mut report = |g: &GauntletMatch| {
        let per_move = g.player_seconds / g.player_moves.max(1) as f64;
        let forfeits = g.forfeit_line().map_or_else(String::new, |line| format!("; {line}"));
        println!(
            "{} vs {}: {}, score {:.1}% ({:.3} s/move){forfeits}",
            g.player,
            g.opponent,
            match_games(g),
            100.0 * g.score / g.games.max(1) as f64,
            per_move
        );
    };
    let mut plan = |p: &GauntletPlan| println!("gauntlet: {}", p.describe());
    let (variant, start) = (G::VARIANT, G::start().to_text());
    let on_game = |game: &arena::PlayedGame, names: &[String]| {
        games_out.is_some_and(|out| !out.append(&game.text("vzero gauntlet", variant, &start, names)))
    };
    run_gauntlet::<G>(dir, opts, inference, stop, &mut plan, &mut report, &on_game)?;
    Ok(())
}

/// The table as `vzero gauntlet` prints it (a blank line, the title, one row per player, then
/// forfeits and notes, then the `pairs` of two networks head to head), for the terminal and the
/// browser page's run view.
pub(crate) fn table_text(table: &GauntletTable, pairs: &[HeadToHead], variant: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{variant} gauntlet at {} simulations with {}: Elo with 95% intervals, {} = 0",
        table.setting.sims,
        table.setting.flags(),
        table.anchor
    );
    let _ = writeln!(
        out,
        "{:<24} {:>8} {:>9} {:>6} {:>7} {:>6} {:>15} {:>8}",
        "player", "step", "trained", "games", "score", "Elo", "interval", "ms/move"
    );
    for r in &table.rows {
        let step = r.step.map_or_else(|| "-".to_string(), |s| s.to_string());
        let trained = r.train_seconds.map_or_else(|| "-".to_string(), clock);
        let (elo, interval) = match r.rating {
            Some(x) => (format!("{:+.0}", x.elo), format!("[{:+.0}, {:+.0}]", x.low, x.high)),
            None => ("?".to_string(), "unlinked".to_string()),
        };
        let per_move = r.seconds_per_move.map_or_else(|| "-".to_string(), |s| format!("{:.1}", 1000.0 * s));
        let games = format!("{}{}", r.games, if r.partial { "*" } else { "" });
        let _ = writeln!(
            out,
            "{:<24} {:>8} {:>9} {:>6} {:>6.1}% {:>6} {:>15} {:>8}",
            r.name,
            step,
            trained,
            games,
            100.0 * r.score,
            elo,
            interval,
            per_move
        );
    }
    for r in &table.rows {
        if let Some(line) = arena::forfeit::forfeit_line(&r.name, &r.forfeits, |_| String::new()) {
            let _ = writeln!(out, "{line} (lost, not played out: the scores and ratings above count them)");
        }
    }
    for note in ranking_notes(table) {
        let _ = writeln!(out, "{note}");
    }
    if table.rows.iter().any(|r| r.partial) {
        let _ = writeln!(
            out,
            "* a gauntlet was stopped before this player's games were all played; run it again to play the rest"
        );
    }
    if !pairs.is_empty() {
        let _ = writeln!(out, "\nhead to head (the first network's score, Elo with 95% interval):");
        for p in pairs {
            let _ = writeln!(
                out,
                "{} vs {}: {} games, {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]",
                p.player,
                p.opponent,
                p.games,
                100.0 * p.score,
                p.elo.elo,
                p.elo.low,
                p.elo.high
            );
        }
    }
    out
}

/// Notes on the checkpoints' order, which often surprises: when the top-rated checkpoint's
/// interval overlaps another's, the games do not order them (the order is chance, not a fault
/// of the scale); and when the untrained step 0 is on top, why it can be. Measured on the
/// README's tiny run (docs/cli.md#vzero-gauntlet): with the tactical levers off its step 0
/// scored 30% against alphabeta:1 and its step 157 0%; with them on both scored about 90%.
fn ranking_notes(table: &GauntletTable) -> Vec<String> {
    let rated: Vec<(&GauntletRow, arena::rating::Rating)> =
        table.rows.iter().filter(|r| r.step.is_some()).filter_map(|r| Some((r, r.rating?))).collect();
    let Some((top, best)) = rated.iter().max_by(|a, b| a.1.elo.total_cmp(&b.1.elo)) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    let overlapping = rated.iter().filter(|(r, x)| r.name != top.name && x.high >= best.low).count();
    if overlapping > 0 {
        let tactics = if table.setting.tactics.judges() {
            "; with the tactical levers on, the search's alpha-beta judge decides most games whatever the network"
        } else {
            ""
        };
        notes.push(format!(
            "note: the interval of {} overlaps those of {overlapping} other checkpoints: these games do not order them \
             (more --games, or opponents they do not all beat, tell them apart){tactics}",
            top.name
        ));
    }
    if top.step == Some(0) && rated.len() > 1 {
        notes.push(
            "note: step 0 is the untrained network, whose near-uniform priors and values make a plain search; \
             a network trained on few games of a small search (as the tiny configs' are) can play worse than that"
                .to_string(),
        );
    }
    notes
}

/// `N games`, or for a match a stop cut short `N of M games (interrupted)`.
fn match_games(g: &GauntletMatch) -> String {
    if g.interrupted {
        format!("{} of {} games (interrupted)", g.games, g.games_planned)
    } else {
        format!("{} games", g.games)
    }
}

/// Seconds as h:mm:ss.
fn clock(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}
