//! metrics.jsonl as vzero wrote it before run events were typed still reads, and reads as what
//! it says; the typed writer keeps those lines' JSON, adding only the version.

use selfplay::store::events::{event_line, read_events, RunEvent};

/// Real lines of the format before `"v"`: a run with gating, playouts and an evaluation, an
/// iteration without training steps, and the error line `vzero train` logs.
const V1: &str = include_str!("data/metrics-v1.jsonl");

#[test]
fn lines_of_the_first_format_read_as_their_events() {
    let log = read_events(V1);
    assert_eq!(log.skipped_lines, 0);
    assert_eq!(log.events.len(), 8);
    let its: Vec<_> = log.iterations().collect();
    assert_eq!(its.len(), 3);
    assert_eq!((its[0].iteration, its[0].step, its[0].games, its[0].iteration_games), (1, 23, 8, 8));
    assert_eq!(its[0].seat_scores, vec![0.625, 0.375]);
    assert_eq!(its[0].policy_loss, Some(2.491686064264049));
    assert_eq!(its[0].first_step_value_loss, Some(0.20552563667297363));
    assert_eq!(its[0].rollout_weight as f32, 0.1);
    assert_eq!((its[1].ended_by_rules, its[1].adjudicated, its[1].window_positions), (4, 4, 762));
    assert_eq!((its[2].policy_loss, its[2].first_step_policy_loss, its[2].train_steps), (None, None, 0));
    let RunEvent::Gating(gating) = &log.events[2] else { panic!("{:?}", log.events[2]) };
    assert!(gating.accepted && gating.candidate.as_deref() == Some("step-000000047"));
    assert_eq!((gating.games, gating.candidate_score, gating.threshold), (2, 0.75, 0.55));
    let RunEvent::Evaluation(eval) = &log.events[5] else { panic!("{:?}", log.events[5]) };
    assert_eq!((eval.opponent.as_str(), eval.games, eval.network_wins, eval.draws), ("uniform-mcts-12", 2, 1, 1));
    let error = log.last_error().expect("an error line");
    assert!(error.message.contains("1 blocks x 8 channels"), "{}", error.message);
}

#[test]
fn the_writer_keeps_the_first_format_and_adds_its_version() {
    for (old, event) in V1.lines().zip(read_events(V1).events) {
        let mut new: serde_json::Value = serde_json::from_str(&event_line(&event)).unwrap();
        assert_eq!(new["v"], 1);
        new.as_object_mut().unwrap().remove("v");
        assert_eq!(new, serde_json::from_str::<serde_json::Value>(old).unwrap(), "{old}");
    }
}
