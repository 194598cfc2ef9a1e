//! Every path the docs name exists: a map of the house that points at a moved or deleted file
//! sends a newcomer nowhere. A path is a word that starts with one of the repository's top-level
//! folders (`rules/src/game.rs`, `selfplay/src/run/`), or a relative Markdown link target
//! (`[training.md](training.md)`, read from the page's own folder).

use std::path::{Path, PathBuf};

/// The repository's folders a path in the docs starts with.
const ROOTS: &[&str] = &[
    "alphabeta/",
    "arena/",
    "build-support/",
    "configs/",
    "deploy/",
    "docs/",
    "durable/",
    "mcts/",
    "models/",
    "nn/",
    "python/",
    "rules/",
    "scripts/",
    "selfplay/",
    "src/",
    "tests/",
];

/// Folders the docs name that the build makes, not git: absent from a fresh clone.
const BUILT: &[&str] = &["python/target/"];

/// The repository's root (the root package's folder).
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The paths `text` names, each with the folder it is read from: repository paths from the
/// root, link targets from `page_dir`.
fn named_paths(text: &str, page_dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    // Links are read from the page's folder, so the words below must not see them.
    let mut prose = text.to_string();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push((target.to_string(), page_dir.join(target)));
        }
        // The link's text too: `[rules/wellisch.md](rules/wellisch.md)` names the target.
        let start = text[..i].rfind('[').unwrap_or(i);
        prose.replace_range(start..i + 2 + end, &" ".repeat(i + 2 + end - start));
    }
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_-./*<>".contains(c);
    for word in prose.split(|c: char| !is_path_char(c)) {
        let word = word.trim_end_matches('.');
        // Placeholders (`models/<variant>/`, `configs/*.toml`) stand for many files: their
        // folder is what must exist.
        let word = match word.find(['<', '*']) {
            Some(i) => &word[..word[..i].rfind('/').map_or(0, |j| j + 1)],
            None => word,
        };
        if ROOTS.iter().any(|root| word.starts_with(root)) && !BUILT.contains(&word) {
            out.push((word.to_string(), repo().join(word)));
        }
    }
    out
}

/// The paths of `page` (a Markdown file) that do not exist.
fn missing_paths(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    let dir = page.parent().unwrap();
    named_paths(&text, dir).into_iter().filter(|(_, path)| !path.exists()).map(|(word, _)| word).collect()
}

#[test]
fn the_architecture_map_names_only_paths_that_exist() {
    let page = repo().join("docs/architecture.md");
    let missing = missing_paths(&page);
    assert!(missing.is_empty(), "docs/architecture.md names paths that do not exist: {missing:?}");
    let named = named_paths(&std::fs::read_to_string(&page).unwrap(), page.parent().unwrap());
    assert!(named.len() > 50, "the map names only {} paths: is the reader broken?", named.len());
}

#[test]
fn every_doc_and_readme_names_only_paths_that_exist() {
    let mut pages = vec![repo().join("README.md")];
    for entry in std::fs::read_dir(repo().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let missing: Vec<String> = pages
        .iter()
        .flat_map(|page| missing_paths(page).into_iter().map(move |p| format!("{}: {p}", page.display())))
        .collect();
    assert!(missing.is_empty(), "paths that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn a_moved_file_is_found_missing() {
    let text = "The game is rules/src/game.rs, once rules/src/gone.rs; see [cli](cli.md) and \
                [old](old.md#x), models/<variant>/ and configs/*.toml.";
    let docs = repo().join("docs");
    let missing: Vec<String> =
        named_paths(text, &docs).into_iter().filter(|(_, p)| !p.exists()).map(|(w, _)| w).collect();
    assert_eq!(missing, ["old.md", "rules/src/gone.rs"]);
}
