//! The "(default ...)" comments of configs/*.toml state the defaults the loader really uses.
//!
//! The configs are the user-facing documentation of every key (KataGo style: one comment block
//! per key, right above it), so a stale default there misleads whoever leaves the key out.
//! The rule these comments follow, and that this test reads them by:
//!
//! - A key line is `key = value`, at the top level or under a `[section]` header; a comment
//!   line that on its own is such a line (`# start_position = "..."`) is a commented-out key
//!   line and counts as one. Its comment block is the run of `#` lines directly above it, back
//!   to a blank line, a section header or another key line.
//! - The block states the default in one parenthesis: `(default V)`, or for this key and the
//!   key lines that follow it directly with no block of their own, in order,
//!   `(defaults V1, V2)` (`(default V1, V2)` reads the same). Every V is a TOML value (`4`,
//!   `0.02`, `"auto"`, `true`, `[]`, `["random", "greedy"]`): the parenthesis holds values and
//!   nothing else, so prose belongs outside it, and a V that is not a TOML value is an error
//!   rather than prose. `(default: none)`: the key is absent unless set. `(required)`: the key
//!   has no default and a config must set it.
//! - Each block states at most one such parenthesis, each list covers exactly as many keys as
//!   it has values, and a key line's own trailing comment states no default.
//! - A full config (one whose opening comment does not say "Keys as in configs/NAME.toml")
//!   states a default for every key. A short config that says so leaves its keys' documentation
//!   to NAME.toml, itself a full config: its keys need no default stated, but every key it sets
//!   must be documented in NAME.toml, and any default it does state is checked like the rest.
//!
//! The real defaults are what `Config::parse` (the loader behind `Config::load` and the CLI)
//! makes of a config that sets only `variant`, serialised with `toml::Value::try_from`. Numbers
//! compare by value (`100` and `100.0` agree) at f32 precision, as the search knobs are f32
//! (`0.2` agrees with 0.2f32 widened to f64); strings, booleans and arrays compare exactly.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use selfplay::config::Config;

/// A config that sets only what has no default.
const MINIMAL: &str = "variant = \"glinski\"\n";

/// The keys with no default: exactly these say "(required)".
const REQUIRED: &[&str] = &["variant"];

/// What a comment states about a key's default.
#[derive(Clone, Debug, PartialEq)]
enum Stated {
    /// `(default V)`.
    Value(toml::Value),
    /// `(default: none)`: absent unless set.
    Absent,
    /// `(required)`: no default.
    Required,
}

impl std::fmt::Display for Stated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stated::Value(v) => write!(f, "{v}"),
            Stated::Absent => f.write_str("none"),
            Stated::Required => f.write_str("required"),
        }
    }
}

/// One key line of a config, with the default its comments state.
#[derive(Debug)]
struct KeyLine {
    /// 1-based line number.
    line: usize,
    /// `section.key`, or `key` at the top level.
    key: String,
    /// None where no default is stated.
    stated: Option<Stated>,
    /// The block above it breaks the rule (reported once, among the problems).
    unreadable: bool,
}

/// A config file read by the rule above.
#[derive(Debug)]
struct Documented {
    keys: Vec<KeyLine>,
    /// NAME of "Keys as in configs/NAME.toml" in a short config's opening comment.
    refers_to: Option<String>,
    /// Violations of the rule found while reading, with their line.
    problems: Vec<(usize, String)>,
}

/// `key = value` parsed as TOML, where `key` is a bare key: its name.
fn key_of(text: &str) -> Option<String> {
    let (name, _) = text.split_once('=')?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let table: toml::Table = text.parse().ok()?;
    (table.len() == 1 && table.contains_key(name)).then(|| name.to_string())
}

/// The characters of `text` outside its quoted strings, with their byte offsets.
fn outside_strings(text: &str) -> Vec<(usize, char)> {
    let (mut out, mut quote) = (Vec::new(), None);
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, c) => out.push((i, c)),
        }
    }
    out
}

