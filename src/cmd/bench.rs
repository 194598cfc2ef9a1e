//! `vzero bench`: speed measurements quoted in the docs and issue notes.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use nn::{NetConfig, TrainForm};
use rules::hexchess::Glinski;
use rules::{perft, with_game, FullGame, Game, Variant};
use selfplay::replay::{read_checked_shard, ReplayWindow, WindowSize};
use selfplay::Config;
use selfplay::RunDir;

use super::tactics_bench::tactics_bench;
use crate::cli::{BenchArgs, BenchKind};

/// The config `bench` uses without `--config`, built into the program so that the benchmarks
/// run from any folder (a path would be read relative to the current one).
const DEFAULT_CONFIG: (&str, &str) =
    ("configs/mini-hexchess.toml (built in)", include_str!("../../configs/mini-hexchess.toml"));

/// The config of `bench selfplay`, `nn` and `train`: `--config`'s file or the built-in default,
/// with the `--set` overrides applied.
fn bench_config(args: &BenchArgs) -> anyhow::Result<Config> {
    Ok(match &args.config {
        Some(path) => Config::load(path, &args.overrides)?,
        None => Config::parse(DEFAULT_CONFIG.1, DEFAULT_CONFIG.0, &args.overrides)?,
    })
}

/// Runs the chosen benchmark.
pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    match args.what {
        BenchKind::Perft => {
            for variant in Variant::ALL {
                let depth = perft_bench_depth(variant);
                with_game!(variant, G => perft_bench::<G>(depth));
            }
            Ok(())
        }
        BenchKind::Selfplay => {
            let config = bench_config(&args)?;
            with_game!(config.variant(), G => selfplay_bench::<G>(&config, args.seconds))
        }
        BenchKind::Nn => {
            let config = bench_config(&args)?;
            with_game!(config.variant(), G => nn_bench::<G>(&config, &args))
        }
        BenchKind::Train => {
            let config = bench_config(&args)?;
            with_game!(config.variant(), G => train_bench::<G>(&config, args.seconds))
        }
        BenchKind::Replay => match &args.run {
            Some(run) => {
                let config = Config::load(&RunDir::unchecked(run).config(), &[])?;
                with_game!(config.variant(), G => sampler_bench::<G>(&run_window::<G>(run)?, &args))
            }
            None => {
                let (window, bytes) =
                    selfplay::bench::replay_window_memory::<Glinski>(args.positions, VISITED_MOVES, 1);
                println!(
                    "glinski replay window: {} positions in {} games, {:.0} MB resident ({:.0} bytes per position)",
                    window.len(),
                    window.games(),
                    bytes as f64 / 1e6,
                    bytes as f64 / window.len().max(1) as f64
                );
                let before = selfplay::bench::resident_bytes();
                sampler_bench::<Glinski>(&window, &args)?;
                let snapshots = selfplay::bench::resident_bytes().saturating_sub(before);
                println!("  snapshots decoded while sampling: {:.0} MB resident", snapshots as f64 / 1e6);
                Ok(())
            }
        },
        BenchKind::AlphaBeta => {
            let cap = std::time::Duration::from_secs_f64(args.seconds.max(0.001));
            for variant in Variant::ALL {
                with_game!(variant, G => alphabeta_bench::<G>(cap));
            }
            for variant in Variant::ALL {
                with_game!(variant, G => tactics_bench::<G>());
            }
            Ok(())
        }
        BenchKind::Mcts => {
            for variant in Variant::ALL {
                with_game!(variant, G => mcts_bench::<G>(args.simulations, args.root));
            }
            Ok(())
        }
    }
}

/// Visited root moves per position in the replay benchmark: what a few hundred simulations
/// leave on Glinski's ~50 legal moves.
const VISITED_MOVES: usize = 30;

/// Every game of the run at `run`, in one window; each checked as a game of `G` as training
/// checks them (the sampler indexes by what a game records).
fn run_window<G: FullGame>(run: &Path) -> anyhow::Result<ReplayWindow> {
    let dir = RunDir::unchecked(run);
    let mut games = Vec::new();
    for path in dir.shard_paths()? {
        games.extend(read_checked_shard::<G>(&path)?);
    }
    games.sort_by_key(|g| g.number);
    let all = WindowSize { min: usize::MAX, max: usize::MAX, alpha: 0.75, beta: 0.4 };
    let mut window = ReplayWindow::new(all);
    for g in games {
        window.push(Arc::new(g));
    }
    println!("{}: {} positions in {} games", run.display(), window.len(), window.games());
    Ok(window)
}

