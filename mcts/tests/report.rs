//! The search report on small games whose answers are known: the root's moves with their
//! visits and values, the ranking, and the principal variations in move text.

mod games;

use games::nim::Nim;
use games::three::{Three, MAXN_MOVE};
use mcts::{Search, SearchParams, SearchReport, UniformEvaluator};
use rules::Game;

fn searched<G: Game>(game: G, params: SearchParams) -> Search<G> {
    let mut search = Search::new(game, params, 0);
    search.run(&UniformEvaluator);
    search
}

/// Five stones: taking one leaves a lost pile of four, and the solver proves it.
#[test]
fn nim_ranks_the_winning_take_first_with_its_proven_score() {
    let game = Nim::pile(5);
    let search = searched(game.clone(), SearchParams::analysis(400));
    let report = SearchReport::of(&search);
    assert_eq!(report.mover, 0);
    assert_eq!(report.moves.len(), 3, "take 1, 2 or 3");
    assert_eq!(report.values.len(), 2);
    let best = report.ranked()[0];
    assert_eq!(best.mv, 1, "{report:?}");
    assert_eq!(best.q, Some(1.0), "a proven win: {report:?}");
    assert_eq!(best.values, Some(vec![1.0, 0.0]));
    let text = best.in_text(&game);
    assert_eq!((text.mv.as_str(), text.pv[0].as_str()), ("1", "1"));
    assert_eq!(text.pv.len(), best.pv.len());
    for m in &report.moves {
        assert_eq!(m.pv[0], m.mv, "every line starts with its move");
        assert_eq!(m.q, m.values.as_ref().map(|v| v[0]), "q is the mover's value");
    }
}

/// Max-n's answer is the most visited move, its line the search result's principal variation,
/// and the root's visits are its own plus those of its moves.
#[test]
fn three_players_report_every_seat_and_the_search_results_line() {
    let params = SearchParams { simulations: 3000, ..SearchParams::for_tests_v1() };
    let mut search = searched(Three::start(), params);
    let result = search.result().unwrap();
    let report = SearchReport::of(&search);
    let most = &report.moves[report.most_visited.unwrap()];
    assert_eq!(most.mv, MAXN_MOVE);
    assert_eq!(report.principal_variation(), &result.pv[..], "{report:?}");
    assert_eq!(report.root_visits, result.root_visits);
    assert_eq!(report.values, result.value.to_vec());
    assert_eq!(report.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), result.moves);
    assert_eq!(report.moves.iter().map(|m| m.visits).collect::<Vec<_>>(), result.visits);
    assert_eq!(report.moves.iter().map(|m| m.visits).sum::<u32>() + 1, report.root_visits);
    assert!(report.moves.iter().all(|m| m.values.as_ref().is_some_and(|v| v.len() == 3)));
    assert_eq!(report.ranked()[0].mv, MAXN_MOVE);
}

/// Before the root is searched there is nothing to report but the seat to move.
#[test]
fn an_unsearched_root_has_no_moves() {
    let search = Search::new(Nim::pile(5), SearchParams::analysis(10), 0);
    let report = SearchReport::of(&search);
    assert!(report.moves.is_empty() && report.most_visited.is_none() && report.principal_variation().is_empty());
    assert_eq!(report.root_visits, 0);
}
