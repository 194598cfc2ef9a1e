//! docs/cli.md against the program: every long flag a command's `--help` lists is documented for
//! that command exactly once, in the command's own section or in a shared table that names the
//! command, and every flag the page documents for a command, or shows in its usage line, is one
//! its `--help` lists. A command's section also links to each shared table that names it.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{stdout_of, vzero};

/// Each command (`runs status` for an action of `runs`) and the long flags its `--help` lists.
type Helps = BTreeMap<String, BTreeSet<String>>;

#[test]
fn every_flag_of_every_command_is_documented_once_and_exists() {
    let helps = helps();
    // The help texts were read: an action of `runs`, a shared group and a command's own flag.
    assert!(helps.contains_key("runs status") && helps.len() > 15, "{helps:?}");
    assert!(helps["gauntlet"].contains("--tactics-depth") && helps["perft"].contains("--no-bulk"), "{helps:?}");
    let problems = problems(&docs(), &helps);
    assert!(problems.is_empty(), "docs/cli.md and --help disagree:\n{}", problems.join("\n"));
}

#[test]
fn a_dropped_row_a_dropped_shared_row_and_a_stray_row_are_caught() {
    let helps = helps();
    let docs = docs();
    let without = |row_start: &str| {
        let kept: Vec<&str> = docs.lines().filter(|l| !l.starts_with(row_start)).collect();
        assert!(kept.len() < docs.lines().count(), "no row starts with {row_start}");
        kept.join("\n")
    };

    let found = problems(&without("| `--multipv K`"), &helps);
    assert!(found.iter().any(|p| p.contains("analyse") && p.contains("--multipv")), "{found:?}");

    let found = problems(&without("| `--tactics W`"), &helps);
    for command in ["play", "analyse", "uci", "arena", "gauntlet"] {
        let command = format!("vzero {command}:");
        assert!(found.iter().any(|p| p.contains(&command) && p.contains("--tactics")), "{found:?}");
    }

    let stray = docs.replace("| `--divide` |", "| `--divide` | off | ... |\n| `--no-such-flag` |");
    let found = problems(&stray, &helps);
    assert!(found.iter().any(|p| p.contains("perft") && p.contains("--no-such-flag")), "{found:?}");

    let twice = docs.replace("| `--divide` |", "| `--position TEXT` | x | y |\n| `--divide` |");
    let found = problems(&twice, &helps);
    assert!(found.iter().any(|p| p.contains("perft") && p.contains("--position") && p.contains("twice")), "{found:?}");
}

/// The search options' rows of docs/cli.md are those the declaration of `mcts::Tactics` renders,
/// one per flagged setting: a setting added there has its row, or this fails (and
/// `VZERO_RECORD=1` writes the rows).
#[test]
fn the_search_options_rows_are_rendered_from_the_declaration() {
    const START: &str = "| flag | default | meaning |\n|---|---|---|\n";
    const END: &str = "<!-- end of the generated rows -->";
    let docs = docs();
    let marker = docs.find("generated from the declaration of mcts::Tactics").expect("the generated rows' marker");
    let start = marker + docs[marker..].find(START).expect("the table's head") + START.len();
    let end = start + docs[start..].find(END).expect("the end marker");
    let rows = search_option_rows();
    assert_eq!(rows.lines().count(), mcts::Tactics::settings().iter().filter(|s| s.flag.is_some()).count());
    if std::env::var_os("VZERO_RECORD").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md");
        std::fs::write(path, format!("{}{rows}{}", &docs[..start], &docs[end..])).expect("write docs/cli.md");
        return;
    }
    assert_eq!(
        &docs[start..end],
        rows,
        "docs/cli.md's search options differ from mcts::Tactics: VZERO_RECORD=1 rewrites them"
    );
}

/// One table row per flagged setting of `mcts::Tactics`: the flag, the default, the help with
/// its range, and the name a player gets from it.
fn search_option_rows() -> String {
    let mut rows = String::new();
    for s in mcts::Tactics::settings() {
        let Some(flag) = s.flag else { continue };
        let default = if s.numeric { s.default.clone() } else { format!("`{}`", s.default) };
        let named = match s.tag {
            Some("") => format!(". Named `...+VALUE` when not `{}`", mcts::Tactics::off().get(s.key).unwrap()),
            Some(tag) => format!(". Named `...+{tag}VALUE` when not {}", mcts::Tactics::off().get(s.key).unwrap()),
            None => String::new(),
        };
        rows += &format!("| `--{flag} {}` | {default} | {}{named} |\n", s.value_name, s.help_and_range());
    }
    rows
}

