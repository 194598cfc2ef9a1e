//! `--set section.key=value` overrides: each applied onto the config file's table and checked
//! at once, so a value of the wrong kind is refused naming its `--set`, its key and the kind of
//! value the key takes, in words (not Rust's types: `expected struct NetworkConfig`).

use super::ConfigError;

/// One `--set` as read: the text as given, its key and its value.
#[derive(Clone, Debug)]
pub(super) struct Override {
    /// The override as given (`section.key=value`).
    pub text: String,
    /// The dotted key (`section.key`).
    pub key: String,
    /// The value as given, trimmed.
    pub raw: String,
    value: toml::Value,
}

/// The most dot-separated parts a `--set` key may have: more than any key of the config has.
const MAX_KEY_PARTS: usize = 8;

impl Override {
    /// Reads `text` as `section.key=value` (the value in TOML syntax; a bare word is a string).
    pub fn read(text: &str) -> Result<Override, ConfigError> {
        let bad = || ConfigError::BadOverride(text.to_string());
        let (key, raw) = text.split_once('=').ok_or_else(bad)?;
        let key = key.trim();
        // No key is deeper than `section.key`; a key of thousands of parts would nest as many
        // tables, which overflow the stack when they are read.
        if key.split('.').count() > MAX_KEY_PARTS || key.split('.').any(|p| p.is_empty()) {
            return Err(bad());
        }
        let raw = raw.trim();
        let value = format!("v = {raw}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(raw.to_string()));
        Ok(Override { text: text.to_string(), key: key.to_string(), raw: raw.to_string(), value })
    }

    /// The same override with another value.
    pub fn with_value(&self, value: toml::Value) -> Override {
        Override { value, ..self.clone() }
    }

    /// Sets the key in `table`, making the sections it names; a section in the key that is a
    /// value in `table` is refused.
    pub fn apply(&self, table: &mut toml::Table) -> Result<(), ConfigError> {
        let path: Vec<&str> = self.key.split('.').collect();
        let (last, sections) = path.split_last().expect("a key has a part");
        let mut node = table;
        for (i, part) in sections.iter().enumerate() {
            let entry = node.entry(part.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            node = entry
                .as_table_mut()
                .ok_or_else(|| self.refused(format!("{} is a value, not a section with keys", path[..=i].join("."))))?;
        }
        // The key set replaces its other name: a saved config may hold a search key under its
        // former name (or the other way round), and both would be read.
        if sections == ["search"] {
            let current = mcts::SearchParams::current_key(last);
            node.retain(|k, _| k == *last || mcts::SearchParams::current_key(k) != current);
        }
        node.insert(last.to_string(), self.value.clone());
        Ok(())
    }

    /// The error for this override, which the config could not take: `message` is the
    /// deserializer's, `resolved` (the config file's keys, defaults included) tells what kind
    /// of value the key takes, and `range` the range of a numeric key where its limits name
    /// one.
    pub fn wrong_kind(&self, resolved: &toml::Table, message: &str, range: Option<String>) -> ConfigError {
        let path: Vec<&str> = self.key.split('.').collect();
        let mut found: Option<&toml::Value> = None;
        for (i, part) in path.iter().enumerate() {
            found = match found {
                None if i == 0 => resolved.get(*part),
                Some(toml::Value::Table(t)) => t.get(*part),
                Some(_) => return self.refused(format!("{} is a value, not a section with keys", path[..i].join("."))),
                None => None,
            };
        }
        let expected = match found {
            Some(toml::Value::Table(section)) => {
                let keys: Vec<String> = section.keys().map(|k| format!("{}.{k}", self.key)).collect();
                let example = keys.first().map_or_else(String::new, |k| format!(", e.g. --set {k}=..."));
                return self.refused(format!(
                    "{} is a section, not a value: set one of its keys ({}){example}",
                    self.key,
                    keys.join(", ")
                ));
            }
            Some(toml::Value::Integer(_)) => match range {
                Some(range) => format!("a whole number {range}"),
                None => whole_number(message),
            },
            Some(toml::Value::Float(_)) => match range {
                Some(range) => format!("a number {range}"),
                None => "a number".to_string(),
            },
            Some(toml::Value::Boolean(_)) => "true or false".to_string(),
            Some(toml::Value::Array(_)) => "a list in brackets, e.g. [\"a\", \"b\"]".to_string(),
            Some(toml::Value::String(_)) | Some(toml::Value::Datetime(_)) | None => {
                return self.refused(plain_words(message));
            }
        };
        self.refused(format!("{} takes {expected}, not {}", self.key, given(&self.value)))
    }

    fn refused(&self, message: String) -> ConfigError {
        ConfigError::Override { text: self.text.clone(), message }
    }
}

/// A whole-number key's range, from the type the deserializer names in `message`.
fn whole_number(message: &str) -> String {
    let unsigned = ["u8", "u16", "u32", "u64", "usize"].iter().any(|t| mentions_type(message, t));
    if mentions_type(message, "u32") {
        "a whole number from 0 to 4294967295".to_string()
    } else if unsigned {
        "a whole number, 0 or more".to_string()
    } else {
        "a whole number".to_string()
    }
}

/// Whether `message` says `expected TYPE` for Rust type `ty`.
fn mentions_type(message: &str, ty: &str) -> bool {
    message.split("expected ").skip(1).any(|rest| rest.split(|c: char| !c.is_alphanumeric()).next() == Some(ty))
}

/// The value as the user gave it, in words.
fn given(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("the text \"{s}\""),
        toml::Value::Table(_) => "a table".to_string(),
        toml::Value::Array(_) => "a list".to_string(),
        other => other.to_string(),
    }
}

/// A deserializer message with Rust's type names put in words.
fn plain_words(message: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut parts = message.trim_end().split(' ').peekable();
    while let Some(word) = parts.next() {
        if word == "struct" && words.last().is_some_and(|w| w == "expected") {
            parts.next();
            words.push("a section".to_string());
            continue;
        }
        let bare = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        let tail = &word[bare.len()..];
        let plain = match bare {
            "usize" | "u64" | "u32" | "u16" | "u8" | "i64" | "i32" => "a whole number",
            "f64" | "f32" => "a number",
            _ => {
                words.push(word.to_string());
                continue;
            }
        };
        words.push(format!("{plain}{tail}"));
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_types_become_words() {
        assert_eq!(
            plain_words("invalid type: integer `3`, expected struct NetworkConfig"),
            "invalid type: integer `3`, expected a section"
        );
        assert_eq!(
            plain_words("invalid value: integer `-1`, expected usize\n"),
            "invalid value: integer `-1`, expected a whole number"
        );
        assert_eq!(whole_number("expected u32"), "a whole number from 0 to 4294967295");
        assert_eq!(whole_number("expected usize"), "a whole number, 0 or more");
    }
}