/// Splits `text` at its commas outside brackets, braces and strings.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in outside_strings(text) {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The end of the parenthesis whose content starts `text`: the byte offset of its `)`.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in outside_strings(text) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The defaults a comment block states, in order (empty where it states none).
fn stated_defaults(block: &str) -> Result<Vec<Stated>, String> {
    let groups = block.matches("(default").count() + block.matches("(required)").count();
    if groups > 1 {
        return Err(format!("states {groups} defaults in one comment block: `{block}`"));
    }
    if block.contains("(required)") {
        return Ok(vec![Stated::Required]);
    }
    let Some(at) = block.find("(default") else { return Ok(Vec::new()) };
    let rest = &block[at + "(default".len()..];
    let rest = rest.strip_prefix('s').unwrap_or(rest);
    let end = closing_paren(rest).ok_or_else(|| {
        format!("`(default` not closed, or not by values (prose goes outside the parenthesis): `{block}`")
    })?;
    let content = &rest[..end];
    if content == ": none" {
        return Ok(vec![Stated::Absent]);
    }
    if !content.starts_with(' ') {
        return Err(format!("`(default{content})`: expected `(default V)`, `(defaults V1, V2)` or `(default: none)`"));
    }
    split_top_level(content)
        .into_iter()
        .map(|item| {
            let item = item.trim();
            format!("v = {item}")
                .parse::<toml::Table>()
                .ok()
                .and_then(|mut t| t.remove("v"))
                .map(Stated::Value)
                .ok_or_else(|| {
                    format!("`(default{content})`: `{item}` is not a TOML value (prose goes outside the parenthesis)")
                })
        })
        .collect()
}

/// Reads `text` by the rule in this file's opening comment.
fn read_config(text: &str) -> Documented {
    let mut doc = Documented { keys: Vec::new(), refers_to: None, problems: Vec::new() };
    let mut section: Option<String> = None;
    let mut block: Vec<&str> = Vec::new();
    // Defaults stated above the previous key line and not used yet; None once the chain breaks.
    let mut pending: Option<std::collections::VecDeque<Stated>> = None;
    let mut pending_line = 0;
    let mut opening = true;
    let unused = |doc: &mut Documented, pending: &Option<std::collections::VecDeque<Stated>>, line: usize| {
        if let Some(left) = pending.as_ref().filter(|p| !p.is_empty()) {
            doc.problems.push((line, format!("{} stated default(s) cover no key", left.len())));
        }
    };
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim();
        let comment = line.strip_prefix('#').map(str::trim);
        if opening {
            if let Some(c) = comment {
                if let Some(name) = c.split("Keys as in configs/").nth(1).and_then(|r| r.split(".toml").next()) {
                    doc.refers_to = Some(name.to_string());
                }
            }
        }
        let key = match comment {
            Some(c) => key_of(c),
            None if line.starts_with('[') || line.is_empty() => None,
            None => match key_of(line) {
                Some(key) => Some(key),
                None => {
                    doc.problems.push((number, format!("not a `key = value` line: `{line}`")));
                    None
                }
            },
        };
        if let Some(name) = key {
            opening = false;
            let full = match &section {
                Some(s) => format!("{s}.{name}"),
                None => name,
            };
            if comment.is_none() && line.contains("(default") {
                doc.problems.push((
                    number,
                    format!("{full}: state the default in the comment block above, not on the key's line"),
                ));
            }
            let mut unreadable = false;
            let stated = if block.is_empty() {
                // No block of its own: the next value of the list stated above the previous key.
                pending.as_mut().and_then(|p| p.pop_front())
            } else {
                unused(&mut doc, &pending, pending_line);
                match stated_defaults(&block.join(" ")) {
                    Ok(list) => {
                        let mut list: std::collections::VecDeque<Stated> = list.into();
                        let first = list.pop_front();
                        pending = Some(list);
                        pending_line = number;
                        first
                    }
                    Err(e) => {
                        doc.problems.push((number, format!("{full}: {e}")));
                        unreadable = true;
                        pending = None;
                        None
                    }
                }
            };
            doc.keys.push(KeyLine { line: number, key: full, stated, unreadable });
            block.clear();
            continue;
        }
        match comment {
            Some(c) => block.push(c),
            None => {
                // A blank line or a section header ends the block and the chain of keys.
                block.clear();
                unused(&mut doc, &pending, pending_line);
                pending = None;
                if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                    section = Some(name.trim().to_string());
                    opening = false;
                }
            }
        }
    }
    unused(&mut doc, &pending, pending_line);
    doc
}

/// The value `key` (`section.key` or `key`) has in the serialised defaults.
fn real_default<'a>(defaults: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    match key.split_once('.') {
        Some((section, inner)) => defaults.get(section)?.as_table()?.get(inner),
        None => defaults.get(key),
    }
}

