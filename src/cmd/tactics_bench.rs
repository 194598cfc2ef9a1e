//! `vzero bench alphabeta`'s second part: what the alpha-beta tactics cost on midgame positions
//! (those `alphabeta:1` reaches against itself), where a board's captures pile up: a teacher's
//! depth-1 label (every root move scored within the margin of a sharp teacher's 10 cp policy
//! softmax and of the default teacher's 200 cp one: the wider, the more moves searched with a full
//! window), one tactical
//! leaf value (`--tactics`, the quiescence search alone) and a node's judged moves (the tactical
//! search's judge, the quiescence search after every move), beside that judge's first ply alone
//! (each move played and the replies counted with their captures listed, as the judge does it).
//! Medians over the positions, so one capture-rich position cannot hide the typical cost.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use alphabeta::SearchLimits;
use rules::FullGame;

/// Policy temperatures of the labels measured, in centipawns: a sharp teacher's and the default.
const LABEL_TEMPERATURES: [f32; 2] = [10.0, 200.0];

/// Plies of the `alphabeta:1` game at which the midgame positions are taken.
const MIDGAME_PLIES: [usize; 4] = [20, 40, 60, 80];

/// The midgame positions of `G` (fewer where its game ends sooner).
pub fn midgame_positions<G: FullGame>(plies: &[usize]) -> Vec<G> {
    let mut game = G::start();
    let mut out = Vec::new();
    for ply in 0..=plies.iter().copied().max().unwrap_or(0) {
        if plies.contains(&ply) {
            out.push(game.clone());
        }
        match alphabeta::search(&game, &SearchLimits::depth(1), ply as u64) {
            Some(outcome) => game.play(outcome.best),
            None => break,
        }
    }
    out
}

/// The median of `samples` in milliseconds.
fn median_ms(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples.get(samples.len() / 2).copied().unwrap_or(f64::NAN) * 1e3
}

/// Seconds `work` takes.
fn timed(work: impl FnOnce()) -> f64 {
    let began = Instant::now();
    work();
    began.elapsed().as_secs_f64()
}

/// Runs of a few microseconds' work timed by [`fastest`]: one alone is mostly cold caches and
/// the clock's own cost.
const REPEATS: usize = 20;

/// The fewest seconds `work` takes in [`REPEATS`] runs.
fn fastest(mut work: impl FnMut()) -> f64 {
    (0..REPEATS).map(|_| timed(&mut work)).fold(f64::INFINITY, f64::min)
}

/// A time of `ms` milliseconds in microseconds below one millisecond, else in milliseconds.
fn short_time(ms: f64) -> String {
    if ms < 1.0 {
        format!("{:.1} us", ms * 1e3)
    } else {
        format!("{ms:.3} ms")
    }
}

/// Prints `G`'s line: median times of a label and a leaf value, and of a node's judged moves and
/// of their first ply (each position's the fastest of [`REPEATS`]).
pub fn tactics_bench<G: FullGame>() {
    let positions = midgame_positions::<G>(&MIDGAME_PLIES);
    let mut labels = vec![Vec::new(); LABEL_TEMPERATURES.len()];
    let (mut leaf, mut judge, mut first_ply) = (Vec::new(), Vec::new(), Vec::new());
    let mut moves = Vec::new();
    for game in &positions {
        let limits = SearchLimits { table: true, ..SearchLimits::depth(1) };
        for (label, temperature) in labels.iter_mut().zip(LABEL_TEMPERATURES) {
            let margin = selfplay::teach::score_margin(temperature);
            label.push(timed(|| {
                alphabeta::score_root_moves_within(game, &limits, 0, margin, &AtomicBool::new(false));
            }));
        }
        leaf.push(timed(|| {
            alphabeta::quiescence_value(game);
        }));
        game.legal_moves(&mut moves);
        let mut values = vec![0; moves.len()];
        judge.push(fastest(|| alphabeta::move_values(game, &moves, 0, &mut values, None)));
        first_ply.push(fastest(|| {
            std::hint::black_box(alphabeta::judge_first_ply(game, &moves));
        }));
    }
    let labels: Vec<String> = labels
        .into_iter()
        .zip(LABEL_TEMPERATURES)
        .map(|(label, temperature)| format!("{:.3} ms at {temperature} cp", median_ms(label)))
        .collect();
    println!(
        "{:<14} {} midgame positions: depth-1 label {}  tactical leaf {:.3} ms  judged moves {} (first ply {})",
        G::NAME,
        positions.len(),
        labels.join(", "),
        median_ms(leaf),
        short_time(median_ms(judge)),
        short_time(median_ms(first_ply)),
    );
}
