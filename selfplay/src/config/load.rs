//! Reading a config: the file's TOML, then each `--set` override, then the limits; each
//! mistake is reported against what made it (the file's line, or the override).

use std::io::Read;
use std::path::Path;

use super::limits::OutOfRange;
use super::overrides::Override;
use super::{Config, ConfigError};

impl Config {
    /// Reads `path`, applies `overrides` (`section.key=value`, values in TOML syntax; a bare
    /// word is taken as a string), and validates.
    pub fn load(path: &Path, overrides: &[String]) -> Result<Config, ConfigError> {
        let name = path.display().to_string();
        let io = |source| ConfigError::Io { path: name.clone(), source };
        // Read no further than a config could be: `--config /dev/zero` read until memory ran out.
        let mut text = String::new();
        std::fs::File::open(path).and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_string(&mut text)).map_err(io)?;
        if text.len() as u64 > MAX_CONFIG_BYTES {
            return Err(ConfigError::TooLarge { path: name, max: MAX_CONFIG_BYTES });
        }
        Config::parse(&text, &name, overrides)
    }

    /// Parses config text; `name` is used in messages.
    pub fn parse(text: &str, name: &str, overrides: &[String]) -> Result<Config, ConfigError> {
        let parse_err = |message: String| ConfigError::Parse { path: name.to_string(), message };
        // The file alone first, so its mistakes are reported with their line.
        let located = |e: toml::de::Error| {
            let line = e.span().map(|s| text[..s.start].matches('\n').count() + 1);
            parse_err(match line {
                Some(line) => format!("line {line}: {}", e.message().trim_end()),
                None => e.message().trim_end().to_string(),
            })
        };
        let from_file = toml::from_str::<Config>(text).map_err(located)?;
        let mut table: toml::Table = text.parse().map_err(located)?;
        // What kind of value each key takes, for the messages of overrides that give another.
        let resolved: toml::Table = from_file.to_toml().parse().expect("a config's TOML parses");
        let mut applied = Vec::new();
        for text in overrides {
            let o = Override::read(text)?;
            o.apply(&mut table)?;
            // Checked one at a time: the first that does not fit is to blame.
            if let Err(e) = toml::Value::Table(table.clone()).try_into::<Config>() {
                return Err(o.wrong_kind(&resolved, e.message(), range_of(&table, &o)));
            }
            applied.push(o);
        }
        let config: Config = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| parse_err(format!("after --set: {}", e.message().trim_end())))?;
        config.validate().map_err(|e| blame(e, name, &applied))?;
        Ok(config)
    }
}

/// The range `o`'s key takes in words (`from 0 to 100000`), found by giving the key a number
/// far out of any range (the largest whole number of 32 bits, then a huge number above and
/// below 0) and reading what the limits say of it, so that a negative, fractional or textual
/// value is answered with the key's own range rather than its type's; `None` where the limits
/// take those numbers or the key takes no number.
fn range_of(table: &toml::Table, o: &Override) -> Option<String> {
    let probes = [toml::Value::Integer(u32::MAX.into()), toml::Value::Float(1e30), toml::Value::Float(-1e30)];
    probes.into_iter().find_map(|probe| {
        let mut probed = table.clone();
        o.with_value(probe).apply(&mut probed).ok()?;
        let config: Config = toml::Value::Table(probed).try_into().ok()?;
        match config.validate() {
            Err(e) if e.key == o.key => Some(e.reason.strip_prefix("must be ").unwrap_or(&e.reason).to_string()),
            _ => None,
        }
    })
}

/// The largest config file read: every key of every section, commented, is a few kilobytes.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The error of a value out of range: the last `--set` override that gave its key is to blame
/// for it, else the config file `path`.
fn blame(error: OutOfRange, path: &str, applied: &[Override]) -> ConfigError {
    match applied.iter().rev().find(|o| o.key == error.key) {
        Some(o) => ConfigError::InvalidOverride { key: error.key, value: o.raw.clone(), reason: error.reason.into() },
        None => error.in_file(path),
    }
}
