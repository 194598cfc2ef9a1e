//! Reading UCI command lines into [`Command`]s, apart from what the engine does with them.

use std::time::Duration;

/// One command line from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `uci`: identify, list the options, `uciok`.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: the next position belongs to another game.
    NewGame,
    /// `setoption name NAME [value VALUE]` (both may contain spaces).
    SetOption {
        /// The option's name as written.
        name: String,
        /// The value, if any (`None` for a button).
        value: Option<String>,
    },
    /// `position startpos|fen TEXT [moves M...]`.
    Position {
        /// The position text; `None` for `startpos`.
        text: Option<String>,
        /// Moves played from it, in the variant's notation.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(Go),
    /// `stop`: answer `bestmove` now.
    Stop,
    /// `quit`.
    Quit,
    /// An empty line (ignored).
    Empty,
}

/// The limits of a `go` command, and what in it could not be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// `nodes N`.
    pub nodes: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<Duration>,
    /// `infinite`.
    pub infinite: bool,
    /// `wtime`/`p1time`, `btime`/`p2time`, `p3time` (milliseconds left per seat).
    pub time: [Option<Duration>; 3],
    /// `winc`/`p1inc`, `binc`/`p2inc`, `p3inc`.
    pub inc: [Duration; 3],
    /// `movestogo N`.
    pub movestogo: Option<u32>,
    /// Words that were not understood (the rest of the command still counts).
    pub problems: Vec<GoProblem>,
}

/// The names `uci` answers with.
pub const COMMANDS: &str = "uci, isready, setoption, ucinewgame, position, go, stop, quit";

/// Why a command line was not read, to be answered as `info string error: ...`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A command without arguments that was given some.
    #[error("'{command}' takes no arguments, got '{got}'")]
    NoArguments {
        /// The command.
        command: String,
        /// Its arguments, joined by spaces.
        got: String,
    },
    /// A word that is no command.
    #[error("unknown command '{0}' (expected one of: {COMMANDS})")]
    Unknown(String),
    /// A `setoption` without `name NAME`.
    #[error("setoption: expected 'setoption name NAME [value VALUE]'")]
    SetOption,
    /// Words after `position startpos` other than the moves.
    #[error("position startpos: unexpected '{0}'")]
    AfterStartpos(String),
    /// `position fen` without a position.
    #[error("position fen: no position text before 'moves' or the end")]
    NoFen,
    /// A `position` of neither `startpos` nor `fen`.
    #[error("position: expected 'startpos' or 'fen TEXT', then optionally 'moves M1 M2 ...'")]
    Position,
}

/// A word of a `go` command that was not understood; the rest of the command still counts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoProblem {
    /// A limit without its number.
    #[error("go: '{0}' needs a number")]
    NoNumber(String),
    /// A number past what any limit holds.
    #[error("go: '{word} {text}': too large (at most {})", u64::MAX)]
    TooLarge {
        /// The limit.
        word: String,
        /// Its number as written.
        text: String,
    },
    /// A limit's number that is no whole number.
    #[error("go: '{word} {text}': not a whole number")]
    NotANumber {
        /// The limit.
        word: String,
        /// Its number as written.
        text: String,
    },
    /// A word that is no limit.
    #[error("go: unknown '{0}' ignored")]
    Unknown(String),
}

/// Reads one line. Errors name what was wrong, to be answered as `info string error: ...`.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else { return Ok(Command::Empty) };
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(CommandError::NoArguments { command: first.to_string(), got: rest.join(" ") })
        }
    };
    match first {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::NewGame),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => Ok(Command::Go(parse_go(rest))),
        other => Err(CommandError::Unknown(other.to_string())),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let Some((&"name", rest)) = words.split_first() else { return Err(CommandError::SetOption) };
    let split = rest.iter().position(|&w| w == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::SetOption);
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

fn parse_position(words: &[&str]) -> Result<Command, CommandError> {
    let split = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let (head, tail) = words.split_at(split);
    let moves: Vec<String> = tail.iter().skip(1).map(|w| w.to_string()).collect();
    let text = match head.split_first() {
        Some((&"startpos", [])) => None,
        Some((&"startpos", extra)) => return Err(CommandError::AfterStartpos(extra.join(" "))),
        Some((&"fen", [])) => return Err(CommandError::NoFen),
        Some((&"fen", text)) => Some(text.join(" ")),
        _ => return Err(CommandError::Position),
    };
    Ok(Command::Position { text, moves })
}

