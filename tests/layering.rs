//! The library crates import downward, between them and inside themselves: every dependency a
//! crate's Cargo.toml declares is a crate of a lower layer (`arena` measures players and never
//! reaches into `selfplay`'s runs; `mcts` defines the traits `alphabeta` implements, not the other
//! way), no module of `selfplay` or `arena` reaches, through the modules it uses, back to itself,
//! and `selfplay`'s root stays small. A circle is how one concept ends up spread over several
//! files that cannot be read apart.
//!
//! Modules are files; an edge is a path `crate::a::b` or `super::x` written in a file (inline
//! test modules included), to the deepest module file the path names. Re-exports (`pub use`)
//! are not edges: they are how a parent offers its children's items, not a use of them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's module files by module path (`run::play` for `src/run/play.rs`; `` for lib.rs).
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(name);
                walk(&path, &inner, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut module = prefix.to_vec();
                if name != "mod" && name != "lib" {
                    module.push(name);
                }
                out.insert(module.join("::"), path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    out
}

/// The source without comments and `pub use` statements.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut in_reexport = false;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        let trimmed = line.trim_start();
        if trimmed.starts_with("pub use ") || trimmed.starts_with("pub(crate) use ") {
            in_reexport = true;
        }
        if !in_reexport {
            code.push_str(line);
            code.push('\n');
        }
        if in_reexport && line.contains(';') {
            in_reexport = false;
        }
    }
    code
}

/// Every path written after `crate::` or `super::` (braces expanded one level deep), as the
/// segments after that root; `supers` is how many `super::` led to it.
fn paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let boundary =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let (supers, after) = if boundary && rest.starts_with("crate::") {
            (0, &rest["crate::".len()..])
        } else if boundary && rest.starts_with("super::") {
            let mut n = 0;
            let mut r = rest;
            while let Some(x) = r.strip_prefix("super::") {
                n += 1;
                r = x;
            }
            (n, r)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let mut segments = Vec::new();
        let mut r = after;
        loop {
            if let Some(inner) = r.strip_prefix('{') {
                // One level of braces: each entry's first segments.
                let end = inner.find('}').unwrap_or(inner.len());
                for entry in inner[..end].split(',') {
                    let mut seg = segments.clone();
                    for part in entry.trim().split("::") {
                        let id = ident(part.trim());
                        if id.is_empty() {
                            break;
                        }
                        seg.push(id);
                    }
                    out.push((supers, seg));
                }
                segments.clear();
                break;
            }
            let id = ident(r);
            if id.is_empty() {
                break;
            }
            r = &r[id.len()..];
            segments.push(id);
            match r.strip_prefix("::") {
                Some(x) => r = x,
                None => break,
            }
        }
        if !segments.is_empty() {
            out.push((supers, segments));
        }
        i += 1;
    }
    out
}

/// Module-to-module edges of a crate, self-edges left out.
fn edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(src);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let own: Vec<String> = if module.is_empty() { vec![] } else { module.split("::").map(String::from).collect() };
        // `super` in a mod.rs or lib.rs names the parent of its module; in a leaf file, too.
        for (supers, segments) in paths(&code) {
            let mut base = if supers == 0 { vec![] } else { own.clone() };
            for _ in 0..supers {
                base.pop();
            }
            let mut full = base;
            full.extend(segments);
            // The deepest prefix that is a module.
            let target = (0..=full.len())
                .rev()
                .map(|n| full[..n].join("::"))
                .find(|m| modules.contains_key(m))
                .unwrap_or_default();
            if &target != module && !target.is_empty() {
                graph.entry(module.clone()).or_default().insert(target);
            }
        }
        graph.entry(module.clone()).or_default();
    }
    graph
}

/// A circle of modules in `graph`, if there is one.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let start = stack.iter().position(|m| m == next).unwrap();
                    let mut circle = stack[start..].to_vec();
                    circle.push(next.clone());
                    return Some(circle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if !state.contains_key(node.as_str()) {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn src_of(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(krate).join("src")
}

#[test]
fn the_checker_finds_a_circle_and_reads_paths() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["c".to_string()])),
        ("c".to_string(), BTreeSet::from(["a".to_string()])),
    ]
    .into();
    assert_eq!(find_circle(&graph), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    let code = code_of(
        "use crate::{play::flush::Flusher, store};\nuse super::super::x::Y; // crate::no\npub use crate::z::W;\n",
    );
    let found = paths(&code);
    assert!(found.contains(&(0, vec!["play".into(), "flush".into(), "Flusher".into()])), "{found:?}");
    assert!(found.contains(&(0, vec!["store".into()])), "{found:?}");
    assert!(found.contains(&(2, vec!["x".into(), "Y".into()])), "{found:?}");
    assert!(
        !found.iter().any(|(_, p)| p[0] == "z" || p[0] == "no"),
        "re-exports and comments are not edges: {found:?}"
    );
}

#[test]
fn no_module_of_selfplay_or_arena_imports_itself_in_a_circle() {
    for krate in ["selfplay", "arena"] {
        let graph = edges(&src_of(krate));
        assert!(graph.len() > 5, "{krate}: read {} modules", graph.len());
        if let Some(circle) = find_circle(&graph) {
            panic!("{krate}: module import circle {}", circle.join(" -> "));
        }
    }
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
    let root = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let members =
        root.lines().find_map(|l| l.trim().strip_prefix("members = ")).expect("the workspace lists its members");
    let members: Vec<&str> = members.trim_matches(['[', ']']).split(',').map(|m| m.trim().trim_matches('"')).collect();
    assert!(members.len() >= 7, "{members:?}");
    for krate in members {
        assert!(layer_of(krate).is_some(), "workspace member {krate} has no layer in LAYERS");
        let upward = upward_dependencies(krate, &manifest_of(krate));
        assert!(upward.is_empty(), "{krate} depends on {upward:?}, which are not below it");
    }
    assert!(!dependencies(&manifest_of("arena")).contains("selfplay"), "arena measures players, it knows no runs");
}
