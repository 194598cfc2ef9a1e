//! The clocks of a timed game (`serve`'s page, `play --clock`): a time control per seat (or
//! none), each seat's time running while it is to move, charged and given its increment when it
//! moves; a seat whose time runs out loses on time. An engine seat's budget per move comes from
//! its clock as over the protocol ([`Clock::budget`]). The server keeps the time; its page only
//! counts down between polls.

use std::time::{Duration, Instant};

use super::Clock;

/// The longest time control a seat may have, in seconds (a day).
const MOST_SECONDS: u32 = 86_400;
/// The largest increment, in seconds.
const MOST_INCREMENT: u32 = 3_600;

/// One seat's time control: `seconds` for the game, `increment` more after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Time for the whole game, 1 to a day.
    pub seconds: u32,
    /// Added after each of the seat's moves, 0 to an hour.
    #[serde(default)]
    pub increment: u32,
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `MIN+INC` as chess clocks are written: minutes for the game (a decimal: `0.5` is 30
    /// seconds) and seconds added a move (`5+3`, `1+0`); `MIN` alone has no increment.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let expected = || format!("'{text}': expected MIN+INC, minutes for the game and seconds a move (5+3, 0.5+0)");
        let (minutes, increment) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = minutes.trim().parse().map_err(|_| expected())?;
        let increment: u32 = increment.trim().parse().map_err(|_| expected())?;
        if !minutes.is_finite() || minutes < 0.0 || minutes * 60.0 > f64::from(MOST_SECONDS) {
            return Err(format!("{}: the game's minutes are 1/60 to {}", expected(), MOST_SECONDS / 60));
        }
        TimeControl { seconds: (minutes * 60.0).round() as u32, increment }.checked()
    }
}

impl TimeControl {
    /// The control if it lies in the ranges, else one line saying which it leaves.
    pub fn checked(self) -> Result<TimeControl, String> {
        if !(1..=MOST_SECONDS).contains(&self.seconds) {
            return Err(format!("a clock's seconds are 1 to {MOST_SECONDS}, not {}", self.seconds));
        }
        if self.increment > MOST_INCREMENT {
            return Err(format!("a clock's increment is 0 to {MOST_INCREMENT} seconds, not {}", self.increment));
        }
        Ok(self)
    }
}

/// The seats' clocks of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Each seat's increment; `None` for a seat without a clock.
    increment: Vec<Option<Duration>>,
    /// Each seat's time left when its turn began (the mover's runs from `since`).
    left: Vec<Option<Duration>>,
    /// When the seat to move began its turn.
    since: Instant,
}

impl Clocks {
    /// Clocks from one control per seat (missing seats have none); `None` where no seat has one.
    pub fn new(controls: &[Option<TimeControl>], seats: usize) -> Option<Clocks> {
        let control = |s: usize| controls.get(s).copied().flatten();
        if (0..seats).all(|s| control(s).is_none()) {
            return None;
        }
        Some(Clocks {
            increment: (0..seats).map(|s| control(s).map(|c| Duration::from_secs(c.increment.into()))).collect(),
            left: (0..seats).map(|s| control(s).map(|c| Duration::from_secs(c.seconds.into()))).collect(),
            since: Instant::now(),
        })
    }

    /// `seat`'s time left now, `mover` being the seat whose clock runs (none once the game is
    /// over); `None` for a seat without a clock.
    pub fn left(&self, seat: usize, mover: Option<usize>) -> Option<Duration> {
        let left = (*self.left.get(seat)?)?;
        Some(if mover == Some(seat) { left.saturating_sub(self.since.elapsed()) } else { left })
    }

    /// Whether `mover`'s time has run out.
    pub fn flagged(&self, mover: usize) -> bool {
        self.left(mover, Some(mover)) == Some(Duration::ZERO)
    }

    /// Charges `mover` for the move it just made, adds its increment, and starts the next
    /// seat's time.
    pub fn moved(&mut self, mover: usize) {
        if let (Some(left), Some(increment)) = (self.left(mover, Some(mover)), self.increment[mover]) {
            self.left[mover] = Some(left + increment);
        }
        self.since = Instant::now();
    }

    /// Restarts the mover's time from now, charging nothing (the position was set again).
    pub fn restart(&mut self) {
        self.since = Instant::now();
    }

