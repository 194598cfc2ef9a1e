//! `vzero plot`: a run's training curves from its metrics.jsonl.

use std::path::Path;

use rules::{with_game, Pictured};
use selfplay::Config;
use selfplay::RunDir;

use crate::cli::PlotArgs;
use crate::output::Format;
use crate::viz::plot::{curves_svg, read_metrics, Metrics};

/// Reads the metrics and writes the chart.
pub fn run(args: PlotArgs) -> anyhow::Result<()> {
    let dir = RunDir::unchecked(&args.run);
    crate::output::check_out_file(&args.out, Some(Format::Svg), &[&dir.metrics(), &dir.config()])?;
    let (svg, metrics) = run_curves(&args.run)?;
    crate::output::write_file(&args.out, svg.as_bytes())?;
    println!("wrote {} ({} iterations)", args.out.display(), metrics.iterations.len());
    Ok(())
}

/// The chart of the run at `run` as SVG text, with the metrics it was drawn from: what `plot`
/// writes and the browser page's run view shows. Lines of metrics.jsonl that are not JSON are
/// skipped with a warning.
pub(crate) fn run_curves(run: &Path) -> anyhow::Result<(String, Metrics)> {
    let dir = RunDir::unchecked(run);
    // The config only names the seats (White, Black); a run without one is still plotted.
    let variant = Config::load(&dir.config(), &[]).ok().map(|c| c.variant);
    let seats = variant.map(|v| with_game!(v, G => seat_names::<G>())).unwrap_or_default();
    let metrics = read_metrics(&dir.metrics(), &seats)?;
    if metrics.skipped_lines > 0 {
        eprintln!("vzero: warning: skipped {} lines of metrics.jsonl that are not JSON", metrics.skipped_lines);
    }
    let run_name = run.file_name().map_or_else(|| run.display().to_string(), |n| n.to_string_lossy().into_owned());
    let title = match variant {
        Some(v) => format!("vzero training curves: {run_name} ({v})"),
        None => format!("vzero training curves: {run_name}"),
    };
    Ok((curves_svg(&metrics, &title)?, metrics))
}

/// The seat names a variant's diagrams use.
fn seat_names<G: Pictured>() -> Vec<String> {
    G::start().diagram().map(|d| d.players).unwrap_or_default()
}
