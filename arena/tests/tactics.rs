//! The tactical leaf blend: a search whose evaluator knows nothing (flat values, uniform
//! priors: a network that misses the capture) finds a free queen once a quiescence search's
//! value is blended into its leaf values.

use arena::{Agent, QuiescenceJudge, SearchAgent};
use mcts::{Batch, Blend, Evaluator};
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
    let evaluator = Blend { inner: Clueless, judge: QuiescenceJudge, weight: tactics };
    let agent = SearchAgent::new("test".into(), evaluator, simulations);
    game.move_text(agent.choose(game, 3))
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
