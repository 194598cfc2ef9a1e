//! The keys two configs set differently, so a resumed run can say what changed.

use std::collections::{BTreeMap, BTreeSet};

use super::Config;

impl Config {
    /// The keys whose values differ from `other`'s, as `key: this -> other` (empty when the two
    /// configs are the same run's).
    pub fn differences(&self, other: &Config) -> Vec<String> {
        let [mine, theirs] = [self, other].map(|c| {
            let mut out = BTreeMap::new();
            flatten("", &c.to_toml().parse::<toml::Table>().expect("a config's TOML parses"), &mut out);
            out
        });
        let keys: BTreeSet<&String> = mine.keys().chain(theirs.keys()).collect();
        let none = "(unset)".to_string();
        keys.into_iter()
            .filter(|k| mine.get(*k) != theirs.get(*k))
            .map(|k| format!("{k}: {} -> {}", mine.get(k).unwrap_or(&none), theirs.get(k).unwrap_or(&none)))
            .collect()
    }
}

/// Every value of `table` under its dotted key, as TOML text.
fn flatten(prefix: &str, table: &toml::Table, out: &mut BTreeMap<String, String>) {
    for (key, value) in table {
        let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match value {
            toml::Value::Table(inner) => flatten(&name, inner, out),
            other => {
                out.insert(name, other.to_string());
            }
        }
    }
}
