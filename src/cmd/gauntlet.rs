//! `vzero gauntlet`: a run's checkpoints against fixed opponents, rated on one scale.

use anyhow::Context;
use rules::{with_game, FullGame};
use selfplay::gauntlet::GauntletMatch;
use selfplay::gauntlet::{gauntlet_table_from_log, run_gauntlet, GauntletOptions, GauntletTable};
use selfplay::read_events;
use selfplay::Config;
use selfplay::RunDir;

use crate::cli::GauntletArgs;

/// Plays the missing games and prints the table.
pub fn run(args: GauntletArgs) -> anyhow::Result<()> {
    let dir = RunDir::open(&args.run);
    let config = Config::load(&dir.config(), &[])
        .with_context(|| format!("{}: not a run directory (no readable config.toml)", args.run.display()))?;
    if !args.table_only {
        let inference = args.net.inference(args.play.threads)?;
        let opts = GauntletOptions {
            opponents: args.against.0.clone(),
            checkpoints: args.checkpoints,
            each_other: args.each_other,
            games: args.games,
            sims: args.sims,
            tactics: args.net.tactics(config.variant),
            leaves: args.net.leaves,
            reuse_trees: !args.play.fresh_search,
            max_plies: args.play.max_plies,
            adjudicate_material: args.play.adjudication(config.variant),
            opening_plies: args.play.opening_plies,
            threads: args.play.threads,
            seed: args.play.seed,
        };
        with_game!(config.variant, G => play::<G>(&dir, &opts, inference))?;
    }
    let log = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default());
    // A run's own gauntlet, or one played with other search flags, still shows: the table of
    // the last match's search, named in the table's title.
    let table = gauntlet_table_from_log(&log, Some(args.sims), Some(args.net.tactics(config.variant)))
        .or_else(|| gauntlet_table_from_log(&log, Some(args.sims), None));
    match table {
        Some(table) => print_table(&table, &config.variant.to_string()),
        None => println!("{}: no gauntlet results at {} simulations yet", args.run.display(), args.sims),
    }
    Ok(())
}

/// Plays the gauntlet's missing matches, printing each as it ends.
fn play<G: FullGame>(dir: &RunDir, opts: &GauntletOptions, inference: nn::Inference) -> anyhow::Result<()> {
    let stop = crate::stop::on_stop_signal("after the games in progress; their match is kept, marked interrupted")?;
    let mut report = |g: &GauntletMatch| {
        let per_move = g.player_seconds / g.player_moves.max(1) as f64;
        println!(
            "{} vs {}: {}, score {:.1}% ({:.3} s/move)",
            g.player,
            g.opponent,
            match_games(g),
            100.0 * g.score / g.games.max(1) as f64,
            per_move
        );
    };
    run_gauntlet::<G>(dir, opts, inference, &stop, &mut report)?;
    Ok(())
}

/// Prints one row per player: checkpoints by step, then the fixed opponents.
fn print_table(table: &GauntletTable, variant: &str) {
    let off = table.tactics == alphabeta::Tactics::default();
    let tactics = if off { String::new() } else { format!(" with {}", table.tactics.flags()) };
    println!(
        "\n{variant} gauntlet at {} simulations{tactics}: Elo with 95% intervals, {} = 0",
        table.sims, table.anchor
    );
    println!(
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
        println!(
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
    if table.rows.iter().any(|r| r.partial) {
        println!("* a gauntlet was stopped before this player's games were all played; run it again to play the rest");
    }
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
