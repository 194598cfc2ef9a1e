//! Every search setting of `mcts::Tactics` is declared once, and from that one declaration it
//! reaches each place a user meets it: the config key `search.KEY`, the flag of the commands
//! that play (with its range and default in `--help`), the player's name in the arena's table
//! and the gauntlet log. The test walks the declaration, so a setting added there is followed
//! to each place with nothing written here (docs/cli.md's rows: tests/cli_docs.rs; Python's
//! keywords: python/tests/test_search.py).

mod common;

use arena::gauntlet::GauntletMatch;
use common::{stderr_of, stdout_of, vzero};
use mcts::{Setting, Tactics};
use selfplay::config::Config;

const CONFIG: &str = "variant = \"mini-hexchess\"\n";

/// A value the setting takes that differs from its default, as text: one that differs from the
/// search before the judge too where there is one (a choice of two has none).
fn other_value(setting: &Setting) -> String {
    let off = Tactics::off().get(setting.key).unwrap();
    let takes = |v: &str| Tactics::check_text(setting.key, v) == Some(Ok(())) && v != setting.default;
    let candidates = ["0.25", "3", "0.4", "2", "visits", "lcb"];
    let value = candidates.iter().find(|v| takes(v) && **v != off).or_else(|| candidates.iter().find(|v| takes(v)));
    value.unwrap_or_else(|| panic!("no other value for {}", setting.key)).to_string()
}

#[test]
fn each_tactical_setting_reaches_the_config_the_flags_the_names_and_the_log() {
    let settings = Tactics::settings();
    assert!(settings.len() >= 11, "{settings:?}");
    let help = stdout_of(&vzero(&["analyse", "--help"]));
    for setting in &settings {
        let value = other_value(setting);
        let key = setting.key;

        // The config key, flat in [search].
        let set = format!("search.{key}={value}");
        let config =
            Config::parse(CONFIG, "c.toml", std::slice::from_ref(&set)).unwrap_or_else(|e| panic!("{set}: {e}"));
        assert_eq!(config.search.get(key), Some(value.clone()), "{set}");

        // The gauntlet log: the line written holds it and reads back as the same tactics.
        let mut tactics = Tactics::default();
        assert_eq!(tactics.set(key, &value), Ok(true));
        let mut line = GauntletMatch::default();
        line.set_tactics(&tactics);
        let text = serde_json::to_string(&line).unwrap();
        assert!(text.contains(&format!("\"{key}\"")), "{key} not in {text}");
        assert_eq!(serde_json::from_str::<GauntletMatch>(&text).unwrap().tactics(), tactics, "{text}");

        let Some(flag) = setting.flag else { continue };
        // The flag, its range and default in --help.
        let listed =
            help.lines().skip_while(|l| !l.contains(&format!("--{flag} <"))).take(6).collect::<Vec<_>>().join(" ");
        assert!(listed.contains(&format!("--{flag} <{}>", setting.value_name)), "--{flag}: {help}");
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words(&listed).contains(&setting.range), "--{flag}'s range: {listed}");
        assert!(listed.contains(&format!("[default: {}]", setting.default)), "--{flag}'s default: {listed}");

        // The player's name in the arena's table.
        let out = vzero(&[
            "arena",
            "--variant",
            "mini-hexchess",
            "mcts:2",
            "random",
            "--games",
            "1",
            "--max-plies",
            "20",
            &format!("--{flag}"),
            &value,
        ]);
        assert!(out.status.success(), "--{flag} {value}: {}", stderr_of(&out));
        if let Some(tag) = setting.tag.filter(|_| value != Tactics::off().get(key).unwrap()) {
            let name = format!("+{tag}{value}");
            assert!(stdout_of(&out).contains(&name), "--{flag} {value}: no {name} in {}", stdout_of(&out));
        }
    }
}

/// A value out of a setting's range is refused by the flag and by the config key, each naming
/// the range; a negative number included.
#[test]
fn out_of_range_values_name_the_range_everywhere() {
    for setting in Tactics::settings().into_iter().filter(|s| s.numeric) {
        let key = setting.key;
        let set = format!("search.{key}=-1");
        let e = Config::parse(CONFIG, "c.toml", std::slice::from_ref(&set)).unwrap_err().to_string();
        assert!(e.contains(&setting.range), "{set}: {e}");
        let Some(flag) = setting.flag else { continue };
        let out = vzero(&["analyse", "--variant", "mini-hexchess", &format!("--{flag}"), "-1"]);
        assert_eq!(out.status.code(), Some(2), "--{flag} -1");
        let e = stderr_of(&out);
        assert!(e.contains(&format!("for '--{flag} <")) && e.contains("-1 is not in "), "--{flag} -1: {e}");
        let out = vzero(&["analyse", "--variant", "mini-hexchess", &format!("--{flag}"), "many"]);
        assert!(stderr_of(&out).contains("'many' is not a"), "--{flag} many: {}", stderr_of(&out));
    }
}

/// Gauntlet lines written before `search_tactics` existed (the leaf share, its depth and the
/// tree levers under names of their own, or nothing for the plain search) read as the tactics
/// they were played with, so their tables stay apart from the default search's.
#[test]
fn older_gauntlet_lines_read_as_the_tactics_they_played() {
    let older = r#"{"player":"step-000000004","opponent":"greedy","sims":8,"tactics":0.5,"tactics_depth":1,
        "tree_tactics":{"prior":0.5,"prior_plies":0,"temperature":0.33,"value":1.0,"minimax":0.5,"choice":"lcb","lcb_width":0.2},
        "max_plies":60,"games":2,"score":1.0}"#;
    let line: GauntletMatch = serde_json::from_str(older).unwrap();
    // The line's value share is 1, the default it was written under (0.5 since 2026-12-06).
    let played = Tactics { tactics_weight: 0.5, tactics_depth: 1, tactical_value: 1.0, ..Tactics::default() };
    assert_eq!(line.tactics(), played);
    let plain: GauntletMatch =
        serde_json::from_str(r#"{"player":"step-000000004","opponent":"greedy","sims":8,"games":2}"#).unwrap();
    assert_eq!(plain.tactics(), Tactics::off());
    // Written again, the line holds the tactics once, under their keys, and reads back the same.
    let again: GauntletMatch = serde_json::from_str(&serde_json::to_string(&line).unwrap()).unwrap();
    assert_eq!(again.tactics(), played);
    assert!(!serde_json::to_string(&again).unwrap().contains("tree_tactics"));
}
