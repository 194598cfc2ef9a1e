//! Arena players as written on the command line, parsed without looking at the file system:
//! whether a checkpoint path exists is found when the player is loaded ([`super::load_players`]).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// One player as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The most valuable capture, else random.
    Greedy,
    /// Classical alpha-beta search ([`alphabeta::search`]): depth and time limit per move.
    AlphaBeta(alphabeta::SearchLimits),
    /// Search with the uniform evaluator.
    Mcts(Option<u32>),
    /// Search with the random-playout evaluator.
    Rollout(Option<u32>),
    /// Search with a trained network: a checkpoint folder, or a run directory for its newest
    /// checkpoint (any text that names no other player; loading checks that it exists).
    Network(PathBuf, Option<u32>),
    /// A search player (`mcts`, `rollout` or a network) given a time a move, `NAME[:SIMS]@MS`:
    /// it searches until the time is up (or its simulations, if given, are reached first).
    Timed {
        /// The search player, its simulations a cap (none: no cap but the time).
        player: Box<PlayerSpec>,
        /// Time a move.
        movetime: Duration,
    },
    /// Another program speaking the engine protocol, started as a child process.
    Uci {
        /// The command as written after `uci:`.
        command: String,
        /// It split into words as a shell would: the program, then its arguments.
        argv: Vec<String>,
    },
}

/// A player could not be set up.
#[derive(Debug, Error)]
pub enum PlayerError {
    /// The text names no player.
    #[error(
        "player '{0}': expected random, greedy, mcts[:SIMS][@MS], rollout[:SIMS][@MS], alphabeta:DEPTH[:MS], uci:COMMAND or a checkpoint PATH[:SIMS][@MS]"
    )]
    Unknown(String),
    /// A time a move (`@MS`) on a player that does not search, or out of range.
    #[error("player '{text}': expected NAME[:SIMS]@MS with NAME mcts, rollout or a checkpoint PATH and MS 1 to {max} ({reason})", max = MAX_MOVETIME_MS)]
    Movetime { text: String, reason: String },
    /// An `alphabeta` player with a depth or time limit that cannot make a search.
    #[error("player '{text}': expected alphabeta:DEPTH or alphabeta:DEPTH:MS with DEPTH 1 to {max} and MS at least 1 ({reason})", max = alphabeta::MAX_DEPTH)]
    AlphaBeta { text: String, reason: String },
    /// A search player given no simulations, which could not choose a move.
    #[error("player '{0}': a search needs at least 1 simulation")]
    NoSimulations(String),
    /// A `uci:` player whose command line cannot be split into words.
    #[error("player '{0}': expected uci:COMMAND, a command line of words, 'single' or \"double\" quoted where they hold spaces")]
    Command(String),
    /// The engine of a `uci:` player could not be started and set up.
    #[error("player '{player}': {reason}")]
    Engine { player: String, reason: String },
    /// The checkpoint cannot be used.
    #[error("player '{path}': {reason}")]
    Checkpoint { path: String, reason: String },
}

/// A checkpoint path that names no usable checkpoint, said as the player it was to be.
impl From<nn::checkpoint::LookupError> for PlayerError {
    fn from(e: nn::checkpoint::LookupError) -> PlayerError {
        PlayerError::Checkpoint { path: e.path.display().to_string(), reason: e.reason.to_string() }
    }
}

/// The longest time a move a timed search player takes (`@MS`): a day.
pub const MAX_MOVETIME_MS: u64 = 86_400_000;

impl PlayerSpec {
    /// The path of a network player, timed or not.
    pub fn network_path(&self) -> Option<&Path> {
        match self {
            PlayerSpec::Network(path, _) => Some(path),
            PlayerSpec::Timed { player, .. } => player.network_path(),
            _ => None,
        }
    }

    /// Whether the player never changes: anything but a network, and a network named by its
    /// checkpoint folder (a run directory stands for its newest checkpoint, which moves as the
    /// run learns). What a gauntlet measures checkpoints against: a run's teacher-only
    /// checkpoint is such an anchor.
    pub fn is_fixed(&self) -> bool {
        match self.network_path() {
            Some(path) => nn::checkpoint::is_checkpoint(path),
            None => true,
        }
    }

    /// The player as it was written (for a network player: its path and simulations).
    pub fn text(&self) -> String {
        match self {
            PlayerSpec::Network(path, Some(sims)) => format!("{}:{sims}", path.display()),
            PlayerSpec::Network(path, None) => path.display().to_string(),
            PlayerSpec::Uci { command, .. } => format!("uci:{command}"),
            PlayerSpec::Random => "random".into(),
            PlayerSpec::Greedy => "greedy".into(),
            PlayerSpec::AlphaBeta(s) => match s.time {
                Some(t) => format!("alphabeta:{}:{}", s.depth, t.as_millis()),
                None => format!("alphabeta:{}", s.depth),
            },
            PlayerSpec::Mcts(sims) => with_sims("mcts", *sims),
            PlayerSpec::Rollout(sims) => with_sims("rollout", *sims),
            PlayerSpec::Timed { player, movetime } => format!("{}@{}", player.text(), movetime.as_millis()),
        }
    }
}

