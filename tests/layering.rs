//! The crates import downward, between them and inside themselves: every dependency a crate's
//! Cargo.toml declares is a crate of a lower layer (`arena` measures players and never reaches
//! into `selfplay`'s runs; `mcts` defines the traits `alphabeta` implements, not the other way),
//! no module of any crate (the libraries, the `vzero` program's src/ and the Python module's)
//! reaches, through the modules it uses, back to itself, and `selfplay`'s root stays small. A
//! circle is how one concept ends up spread over several files that cannot be read apart.
//!
//! How a crate's module graph is read from its source: tests/layering/modules.rs.

#[path = "layering/modules.rs"]
mod modules;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use modules::{circle_faults, circles, code_of, edges, paths, Graph, Root, Written};

/// Module circles allowed, by crate: none. An entry lists the modules of one circle, which then
/// passes while all its modules are in the entry; an entry none of whose modules is on a
/// circle any more fails the test, so a circle let in for a while cannot be forgotten.
const ALLOWED_CIRCLES: &[(&str, &[&str])] = &[];

/// Every crate whose modules are checked, with its source folder: the workspace's members (from
/// the root Cargo.toml), the `vzero` program, and the Python module (a workspace of its own).
fn crate_sources() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources: Vec<(String, PathBuf)> =
        workspace_members().into_iter().map(|m| (m.clone(), root.join(&m).join("src"))).collect();
    sources.push(("vzero".into(), root.join("src")));
    sources.push(("python".into(), root.join("python").join("src")));
    sources
}

/// The workspace's member crates, as the root Cargo.toml lists them.
fn workspace_members() -> Vec<String> {
    let root = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let members =
        root.lines().find_map(|l| l.trim().strip_prefix("members = ")).expect("the workspace lists its members");
    members.trim_matches(['[', ']']).split(',').map(|m| m.trim().trim_matches('"').to_string()).collect()
}

/// A graph from `(module, [modules it uses])` pairs.
fn graph_of(pairs: &[(&str, &[&str])]) -> Graph {
    pairs.iter().map(|(m, to)| (m.to_string(), to.iter().map(|t| t.to_string()).collect())).collect()
}

#[test]
fn the_checker_finds_circles_and_holds_allowed_ones_to_their_modules() {
    let graph = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &["a", "d"]), ("d", &[]), ("e", &["f"]), ("f", &["e"])]);
    let found = circles(&graph);
    assert_eq!(found, [BTreeSet::from(["a".into(), "b".into(), "c".into()]), BTreeSet::from(["e".into(), "f".into()])]);
    assert_eq!(modules::way_round(&graph, &found[0]), ["a", "b", "c", "a"]);
    // Both circles fail; allowing one leaves the other.
    assert_eq!(circle_faults("x", &graph, &[]).len(), 2);
    let faults = circle_faults("x", &graph, &[&["a", "b", "c"]]);
    assert_eq!(faults, ["x: modules import each other in a circle: e -> f -> e (the whole circle: e, f)"]);
    // A module joining an allowed circle fails it.
    let grown = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &["a", "d"]), ("d", &["a"])]);
    let faults = circle_faults("x", &grown, &[&["a", "b", "c"]]);
    assert!(faults.len() == 1 && faults[0].contains("(the whole circle: a, b, c, d)"), "{faults:?}");
    // An allowed circle taken apart is to be deleted from the list.
    let apart = graph_of(&[("a", &["b"]), ("b", &["c"]), ("c", &[])]);
    let faults = circle_faults("x", &apart, &[&["a", "b", "c"]]);
    assert!(faults.len() == 1 && faults[0].contains("is gone"), "{faults:?}");
    assert!(circle_faults("x", &apart, &[]).is_empty());
}

