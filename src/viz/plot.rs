//! Training curves: metrics.jsonl read into series over training steps, drawn with plotters as
//! one SVG of nine panels (losses, game length, seat scores, how games ended, evaluation and
//! gating, the gauntlet's ratings against training step and training time, and each
//! checkpoint's head-to-head Elo over the network before it and over anchor checkpoints).

use std::fs;
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use arena::gauntlet::HeadToHead;
use plotters::prelude::*;
use selfplay::gauntlet::{gauntlet_table_from_log, head_to_head_from_log, GauntletRow, GauntletTable};
use selfplay::store::events::{read_events, RunEvent};

/// One named line of a panel: (training step, value) points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points in step order.
    pub points: Vec<(f64, f64)>,
    /// Intervals drawn as vertical whiskers: (x, low, high).
    pub whiskers: Vec<(f64, f64, f64)>,
}

/// The curves of a run, one point per logged iteration (evaluations at the step they followed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Training steps of the iterations, in log order.
    pub iterations: Vec<f64>,
    /// Policy and value loss.
    pub losses: [Series; 2],
    /// Mean plies per self-play game.
    pub game_length: Series,
    /// Mean score of each seat in the iteration's self-play games.
    pub seat_scores: Vec<Series>,
    /// Share of games ended by the rules, by resignation and by the ply limit.
    pub endings: [Series; 3],
    /// The network's mean score against each evaluation opponent, and in gating matches.
    pub evaluation: Vec<Series>,
    /// The ratings of the run's latest gauntlet simulation count, if it has had a gauntlet.
    pub gauntlet: Option<GauntletTable>,
    /// The gauntlet's pairings of two networks in that table's search (`--each-other`, anchor
    /// checkpoints): whether each checkpoint beat the one before it.
    pub head_to_head: Vec<HeadToHead>,
    /// Lines that were not events (a crash can cut the last one short).
    pub skipped_lines: usize,
}

/// Legend of the gating matches' scores (new network against the best so far).
const GATING: &str = "gating: new vs best";

fn series(name: &str) -> Series {
    Series { name: name.to_string(), ..Series::default() }
}

/// Reads metrics.jsonl at `path`; seat `i` is named `seat_names[i]` where given.
pub fn read_metrics(path: &Path, seat_names: &[String]) -> anyhow::Result<Metrics> {
    let text =
        fs::read_to_string(path).with_context(|| format!("reading {} (is this a run directory?)", path.display()))?;
    let log = read_events(&text);
    let mut m = Metrics {
        losses: [series("policy loss"), series("value loss")],
        game_length: series("mean plies per game"),
        endings: [series("by the rules"), series("resigned"), series("at the ply limit")],
        skipped_lines: log.skipped_lines,
        ..Metrics::default()
    };
    let mut step = 0.0;
    for event in &log.events {
        match event {
            RunEvent::Iteration(it) => {
                step = it.step as f64;
                m.iterations.push(step);
                for (s, loss) in m.losses.iter_mut().zip([it.policy_loss, it.value_loss]) {
                    if let Some(v) = loss {
                        s.points.push((step, v));
                    }
                }
                m.game_length.points.push((step, it.mean_game_length));
                for (i, &v) in it.seat_scores.iter().enumerate() {
                    if m.seat_scores.len() <= i {
                        let name = seat_names.get(i).cloned().unwrap_or_else(|| format!("seat {}", i + 1));
                        m.seat_scores.push(series(&name));
                    }
                    m.seat_scores[i].points.push((step, v));
                }
                let games = it.iteration_games as f64;
                if games > 0.0 {
                    for (s, n) in m.endings.iter_mut().zip([it.ended_by_rules, it.resigned, it.adjudicated]) {
                        s.points.push((step, n as f64 / games));
                    }
                }
            }
            RunEvent::Gating(g) => {
                // The candidate is named step-N after the training step that made it.
                let at = g.candidate.as_deref().and_then(|c| c.strip_prefix("step-")?.parse::<f64>().ok());
                add_point(&mut m.evaluation, GATING, (at.unwrap_or(step), g.candidate_score));
            }
            RunEvent::Evaluation(e) => {
                // Another network than the trained one is named for its checkpoint, step-N.
                let at = e.network.strip_prefix("step-").and_then(|s| s.parse::<f64>().ok());
                add_point(&mut m.evaluation, &format!("vs {}", e.opponent), (at.unwrap_or(step), e.network_score));
            }
            _ => {}
        }
    }
    if m.iterations.is_empty() {
        bail!("{}: no training iteration logged yet", path.display());
    }
    m.gauntlet = gauntlet_table_from_log(&log, None, None);
    if let Some(table) = &m.gauntlet {
        m.head_to_head = head_to_head_from_log(&log, table);
    }
    Ok(m)
}