/// The sampler's throughput on one window.
fn sampler_bench<G: FullGame>(window: &ReplayWindow, args: &BenchArgs) -> anyhow::Result<()> {
    if window.is_empty() {
        anyhow::bail!("no training positions to sample");
    }
    let r = selfplay::bench::sampler_throughput::<G>(window, args.batch, args.seconds, 1)?;
    println!(
        "  sampler, batches of {}: {:>8.0} positions/s in the first {:.0} s, {:>8.0} positions/s after",
        args.batch,
        r.first_half,
        args.seconds / 2.0,
        r.second_half
    );
    Ok(())
}

/// Network positions per second alone and inside self-play, for the config's network.
fn selfplay_bench<G: FullGame>(config: &Config, seconds: f64) -> anyhow::Result<()> {
    let r = selfplay::bench::selfplay_throughput::<G>(config, seconds)?;
    println!(
        "{} ({} blocks x {} channels, batch {}):",
        G::NAME,
        config.network.blocks,
        config.network.channels,
        config.selfplay.max_batch
    );
    println!("  network alone      {:>10.0} positions/s", r.raw_positions_per_second);
    println!(
        "  inside self-play   {:>10.0} positions/s (ratio {:.2}, mean batch {:.1})",
        r.selfplay_positions_per_second,
        r.ratio(),
        r.mean_batch
    );
    println!("  games per hour     {:>10.0}", r.games_per_hour);
    Ok(())
}

/// Positions per second of each inference form of the config's network (or `--nets`), with
/// GFLOP/s and the share of the machine's matrix-product peak measured in the same run.
fn nn_bench<G: FullGame>(config: &Config, args: &BenchArgs) -> anyhow::Result<()> {
    let device = config.device.resolve()?;
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    nn::set_threads(threads);
    let shapes: Vec<(usize, usize)> = if args.nets.is_empty() {
        vec![(config.network.blocks, config.network.channels)]
    } else {
        args.nets.iter().map(|n| parse_net(n)).collect::<anyhow::Result<_>>()?
    };
    if args.batches.contains(&0) {
        anyhow::bail!("--batches: a batch holds at least 1 position");
    }
    let bf16 = nn::fast::cpu_has_bf16();
    let forms = nn::bench::forms_available(device);
    let seconds = args.seconds.max(0.1);
    let peak_fp32 = nn::bench::matmul_peak_gflops(device, nn::Precision::Fp32, seconds.min(2.0));
    let peak_bf16 = bf16.then(|| nn::bench::matmul_peak_gflops(device, nn::Precision::Bf16, seconds.min(2.0)));
    println!(
        "{} on {} with {threads} libtorch threads; bf16: {}; peak (1024x1024 matmul): {peak_fp32:.0} GFLOP/s fp32{}",
        G::NAME,
        nn::device::describe(device),
        if bf16 { "native (avx512_bf16/amx)" } else { "not native, not measured" },
        peak_bf16.map_or_else(String::new, |p| format!(", {p:.0} GFLOP/s bf16")),
    );
    for (blocks, channels) in shapes {
        let net = NetConfig::for_game::<G>(blocks, channels).with_trunk(config.network.trunk);
        let flops = nn::bench::flops_per_position(&net);
        println!("{blocks}x{channels}: {:.1} MFLOP a position", flops / 1e6);
        println!("  {:<18} {:>6} {:>12} {:>9} {:>7}", "form", "batch", "positions/s", "GFLOP/s", "peak");
        for r in nn::bench::bench_forms(&net, device, &forms, &args.batches, seconds) {
            let peak = if r.form.ends_with("bf16") { peak_bf16.unwrap_or(peak_fp32) } else { peak_fp32 };
            println!(
                "  {:<18} {:>6} {:>12.0} {:>9.1} {:>6.1}%",
                r.form,
                r.batch,
                r.positions_per_second,
                r.gflops,
                100.0 * r.gflops / peak
            );
        }
    }
    Ok(())
}

/// `BLOCKSxCHANNELS` as two numbers.
fn parse_net(text: &str) -> anyhow::Result<(usize, usize)> {
    let bad = || anyhow::anyhow!("--nets '{text}': expected BLOCKSxCHANNELS, e.g. 6x64");
    let (b, c) = text.split_once('x').ok_or_else(bad)?;
    let (b, c) = (b.parse::<usize>().map_err(|_| bad())?, c.parse::<usize>().map_err(|_| bad())?);
    if b > 64 || c == 0 || c > 1024 {
        return Err(bad());
    }
    Ok((b, c))
}

