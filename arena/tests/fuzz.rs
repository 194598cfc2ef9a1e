//! Fuzzing player specs (`random`, `alphabeta:3:500`, `uci:COMMAND`, a checkpoint path...), as
//! `arena`, `gauntlet` and the run's `[gauntlet]` read them: every text is a player or refused
//! with an error, and a player's own text reads back as the same player. Bounded here;
//! `VZERO_FUZZ_CASES=1000000 cargo test --release -p arena --test fuzz` runs longer
//! (docs/architecture.md, "Tests").

use arena::PlayerSpec;
use rules::fuzz::{self, mutate, CountingAlloc};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Specs as the docs and tests write them.
const SPECS: &[&str] = &[
    "random",
    "greedy",
    "mcts",
    "mcts:64",
    "rollout",
    "rollout:100",
    "alphabeta:1",
    "alphabeta:3:500",
    "runs/tiny",
    "runs/tiny:64",
    "models/mini-hexchess/checkpoint:64",
    "runs/a b/checkpoints/step-000000120",
    "uci:vzero uci",
    "uci:./target/release/vzero uci --model none --threads 2",
    r#"uci:vzero uci --model "runs/a b:64" --x=y:1"#,
    "uci:'my engine' --flag 'a b' \"c\\\"d\"",
];

#[test]
fn fuzz_player_specs() {
    let corpus: Vec<String> = SPECS.iter().map(|s| s.to_string()).collect();
    let words = &["uci:", "alphabeta", "mcts", "rollout", "random", "greedy", ":", "'", "\"", "\\", "~", "$HOME"];
    let stats = fuzz::run(
        "player specs",
        20_000,
        |rng| mutate::text(rng, &corpus, words),
        |text| match text.parse::<PlayerSpec>() {
            Ok(spec) => {
                let written = spec.text();
                match written.parse::<PlayerSpec>() {
                    Ok(again) => assert_eq!(again, spec, "{written:?} reads as another player"),
                    Err(e) => panic!("{spec:?} writes {written:?}, which is refused: {e}"),
                }
                let _ = spec.is_fixed();
                true
            }
            Err(_) => false,
        },
    );
    assert!(stats.read > 0);
}