/// Adds `point` to the series called `name`, which is created if need be, and returns that
/// series (for a whisker at the point).
fn add_point<'a>(all: &'a mut Vec<Series>, name: &str, point: (f64, f64)) -> &'a mut Series {
    let i = match all.iter().position(|s| s.name == name) {
        Some(i) => i,
        None => {
            all.push(Series { name: name.into(), ..Series::default() });
            all.len() - 1
        }
    };
    // In step order: the untrained network's evaluation is logged last but drawn at step 0.
    let s = &mut all[i];
    let at = s.points.partition_point(|p| p.0 <= point.0);
    s.points.insert(at, point);
    s
}

/// Size of the chart in pixels.
const SIZE: (u32, u32) = (1760, 1170);
/// Line colours, in series order.
const COLOURS: [RGBColor; 5] = [
    RGBColor(31, 111, 178),
    RGBColor(200, 60, 40),
    RGBColor(30, 132, 73),
    RGBColor(142, 68, 173),
    RGBColor(120, 120, 120),
];

/// The nine panels drawn as SVG text; `title` heads the chart.
pub fn curves_svg(m: &Metrics, title: &str) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let root = root.titled(title, ("sans-serif", 22)).map_err(plot_err)?;
        let panels = root.split_evenly((3, 3));
        let lo = m.iterations.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = m.iterations.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // A little room on both sides keeps the end points (and the evaluation, logged last) clear of the axes.
        let pad = if hi > lo { 0.03 * (hi - lo) } else { 1.0 };
        let steps = lo - pad..hi + pad;
        // Scores and shares lie in 0..1; the room above 1 is the legend's, so it hides no points.
        let fixed = Some(-0.02..1.4);
        panel(&panels[0], "Policy loss", "cross-entropy", std::slice::from_ref(&m.losses[0]), steps.clone(), None)?;
        panel(&panels[1], "Value loss", "mean squared error", std::slice::from_ref(&m.losses[1]), steps.clone(), None)?;
        panel(&panels[2], "Self-play game length", "plies", std::slice::from_ref(&m.game_length), steps.clone(), None)?;
        panel(&panels[3], "Self-play results", "mean score", &m.seat_scores, steps.clone(), fixed.clone())?;
        panel(&panels[4], "How self-play games ended", "share of games", &m.endings, steps.clone(), fixed.clone())?;
        panel(
            &panels[5],
            "Evaluation and gating (network's score)",
            "mean score",
            &m.evaluation,
            steps.clone(),
            fixed,
        )?;
        let title = rating_title(m.gauntlet.as_ref());
        let step = |r: &GauntletRow| r.step.map(|s| s as f64);
        let rated = |x: &dyn Fn(&GauntletRow) -> Option<f64>| -> Vec<f64> {
            m.gauntlet.iter().flat_map(|t| t.rows.iter().filter_map(x)).collect()
        };
        let (lo, hi) = rated(&step).into_iter().fold((lo, hi), |(lo, hi), s| (lo.min(s), hi.max(s)));
        let span = lo - pad..hi + pad;
        let by_step = rating_series(m.gauntlet.as_ref(), step, span.clone());
        panel(&panels[6], &title, "Elo", &by_step, span, None)?;
        let hours = |r: &GauntletRow| r.train_seconds.map(|s| s / 3600.0);
        // At least a minute wide, so a run of seconds still has an axis.
        let end = rated(&hours).into_iter().fold(1.0 / 60.0, f64::max);
        let span = -0.03 * end..end * 1.03;
        let by_time = rating_series(m.gauntlet.as_ref(), hours, span.clone());
        panel_over(&panels[7], &title, "training hours (self-play and training)", "Elo", &by_time, span, None)?;
        let pairs = head_to_head_series(&m.head_to_head);
        let (lo, hi) = pairs
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .fold((lo, hi), |(lo, hi), s| (lo.min(s), hi.max(s)));
        let title = "Head to head (Elo over the opponent, 95% intervals)";
        panel(&panels[8], title, "Elo", &pairs, lo - pad..hi + pad, None)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// The rating panels' title, naming the scale's anchor and the simulations.
