//! Progress of a long phase (self-play games, training steps, teacher positions, a match): a
//! bar when a person watches stderr, else a plain line there every minute, so that a run whose
//! stderr is a file (a Slurm job, `nohup`) still tells how far it is and when it will be done.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// How often a phase whose stderr is not a terminal writes its progress line.
pub const LINE_EVERY: Duration = Duration::from_secs(60);

/// A phase's progress: `len` units of `unit` (`games`, `steps`, ...), counted as they are done.
pub struct Progress {
    bar: ProgressBar,
    lines: Option<Mutex<Lines>>,
}

/// The line writer's state: where it writes, how far the phase is, and when it writes next.
struct Lines {
    out: Box<dyn Write + Send>,
    unit: String,
    len: u64,
    pos: u64,
    /// Units done before this phase began (a resumed match's games): counted in the total,
    /// not in the rate.
    before: u64,
    began: Instant,
    every: Duration,
    next: Instant,
}

impl Progress {
    /// A bar on a terminal, else lines on stderr every [`LINE_EVERY`]; nothing unless `show`.
    pub fn new(show: bool, len: u64, unit: &str) -> Progress {
        match show {
            false => Progress { bar: ProgressBar::hidden(), lines: None },
            true if std::io::stderr().is_terminal() => Progress { bar: bar(len, unit), lines: None },
            true => Progress::lines(Box::new(std::io::stderr()), LINE_EVERY, len, unit),
        }
    }

    /// Progress written as lines to `out`, the first after `every` and then one each `every`.
    pub fn lines(out: Box<dyn Write + Send>, every: Duration, len: u64, unit: &str) -> Progress {
        let began = Instant::now();
        let lines = Lines { out, unit: unit.to_string(), len, pos: 0, before: 0, began, every, next: began + every };
        Progress { bar: ProgressBar::hidden(), lines: Some(Mutex::new(lines)) }
    }

    /// Counts `n` more units done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        self.update(|pos| pos + n);
    }

    /// Sets the units done to `pos`.
    pub fn set_position(&self, pos: u64) {
        self.bar.set_position(pos);
        self.update(|_| pos);
    }

    /// Counts `done` units as finished before this phase began (a resumed match's games): the
    /// count and the share show them, but the rate and the time left come from the units done
    /// since, so that a resumed phase does not promise to end in minutes.
    pub fn done_before(&self, done: u64) {
        self.bar.set_position(done);
        self.bar.reset_eta();
        let Some(lines) = &self.lines else { return };
        let Ok(mut lines) = lines.lock() else { return };
        lines.pos = done;
        lines.before = done;
    }

    /// Writes the progress line now, whatever the interval (nothing on a terminal's bar): a
    /// phase shorter than [`LINE_EVERY`] that matters on its own, as each match of the final
    /// evaluation, says when it begins and ends.
    pub fn line_now(&self) {
        let Some(lines) = &self.lines else { return };
        let Ok(mut lines) = lines.lock() else { return };
        let line = lines.line(lines.began.elapsed());
        let _ = writeln!(lines.out, "{line}");
    }

    /// Removes the bar (the lines already written stay).
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }

    fn update(&self, to: impl FnOnce(u64) -> u64) {
        let Some(lines) = &self.lines else { return };
        // A poisoned lock means a thread panicked mid-line: progress is not worth a second panic.
        let Ok(mut lines) = lines.lock() else { return };
        lines.pos = to(lines.pos);
        let now = Instant::now();
        if now >= lines.next {
            lines.next = now + lines.every;
            let line = lines.line(now.duration_since(lines.began));
            // A full disk or a closed stderr must not stop the phase whose progress this is.
            let _ = writeln!(lines.out, "{line}");
        }
    }
}

impl Lines {
    /// `[0:08:00] 120/1166 positions (10%), 0.25/s, eta 1:09:44` after `elapsed`.
    fn line(&self, elapsed: Duration) -> String {
        let rate = self.pos.saturating_sub(self.before) as f64 / elapsed.as_secs_f64().max(1e-9);
        let percent = 100 * self.pos / self.len.max(1);
        let eta = match self.len.saturating_sub(self.pos) {
            0 => clock(Duration::ZERO),
            _ if self.pos <= self.before => "-".to_string(),
            left => clock(Duration::from_secs_f64(left as f64 / rate)),
        };
        let (pos, len, unit) = (self.pos, self.len, &self.unit);
        format!("[{}] {pos}/{len} {unit} ({percent}%), {}/s, eta {eta}", clock(elapsed), rate_text(rate))
    }
}