#[test]
fn the_reader_finds_paths_in_code_only() {
    let code = code_of(concat!(
        "use crate::{play::{flush::Flusher, Other as O}, store};\n",
        "use super::super::x::Y; // crate::no\n",
        "pub use crate::z::W;\n",
        "/* crate::block */ let s = \"crate::text {\"; let c = '{'; let q = '\\'';\n",
        "fn f<'a>(x: &'a str) { child::go(); std::fs::read(x); self::own::g(); }\n",
        "#[cfg(test)]\nmod tests { use super::*; use super::super::up::Z; }\n",
    ));
    let found = paths(&code);
    let has = |root: Root, segments: &[&str], inline: usize| {
        found.iter().any(|w| w.root == root && w.segments == segments && w.inline == inline)
    };
    assert!(has(Root::Crate, &["play", "flush", "Flusher"], 0), "{found:?}");
    assert!(found.iter().any(|w| w.segments == ["play", "Other"] && w.binds.as_deref() == Some("O")), "{found:?}");
    assert!(has(Root::Crate, &["store"], 0), "{found:?}");
    assert!(has(Root::Super(2), &["x", "Y"], 0), "{found:?}");
    assert!(found.iter().any(|w: &Written| w.segments == ["z", "W"] && w.reexport), "{found:?}");
    assert!(has(Root::Bare, &["child", "go"], 0) && has(Root::This, &["own", "g"], 0), "{found:?}");
    assert!(has(Root::Super(1), &[], 1) && has(Root::Super(2), &["up", "Z"], 1), "{found:?}");
    let words: Vec<&String> = found.iter().flat_map(|w| &w.segments).collect();
    assert!(
        !words.iter().any(|w| ["no", "block", "text"].contains(&w.as_str())),
        "comments and strings are not code: {found:?}"
    );
}

/// A crate written to a temporary folder: its files by path under src/.
fn crate_in_temp(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let src = std::env::temp_dir().join(format!("vzero-layering-{}-{name}", std::process::id())).join("src");
    let _ = std::fs::remove_dir_all(&src);
    for (path, text) in files {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    src
}

#[test]
fn a_circle_written_in_files_fails_even_behind_the_crate_root() {
    // `b` reaches `a` through the root's re-export; `a`'s tests and comments reach nowhere.
    let files = [
        ("lib.rs", "mod a;\nmod b;\npub use a::Thing;\n"),
        ("a.rs", "use crate::b::helper;\n// crate::c\n#[cfg(test)]\nmod tests { use super::*; }\n"),
        ("b.rs", "pub fn helper() -> crate::Thing { todo!() }\n"),
        ("c/mod.rs", "mod d;\nfn f() { d::g(); }\n"),
        ("c/d.rs", "pub fn g() {}\n"),
    ];
    let src = crate_in_temp("circle", &files);
    let graph = edges(&src);
    std::fs::remove_dir_all(src.parent().unwrap()).unwrap();
    assert_eq!(graph["a"], BTreeSet::from(["b".to_string()]));
    assert_eq!(graph["b"], BTreeSet::from(["a".to_string()]));
    assert_eq!(graph["c"], BTreeSet::from(["c::d".to_string()]));
    let faults = circle_faults("temp", &graph, &[]);
    assert_eq!(faults, ["temp: modules import each other in a circle: a -> b -> a (the whole circle: a, b)"]);
}

#[test]
fn no_module_of_any_crate_imports_itself_in_a_circle() {
    let sources = crate_sources();
    for (krate, _) in ALLOWED_CIRCLES {
        assert!(sources.iter().any(|(k, _)| k == krate), "ALLOWED_CIRCLES names {krate}, which is no crate checked");
    }
    let mut faults = Vec::new();
    for (krate, src) in &sources {
        let graph = edges(src);
        assert!(graph.len() > 3, "{krate}: read {} modules in {}", graph.len(), src.display());
        let allowed: Vec<&[&str]> = ALLOWED_CIRCLES.iter().filter(|(k, _)| k == krate).map(|(_, list)| *list).collect();
        faults.extend(circle_faults(krate, &graph, &allowed));
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

fn src_of(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(krate).join("src")
}

#[test]
fn the_selfplay_root_holds_few_modules() {
    let lib = std::fs::read_to_string(src_of("selfplay").join("lib.rs")).unwrap();
    let roots = lib.lines().filter(|l| l.starts_with("pub mod ") || l.starts_with("mod ")).count();
    assert!((3..=15).contains(&roots), "selfplay's crate root has {roots} modules");
}

/// The workspace's library crates by layer, the lowest first: a crate may depend only on crates
/// of lower layers (DESIGN.md: every arrow points down).
const LAYERS: [&[&str]; 5] = [&["rules", "durable"], &["mcts"], &["alphabeta", "nn"], &["arena"], &["selfplay"]];

/// The layer of a workspace crate (none for crates from outside it).
fn layer_of(krate: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&krate))
}

/// The packages a Cargo.toml depends on, from every dependency table (`[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]`, their `[target.'cfg(..)'.*]` forms and
/// `[dependencies.NAME]` tables), each by the package it names (`package = ".."` where renamed).
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let unquote = |s: &str| s.trim().trim_matches(['"', '\'']).to_string();
    let renamed = |text: &str| {
        let at = text.find("package")?;
        let value = text[at + "package".len()..].trim_start().strip_prefix('=')?;
        value.split([',', '}']).next().map(unquote)
    };
    let mut found = BTreeSet::new();
    // In a `[*dependencies]` table (keys are packages), or in `[dependencies.NAME]` (that one).
    let (mut in_table, mut named): (bool, Option<String>) = (false, None);
    for line in manifest.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(header) = line.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            if let Some(name) = named.take() {
                found.insert(name);
            }
            let parts: Vec<&str> = header.split('.').map(str::trim).collect();
            let table = parts.iter().rposition(|p| p.ends_with("dependencies"));
            in_table = table == Some(parts.len() - 1);
            named = table.filter(|&t| t + 2 == parts.len()).map(|t| unquote(parts[t + 1]));
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if let Some(name) = named.as_mut() {
            if key.trim() == "package" {
                *name = unquote(value);
            }
        } else if in_table {
            let key = unquote(key.split('.').next().unwrap_or(key));
            found.insert(renamed(value).unwrap_or(key));
        }
    }
    found.extend(named);
    found
}