fn parse_go(words: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let arg = words.get(i + 1).copied();
        let number = || -> Result<u64, GoProblem> {
            let text = arg.ok_or_else(|| GoProblem::NoNumber(word.to_string()))?;
            let (word, text) = (word.to_string(), text.to_string());
            text.parse::<u64>().map_err(|e| match e.kind() {
                std::num::IntErrorKind::PosOverflow => GoProblem::TooLarge { word, text },
                _ => GoProblem::NotANumber { word, text },
            })
        };
        let ms = |n: u64| Duration::from_millis(n);
        let seat = |w: &str| match w {
            "wtime" | "winc" | "p1time" | "p1inc" => 0,
            "btime" | "binc" | "p2time" | "p2inc" => 1,
            _ => 2,
        };
        let read = match word {
            "infinite" => {
                go.infinite = true;
                i += 1;
                continue;
            }
            "nodes" => number().map(|n| go.nodes = Some(n.clamp(1, u32::MAX as u64) as u32)),
            "movetime" => number().map(|n| go.movetime = Some(ms(n))),
            "movestogo" => number().map(|n| go.movestogo = Some(n.min(u32::MAX as u64) as u32)),
            "wtime" | "btime" | "p1time" | "p2time" | "p3time" => number().map(|n| go.time[seat(word)] = Some(ms(n))),
            "winc" | "binc" | "p1inc" | "p2inc" | "p3inc" => number().map(|n| go.inc[seat(word)] = ms(n)),
            other => {
                go.problems.push(GoProblem::Unknown(other.to_string()));
                i += 1;
                continue;
            }
        };
        match read {
            Ok(()) => i += 2,
            Err(problem) => {
                go.problems.push(problem);
                i += if arg.is_some() { 2 } else { 1 };
            }
        }
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_text_runs_up_to_moves() {
        let cmd = parse("position fen b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1 moves d3-d4 c5-c4").unwrap();
        let Command::Position { text, moves } = cmd else { panic!("{cmd:?}") };
        assert_eq!(text.as_deref(), Some("b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1"));
        assert_eq!(moves, ["d3-d4", "c5-c4"]);
        assert_eq!(parse("position startpos").unwrap(), Command::Position { text: None, moves: vec![] });
        assert!(parse("position").is_err());
        assert!(parse("position fen moves a1-a2").is_err());
        assert!(parse("position startpos f5-f6").is_err());
    }

    #[test]
    fn option_names_and_values_may_have_spaces() {
        let cmd = parse("setoption name Model value /tmp/my run").unwrap();
        assert_eq!(cmd, Command::SetOption { name: "Model".into(), value: Some("/tmp/my run".into()) });
        let cmd = parse("setoption name Clear Hash").unwrap();
        assert_eq!(cmd, Command::SetOption { name: "Clear Hash".into(), value: None });
        assert!(parse("setoption Threads 2").is_err());
    }

    #[test]
    fn go_reads_every_limit_and_reports_what_it_cannot() {
        let Command::Go(go) = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap() else { panic!() };
        assert_eq!(go.time, [Some(Duration::from_millis(1000)), Some(Duration::from_millis(2000)), None]);
        assert_eq!(go.inc[1], Duration::from_millis(20));
        assert_eq!(go.movestogo, Some(5));
        let Command::Go(go) = parse("go p3time 500 p3inc 5 nodes 0").unwrap() else { panic!() };
        assert_eq!(
            (go.time[2], go.inc[2], go.nodes),
            (Some(Duration::from_millis(500)), Duration::from_millis(5), Some(1))
        );
        let Command::Go(go) = parse("go ponder nodes x movetime").unwrap() else { panic!() };
        assert_eq!(go.problems.len(), 3, "{:?}", go.problems);
        assert!(parse("go infinite").is_ok_and(|c| matches!(c, Command::Go(Go { infinite: true, .. }))));
    }

    /// A number past the largest the engine reads is said to be too large, with the bound
    /// (it was "not a whole number").
    #[test]
    fn a_number_too_large_is_said_to_be_too_large_with_its_bound() {
        let Command::Go(go) = parse("go nodes 99999999999999999999 movetime 10").unwrap() else { panic!() };
        assert_eq!(go.problems.len(), 1, "{:?}", go.problems);
        assert_eq!(
            go.problems[0].to_string(),
            "go: 'nodes 99999999999999999999': too large (at most 18446744073709551615)"
        );
        assert_eq!(go.movetime, Some(Duration::from_millis(10)));
        let Command::Go(go) = parse("go nodes -3").unwrap() else { panic!() };
        assert_eq!(go.problems, [GoProblem::NotANumber { word: "nodes".into(), text: "-3".into() }]);
    }

    #[test]
    fn unknown_commands_are_named() {
        let err = parse("frobnicate now").unwrap_err();
        assert_eq!(err, CommandError::Unknown("frobnicate".into()));
        assert!(err.to_string().starts_with("unknown command 'frobnicate' (expected one of: uci, "), "{err}");
        assert_eq!(parse("   ").unwrap(), Command::Empty);
        assert!(parse("isready now").is_err());
    }
}
