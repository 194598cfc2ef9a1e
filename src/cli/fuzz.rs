//! Fuzzing the command line (rules::fuzz): a valid invocation of each command with the value of
//! one or two of its flags or operands replaced by a hostile one (numbers at and past every
//! integer width, negative, empty, not a number, control characters, odd paths), or a flag
//! added. Every flag of every command is found by walking clap's own command tree, so a new flag
//! is fuzzed without a change here. Each case is parsed as `main` parses it: never a panic or a
//! hang, and a refusal is the one line `usage_error` prints, naming the flag or operand whose
//! value it refuses; a number flag or operand (but a seed) refuses a value of 10^15 or more, as
//! every one has a top. Bounded here; `VZERO_FUZZ_CASES=1000000 cargo test --release --bin vzero
//! fuzz_command_line` runs longer (docs/architecture.md, "Tests").

use std::any::TypeId;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, CommandFactory, Parser};
use rules::fuzz::{self, mutate, Rng};

use super::usage::usage_line;
use super::Cli;

/// A valid invocation of a command: the path of words that names it, its flags with values,
/// its operands.
type Base = (&'static [&'static str], &'static [(&'static str, &'static str)], &'static [&'static str]);

/// A valid invocation of each command: what a case starts from before changing a value.
const BASES: &[Base] = &[
    (&["variants"], &[], &[]),
    (&["perft"], &[], &["glinski", "2"]),
    (&["bench"], &[], &["perft"]),
    (&["train"], &[("--config", "configs/mini-hexchess-tiny.toml")], &[]),
    (&["selfplay"], &[("--run", "runs/x")], &[]),
    (&["teach"], &[("--run", "runs/x")], &[]),
    (&["runs", "status"], &[], &["runs/x"]),
    (&["runs", "endings"], &[], &["runs/x"]),
    (&["render"], &[("--out", "x.svg"), ("--variant", "glinski")], &[]),
    (&["replay"], &[("--out", "x.html")], &["game.txt"]),
    (&["plot"], &[("--out", "x.svg")], &["runs/x"]),
    (&["arena"], &[("--variant", "glinski")], &["random", "greedy"]),
    (&["gauntlet"], &[], &["runs/x"]),
    (&["export"], &[("--out", "x.pt")], &["runs/x"]),
    (&["uci"], &[], &[]),
    (&["analyse"], &[("--variant", "glinski")], &[]),
    (&["encode"], &[("--variant", "glinski"), ("--out", "x")], &[]),
    (&["play"], &[("--variant", "glinski")], &[]),
    (&["serve"], &[("--port", "0")], &[]),
];

/// Values a flag or an operand may be given besides [`mutate::NUMBERS`]: empty, signs, lists,
/// control characters, paths that are not files, player specs at their edges.
const VALUES: &[&str] = &[
    "",
    " ",
    "-",
    "--",
    "-x",
    "--help=1",
    "abc",
    "1,2",
    ",",
    "1,,2",
    "4x",
    "x4",
    "0x0",
    "\u{1b}[2J",
    "a\u{0}b",
    "é",
    "/",
    ".",
    "..",
    "/dev/zero",
    "/dev/null",
    "/proc/x",
    "/nonexistent/deep/path",
    "runs/x/config.toml",
    "random",
    "mcts:0",
    "alphabeta:0",
    "alphabeta:99999999999",
    "uci:",
    ":",
    "glinski",
    "wellisch",
    "cuda",
    "fp16",
    "1000000000000000",
    "1e15",
    "-1e15",
];

/// Number flags any value of whose type is right: a seed names one of all 64-bit streams.
const UNBOUNDED: &[&str] = &["--seed"];

/// The least absurd number: a count, a size or a duration of 10^15 is a typing mistake for every
/// number flag, which must refuse it naming its range.
const ABSURD: f64 = 1e15;

/// Words the mutations insert into a value.
const WORDS: &[&str] = &["random", "greedy", "mcts", "alphabeta", "uci", "glinski", "x", "all", "none", "k"];

/// A flag or operand of a command, as a case may change it.
#[derive(Clone, Debug)]
struct Slot {
    /// `--long` for a flag, the value name for an operand (as clap's messages name them).
    name: String,
    /// Whether it is a flag that takes no value (a switch).
    switch: bool,
    /// The operand's position among the command's operands.
    index: Option<usize>,
    /// Whether its value is a number that must have a top (not a seed).
    bounded_number: bool,
}

/// The flags and operands of the command at `path` in clap's tree.
fn slots(path: &[&str]) -> Vec<Slot> {
    let mut command = Cli::command();
    for word in path {
        command = command.find_subcommand(word).unwrap_or_else(|| panic!("no command {path:?}")).clone();
    }
    let mut operands = 0;
    let mut slots = Vec::new();
    for arg in command.get_arguments() {
        let number = is_number(arg);
        if arg.is_positional() {
            slots.push(Slot { name: operand_name(arg), switch: false, index: Some(operands), bounded_number: number });
            operands += 1;
        } else if let Some(long) = arg.get_long().filter(|l| !matches!(*l, "help" | "version")) {
            let name = format!("--{long}");
            let bounded_number = number && !UNBOUNDED.contains(&name.as_str());
            slots.push(Slot { name, switch: !arg.get_action().takes_values(), index: None, bounded_number });
        }
    }
    slots
}

/// Whether `arg` takes a number: its value parser makes an integer or a float.
fn is_number(arg: &Arg) -> bool {
    let made = arg.get_value_parser().type_id();
    [TypeId::of::<u32>(), TypeId::of::<u64>(), TypeId::of::<usize>(), TypeId::of::<f32>(), TypeId::of::<f64>()]
        .into_iter()
        .any(|t| made == t)
}

/// An operand's value name, as clap's messages name it inside `<...>` or `[...]`.
fn operand_name(arg: &Arg) -> String {
    let names = arg.get_value_names().map(|n| n.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    names.and_then(|n| n.first().cloned()).unwrap_or_else(|| arg.get_id().to_string().to_uppercase())
}

/// One case: the command line, the flags or operands whose values were changed, and the one
/// of those that is a number flag given an absurd number, if any.
#[derive(Debug)]
struct Case {
    args: Vec<String>,
    changed: Vec<String>,
    absurd: Option<String>,
}

/// A hostile value: a listed one, a number, or either of them changed.
fn value(rng: &mut Rng, corpus: &[String]) -> String {
    match rng.below(3) {
        0 => rng.pick(mutate::NUMBERS).to_string(),
        1 => rng.pick(VALUES).to_string(),
        _ => mutate::text(rng, corpus, WORDS).chars().take(300).collect(),
    }
}

/// A valid invocation of a random command with one or two of its values changed.
fn case(rng: &mut Rng, all_slots: &[Vec<Slot>], corpus: &[String]) -> Case {
    let which = rng.below(BASES.len());
    let (path, flags, operands) = BASES[which];
    let mut flags: Vec<(String, Option<String>)> =
        flags.iter().map(|(f, v)| (f.to_string(), Some(v.to_string()))).collect();
    let mut operands: Vec<String> = operands.iter().map(|s| s.to_string()).collect();
    let mut changed = Vec::new();
    let mut absurd = None;
    for _ in 0..1 + rng.below(2) {
        let Some(slot) = (!all_slots[which].is_empty()).then(|| rng.pick(&all_slots[which]).clone()) else { break };
        let new = value(rng, corpus);
        // The last change of a flag is the value it gets.
        let huge = new.parse::<f64>().is_ok_and(|n| n.abs() >= ABSURD);
        if slot.bounded_number && huge {
            absurd = Some(slot.name.clone());
        } else if absurd.as_ref() == Some(&slot.name) {
            absurd = None;
        }
        match slot.index {
            Some(i) => {
                while operands.len() <= i {
                    operands.push("x".into());
                }
                operands[i] = new;
            }
            None => {
                let new = (!slot.switch).then_some(new);
                match flags.iter_mut().find(|(f, _)| *f == slot.name) {
                    Some(flag) => flag.1 = new,
                    None => flags.push((slot.name.clone(), new)),
                }
            }
        }
        changed.push(slot.name);
    }
    let mut args: Vec<String> = std::iter::once("vzero").chain(path.iter().copied()).map(String::from).collect();
    for (flag, value) in flags {
        match value {
            // `--flag=VALUE` hands a value that starts with '-' to the flag, as a script would.
            Some(v) if rng.percent(50) => args.push(format!("{flag}={v}")),
            Some(v) => args.extend([flag, v]),
            None => args.push(flag),
        }
    }
    args.push("--".into());
    args.extend(operands);
    Case { args, changed, absurd }
}

/// The flag or operand a refused value belongs to, from the error's context.
fn refused_arg(err: &clap::Error) -> Option<String> {
    match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => Some(arg.clone()),
        _ => None,
    }
}

#[test]
fn fuzz_command_line() {
    let all_slots: Vec<Vec<Slot>> = BASES.iter().map(|(path, _, _)| slots(path)).collect();
    let flags: usize = all_slots.iter().map(Vec::len).sum();
    assert!(flags > 100, "the walk found only {flags} flags and operands");
    let corpus: Vec<String> = mutate::NUMBERS.iter().chain(VALUES).map(|s| s.to_string()).collect();
    let stats = fuzz::run(
        "command line",
        20_000,
        |rng| case(rng, &all_slots, &corpus),
        |case| match Cli::try_parse_from(&case.args) {
            Ok(_) => {
                assert!(case.absurd.is_none(), "{:?} took an absurd number: {:?}", case.absurd, case.args);
                true
            }
            Err(err) => {
                let (kind, arg) = (err.kind(), refused_arg(&err));
                let line = usage_line(err);
                assert!(!line.contains('\n'), "a refusal of more than one line: {line}");
                if matches!(kind, ErrorKind::InvalidValue | ErrorKind::ValueValidation) {
                    let arg = arg.unwrap_or_else(|| panic!("a refusal that names no flag: {line}"));
                    assert!(
                        case.changed.iter().any(|name| arg.trim_start_matches(['<', '[']).starts_with(name.as_str())),
                        "refused '{arg}', which the case did not change ({:?}): {line}",
                        case.changed
                    );
                    assert!(line.contains(&arg), "the message does not name {arg}: {line}");
                }
                assert!(!matches!(kind, ErrorKind::DisplayVersion), "{line}");
                false
            }
        },
    );
    assert!(stats.read > 0 && stats.read < stats.cases, "{stats:?}");
}

/// Every number flag and operand of every command, but a seed, refuses 10^15 naming itself:
/// each has a top (a thread count past it panicked, a batch past it aborted).
#[test]
fn every_number_flag_refuses_an_absurd_value() {
    let mut checked = Vec::new();
    for (path, flags, operands) in BASES {
        for slot in slots(path).into_iter().filter(|s| s.bounded_number) {
            for absurd in ["1000000000000000", "1e15"] {
                let mut args: Vec<String> =
                    std::iter::once("vzero").chain(path.iter().copied()).map(String::from).collect();
                for (flag, value) in flags.iter().filter(|(f, _)| *f != slot.name) {
                    args.extend([flag.to_string(), value.to_string()]);
                }
                let mut operands: Vec<String> = operands.iter().map(|s| s.to_string()).collect();
                match slot.index {
                    Some(i) => {
                        operands.resize(operands.len().max(i + 1), "x".into());
                        operands[i] = absurd.into();
                    }
                    None => args.push(format!("{}={absurd}", slot.name)),
                }
                args.push("--".into());
                args.extend(operands);
                let err = Cli::try_parse_from(&args).expect_err(&format!("{args:?} took {absurd}"));
                let arg = refused_arg(&err).unwrap_or_else(|| panic!("{args:?}: {err}"));
                assert!(arg.trim_start_matches(['<', '[']).starts_with(slot.name.as_str()), "{args:?}: {err}");
            }
            checked.push(format!("{} {}", path.join(" "), slot.name));
        }
    }
    // The walk found the number flags (among them each shared group's and an operand).
    for expected in ["perft DEPTH", "selfplay --wait", "arena --opening-plies", "play --tactical-prior-plies"] {
        assert!(checked.iter().any(|c| c == expected), "{expected} not among {checked:?}");
    }
}
