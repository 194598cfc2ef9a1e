//! The tactical flags of the commands that play, one per flagged setting of [`Tactics`], built
//! from its declaration: the flag's name, value name, help, range and default are the
//! declaration's, so a setting added there is a flag here with nothing written by hand.

use clap::{Arg, ArgMatches, Command};
use mcts::Tactics;

/// The tactics the flags ask for: each setting not given takes its default, the default search.
#[derive(Clone, Debug, PartialEq)]
pub struct TacticsArgs(pub Tactics);

impl clap::Args for TacticsArgs {
    fn augment_args(mut cmd: Command) -> Command {
        for setting in Tactics::settings() {
            let Some(flag) = setting.flag else { continue };
            let key = setting.key;
            let check = move |text: &str| match Tactics::check_text(key, text) {
                Some(checked) => checked,
                None => Err(format!("no setting {key}")),
            };
            // Numbers are parsed as numbers, so that what reads the command line (its fuzz)
            // sees them as such; the setting is set from the raw text either way.
            let parser: clap::builder::ValueParser = if setting.numeric {
                clap::builder::ValueParser::new(move |text: &str| {
                    check(text).map(|()| text.trim().parse::<f64>().unwrap_or(0.0))
                })
            } else {
                clap::builder::ValueParser::new(move |text: &str| check(text).map(|()| text.to_string()))
            };
            cmd = cmd.arg(
                Arg::new(key)
                    .long(flag)
                    .value_name(setting.value_name)
                    .help(setting.help_and_range())
                    // Leaked, a few bytes per flag and command once a run: clap keeps defaults for good.
                    .default_value(&*String::leak(setting.default))
                    .allow_negative_numbers(true)
                    .value_parser(parser),
            );
        }
        cmd
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        TacticsArgs::augment_args(cmd)
    }
}

impl clap::FromArgMatches for TacticsArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<TacticsArgs, clap::Error> {
        let mut args = TacticsArgs(Tactics::default());
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for setting in Tactics::settings().into_iter().filter(|s| s.flag.is_some()) {
            let Some(mut raw) = matches.get_raw(setting.key) else { continue };
            let Some(text) = raw.next_back().and_then(|t| t.to_str()) else { continue };
            // The value parser has checked it.
            self.0.set(setting.key, text).map_err(|e| clap::Error::raw(clap::error::ErrorKind::InvalidValue, e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        tactics: TacticsArgs,
    }

    #[test]
    fn every_flagged_setting_is_a_flag_and_no_flag_gives_the_default() {
        assert_eq!(Cli::try_parse_from(["t"]).unwrap().tactics.0, Tactics::default());
        let cli = Cli::try_parse_from(["t", "--tactical-prior", "0.25", "--choice", "visits", "--tactics-depth", "2"]);
        let tactics = cli.unwrap().tactics.0;
        assert_eq!(
            (tactics.tactical_prior, tactics.choice, tactics.tactics_depth),
            (0.25, mcts::MoveChoice::Visits, 2)
        );
    }

    #[test]
    fn a_negative_or_malformed_value_is_refused_with_the_range() {
        let refusal = |args: &[&str]| Cli::try_parse_from(args).err().expect("refused").to_string();
        let e = refusal(&["t", "--tactical-prior", "-1"]);
        assert!(e.contains("-1 is not in 0..=1"), "{e}");
        let e = refusal(&["t", "--tactical-prior-plies", "x"]);
        assert!(e.contains("'x' is not a whole number (expected 0..=1000000)"), "{e}");
        let e = refusal(&["t", "--choice", "best"]);
        assert!(e.contains("'best' is not visits or lcb"), "{e}");
    }
}