/// A duration as `h:mm:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The terminal's bar: elapsed time, the bar, the count, the rate and the time left.
fn bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!("{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{rate}}/s eta {{eta}}");
    let style = ProgressStyle::with_template(&template).expect("valid template");
    bar.set_style(style.with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = w.write_str(&rate_text(state.per_sec()));
    }));
    bar
}

/// A rate with the digits that mean something at its size: `15.6`, `3.25`, `420`
/// (indicatif's own `{per_sec}` prints four decimals, `15.6176/s`).
fn rate_text(per_second: f64) -> String {
    match per_second {
        r if !r.is_finite() => "-".to_string(),
        r if r >= 100.0 => format!("{r:.0}"),
        r if r >= 10.0 => format!("{r:.1}"),
        r => format!("{r:.2}"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use super::{clock, rate_text, Lines, Progress};

    #[test]
    fn rates_carry_the_digits_that_mean_something() {
        assert_eq!(rate_text(15.6176), "15.6");
        assert_eq!(rate_text(3.24987), "3.25");
        assert_eq!(rate_text(419.7), "420");
        assert_eq!(rate_text(0.0), "0.00");
        assert_eq!(rate_text(f64::INFINITY), "-");
    }

    #[test]
    fn a_line_tells_the_count_the_rate_and_the_time_left() {
        let began = std::time::Instant::now();
        let lines = |pos, len| Lines {
            out: Box::new(std::io::sink()),
            unit: "positions".to_string(),
            len,
            pos,
            before: 0,
            began,
            every: Duration::ZERO,
            next: began,
        };
        let eight_minutes = Duration::from_secs(480);
        // 120 in 480 s is 0.25 a second: the 1,046 left take 4,184 s.
        assert_eq!(lines(120, 1166).line(eight_minutes), "[0:08:00] 120/1166 positions (10%), 0.25/s, eta 1:09:44");
        assert_eq!(lines(0, 1166).line(eight_minutes), "[0:08:00] 0/1166 positions (0%), 0.00/s, eta -");
        assert_eq!(lines(50, 50).line(eight_minutes), "[0:08:00] 50/50 positions (100%), 0.10/s, eta 0:00:00");
        assert_eq!(clock(Duration::from_secs(2 * 3600 + 61)), "2:01:01");
    }

    #[test]
    fn units_done_before_the_phase_count_in_the_total_and_not_in_the_rate() {
        let out = Shared::default();
        let text = || String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let resumed = Progress::lines(Box::new(out.clone()), Duration::from_secs(3600), 100, "games");
        resumed.done_before(34);
        resumed.line_now();
        resumed.inc(3);
        let lines = resumed.lines.as_ref().unwrap().lock().unwrap();
        // 3 games in 6 minutes is 0.0083 a second: the 63 left take 7,560 s, not the minutes
        // that 37 games in 6 minutes would promise.
        assert_eq!(lines.line(Duration::from_secs(360)), "[0:06:00] 37/100 games (37%), 0.01/s, eta 2:06:00");
        drop(lines);
        assert!(text().contains(" 34/100 games (34%), 0.00/s, eta -"), "{}", text());
    }

    /// A writer whose bytes the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_come_only_once_their_interval_has_passed() {
        let out = Shared::default();
        let text = || String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let quiet = Progress::lines(Box::new(out.clone()), Duration::from_secs(3600), 10, "games");
        quiet.inc(3);
        quiet.set_position(9);
        assert_eq!(text(), "", "an hour has not passed");
        let every_update = Progress::lines(Box::new(out.clone()), Duration::ZERO, 10, "games");
        every_update.inc(3);
        every_update.inc(2);
        every_update.set_position(9);
        let written = text();
        let counts: Vec<&str> =
            written.lines().map(|l| l.split(' ').nth(1).expect("a count after the clock")).collect();
        assert_eq!(counts, ["3/10", "5/10", "9/10"]);
    }

    #[test]
    fn a_line_now_is_written_whatever_the_interval() {
        let out = Shared::default();
        let text = || String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let phase = Progress::lines(Box::new(out.clone()), Duration::from_secs(3600), 10, "games vs random");
        phase.line_now();
        phase.set_position(10);
        phase.line_now();
        let counts: Vec<String> =
            text().lines().map(|l| l.split(' ').skip(1).take(4).collect::<Vec<_>>().join(" ")).collect();
        assert_eq!(counts, ["0/10 games vs random", "10/10 games vs random"]);
        Progress::new(false, 10, "games").line_now();
    }
}