/// Whether a stated value is the real one: numbers by value at f32 precision, the rest exactly.
fn same(stated: &toml::Value, real: &toml::Value) -> bool {
    use toml::Value::*;
    let number = |v: &toml::Value| match v {
        Integer(i) => Some(*i as f64),
        Float(f) => Some(*f),
        _ => None,
    };
    match (stated, real) {
        (Array(a), Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)),
        _ => match (number(stated), number(real)) {
            (Some(a), Some(b)) => a == b || a as f32 == b as f32,
            _ => stated == real,
        },
    }
}

/// The defaults as the loader makes them, serialised.
fn defaults() -> toml::Table {
    let config = Config::parse(MINIMAL, "minimal", &[]).expect("a config that sets only the variant loads");
    match toml::Value::try_from(&config).expect("a config serialises") {
        toml::Value::Table(table) => table,
        other => panic!("a config serialises to a table, not {other}"),
    }
}

/// Every violation in `doc` (read from `name`) of the rule and of the real `defaults`;
/// `documented`: for a short config, the keys its full config documents.
fn check(name: &str, doc: &Documented, defaults: &toml::Table, documented: Option<&BTreeSet<String>>) -> Vec<String> {
    let mut problems: Vec<String> = doc.problems.iter().map(|(line, p)| format!("{name}:{line}: {p}")).collect();
    for k in &doc.keys {
        let at = format!("{name}:{}: {}", k.line, k.key);
        let real = real_default(defaults, &k.key);
        let required = REQUIRED.contains(&k.key.as_str());
        match &k.stated {
            None if k.unreadable => {}
            None if documented.is_some_and(|keys| keys.contains(&k.key)) => {}
            None if documented.is_some() => {
                problems.push(format!("{at}: documented neither here nor in the config this one refers to"))
            }
            None => problems.push(format!("{at}: no \"(default ...)\" stated in the comment block above it")),
            Some(Stated::Required) if required => {}
            Some(stated) if required => {
                problems.push(format!("{at}: states {stated}, but the key has no default: say (required)"))
            }
            Some(Stated::Required) => problems.push(format!(
                "{at}: states (required), but the key has a default ({})",
                real.map_or("none".to_string(), |v| v.to_string())
            )),
            Some(Stated::Absent) => {
                if let Some(real) = real {
                    problems.push(format!("{at}: states none, the real default is {real}"));
                }
            }
            Some(Stated::Value(stated)) => match real {
                Some(real) if same(stated, real) => {}
                Some(real) => problems.push(format!("{at}: states {stated}, the real default is {real}")),
                None => problems.push(format!("{at}: states {stated}, the real default is none (absent)")),
            },
        }
    }
    problems
}

fn configs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs")
}

/// Every configs/*.toml, by name, read.
fn all_configs() -> Vec<(String, Documented)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(configs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = format!("configs/{}", path.file_name().unwrap().to_string_lossy());
            (name, read_config(&std::fs::read_to_string(&path).unwrap()))
        })
        .collect()
}

/// Every violation in all configs/*.toml.
fn problems_in_configs(defaults: &toml::Table) -> (Vec<String>, usize) {
    let configs = all_configs();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, doc) in &configs {
        let documented = doc.refers_to.as_ref().map(|target| {
            let target_name = format!("configs/{target}.toml");
            match configs.iter().find(|(n, _)| *n == target_name) {
                Some((_, full)) if full.refers_to.is_none() => full.keys.iter().map(|k| k.key.clone()).collect(),
                Some(_) => {
                    problems.push(format!("{name}: refers to {target_name}, which is not a full config"));
                    BTreeSet::new()
                }
                None => {
                    problems.push(format!("{name}: refers to {target_name}, which does not exist"));
                    BTreeSet::new()
                }
            }
        });
        problems.extend(check(name, doc, defaults, documented.as_ref()));
        checked += doc.keys.iter().filter(|k| k.stated.is_some()).count();
    }
    (problems, checked)
}

#[test]
fn every_stated_default_is_the_real_default() {
    let (problems, checked) = problems_in_configs(&defaults());
    assert!(problems.is_empty(), "{} problem(s) in configs/*.toml:\n{}", problems.len(), problems.join("\n"));
    // Four full configs of about 65 keys each: a reader that found nothing would pass vacuously.
    assert!(checked > 200, "only {checked} stated defaults found");
}