/// The workspace crates `krate`'s manifest depends on that are not below it (itself left out:
/// a crate may name itself to turn on its own test features).
fn upward_dependencies(krate: &str, manifest: &str) -> Vec<String> {
    let own = layer_of(krate).unwrap_or_else(|| panic!("{krate} is in no layer"));
    dependencies(manifest).into_iter().filter(|d| d != krate && layer_of(d).is_some_and(|l| l >= own)).collect()
}

fn manifest_of(krate: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(krate).join("Cargo.toml")).unwrap()
}

#[test]
fn the_manifest_reader_finds_every_form_of_a_dependency() {
    let manifest = r#"
[package]
name = "x" # rules = "not a dependency"

[dependencies]
rules.workspace = true
mcts = { path = "../mcts" }
# selfplay.workspace = true
alias = { package = "nn", path = "../nn" }

[dev-dependencies]
"arena" = "0.1"

[target.'cfg(unix)'.dependencies]
durable.workspace = true

[dependencies.alphabeta]
path = "../alphabeta"

[build-dependencies.other]
package = "selfplay"

[features]
rand = []
"#;
    let found: Vec<String> = dependencies(manifest).into_iter().collect();
    assert_eq!(found, ["alphabeta", "arena", "durable", "mcts", "nn", "rules", "selfplay"]);
}

#[test]
fn an_arena_that_depends_on_selfplay_is_refused() {
    let arena = manifest_of("arena");
    assert!(upward_dependencies("arena", &arena).is_empty(), "{:?}", upward_dependencies("arena", &arena));
    let reaching_up = arena.replacen("[dependencies]\n", "[dependencies]\nselfplay.workspace = true\n", 1);
    assert_ne!(reaching_up, arena, "the arena manifest has a [dependencies] table");
    assert_eq!(upward_dependencies("arena", &reaching_up), ["selfplay"]);
    let mcts_on_alphabeta = manifest_of("mcts").replacen(
        "[dependencies]\n",
        "[dependencies]\nalphabeta = { path = \"../alphabeta\" }\n",
        1,
    );
    assert_eq!(
        upward_dependencies("mcts", &mcts_on_alphabeta),
        ["alphabeta"],
        "mcts defines the traits alphabeta implements"
    );
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let members = workspace_members();
    assert!(members.len() >= 7, "{members:?}");
    for krate in members.iter().map(String::as_str) {
        assert!(layer_of(krate).is_some(), "workspace member {krate} has no layer in LAYERS");
        let upward = upward_dependencies(krate, &manifest_of(krate));
        assert!(upward.is_empty(), "{krate} depends on {upward:?}, which are not below it");
    }
    assert!(!dependencies(&manifest_of("arena")).contains("selfplay"), "arena measures players, it knows no runs");
}