    /// The time `mover` (an engine) may spend on its move, as a UCI engine shares its clock
    /// ([`Clock::budget`]); `None` for a seat without a clock.
    pub fn budget(&self, mover: usize) -> Option<Duration> {
        let mut clock = Clock::default();
        for seat in 0..self.left.len().min(clock.time.len()) {
            clock.time[seat] = self.left(seat, Some(mover));
            clock.inc[seat] = self.increment[seat].unwrap_or_default();
        }
        clock.budget(mover)
    }

    /// Each seat's time left in milliseconds, as the page shows it (`None`: no clock).
    pub fn millis(&self, mover: Option<usize>) -> Vec<Option<u64>> {
        (0..self.left.len()).map(|s| self.left(s, mover).map(|d| d.as_millis() as u64)).collect()
    }
}

/// Each seat's score when `loser` lost on time among `seats`: 0 for it, and the points of a
/// decided game (1 for its winner, 1/2 for each other seat that did not lose: half a point a
/// seat) shared alike by the others: 1 for the other of two, 0.75 for each of Wellisch's
/// other two.
pub fn time_loss_scores(loser: usize, seats: usize) -> Vec<f32> {
    let share = seats as f32 / 2.0 / (seats.max(2) - 1) as f32;
    (0..seats).map(|s| if s == loser { 0.0 } else { share }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(seconds: u32, increment: u32) -> Option<TimeControl> {
        Some(TimeControl { seconds, increment })
    }

    #[test]
    fn the_movers_time_runs_and_a_move_adds_its_increment() {
        assert!(Clocks::new(&[None, None], 2).is_none(), "untimed");
        let mut clocks = Clocks::new(&[control(60, 2), None], 2).unwrap();
        std::thread::sleep(Duration::from_millis(30));
        let left = clocks.left(0, Some(0)).unwrap();
        assert!(left < Duration::from_secs(60) && left > Duration::from_secs(59), "{left:?}");
        assert_eq!(clocks.left(0, Some(1)), Some(Duration::from_secs(60)), "not running while the other moves");
        assert_eq!(clocks.left(1, Some(1)), None, "no clock");
        clocks.moved(0);
        let after = clocks.left(0, Some(1)).unwrap();
        assert!(
            after > Duration::from_secs(61) && after < Duration::from_secs(62),
            "charged, then 2 s added: {after:?}"
        );
        let budget = clocks.budget(0).unwrap();
        assert!(budget > Duration::from_secs(2) && budget < Duration::from_secs(4), "{budget:?}");
        assert_eq!(clocks.budget(1), None);
    }

    #[test]
    fn a_seat_whose_time_runs_out_is_flagged_and_loses() {
        let clocks = Clocks {
            increment: vec![Some(Duration::ZERO); 2],
            left: vec![Some(Duration::from_millis(20)); 2],
            since: Instant::now(),
        };
        assert!(!clocks.flagged(0));
        std::thread::sleep(Duration::from_millis(40));
        assert!(clocks.flagged(0));
        assert_eq!(clocks.left(1, Some(0)), Some(Duration::from_millis(20)), "only the mover's time ran");
        assert_eq!(time_loss_scores(0, 2), [0.0, 1.0]);
        assert_eq!(time_loss_scores(1, 3), [0.75, 0.0, 0.75]);
        assert!(TimeControl { seconds: 0, increment: 0 }.checked().is_err());
        assert!(TimeControl { seconds: 60, increment: 3601 }.checked().is_err());
    }

    #[test]
    fn a_time_control_reads_as_minutes_plus_seconds() {
        let read = |text: &str| text.parse::<TimeControl>();
        assert_eq!(read("5+3"), Ok(TimeControl { seconds: 300, increment: 3 }));
        assert_eq!(read("0.5+0"), Ok(TimeControl { seconds: 30, increment: 0 }));
        assert_eq!(read("15"), Ok(TimeControl { seconds: 900, increment: 0 }));
        for bad in ["", "+", "five+3", "5+x", "-1+0", "0+0", "1441+0", "5+3601", "5+-1", "inf+0", "NaN+0"] {
            assert!(read(bad).is_err(), "{bad} read as {:?}", read(bad));
        }
    }
}