/// The page as it is in the repository.
fn docs() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).expect("read docs/cli.md")
}

/// Every command `vzero --help` lists (the actions of a command that has some instead of the
/// command), with the long flags of its `--help`.
fn helps() -> Helps {
    let mut helps = Helps::new();
    let mut todo: Vec<String> = listed_commands(&help_text(""));
    while let Some(command) = todo.pop() {
        let text = help_text(&command);
        let actions = listed_commands(&text);
        if actions.is_empty() {
            helps.insert(command, long_flags(&text));
        } else {
            todo.extend(actions.into_iter().map(|a| format!("{command} {a}")));
        }
    }
    helps
}

/// What `vzero COMMAND --help` prints.
fn help_text(command: &str) -> String {
    let mut args: Vec<&str> = command.split_whitespace().collect();
    args.push("--help");
    let out = vzero(&args);
    assert!(out.status.success(), "vzero {command} --help failed");
    stdout_of(&out)
}

/// The entries of a help text's block under `heading`: its lines up to the next heading that
/// start an entry (indented less than the descriptions clap puts on lines of their own).
fn block<'a>(help: &'a str, heading: &'a str) -> impl Iterator<Item = &'a str> {
    help.lines()
        .skip_while(move |l| *l != heading)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter(|l| !l.trim().is_empty() && l.len() - l.trim_start().len() <= 6)
}