fn with_sims(name: &str, sims: Option<u32>) -> String {
    sims.map_or_else(|| name.to_string(), |n| format!("{name}:{n}"))
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(text: &str) -> Result<PlayerSpec, PlayerError> {
        // No text is no player (not a checkpoint with an empty path).
        if text.trim().is_empty() {
            return Err(PlayerError::Unknown(text.into()));
        }
        // Everything after `uci:` is the command, colons and spaces included.
        if let Some(command) = text.strip_prefix("uci:") {
            let argv = shlex::split(command).filter(|words| !words.is_empty());
            let argv = argv.ok_or_else(|| PlayerError::Command(text.into()))?;
            return Ok(PlayerSpec::Uci { command: command.into(), argv });
        }
        if let Some((player, ms)) = text.rsplit_once('@').filter(|(_, ms)| is_number(ms)) {
            return parse_timed(text, player, ms);
        }
        // Two numbers after the name: the generic `NAME:SIMS` split below would see one.
        if text == "alphabeta" || text.starts_with("alphabeta:") {
            return parse_alphabeta(text, &text["alphabeta".len()..]).map(PlayerSpec::AlphaBeta);
        }
        let (name, sims) = match text.rsplit_once(':') {
            Some((name, n)) if is_number(n) => {
                (name, Some(n.parse::<u32>().map_err(|_| PlayerError::Unknown(text.into()))?))
            }
            _ => (text, None),
        };
        if sims == Some(0) {
            return Err(PlayerError::NoSimulations(text.into()));
        }
        Ok(match name {
            "random" if sims.is_none() => PlayerSpec::Random,
            "greedy" if sims.is_none() => PlayerSpec::Greedy,
            "mcts" => PlayerSpec::Mcts(sims),
            "rollout" => PlayerSpec::Rollout(sims),
            "random" | "greedy" => return Err(PlayerError::Unknown(text.into())),
            path => PlayerSpec::Network(PathBuf::from(path), sims),
        })
    }
}

/// Whether `text` is a whole number as a player's text writes one: digits only.
fn is_number(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_digit())
}

/// The timed player `text`: the search player `player` given `ms` milliseconds a move.
fn parse_timed(text: &str, player: &str, ms: &str) -> Result<PlayerSpec, PlayerError> {
    let bad = |reason: String| PlayerError::Movetime { text: text.into(), reason };
    let ms = ms.parse::<u64>().ok().filter(|ms| (1..=MAX_MOVETIME_MS).contains(ms));
    let ms = ms.ok_or_else(|| bad("the time is out of range".into()))?;
    let player = match player.parse::<PlayerSpec>()? {
        p @ (PlayerSpec::Mcts(_) | PlayerSpec::Rollout(_) | PlayerSpec::Network(..)) => p,
        other => return Err(bad(format!("'{}' does not search by simulations", other.text()))),
    };
    Ok(PlayerSpec::Timed { player: Box::new(player), movetime: Duration::from_millis(ms) })
}

/// The search limits of `alphabeta:DEPTH[:MS]`; `limits` is the text after `alphabeta`.
fn parse_alphabeta(text: &str, limits: &str) -> Result<alphabeta::SearchLimits, PlayerError> {
    let bad = |reason: &str| PlayerError::AlphaBeta { text: text.into(), reason: reason.into() };
    let number = |field: &str, what: &str| {
        field.parse::<u64>().map_err(|_| bad(&format!("{what} '{field}' is not a whole number")))
    };
    let mut fields = limits.strip_prefix(':').ok_or_else(|| bad("no depth given"))?.split(':');
    let depth = number(fields.next().unwrap_or_default(), "depth")?;
    let time = fields.next().map(|ms| number(ms, "MS")).transpose()?.map(std::time::Duration::from_millis);
    if fields.next().is_some() {
        return Err(bad("more than two numbers"));
    }
    let depth = u32::try_from(depth).unwrap_or(u32::MAX);
    alphabeta::SearchLimits { depth, time, table: true }.validated().map_err(|e| bad(&e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uci_player_takes_the_whole_command_line_colons_and_quotes_included() {
        let spec: PlayerSpec = r#"uci:vzero uci --model "runs/a b:64" --x=y:1"#.parse().unwrap();
        let argv = ["vzero", "uci", "--model", "runs/a b:64", "--x=y:1"].map(String::from).to_vec();
        assert_eq!(spec, PlayerSpec::Uci { command: r#"vzero uci --model "runs/a b:64" --x=y:1"#.into(), argv });
        assert!(matches!("uci:".parse::<PlayerSpec>(), Err(PlayerError::Command(_))));
        assert!(matches!("uci:'unclosed".parse::<PlayerSpec>(), Err(PlayerError::Command(_))));
    }

    #[test]
    fn a_search_player_takes_a_time_a_move_and_says_it_back() {
        let timed = |text: &str| text.parse::<PlayerSpec>().unwrap();
        let ms = Duration::from_millis;
        assert_eq!(
            timed("mcts@100"),
            PlayerSpec::Timed { player: Box::new(PlayerSpec::Mcts(None)), movetime: ms(100) }
        );
        let network = timed("runs/a/checkpoints/step-000100:400@250");
        assert_eq!(network.text(), "runs/a/checkpoints/step-000100:400@250");
        assert_eq!(network.network_path(), Some(Path::new("runs/a/checkpoints/step-000100")));
        assert_eq!(timed("rollout:8@1").text(), "rollout:8@1");
        for (text, why) in [
            ("alphabeta:3@100", "does not search"),
            ("greedy@100", "does not search"),
            ("mcts@0", "out of range"),
            ("mcts@86400001", "out of range"),
        ] {
            let message = text.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(message.contains(why) && message.contains("MS 1 to 86400000"), "{text}: {message}");
        }
        assert!(matches!("mcts:0@100".parse::<PlayerSpec>(), Err(PlayerError::NoSimulations(_))));
        // An `@` followed by anything but digits is part of a path.
        assert_eq!(timed("runs/me@host"), PlayerSpec::Network(PathBuf::from("runs/me@host"), None));
    }
}
