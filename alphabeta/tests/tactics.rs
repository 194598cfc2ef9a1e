//! The tactical leaf blend: a search whose evaluator knows nothing (flat values, uniform
//! priors: a network that misses the capture) finds a free queen once a quiescence search's
//! value is blended into its leaf values; that search sees a quiet mate once it looks a ply deeper.

use alphabeta::TacticsJudge;
use mcts::{Batch, Blend, Evaluator, LeafJudge, Search, SearchParams};
use rules::{Game, Glinski, Material, MAX_PLAYERS};

/// A network with no opinion: equal priors, every position an even game.
struct Clueless;

impl<G: Game> Evaluator<G> for Clueless {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            let n = slot.priors.len() as f32;
            slot.priors.fill(1.0 / n);
            *slot.value = [0.5; MAX_PLAYERS];
        }
    }
}

fn chosen(game: &Glinski, tactics: f32, simulations: u32) -> String {
    let evaluator = Blend { inner: Clueless, judge: TacticsJudge::default(), weight: tactics };
    // As the arena's search player chooses: analysis's parameters, the most visited move.
    let mut search = Search::new(game.clone(), SearchParams::analysis(simulations), 3);
    search.run(&evaluator);
    game.move_text(search.result().expect("a live position").chosen)
}

#[test]
fn the_blend_finds_the_free_queen_the_network_misses() {
    // The rook on f4 can take Black's undefended queen on f9 (which attacks it down the file).
    let game = Glinski::from_text("1/3/2q2/7/9/11/11/5R5/11/11/1K7k1 w - 0 30").unwrap();
    let capture = game.parse_move("f4-f9").unwrap();
    assert_eq!(game.capture_value(capture), 9.0);
    assert_ne!(chosen(&game, 0.0, 64), "f4-f9", "the raw search must miss it at 64 simulations");
    for simulations in [16, 64] {
        assert_eq!(chosen(&game, 0.5, simulations), "f4-f9", "{simulations} simulations with tactics");
    }
}

#[test]
fn a_deeper_tactics_judge_sees_the_quiet_mate_that_captures_alone_miss() {
    // White rooks c6 and b7 and bishop e6 mate the king on a1 with one quiet rook move, but
    // Black's queens on e9 and g7 outweigh them: captures alone call White lost, a ply more mates.
    let game = Glinski::from_text("1/3/1q3/7/R4q3/2R1B6/11/11/11/11/k4K5 w - 0 60").unwrap();
    let white = |depth| TacticsJudge { depth, ..TacticsJudge::default() }.judge(&game)[0];
    assert!(white(0) < 0.5, "quiescence alone: {}", white(0));
    assert_eq!(white(1), 1.0, "one full-width ply finds the mate");
    assert_eq!(TacticsJudge { depth: 2, ..TacticsJudge::default() }.judge(&game)[1], 0.0, "and Black is lost");
}