fn rating_title(table: Option<&GauntletTable>) -> String {
    match table {
        Some(t) => format!("Gauntlet rating ({} = 0, {} sims, 95% intervals)", t.anchor, t.setting.sims),
        None => "Gauntlet rating".to_string(),
    }
}

/// The checkpoints' ratings at `x` of each row, their intervals as whiskers, and each fixed
/// opponent as a level line across `span`.
fn rating_series(
    table: Option<&GauntletTable>,
    x: impl Fn(&GauntletRow) -> Option<f64>,
    span: std::ops::Range<f64>,
) -> Vec<Series> {
    let Some(table) = table else { return Vec::new() };
    let mut checkpoints = series("checkpoints");
    let mut out = Vec::new();
    for row in &table.rows {
        let Some(r) = row.rating else { continue };
        match (row.step, x(row)) {
            (Some(_), Some(at)) => {
                checkpoints.points.push((at, r.elo));
                checkpoints.whiskers.push((at, r.low, r.high));
            }
            (Some(_), None) => {}
            (None, _) => out.push(Series {
                name: row.name.clone(),
                points: vec![(span.start, r.elo), (span.end, r.elo)],
                ..Series::default()
            }),
        }
    }
    out.insert(0, checkpoints);
    out
}

/// The head-to-head lines as series at each checkpoint's step: one against the checkpoint
/// before it (an opponent named `step-N`, as `--each-other` pairs them) and one per anchor
/// checkpoint, with the 0 Elo line that says "no stronger" once any is drawn.
fn head_to_head_series(pairs: &[HeadToHead]) -> Vec<Series> {
    let step = |name: &str| name.strip_prefix("step-").and_then(|s| s.parse::<f64>().ok());
    let mut out: Vec<Series> = Vec::new();
    for pair in pairs {
        let Some(at) = step(&pair.player) else { continue };
        let name = if step(&pair.opponent).is_some() {
            "vs the checkpoint before".to_string()
        } else {
            format!("vs {}", pair.opponent)
        };
        add_point(&mut out, &name, (at, pair.elo.elo)).whiskers.push((at, pair.elo.low, pair.elo.high));
    }
    let xs = out.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo.is_finite() {
        out.push(Series { name: "level (0 Elo)".into(), points: vec![(lo, 0.0), (hi, 0.0)], ..Series::default() });
    }
    out
}

fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("drawing the chart: {e}")
}

/// One panel over training steps: a titled chart with labelled axes, a line and dots per
/// series, and a legend; `y` fixes the value axis (scores), otherwise it fits the data.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    y_desc: &str,
    series: &[Series],
    steps: std::ops::Range<f64>,
    y: Option<std::ops::Range<f64>>,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    panel_over(area, title, "training step", y_desc, series, steps, y)
}