/// The commands a help text lists, without clap's own `help`.
fn listed_commands(help: &str) -> Vec<String> {
    block(help, "Commands:")
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

/// The long flags a help text lists, without `--help` and `--version`.
fn long_flags(help: &str) -> BTreeSet<String> {
    block(help, "Options:")
        .filter_map(|line| {
            let line = line.trim_start();
            // `-h, --help`: the long name follows the short one.
            let line = if line.starts_with("--") { line } else { line.split_once(", ").map_or(line, |(_, long)| long) };
            line.split_whitespace().next().filter(|name| name.starts_with("--")).map(String::from)
        })
        .filter(|f| f != "--help" && f != "--version")
        .collect()
}

/// The `--flag` names in `text`, in order.
fn flags_in(text: &str) -> Vec<String> {
    let mut flags = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("--") {
        let after = &rest[at + 2..];
        let len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(after.len());
        let boundary = rest[..at].chars().last().is_none_or(|c| !c.is_ascii_alphanumeric() && c != '-');
        if len > 0 && boundary {
            flags.push(format!("--{}", &after[..len]));
        }
        rest = &after[len..];
    }
    flags
}

/// The commands named in backticks in `text` (`runs status` among them).
fn commands_in(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(String::from).collect()
}

/// A heading's anchor as GitHub makes it.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// What the page documents: each command's section text, and each flag row with the commands
/// it is for and the anchor of the shared table it sits in (`None` in a command's own section).
#[derive(Default)]
struct Page {
    sections: BTreeMap<String, String>,
    rows: Vec<Row>,
}

/// One row of a flag table.
struct Row {
    flags: Vec<String>,
    commands: Vec<String>,
    shared_at: Option<String>,
}

/// Reads the page's `## vzero COMMAND` sections and its flag tables (those whose first column is
/// `flag`). A table outside a command's section is shared: its `commands` column, or else the
/// `Taken by` paragraph above it under the same heading, names the commands it is for.
fn read_page(docs: &str) -> Result<Page, String> {
    let mut reader = Reader::default();
    for line in docs.lines() {
        reader.heading(line);
        if let Some(name) = &reader.command {
            let section = reader.page.sections.entry(name.clone()).or_default();
            section.push_str(line);
            section.push('\n');
        }
        reader.taken_by(line);
        reader.table_line(line)?;
    }
    Ok(reader.page)
}

/// Where `read_page` is in the page.
#[derive(Default)]
struct Reader {
    page: Page,
    /// The command whose section this is, if it is one.
    command: Option<String>,
    /// The nearest heading (`##` or `###`).
    heading: String,
    /// The commands of the `Taken by` paragraph under that heading.
    taken_by: Vec<String>,
    /// Inside a `Taken by` list, which runs from its line to the first colon.
    in_taken_by: bool,
    /// The column names of the table this line is in.
    columns: Option<Vec<String>>,
}

impl Reader {
    /// Notes a heading: a command's section starts or ends, and so does a `Taken by` list.
    fn heading(&mut self, line: &str) {
        let Some(title) = line.strip_prefix("## ").or_else(|| line.strip_prefix("### ")) else { return };
        if line.starts_with("## ") {
            self.command = title.strip_prefix("vzero ").map(String::from);
        }
        self.heading = title.to_string();
        self.taken_by.clear();
    }

    /// Collects the commands of a `Taken by` list.
    fn taken_by(&mut self, line: &str) {
        self.in_taken_by = line.starts_with("Taken by") || (self.in_taken_by && !line.trim().is_empty());
        if self.in_taken_by {
            let (list, ended) = line.split_once(':').map_or((line, false), |(list, _)| (list, true));
            self.taken_by.extend(commands_in(list));
            self.in_taken_by = !ended;
        }
    }

    /// Notes a table's column names, or the flags and commands of a flag row.
    fn table_line(&mut self, line: &str) -> Result<(), String> {
        let Some(row) = line.strip_prefix('|') else {
            self.columns = None;
            return Ok(());
        };
        let cells: Vec<&str> = row.split(" | ").map(|c| c.trim().trim_end_matches('|').trim()).collect();
        let Some(names) = &self.columns else {
            self.columns = Some(cells.iter().map(|c| c.to_string()).collect());
            return Ok(());
        };
        if names[0] != "flag" || cells[0].starts_with("---") {
            return Ok(());
        }
        let flags = flags_in(cells[0]);
        let commands = match (&self.command, names.iter().position(|n| n == "commands")) {
            (Some(name), _) => vec![name.clone()],
            (None, Some(at)) => commands_in(cells.get(at).copied().unwrap_or("")),
            (None, None) => self.taken_by.clone(),
        };
        if commands.is_empty() {
            return Err(format!("the shared row of {flags:?} under '{}' names no commands", self.heading));
        }
        let shared_at = self.command.is_none().then(|| anchor(&self.heading));
        self.page.rows.push(Row { flags, commands, shared_at });
        Ok(())
    }
}

/// Where the page and the commands' `--help` disagree, one line each.
fn problems(docs: &str, helps: &Helps) -> Vec<String> {
    let page = match read_page(docs) {
        Ok(page) => page,
        Err(e) => return vec![e],
    };
    let mut problems = Vec::new();
    for row in &page.rows {
        for command in row.commands.iter().filter(|c| !helps.contains_key(*c)) {
            problems.push(format!("a row of {:?} names `{command}`, which is no command", row.flags));
        }
    }
    for (command, help) in helps {
        match page.sections.get(command) {
            Some(section) => problems.extend(
                command_problems(help, section, &page.rows, command)
                    .into_iter()
                    .map(|p| format!("vzero {command}: {p}")),
            ),
            None => problems.push(format!("vzero {command}: no '## vzero {command}' section")),
        }
    }
    problems
}

/// Where the page disagrees with `help`, the flags of `command`, whose section is `section`.
fn command_problems(help: &BTreeSet<String>, section: &str, rows: &[Row], command: &String) -> Vec<String> {
    let mut problems = Vec::new();
    let mut documented: BTreeMap<&str, usize> = BTreeMap::new();
    let mut links: BTreeSet<&str> = BTreeSet::new();
    for row in rows.iter().filter(|r| r.commands.contains(command)) {
        for flag in &row.flags {
            *documented.entry(flag).or_default() += 1;
        }
        links.extend(row.shared_at.as_deref());
    }
    for flag in help.iter().filter(|f| !documented.contains_key(f.as_str())) {
        problems.push(format!("{flag} is in --help but not documented"));
    }
    for (flag, times) in &documented {
        if !help.contains(*flag) {
            problems.push(format!("{flag} is documented but not in --help"));
        }
        if *times > 1 {
            problems.push(format!("{flag} is documented twice"));
        }
    }
    let usage = section.split("```").nth(1).unwrap_or("");
    for flag in flags_in(usage).iter().filter(|f| !help.contains(*f)) {
        problems.push(format!("its usage shows {flag}, which is not in --help"));
    }
    for link in links.iter().filter(|l| !section.contains(&format!("(#{l})"))) {
        problems.push(format!("its section does not link to the shared #{link}"));
    }
    problems
}
