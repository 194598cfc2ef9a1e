//! One teacher game: random opening plies, then the alpha-beta teacher scores every root move
//! of every position, the scores become the position's labels, and a softmax draw over them
//! chooses the move.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngExt, SeedableRng};
use rules::Encoding;

use super::label::{choose, policy_target};
use crate::play::worker::{at_move_limit, GameEnd};
use crate::replay::{GameRecord, MoveRecord, TEACHER_GAME};
use mcts::game_seed;

/// How the teacher plays and labels (from `[teacher]` and `[selfplay]`).
#[derive(Clone, Debug)]
pub struct TeacherPlan {
    /// The teacher's search limits.
    pub settings: alphabeta::SearchLimits,
    /// Random opening plies, not labelled.
    pub random_plies: u32,
    /// Centipawns of the policy target's softmax.
    pub policy_temperature: f32,
    /// Centipawns of the move choice's softmax (0: the best).
    pub choice_temperature: f32,
    /// Share of the teacher's evaluation in the value target.
    pub value_mix: f32,
    /// Longest game in plies (`selfplay.max_plies`).
    pub max_plies: u32,
    /// `selfplay.adjudicate_material` at the move limit.
    pub adjudicate_material: f32,
    /// The run's seed.
    pub seed: u64,
}

/// A move whose score trails the best by this many of the wider softmax's temperatures gets
/// under 1/10,000 of the best's weight in the policy target and the move choice (e^-9.2): the
/// teacher scores such moves only as bounds, which is all a label needs and far cheaper.
const SCORE_MARGIN_TEMPERATURES: f32 = 9.2;

impl TeacherPlan {
    /// Centipawns below the best within which the teacher scores root moves exactly.
    pub fn score_margin(&self) -> i32 {
        score_margin(self.policy_temperature.max(self.choice_temperature))
    }
}

/// Centipawns below the best within which a teacher whose widest softmax has `temperature`
/// scores root moves exactly ([`TeacherPlan::score_margin`]).
pub fn score_margin(temperature: f32) -> i32 {
    (SCORE_MARGIN_TEMPERATURES * temperature).ceil() as i32
}

/// Salt that separates the teacher games' random streams from self-play's.
const TEACHER_SALT: u64 = 0x7EAC_4E12;

/// Teacher game `k` from `start` (numbered `TEACHER_GAME | k`): a function of the plan and `k`
/// alone, so a resumed `teach` plays the games it lacks exactly as they would have been.
pub fn teacher_game<G: Encoding>(start: &G, k: u64, plan: &TeacherPlan) -> (GameRecord, GameEnd) {
    teacher_game_until(start, k, plan, &AtomicBool::new(false)).expect("never stopped")
}

/// [`teacher_game`], abandoned (None) once `stop` is set: a labelled move can take seconds on
/// a big board (hours at `alphabeta:30`), so a stop request ends the teacher's search within a
/// millisecond, not after a move or a game of hundreds.
pub fn teacher_game_until<G: Encoding>(
    start: &G,
    k: u64,
    plan: &TeacherPlan,
    stop: &AtomicBool,
) -> Option<(GameRecord, GameEnd)> {
    let seed = game_seed(plan.seed ^ TEACHER_SALT, k);
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut record = GameRecord {
        variant: G::NAME.into(),
        number: TEACHER_GAME | k,
        start: start.to_text(),
        moves: Vec::new(),
        scores: Vec::new(),
    };
    let end = loop {
        if let Some(scores) = game.outcome() {
            break (GameEnd::Rules, scores);
        }
        if record.moves.len() as u32 >= plan.max_plies {
            break at_move_limit(&game, plan.adjudicate_material);
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let ply = record.moves.len() as u32;
        let mv = if ply < plan.random_plies {
            game.legal_moves(&mut moves);
            let mv = moves[rng.random_range(0..moves.len())];
            let played = game.policy_index(mv) as u32;
            record.moves.push(MoveRecord { played, visits: vec![(played, 1)], policy_target: false, root_value: None });
            mv
        } else {
            let (mv, labelled) = labelled_move(&game, plan, rng.random(), &mut rng, stop)?;
            record.moves.push(labelled);
            mv
        };
        game.play(mv);
    };
    let scores = end.1;
    record.scores = scores.as_slice().to_vec();
    for m in record.moves.iter_mut() {
        if let Some(eval) = &mut m.root_value {
            for (seat, v) in eval.iter_mut().enumerate().take(G::NUM_PLAYERS) {
                *v = plan.value_mix * *v + (1.0 - plan.value_mix) * scores.get(seat);
            }
        }
    }
    Some((record, end.0))
}

/// The teacher's move in `game` and its record: the policy target over every root move's
/// score, the teacher's evaluation per seat as the root value (mixed with the result later);
/// none once `stop` is set.
fn labelled_move<G: Encoding>(
    game: &G,
    plan: &TeacherPlan,
    search_seed: u64,
    rng: &mut impl rand::Rng,
    stop: &AtomicBool,
) -> Option<(G::Move, MoveRecord)> {
    let scored = |settings: &alphabeta::SearchLimits| {
        let report = alphabeta::score_root_moves_within(game, settings, search_seed, plan.score_margin(), stop)
            .expect("a live position has moves");
        // A stop leaves the label half made: the game is dropped and played again later.
        (!stop.load(Ordering::Relaxed)).then_some(report)
    };
    let mut report = scored(&plan.settings)?;
    if report.root_scores.is_empty() {
        // The time limit stopped even depth 1 before it scored the moves, and a label needs
        // them: this position is scored without the limit.
        report = scored(&alphabeta::SearchLimits { time: None, ..plan.settings })?;
    }
    let scores: Vec<i32> = report.root_scores.iter().map(|&(_, s)| s).collect();
    let indices: Vec<u32> = report.root_scores.iter().map(|&(mv, _)| game.policy_index(mv) as u32).collect();
    let visits = policy_target(&indices, &scores, plan.policy_temperature);
    let chosen = choose(&scores, plan.choice_temperature, rng);
    let mv = report.root_scores[chosen].0;
    // Best first: the position's value is the best move's.
    let root_value = alphabeta::seat_values::<G>(game.to_move(), alphabeta::expected_score(scores[0]));
    let record = MoveRecord { played: indices[chosen], visits, policy_target: true, root_value: Some(root_value) };
    Some((mv, record))
}
