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
    /// Words that were not understood (each a message; the rest of the command still counts).
    pub problems: Vec<String>,
}

/// The names `uci` answers with.
pub const COMMANDS: &str = "uci, isready, setoption, ucinewgame, position, go, stop, quit";

/// Reads one line. Errors name what was wrong, to be answered as `info string error: ...`.
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else { return Ok(Command::Empty) };
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(format!("'{first}' takes no arguments, got '{}'", rest.join(" ")))
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
        other => Err(format!("unknown command '{other}' (expected one of: {COMMANDS})")),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    let usage = "setoption: expected 'setoption name NAME [value VALUE]'";
    let Some((&"name", rest)) = words.split_first() else { return Err(usage.into()) };
    let split = rest.iter().position(|&w| w == "value");
    let (name, value) = match split {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(usage.into());
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let split = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
    let (head, tail) = words.split_at(split);
    let moves: Vec<String> = tail.iter().skip(1).map(|w| w.to_string()).collect();
    let text = match head.split_first() {
        Some((&"startpos", [])) => None,
        Some((&"startpos", extra)) => return Err(format!("position startpos: unexpected '{}'", extra.join(" "))),
        Some((&"fen", [])) => return Err("position fen: no position text before 'moves' or the end".into()),
        Some((&"fen", text)) => Some(text.join(" ")),
        _ => return Err("position: expected 'startpos' or 'fen TEXT', then optionally 'moves M1 M2 ...'".into()),
    };
    Ok(Command::Position { text, moves })
}

fn parse_go(words: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let arg = words.get(i + 1).copied();
        let number = || -> Result<u64, String> {
            let text = arg.ok_or_else(|| format!("go: '{word}' needs a number"))?;
            text.parse::<u64>().map_err(|e| match e.kind() {
                std::num::IntErrorKind::PosOverflow => {
                    format!("go: '{word} {text}': too large (at most {})", u64::MAX)
                }
                _ => format!("go: '{word} {text}': not a whole number"),
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
                go.problems.push(format!("go: unknown '{other}' ignored"));
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
        let problem = &go.problems[0];
        assert!(problem.contains("too large") && problem.contains(&u64::MAX.to_string()), "{problem}");
        assert_eq!(go.movetime, Some(Duration::from_millis(10)));
        let Command::Go(go) = parse("go nodes -3").unwrap() else { panic!() };
        assert!(go.problems[0].contains("not a whole number"), "{:?}", go.problems);
    }

    #[test]
    fn unknown_commands_are_named() {
        let err = parse("frobnicate now").unwrap_err();
        assert!(err.contains("'frobnicate'"), "{err}");
        assert_eq!(parse("   ").unwrap(), Command::Empty);
        assert!(parse("isready now").is_err());
    }
}