/// One panel as [`panel`] draws it, over any `x` axis.
fn panel_over<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    x: std::ops::Range<f64>,
    y: Option<std::ops::Range<f64>>,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let values =
        series.iter().flat_map(|s| s.points.iter().map(|p| p.1).chain(s.whiskers.iter().flat_map(|w| [w.1, w.2])));
    let y = y.unwrap_or_else(|| {
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        match (lo.is_finite(), hi > lo) {
            // The top third is left for the legend.
            (true, true) => lo - 0.08 * (hi - lo)..hi + 0.45 * (hi - lo),
            (true, false) => lo - 0.5..lo + 0.5,
            _ => 0.0..1.0,
        }
    });
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 17))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(58)
        .build_cartesian_2d(x, y)
        .map_err(plot_err)?;
    chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).max_light_lines(0).draw().map_err(plot_err)?;
    let mut drawn = false;
    for (i, s) in series.iter().enumerate().filter(|(_, s)| !s.points.is_empty()) {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(s.points.iter().copied(), colour.stroke_width(2)))
            .map_err(plot_err)?
            .label(s.name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2)));
        chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled()))).map_err(plot_err)?;
        let whisker = |&(x, low, high): &(f64, f64, f64)| PathElement::new(vec![(x, low), (x, high)], colour);
        chart.draw_series(s.whiskers.iter().map(whisker)).map_err(plot_err)?;
        drawn = true;
    }
    if drawn {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(plot_err)?;
    } else {
        let (w, h) = area.dim_in_pixel();
        area.draw(&Text::new(
            "not logged in this run",
            (w as i32 / 2 - 70, h as i32 / 2),
            ("sans-serif", 14).into_font().color(&BLACK.mix(0.6)),
        ))
        .map_err(plot_err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(lines: &str) -> anyhow::Result<Metrics> {
        let dir = std::env::temp_dir().join(format!("vzero-plot-{}-{}", std::process::id(), lines.len()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("metrics.jsonl");
        fs::write(&path, lines).unwrap();
        read_metrics(&path, &["White".into(), "Black".into()])
    }

    #[test]
    fn reads_iterations_and_places_evaluations_at_the_last_step() {
        let m = metrics(concat!(
            r#"{"event":"iteration","step":0,"mean_game_length":40,"seat_scores":[0.5,0.5],"iteration_games":4,"ended_by_rules":2,"resigned":0,"adjudicated":2,"policy_loss":null,"value_loss":null}"#,
            "\n",
            r#"{"event":"iteration","step":20,"mean_game_length":30,"seat_scores":[0.75,0.25],"iteration_games":4,"ended_by_rules":4,"resigned":0,"adjudicated":0,"policy_loss":5.5,"value_loss":0.9}"#,
            "\n",
            r#"{"event":"evaluation","opponent":"random","network_score":0.8}"#,
            "\n",
            r#"{"event":"evaluation","network":"step-000000000","opponent":"random","network_score":0.6}"#,
            "\n",
            r#"{"event":"gating","candidate":"step-000000020","best":"step-000000000","games":10,"candidate_score":0.65,"threshold":0.55,"accepted":true}"#,
            "\n{\"event\":\"itera"
        ))
        .unwrap();
        assert_eq!(m.iterations, vec![0.0, 20.0]);
        assert_eq!(m.losses[0].points, vec![(20.0, 5.5)], "an iteration without training steps has no loss");
        assert_eq!(m.seat_scores[1].name, "Black");
        assert_eq!(m.seat_scores[0].points, vec![(0.0, 0.5), (20.0, 0.75)]);
        assert_eq!(m.endings[2].points, vec![(0.0, 0.5), (20.0, 0.0)]);
        assert_eq!(m.evaluation[0].name, "vs random");
        assert_eq!(m.evaluation[0].points, vec![(0.0, 0.6), (20.0, 0.8)], "the untrained network at step 0");
        assert_eq!(m.evaluation[1].name, GATING);
        assert_eq!(m.evaluation[1].points, vec![(20.0, 0.65)], "placed at the candidate's step");
        assert_eq!(m.skipped_lines, 1, "the cut-off last line");
        let svg = curves_svg(&m, "test").unwrap();
        assert!(svg.contains("training step") && svg.contains("Policy loss"));
    }

    #[test]
    fn head_to_head_lines_are_drawn_at_the_checkpoints_steps() {
        let pair = |player: &str, opponent: &str, elo: f64| HeadToHead {
            player: player.into(),
            opponent: opponent.into(),
            games: 100,
            score: 0.5,
            elo: arena::rating::EloEstimate { elo, low: elo - 60.0, high: elo + 60.0 },
        };
        let pairs = [
            pair("step-000000300", "step-000000200", 20.0),
            pair("step-000000200", "step-000000100", 10.0),
            pair("step-000000300", "RUN/checkpoints/step-000000100:64", 40.0),
            pair("other", "step-000000100", 5.0),
        ];
        let series = head_to_head_series(&pairs);
        let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["vs the checkpoint before", "vs RUN/checkpoints/step-000000100:64", "level (0 Elo)"]);
        assert_eq!(series[0].points, vec![(200.0, 10.0), (300.0, 20.0)], "in step order");
        assert_eq!(series[0].whiskers.len(), 2);
        assert_eq!(series[1].whiskers, vec![(300.0, -20.0, 100.0)]);
        assert_eq!(series[2].points, vec![(200.0, 0.0), (300.0, 0.0)]);
        assert!(head_to_head_series(&[]).is_empty(), "no level line without pairings");
    }

    #[test]
    fn a_log_without_iterations_is_an_error() {
        let err = metrics(r#"{"event":"error","message":"x"}"#).unwrap_err().to_string();
        assert!(err.contains("no training iteration"), "{err}");
    }
}
