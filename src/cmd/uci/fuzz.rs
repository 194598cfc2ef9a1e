//! Fuzzing the uci command lines (rules::fuzz): real lines a GUI or the arena sends, changed or
//! random, are read into a command or an error by [`parse`], and what a command carries is
//! then applied as [`super::engine::Engine`] applies it: `setoption` to the options (which
//! stay in range), `position` to a session of each variant (which keeps a readable
//! position). Never a panic, a hang or an allocation sized by a number in the line. Here, in
//! the program's own unit tests, because the parser is the program's; `VZERO_FUZZ_CASES=1000000
//! cargo test --release --bin vzero fuzz` runs longer (docs/architecture.md, "Tests").

use rules::fuzz::{self, mutate, CountingAlloc, Rng};
use rules::{with_game, Game, Variant};

use super::options::Options;
use super::protocol::{parse, Command};
use crate::engine::{open_session, ModelChoice, Session};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Lines as GUIs, the arena's engine client and docs/protocol.md write them.
const LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "quit",
    "",
    "setoption name UCI_Variant value wellisch",
    "setoption name UCI_Variant value mini-hexchess",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Simulations value 800",
    "setoption name Model value <empty>",
    "setoption name Model value none",
    "setoption name Clear Hash",
    "go nodes 100",
    "go movetime 50",
    "go infinite",
    "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
    "go p1time 1000 p2time 900 p3time 800 p3inc 5",
];

/// `position` lines of `G`: from the start and from positions of random games, with moves.
fn position_lines<G: Game>(rng: &mut Rng, lines: &mut Vec<String>) {
    let mut moves = Vec::new();
    for _ in 0..8 {
        let mut game = G::start();
        let mut from = (None, Vec::new());
        for ply in 0..rng.below(60) {
            game.legal_moves(&mut moves);
            let Some(&mv) = moves.get(rng.below(moves.len().max(1))) else { break };
            if ply == 10 {
                from = (Some(game.to_text()), Vec::new());
            }
            from.1.push(game.move_text(mv));
            game.play(mv);
        }
        let head = from.0.map_or("position startpos".to_string(), |t| format!("position fen {t}"));
        lines.push(if from.1.is_empty() { head } else { format!("{head} moves {}", from.1.join(" ")) });
    }
}

#[test]
fn fuzz_uci_lines() {
    let mut rng = Rng::new(fuzz::SEED);
    let mut corpus: Vec<String> = LINES.iter().map(|s| s.to_string()).collect();
    for variant in Variant::ALL {
        with_game!(variant, G => position_lines::<G>(&mut rng, &mut corpus));
    }
    let words = &[
        "position",
        "fen",
        "startpos",
        "moves",
        "go",
        "setoption",
        "name",
        "value",
        "infinite",
        "nodes",
        "movetime",
        "wtime",
        "binc",
        "p3time",
        "movestogo",
        "Threads",
        "MultiPV",
        "UCI_Variant",
        "Model",
        "Simulations",
    ];
    let inference = nn::Inference::choose(nn::Device::Cpu, nn::PrecisionChoice::Fp32);
    let mut sessions: Vec<Session> =
        Variant::ALL.iter().map(|&v| open_session(v, None, inference).expect("a uniform session")).collect();
    let stats = fuzz::run(
        "uci lines",
        20_000,
        |rng| mutate::text(rng, &corpus, words),
        |line| {
            let Ok(command) = parse(line) else { return false };
            match command {
                Command::SetOption { name, value } => {
                    let mut options = Options::new(Variant::Glinski, ModelChoice::Uniform);
                    if options.set(&name, value.as_deref()).is_ok() {
                        assert!((1..=256).contains(&options.threads), "{options:?}");
                        assert!((1..=5000).contains(&options.multipv), "{options:?}");
                        assert!((1..=100_000_000).contains(&options.simulations), "{options:?}");
                    }
                }
                Command::Position { text, moves } => {
                    for session in &mut sessions {
                        let before = session.game().to_text();
                        match session.set_position(text.as_deref(), &moves) {
                            Ok(()) => {
                                let now = session.game().to_text();
                                session.set_position(Some(&now), &[]).expect("the session's own position reads");
                            }
                            Err(_) => assert_eq!(session.game().to_text(), before, "a refused position changed it"),
                        }
                    }
                }
                Command::Go(go) => assert!(go.nodes.is_none_or(|n| n >= 1), "{go:?}"),
                _ => {}
            }
            true
        },
    );
    assert!(stats.read > 0);
}
