//! What a search found, in move text: the ranked root moves with their visits, priors, scores
//! and principal variations, and the root's value for every seat.

use std::time::Duration;

use mcts::tree::{Tree, ROOT};
use mcts::Search;
use rules::Game;

/// One root move of a report (a UCI `multipv` line).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The move, in the variant's notation.
    pub mv: String,
    /// Completed visits of its subtree.
    pub visits: u32,
    /// Its prior in the search (the evaluator's, after `root_wins_first`).
    pub prior: f32,
    /// The mover's expected final score after it, in [0, 1]; `None` if never visited.
    pub q: Option<f32>,
    /// Every seat's expected final score after it (seat order); empty if never visited.
    pub values: Vec<f32>,
    /// The most visited line starting with this move.
    pub pv: Vec<String>,
}

/// A search's answer at one moment (while it runs, or at its end).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The seat to move (0-based).
    pub mover: usize,
    /// Completed visits at the root.
    pub nodes: u32,
    /// Time since the search began.
    pub time: Duration,
    /// The root's mean value, one expected final score per seat (seat order).
    pub values: Vec<f32>,
    /// The best root moves, most visited first (ties: higher prior first); at least one when
    /// the position has a legal move.
    pub lines: Vec<Line>,
    /// Two players searched with a network: the probability of a draw its outcome head gives
    /// the root position (the search itself backs up expected scores only).
    pub draw: Option<f32>,
    /// The search stopped because its tree reached the memory cap, before its limits.
    pub tree_full: bool,
}

impl Report {
    /// The move to play: the first line's.
    pub fn best(&self) -> Option<&str> {
        self.lines.first().map(|l| l.mv.as_str())
    }

    /// Root visits per second of the search.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }

    /// Plies of the principal variation (the first line's PV).
    pub fn depth(&self) -> usize {
        self.lines.first().map_or(0, |l| l.pv.len())
    }

    /// A line's mover score, or the root's when the line was never visited.
    pub fn q_of(&self, line: &Line) -> f32 {
        line.q.unwrap_or(self.values[self.mover])
    }

    /// A line's win, draw and loss chances for the mover in per mille (UCI's `wdl`), when the
    /// report has a draw share: the draw share (capped where the line's score leaves no room
    /// for it), and win and loss such that `win + draw / 2` is the line's score.
    pub fn wdl_of(&self, line: &Line) -> Option<[u32; 3]> {
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
            super::search::MAX_EDGES
        ))
    }

    /// A line's value vector, or the root's when the line was never visited.
    pub fn values_of<'a>(&'a self, line: &'a Line) -> &'a [f32] {
        if line.values.is_empty() {
            &self.values
        } else {
            &line.values
        }
    }
}

/// Centipawns from the mover's expected score `q` in [0, 1], by lc0's mapping of its value
/// `2q - 1` in [-1, 1]: `cp = 111.714640912 * tan(1.5620688421 * (2q - 1))` (q = 0.5 is 0,
/// q = 0.75 about +111, q = 0.9 about +336, q = 1 about +12,800).
pub fn cp_from_q(q: f32) -> i32 {
    let v = (2.0 * q as f64 - 1.0).clamp(-1.0, 1.0);
    (111.714640912 * (1.5620688421 * v).tan()).round() as i32
}

/// The report of `search` now, with its best `multipv` root moves (at least one).
pub(crate) fn report_of<G: Game>(search: &Search<G>, multipv: usize, time: Duration) -> Report {
    let tree = search.tree();
    let state = search.root_state();
    let root = tree.root();
    let mover = state.to_move();
    let seats = G::NUM_PLAYERS;
    let edges = tree.edges_of(ROOT);
    let mut order: Vec<usize> = (0..edges.len()).collect();
    // The moves the search may play first (a proven win before more visits elsewhere), then as
    // `Tree::best_edge` breaks ties, so the first line is the move the search plays.
    let playable = search.playable_root_moves();
    order.sort_by(|&a, &b| {
        let (va, vb) = (tree.child_visits(&edges[a]), tree.child_visits(&edges[b]));
        playable[b].cmp(&playable[a]).then(vb.cmp(&va)).then(edges[b].prior.total_cmp(&edges[a].prior))
    });
    let lines = order
        .into_iter()
        .take(multipv.max(1))
        .map(|i| {
            let e = &edges[i];
            let visits = tree.child_visits(e);
            let child = (visits > 0).then(|| &tree.nodes[e.child as usize]);
            Line {
                mv: state.move_text(e.mv),
                visits,
                prior: e.prior,
                q: child.map(|c| c.mean(mover)),
                values: child.map_or_else(Vec::new, |c| (0..seats).map(|p| c.mean(p)).collect()),
                pv: line_from(tree, state, e.mv, e.child),
            }
        })
        .collect();
    let values = (0..seats).map(|p| root.mean(p)).collect();
    Report { mover, nodes: root.visits, time, values, lines, draw: None, tree_full: false }
}

/// `first` then the most visited moves below `child`, as move text.
fn line_from<G: Game>(tree: &Tree<G::Move>, root: &G, first: G::Move, child: u32) -> Vec<String> {
    let mut state = root.clone();
    let mut pv = vec![state.move_text(first)];
    state.play(first);
    let mut node = child;
    while node != mcts::tree::NONE {
        let Some(e) = tree.best_edge(node) else { break };
        let mv = tree.edges[e].mv;
        pv.push(state.move_text(mv));
        state.play(mv);
        node = tree.edges[e].child;
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcts::{Batch, Evaluator, SearchParams};
    use rules::hexchess::MiniHexchess;

    /// Sure that White wins, and that c4-c6 is the way: the visits pile up there.
    struct FondOfC6;

    impl Evaluator<MiniHexchess> for FondOfC6 {
        fn max_batch_size(&self) -> usize {
            32
        }

        fn evaluate(&self, batch: &mut Batch<MiniHexchess>) {
            for i in 0..batch.len() {
                let slot = batch.slot_mut(i);
                for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                    *p = if slot.state.move_text(mv) == "c4-c6" { 30.0 } else { 0.1 };
                }
                *slot.value = [0.97, 0.03, 0.0];
            }
        }
    }

    /// A move the solver proved a win heads the report, and so is the best move, though another
    /// has more visits.
    #[test]
    fn a_proven_win_is_the_first_line() {
        // K d1, R c4, R e4 against k d7: c4-b4 and e4-f4 mate in two, c4-c6 does not.
        let game = MiniHexchess::from_text("k/3/5/2R1R2/7/7/3K3 w - 0 60").unwrap();
        let mut search = Search::new(game.clone(), SearchParams::analysis(5000), 0);
        search.run(&FondOfC6);
        let report = report_of(&search, 40, Duration::ZERO);
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
        let report = Report {
            mover: 0,
            nodes: 1234,
            time: Duration::ZERO,
            values: vec![],
            lines: vec![],
            draw: None,
            tree_full: true,
        };
        let note = report.tree_full_note(Some(30_000_000)).unwrap();
        assert!(note.contains("1234 visits of the 30000000 asked for") && note.contains("80000000 edges"), "{note}");
        assert_eq!(Report { tree_full: false, ..report }.tree_full_note(None), None);
    }
}
