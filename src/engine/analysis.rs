//! What the engine's search found, as people and the protocol see it: the best root moves of
//! the search's report ([`SearchReport`]) with their moves as text, the time it took, and what
//! only the engine knows (the network's draw share, a tree that filled up).

use std::time::Duration;

use mcts::{RootMove, Search, SearchReport};
use rules::Game;

/// A search's answer at one moment (while it runs, or at its end).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The seat to move (0-based).
    pub mover: usize,
    /// Completed visits at the root.
    pub nodes: u32,
    /// Of `nodes`, those the root already had when this search began: the subtree kept from
    /// the game's previous move.
    pub reused: u32,
    /// Time since the search began.
    pub time: Duration,
    /// The root's mean value, one expected final score per seat (seat order).
    pub values: Vec<f32>,
    /// The best root moves (UCI `multipv` lines), best first ([`SearchReport::ranked`]); at
    /// least one when the position has a legal move.
    pub lines: Vec<RootMove<String>>,
    /// Two players searched with a network: the probability of a draw its outcome head gives
    /// the root position (the search itself backs up expected scores only).
    pub draw: Option<f32>,
    /// The search stopped because its tree reached the memory cap, before its limits.
    pub tree_full: bool,
}

impl Analysis {
    /// The move to play: the first line's.
    pub fn best(&self) -> Option<&str> {
        self.lines.first().map(|l| l.mv.as_str())
    }

    /// Root visits per second of the search, the kept ones left out.
    pub fn nps(&self) -> u64 {
        (self.nodes.saturating_sub(self.reused) as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }

    /// Plies of the principal variation (the first line's PV).
    pub fn depth(&self) -> usize {
        self.lines.first().map_or(0, |l| l.pv.len())
    }

    /// A line's mover score, or the root's when the line was never visited.
    pub fn q_of(&self, line: &RootMove<String>) -> f32 {
        line.q.unwrap_or(self.values[self.mover])
    }

    /// A line's win, draw and loss chances for the mover in per mille (UCI's `wdl`), when the
    /// report has a draw share: the draw share (capped where the line's score leaves no room
    /// for it), and win and loss such that `win + draw / 2` is the line's score.
    pub fn wdl_of(&self, line: &RootMove<String>) -> Option<[u32; 3]> {
        let q = self.q_of(line).clamp(0.0, 1.0);
        let draw = self.draw?.clamp(0.0, 2.0 * q.min(1.0 - q));
        // Rounded so that the three always sum to 1000.
        let win = (((q - draw / 2.0) * 1000.0).round() as u32).min(1000);
        let draw = ((draw * 1000.0).round() as u32).min(1000 - win);
        Some([win, draw, 1000 - win - draw])
    }

    /// Why the search stopped short of its limits, when its tree reached the memory cap: one
    /// sentence naming the visits done, the `asked` ones if any, and the cap.
    pub fn tree_full_note(&self, asked: Option<u32>) -> Option<String> {
        if !self.tree_full {
            return None;
        }
        let of = asked.map_or_else(String::new, |n| format!(" of the {n} asked for"));
        Some(format!(
            "the search stopped at {} visits{of}: its tree reached the cap of {} edges (about 1 GB)",
            self.nodes,
            super::limits::MAX_EDGES
        ))
    }

    /// A line's value vector, or the root's when the line was never visited.
    pub fn values_of<'a>(&'a self, line: &'a RootMove<String>) -> &'a [f32] {
        line.values.as_deref().unwrap_or(&self.values)
    }
}

/// Centipawns from the mover's expected score `q` in [0, 1], by lc0's mapping of its value
/// `2q - 1` in [-1, 1]: `cp = 111.714640912 * tan(1.5620688421 * (2q - 1))` (q = 0.5 is 0,
/// q = 0.75 about +111, q = 0.9 about +336, q = 1 about +12,800).
pub fn cp_from_q(q: f32) -> i32 {
    let v = (2.0 * q as f64 - 1.0).clamp(-1.0, 1.0);
    (111.714640912 * (1.5620688421 * v).tan()).round() as i32
}

/// The analysis of `search` now, with its best `multipv` root moves (at least one); the root
/// had `reused` visits when the search began.
pub(crate) fn analysis_of<G: Game>(search: &Search<G>, multipv: usize, time: Duration, reused: u32) -> Analysis {
    let report = SearchReport::of(search);
    let root = search.root_state();
    let lines = report.ranked().into_iter().take(multipv.max(1)).map(|m| m.in_text(root)).collect();
    Analysis {
        mover: report.mover,
        nodes: report.root_visits,
        reused,
        time,
        values: report.values,
        lines,
        draw: None,
        tree_full: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcts::fixtures::FondOf;
    use mcts::SearchParams;
    use rules::hexchess::MiniHexchess;

    /// A move the solver proved a win heads the report, and so is the best move, though another
    /// has more visits.
    #[test]
    fn a_proven_win_is_the_first_line() {
        // K d1, R c4, R e4 against k d7: c4-b4 and e4-f4 mate in two, c4-c6 does not.
        let game = MiniHexchess::from_text("k/3/5/2R1R2/7/7/3K3 w - 0 60").unwrap();
        let mut search = Search::new(game.clone(), SearchParams::analysis(5000), 0);
        search.run(&FondOf("c4-c6"));
        let report = analysis_of(&search, 40, Duration::ZERO, 0);
        let best = &report.lines[0];
        assert!(["c4-b4", "e4-f4"].contains(&best.mv.as_str()), "{report:?}");
        assert_eq!(best.q, Some(1.0));
        let fond = report.lines.iter().find(|l| l.mv == "c4-c6").unwrap();
        assert!(fond.visits > best.visits, "the visits went elsewhere, so the order is the solver's: {report:?}");
    }

    #[test]
    fn cp_is_zero_at_an_even_score_and_odd_around_it() {
        assert_eq!(cp_from_q(0.5), 0);
        assert_eq!(cp_from_q(0.75), 111);
        assert_eq!(cp_from_q(0.25), -111);
        assert!(cp_from_q(1.0) > 12_000 && cp_from_q(1.0) < 13_000, "{}", cp_from_q(1.0));
        assert_eq!(cp_from_q(2.0), cp_from_q(1.0), "clamped");
    }

    #[test]
    fn a_full_tree_is_named_with_the_visits_and_the_cap() {
        let report = Analysis {
            mover: 0,
            nodes: 1234,
            reused: 0,
            time: Duration::ZERO,
            values: vec![],
            lines: vec![],
            draw: None,
            tree_full: true,
        };
        let note = report.tree_full_note(Some(30_000_000)).unwrap();
        assert!(note.contains("1234 visits of the 30000000 asked for") && note.contains("80000000 edges"), "{note}");
        assert_eq!(Analysis { tree_full: false, ..report }.tree_full_note(None), None);
    }
}