/// Training steps per second of the config's network.
fn train_bench<G: FullGame>(config: &Config, seconds: f64) -> anyhow::Result<()> {
    let t = &config.training;
    let on_cuda = config.device.resolve()?.is_cuda();
    println!(
        "{} ({} blocks x {} channels, batch {}):",
        G::NAME,
        config.network.blocks,
        config.network.channels,
        t.batch_size
    );
    // The CPU forms a step could take, plain first: the ratios are against it; the one the
    // config's `training.cpu_form` picks is marked. On CUDA a run trains as it always does
    // (fp16 autocast where `training.mixed_precision`).
    let bf16 = nn::fast::cpu_has_bf16();
    if !on_cuda && !bf16 {
        println!("  (no bf16 forms: this CPU has no native bf16)");
    }
    let forms = TrainForm::ALL.into_iter().filter(|f| *f == TrainForm::PLAIN || (!on_cuda && (bf16 || !f.bf16)));
    let chosen = config.training.cpu_form.resolve(&config.network.net_config::<G>());
    let mut plain = None;
    for form in forms {
        let r = selfplay::bench::train_throughput::<G>(config, seconds, form)?;
        let base = *plain.get_or_insert(r.steps_per_second);
        let name = if r.mixed_precision { "fp16 autocast".to_string() } else { form.name() };
        let used = if !on_cuda && form == chosen {
            format!("  <- training.cpu_form = {}", config.training.cpu_form)
        } else {
            String::new()
        };
        println!(
            "  {name:<14} {:>8.2} steps/s {:>9.0} positions/s  {:>5.2}x{used}",
            r.steps_per_second,
            r.positions_per_second,
            r.steps_per_second / base
        );
    }
    Ok(())
}

/// Search simulations per second with the uniform evaluator, then each tactical lever's cost.
fn mcts_bench<G: FullGame>(simulations: u32, root: mcts::RootSearch) {
    println!("{}", mcts::bench::simulations_per_second::<G>(simulations, root));
    println!("{} tactical levers (uniform evaluator, alpha-beta judge):", G::NAME);
    super::lever_bench::lever_bench::<G>();
}

/// The deepest search `bench alphabeta` reports.
const ALPHABETA_BENCH_DEPTH: u32 = 4;

/// One search per depth from the start position, as `alphabeta:DEPTH` plays a move (its own
/// table size included), the fastest of repeated runs, until one is stopped by the time cap.
fn alphabeta_bench<G: FullGame>(cap: std::time::Duration) {
    let game = G::start();
    for depth in 1..=ALPHABETA_BENCH_DEPTH {
        let settings = alphabeta::SearchLimits { depth, time: Some(cap), table: true };
        // Repeat for at least a second and keep the fastest run, as perft does: a search of
        // a millisecond says more about the scheduler than the search once.
        let begun = Instant::now();
        let mut report = alphabeta::search(&game, &settings, 0).expect("a start position has moves");
        while !report.stopped && begun.elapsed().as_secs_f64() < 1.0 {
            let again = alphabeta::search(&game, &settings, 0).expect("a start position has moves");
            if again.elapsed < report.elapsed {
                report = again;
            }
        }
        let secs = report.elapsed.as_secs_f64();
        let rate = report.nodes as f64 / secs.max(1e-9) / 1e3;
        if report.stopped {
            println!(
                "{:<14} alphabeta depth {depth}: not finished within the {:.0} s cap ({} nodes, {rate:.0} k nodes/s)",
                G::NAME,
                cap.as_secs_f64(),
                report.nodes,
            );
            break;
        }
        println!(
            "{:<14} alphabeta depth {depth}: {:>9} nodes {:>8.3} s a move {:>6.0} k nodes/s  best {} ({:+} cp)",
            G::NAME,
            report.nodes,
            secs,
            rate,
            game.move_text(report.best),
            report.value
        );
    }
}

/// Depth at which each variant's perft takes a few seconds: millions of leaves.
fn perft_bench_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Glinski => 4,
        Variant::MiniHexchess => 5,
        Variant::Wellisch => 5,
        Variant::Weltschach => 3,
    }
}

/// Leaves per second of perft from the start position, with and without bulk counting.
fn perft_bench<G: Game>(depth: u32) {
    let game = G::start();
    for bulk in [true, false] {
        // Repeat for at least a second and keep the fastest run: small trees finish in
        // milliseconds, where one run says more about the timer than the generator.
        let begun = Instant::now();
        let mut secs = f64::INFINITY;
        let mut nodes = 0;
        while secs.is_infinite() || begun.elapsed().as_secs_f64() < 1.0 {
            let start = Instant::now();
            nodes = perft::perft(&game, depth, bulk);
            secs = secs.min(start.elapsed().as_secs_f64());
        }
        println!(
            "{:<14} perft {} {:<8} {:>12} leaves {:>8.3} s {:>8.2} M leaves/s",
            G::NAME,
            depth,
            if bulk { "bulk" } else { "no-bulk" },
            nodes,
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
}
