//! What a search has found, for people and programs: every root move with its visits, prior,
//! values and principal variation, and the root's value. The engine's protocol lines,
//! `vzero analyse`, `vzero play` and the Python module read it; they only turn its moves into
//! text ([`RootMove::in_text`]) or policy indices.

use rules::{Game, Player};

use crate::search::Search;
use crate::tree::{most_visited_line, ROOT};

/// A search's root at one moment (while it runs, or at its end), generic over the move type.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport<M> {
    /// The seat to move at the root.
    pub mover: Player,
    /// Completed visits at the root (inherited ones included).
    pub root_visits: u32,
    /// The root's mean value: one expected final score per seat, in seat order.
    pub values: Vec<f32>,
    /// Every root move, in the tree's order (highest prior first, as [`crate::SearchResult`]
    /// lists them).
    pub moves: Vec<RootMove<M>>,
    /// The index in `moves` of the most visited move (ties: the higher prior, then the first),
    /// if any move has completed visits.
    pub most_visited: Option<usize>,
    /// The index in `moves` of the move the search plays at temperature 0 by its choice rule
    /// ([`Search::best_root_move`]: `lcb` may prefer a move with fewer visits), if the root is
    /// expanded.
    pub best: Option<usize>,
}

/// One root move of a [`SearchReport`].
#[derive(Clone, Debug, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Completed visits of its subtree.
    pub visits: u32,
    /// Its prior in the search (the evaluator's, after `root_wins_first` and root noise).
    pub prior: f32,
    /// The mover's expected final score after it, in [0, 1]; `None` if it was never visited.
    pub q: Option<f32>,
    /// Every seat's expected final score after it, in seat order; `None` if never visited.
    pub values: Option<Vec<f32>>,
    /// The move, then the most visited line below it.
    pub pv: Vec<M>,
    /// Whether the search may play it ([`Search::playable_root_moves`]: with the solver, not a
    /// move proven worse than another).
    pub playable: bool,
}

impl<M: Copy> SearchReport<M> {
    /// The report of `search` now (its root need not be expanded: then it has no moves).
    pub fn of<G: Game<Move = M>>(search: &Search<G>) -> SearchReport<M> {
        let tree = search.tree();
        let root = tree.root();
        let mover = search.root_state().to_move();
        let seats = G::NUM_PLAYERS;
        let playable = search.playable_root_moves();
        let moves = tree
            .edges_of(ROOT)
            .iter()
            .zip(playable)
            .map(|(e, playable)| {
                let visits = tree.child_visits(e);
                let child = (visits > 0).then(|| &tree.nodes[e.child as usize]);
                let mut pv = vec![e.mv];
                pv.extend(most_visited_line(tree, e.child));
                RootMove {
                    mv: e.mv,
                    visits,
                    prior: e.prior,
                    q: child.map(|c| c.mean(mover)),
                    values: child.map(|c| (0..seats).map(|p| c.mean(p)).collect()),
                    pv,
                    playable,
                }
            })
            .collect();
        let most_visited = tree.best_edge(ROOT).map(|e| e - root.first_edge as usize);
        SearchReport {
            mover,
            root_visits: root.visits,
            values: (0..seats).map(|p| root.mean(p)).collect(),
            moves,
            most_visited,
            best: search.best_root_move(),
        }
    }

    /// The root moves best first, as analysis lists them: the move the search plays at
    /// temperature 0 ([`SearchReport::best`]), then those it may play (a proven win before more
    /// visits elsewhere), then more visits, then the higher prior, then the tree's order. So the
    /// engine's `bestmove` is the move the same search plays in the arena.
    pub fn ranked(&self) -> Vec<&RootMove<M>> {
        let mut order: Vec<usize> = (0..self.moves.len()).collect();
        order.sort_by(|&i, &j| {
            let (a, b) = (&self.moves[i], &self.moves[j]);
            let best = |k: usize| self.best == Some(k);
            best(j)
                .cmp(&best(i))
                .then(b.playable.cmp(&a.playable))
                .then(b.visits.cmp(&a.visits))
                .then(b.prior.total_cmp(&a.prior))
        });
        order.into_iter().map(|i| &self.moves[i]).collect()
    }

    /// The most visited line from the root: the most visited move's principal variation, empty
    /// when no move has completed visits.
    pub fn principal_variation(&self) -> &[M] {
        self.most_visited.map_or(&[], |i| &self.moves[i].pv)
    }
}

impl<M: Copy> RootMove<M> {
    /// This root move of the search of `root` with its moves as text: the principal variation
    /// played out from `root`, each move written in the position it is played in.
    pub fn in_text<G: Game<Move = M>>(&self, root: &G) -> RootMove<String> {
        let mut state = root.clone();
        let pv = self
            .pv
            .iter()
            .map(|&mv| {
                let text = state.move_text(mv);
                state.play(mv);
                text
            })
            .collect();
        RootMove {
            mv: root.move_text(self.mv),
            visits: self.visits,
            prior: self.prior,
            q: self.q,
            values: self.values.clone(),
            pv,
            playable: self.playable,
        }
    }
}

#[cfg(test)]
mod tests {
    use rules::hexchess::MiniHexchess;

    use super::*;
    use crate::fixtures::FondOf;
    use crate::SearchParams;

    /// A move the solver proved a win ranks first, though the most visited move is another.
    #[test]
    fn a_proven_win_ranks_before_the_most_visited_move() {
        // K d1, R c4, R e4 against k d7: c4-b4 and e4-f4 mate in two, c4-c6 does not.
        let game = MiniHexchess::from_text("k/3/5/2R1R2/7/7/3K3 w - 0 60").unwrap();
        let mut search = Search::new(game.clone(), SearchParams::analysis(5000), 0);
        search.run(&FondOf("c4-c6"));
        let report = SearchReport::of(&search);
        let text = |m: &RootMove<_>| game.move_text(m.mv);
        let best = report.ranked()[0];
        assert!(["c4-b4", "e4-f4"].contains(&text(best).as_str()), "{report:?}");
        assert_eq!(best.q, Some(1.0));
        let fond = &report.moves[report.most_visited.expect("visited")];
        assert_eq!(text(fond), "c4-c6");
        assert!(fond.visits > best.visits && !fond.playable && best.playable);
        assert_eq!(report.principal_variation(), &fond.pv[..]);
        assert_eq!(fond.in_text(&game).pv[0], "c4-c6");
    }

    /// With the `lcb` choice the move played may have fewer visits than another: analysis (the
    /// engine's `bestmove`) lists the played one first all the same.
    #[test]
    fn the_move_the_search_plays_ranks_first_under_the_lcb_choice() {
        let tactics = crate::Tactics { choice: crate::MoveChoice::Lcb, lcb_width: 2.0, ..crate::Tactics::off() };
        let mut game = MiniHexchess::start();
        let mut moves = Vec::new();
        let mut apart = 0;
        for ply in 0..40 {
            let mut search = Search::new(game.clone(), SearchParams::playing(60, &tactics), ply);
            search.run(&crate::UniformEvaluator);
            let report = SearchReport::of(&search);
            let played = search.result().unwrap().chosen;
            assert_eq!(report.ranked()[0].mv, played, "ply {ply}: {report:?}");
            apart += usize::from(report.best != report.most_visited);
            game.legal_moves(&mut moves);
            game.play(moves[(ply as usize * 7) % moves.len()]);
            if game.outcome().is_some() {
                break;
            }
        }
        assert!(apart > 0, "some position must have the lcb choice differ from the most visited move");
    }
}