/// A knob added to `Config` or `SearchParams` cannot go undocumented: the full configs
/// (configs/glinski.toml among them) have a key line for every key the defaults serialise.
#[test]
fn the_full_configs_document_every_key() {
    let defaults = defaults();
    let mut all = Vec::new();
    for (section, value) in &defaults {
        match value.as_table() {
            Some(table) => all.extend(table.keys().map(|k| format!("{section}.{k}"))),
            None => all.push(section.clone()),
        }
    }
    assert!(all.len() > 60, "only {} keys serialised: {all:?}", all.len());
    let configs = all_configs();
    let full: Vec<&(String, Documented)> = configs.iter().filter(|(_, d)| d.refers_to.is_none()).collect();
    assert!(full.iter().any(|(n, _)| n == "configs/glinski.toml"), "configs/glinski.toml is a full config");
    for (name, doc) in full {
        let keys: BTreeSet<&str> = doc.keys.iter().map(|k| k.key.as_str()).collect();
        let missing: Vec<&String> = all.iter().filter(|k| !keys.contains(k.as_str())).collect();
        assert!(missing.is_empty(), "{name} does not document {missing:?}");
    }
}

/// The keys said to be "(required)" are: a config without them is refused, naming them.
#[test]
fn the_required_keys_have_no_default() {
    for key in REQUIRED {
        let without: String =
            MINIMAL.lines().filter(|l| key_of(l).as_deref() != Some(key)).map(|l| format!("{l}\n")).collect();
        let e = Config::parse(&without, "empty.toml", &[]).unwrap_err().to_string();
        assert!(e.contains(key), "{e}");
    }
}

/// The reader finds what it is meant to find, so a wrong or missing comment fails the test above.
#[test]
fn the_reader_catches_wrong_missing_and_unreadable_defaults() {
    let defaults = defaults();
    let problems = |text: &str| check("x.toml", &read_config(text), &defaults, None);
    let good = "# (required)\nvariant = \"glinski\"\n# (default: none)\n# start_position = \"...\"\n[network]\n\
                # Blocks. (default 4)\nblocks = 9\n[training]\n# Decay. (default 0.1, [])\nlr_decay = 0.5\n\
                lr_decay_steps = [7]\n# (default 0.02)\nlearning_rate = 1.0\n[search]\n# (defaults 50, 1)\n\
                c_visit = 1.0\nc_scale = 2.0\n# Root. (default \"puct\")\nroot = \"gumbel\"\n\
                # Reduction\n# over lines. (default\n# 0.2)\nfpu_reduction = 0.0\n";
    assert_eq!(problems(good), Vec::<String>::new());
    let cases = [
        ("[network]\n# (default 5)\nblocks = 4\n", "x.toml:3: network.blocks: states 5, the real default is 4"),
        ("[network]\n# Blocks.\nblocks = 4\n", "x.toml:3: network.blocks: no \"(default"),
        ("[network]\n\nblocks = 4\n", "x.toml:3: network.blocks: no \"(default"),
        ("[search]\n# (defaults 50)\nc_visit = 1.0\nc_scale = 2.0\n", "x.toml:4: search.c_scale: no \"(default"),
        ("[search]\n# (defaults 50, 1, 3)\nc_visit = 1.0\nc_scale = 2.0\n", "x.toml:3: 1 stated default(s)"),
        ("[search]\n# (default 0.625, about 1.25)\nc_puct_init = 1.0\n", "`about 1.25` is not a TOML value"),
        ("[search]\n# (default 0.625, AlphaZero's 1.25)\nc_puct_init = 1.0\n", "prose goes outside"),
        ("[network]\n# (default 4) (default 4)\nblocks = 4\n", "states 2 defaults"),
        ("[network]\nblocks = 4 # (default 4)\n", "not on the key's line"),
        ("# (default: none)\nseed = 3\n", "x.toml:2: seed: states none, the real default is 0"),
        ("# (default 0)\n# start_position = \"...\"\n", "states 0, the real default is none"),
        ("# (default \"glinski\")\nvariant = \"glinski\"\n", "say (required)"),
        ("# (required)\nseed = 1\n", "states (required), but the key has a default (0)"),
        ("[search]\n# (default 0.2001)\nfpu_reduction = 0.0\n", "states 0.2001, the real default is 0.2"),
        ("[gauntlet]\n# (default [\"random\"])\nagainst = []\n", "the real default is [\"random\", \"greedy\"]"),
        ("[training]\n# (default false)\nmixed_precision = true\n", "states false, the real default is true"),
    ];
    for (text, expected) in cases {
        let found = problems(text);
        assert!(found.iter().any(|p| p.contains(expected)), "{text:?}: expected `{expected}` in {found:?}");
    }
}
