//! A crate's module graph read from its source text, and the circles in it.
//!
//! Modules are files; an edge is a path to another module written in a file, outside comments
//! and string literals (inline test modules included): `crate::a::b`, `super::x`, `self::c`, or
//! a child's name `c::d`, to the deepest module file it names. A path through a `use` binding
//! leads on to what the binding names, so `crate::Game`, re-exported by lib.rs from `game`, is
//! an edge to `game`: a circle cannot hide behind the crate root. A `pub use` itself is no edge:
//! it is how a parent offers its children's items, not a use of them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module paths (`run::play`; `` for the crate root) and the modules each one uses.
pub type Graph = BTreeMap<String, BTreeSet<String>>;

/// A crate's module files by module path (`run::play` for `src/run/play.rs`; `` for lib.rs or
/// main.rs).
pub fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<String, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut inner = prefix.to_vec();
                inner.push(name);
                walk(&path, &inner, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let root = prefix.is_empty() && (name == "lib" || name == "main");
                let mut module = prefix.to_vec();
                if name != "mod" && !root {
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

/// The source as code only: comments dropped and string and character literals emptied (`""`,
/// `' '`), so that a brace or a `crate::` in them is not read.
pub fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut code = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        code.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == 'r'
            && (at(i + 1) == '"' || at(i + 1) == '#')
            && (i == 0 || !ident(chars[i - 1]) || chars[i - 1] == 'b')
        {
            // A raw string r"..." or r#"..."#: it ends at a quote with as many hashes.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if at(i + 1 + hashes) != '"' {
                code.push(c);
                i += 1;
                continue;
            }
            i += hashes + 2;
            while i < chars.len() && !(chars[i] == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#')) {
                i += 1;
            }
            i += 1 + hashes;
            code.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            code.push_str("\"\"");
        } else if c == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A character literal ('{', '\n', '\''); a lifetime ('a) has no closing quote.
            i += if at(i + 1) == '\\' { 3 } else { 2 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            code.push_str("' '");
        } else {
            code.push(c);
            i += 1;
        }
    }
    code
}

/// Where a path starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// `crate::`
    Crate,
    /// `super::` this many times.
    Super(usize),
    /// `self::`
    This,
    /// A bare name: a child module, an outside crate, or a local item.
    Bare,
}

/// One path written in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// Where it starts.
    pub root: Root,
    /// The segments after the root (`{a, b::c}` trees give one path each).
    pub segments: Vec<String>,
    /// How many inline modules (`mod tests { .. }`) it stands in.
    pub inline: usize,
    /// Written in a `use` statement: the name it binds there (`None` for a glob or `_`).
    pub binds: Option<String>,
    /// Written in a `pub use` (any visibility): a re-export, no edge.
    pub reexport: bool,
}

/// The names a `use` tree binds, each with its full path (`prefix` included): `a::{b, c as d}`
/// gives `a::b` binding `b` and `a::c` binding `d`; `self` in braces binds the prefix's last name.
fn use_tree(tree: &str, prefix: &[String], out: &mut Vec<(Vec<String>, Option<String>)>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_tree(&inner[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_tree(&inner[start..], prefix, out);
        return;
    }
    if tree.is_empty() {
        return;
    }
    if tree == "*" {
        out.push((prefix.to_vec(), None));
        return;
    }
    let mut path = prefix.to_vec();
    if let Some((head, rest)) = tree.split_once("::").filter(|(head, _)| !head.contains('{')) {
        path.push(head.trim().to_string());
        use_tree(rest, &path, out);
        return;
    }
    let mut words = tree.split_whitespace();
    let name = words.next().unwrap_or_default().to_string();
    let alias = (words.next() == Some("as")).then(|| words.next().unwrap_or_default().to_string());
    let bound = if name == "self" { prefix.last().cloned().unwrap_or_default() } else { name.clone() };
    if name != "self" {
        path.push(name);
    }
    let binds = alias.unwrap_or(bound);
    out.push((path, (binds != "_").then_some(binds)));
}

/// Every path written in `code` (see [`code_of`]): in `use` statements, and in code those that
/// start with `crate`, `super` or `self`, or with a bare name followed by `::`.
pub fn paths(code: &str) -> Vec<Written> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let word = |s: &str| s.bytes().take_while(|&b| is_ident(b)).count();
    let mut out = Vec::new();
    // One entry per open brace: whether it opened an inline module.
    let mut braces: Vec<bool> = Vec::new();
    let mut inline_next = false;
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let b = bytes[i];
        if b == b'{' {
            braces.push(std::mem::take(&mut inline_next));
            i += 1;
            continue;
        }
        if b == b'}' {
            braces.pop();
            i += 1;
            continue;
        }
        if b == b';' {
            inline_next = false;
        }
        let boundary = i == 0 || !(is_ident(bytes[i - 1]) || bytes[i - 1] == b':' || bytes[i - 1] == b'$');
        let boundary = boundary || (bytes[i - 1] == b'$' && rest.starts_with("crate::"));
        let n = word(rest);
        if !boundary || n == 0 {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let inline = braces.iter().filter(|&&m| m).count();
        let first = &rest[..n];
        if first == "mod" {
            inline_next = true;
            i += n;
            continue;
        }
        // A `use` statement, with its visibility: it runs to the next `;`.
        let visibility = if first == "pub" {
            let after = rest[n..].trim_start();
            let after =
                if after.starts_with('(') { after[after.find(')').map_or(0, |p| p + 1)..].trim_start() } else { after };
            after.starts_with("use ").then(|| rest.len() - after.len())
        } else {
            None
        };
        if first == "use" || visibility.is_some() {
            let start = i + visibility.unwrap_or(0) + "use ".len();
            let end = code[start..].find(';').map_or(code.len(), |e| start + e);
            let tree = code[start..end].trim();
            // `use ::name` names an outside crate.
            if !tree.starts_with("::") {
                let mut trees = Vec::new();
                use_tree(tree, &[], &mut trees);
                let reexport = visibility.is_some();
                out.extend(trees.into_iter().flat_map(|(segments, binds)| written(segments, inline, binds, reexport)));
            }
            i = end;
            continue;
        }
        // A path in code: names joined by `::`, up to the first that is not one.
        let mut segments = Vec::new();
        let mut r = rest;
        loop {
            let n = word(r);
            if n == 0 {
                break;
            }
            segments.push(r[..n].to_string());
            r = &r[n..];
            match r.trim_start().strip_prefix("::") {
                Some(x) if x.trim_start().starts_with('{') => {
                    // `crate::{a, b}` outside a `use` (a macro's body): each entry.
                    let x = x.trim_start();
                    let close = x.find('}').map_or(x.len(), |c| c + 1);
                    let mut trees = Vec::new();
                    use_tree(&x[..close], &segments, &mut trees);
                    out.extend(trees.into_iter().flat_map(|(s, _)| written(s, inline, None, false)));
                    segments.clear();
                    break;
                }
                Some(x) => r = x.trim_start(),
                None => break,
            }
        }
        let consumed = code.len() - i - r.len();
        if segments.len() > 1 {
            out.extend(written(segments, inline, None, false));
        }
        i += consumed.max(1);
    }
    out
}

/// A path read as segments, its root split off.
fn written(mut segments: Vec<String>, inline: usize, binds: Option<String>, reexport: bool) -> Option<Written> {
    let root = match segments.first().map(String::as_str) {
        Some("crate") => Root::Crate,
        Some("self") => Root::This,
        Some("super") => Root::Super(segments.iter().take_while(|s| *s == "super").count()),
        Some(_) => Root::Bare,
        None => return None,
    };
    let skip = match root {
        Root::Crate | Root::This => 1,
        Root::Super(n) => n,
        Root::Bare => 0,
    };
    segments.drain(..skip);
    Some(Written { root, segments, inline, binds, reexport })
}

/// The path from the crate root that `path`, written in `module`, names; `None` for a path
/// into another crate, a local item, or a place inside the file's own inline modules.
fn absolute(path: &Written, module: &[String], modules: &BTreeMap<String, PathBuf>) -> Option<Vec<String>> {
    let child = |name: &str| {
        let mut inner = module.to_vec();
        inner.push(name.to_string());
        modules.contains_key(&inner.join("::"))
    };
    let mut base = match path.root {
        Root::Crate => vec![],
        // Inside an inline module, `super` first climbs out of it, staying in the file.
        Root::Super(n) if n > path.inline => {
            let mut base = module.to_vec();
            for _ in 0..n - path.inline {
                base.pop()?;
            }
            base
        }
        Root::Super(_) => return None,
        Root::This | Root::Bare if path.inline > 0 => return None,
        Root::This => module.to_vec(),
        Root::Bare if path.segments.first().is_some_and(|s| child(s)) => module.to_vec(),
        Root::Bare => return None,
    };
    base.extend(path.segments.iter().cloned());
    Some(base)
}

/// The module a path from the crate root leads to: the deepest module file it names, or, where
/// the next name is a `use` binding of that module, where the binding leads.
fn target(
    path: &[String],
    modules: &BTreeMap<String, PathBuf>,
    bindings: &BTreeMap<String, BTreeMap<String, Vec<String>>>,
) -> String {
    let deepest = |path: &[String]| (0..=path.len()).rev().find(|&n| modules.contains_key(&path[..n].join("::")));
    let mut path = path.to_vec();
    // A few hops at most: bindings lead on to bindings only a few deep, never in a circle.
    for _ in 0..8 {
        let depth = deepest(&path).unwrap_or(0);
        let Some(bound) = path.get(depth).and_then(|name| bindings.get(&path[..depth].join("::"))?.get(name)) else {
            break;
        };
        let mut next = bound.clone();
        next.extend(path[depth + 1..].iter().cloned());
        path = next;
    }
    path[..deepest(&path).unwrap_or(0)].join("::")
}

/// Module-to-module edges of the crate whose source is in `src`, self-edges and edges to the
/// crate root left out (every module is declared there).
pub fn edges(src: &Path) -> Graph {
    let modules = modules(src);
    let split = |m: &str| -> Vec<String> {
        if m.is_empty() {
            vec![]
        } else {
            m.split("::").map(String::from).collect()
        }
    };
    let written: BTreeMap<String, Vec<Written>> =
        modules.iter().map(|(m, file)| (m.clone(), paths(&code_of(&std::fs::read_to_string(file).unwrap())))).collect();
    let mut bindings: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (module, paths) in &written {
        for path in paths.iter().filter(|p| p.inline == 0) {
            if let (Some(name), Some(full)) = (&path.binds, absolute(path, &split(module), &modules)) {
                bindings.entry(module.clone()).or_default().insert(name.clone(), full);
            }
        }
    }
    let mut graph = Graph::new();
    for (module, paths) in &written {
        let targets = graph.entry(module.clone()).or_default();
        for path in paths.iter().filter(|p| !p.reexport) {
            let Some(full) = absolute(path, &split(module), &modules) else { continue };
            let to = target(&full, &modules, &bindings);
            if to != *module && !to.is_empty() {
                targets.insert(to);
            }
        }
    }
    graph
}

/// The circles of `graph`: its strongly connected parts of more than one module (every module
/// of one reaches every other), each sorted.
pub fn circles(graph: &Graph) -> Vec<BTreeSet<String>> {
    // Tarjan's algorithm.
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, node: &'g str) {
            let n = self.index.len();
            self.index.insert(node, n);
            self.low.insert(node, n);
            self.stack.push(node);
            for next in self.graph.get(node).into_iter().flatten() {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next.as_str()]);
                    self.low.insert(node, low);
                } else if self.stack.contains(&next.as_str()) {
                    let low = self.low[node].min(self.index[next.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let at = self.stack.iter().rposition(|&m| m == node).unwrap();
                let part: BTreeSet<String> = self.stack.drain(at..).map(String::from).collect();
                if part.len() > 1 {
                    self.found.push(part);
                }
            }
        }
    }
    let mut walk = Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.found.sort();
    walk.found
}

/// One way round `circle` (a strongly connected part of `graph`), from its first module back
/// to it: what a message shows of it.
pub fn way_round(graph: &Graph, circle: &BTreeSet<String>) -> Vec<String> {
    let start = circle.first().unwrap();
    // Breadth first inside the circle, until an edge leads back to the start.
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in graph[node].iter().filter(|n| circle.contains(*n)) {
            if next == start {
                let mut way = vec![node.clone()];
                let mut at = node;
                while let Some(&before) = came_from.get(at) {
                    way.push(before.clone());
                    at = before;
                }
                way.reverse();
                way.push(start.clone());
                return way;
            }
            if !came_from.contains_key(next) {
                came_from.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    unreachable!("{circle:?} is a circle of the graph")
}

/// What is wrong with the circles of crate `krate`'s `graph`, one line each: a circle none of
/// the `allowed` module lists holds whole, and an allowed list none of whose modules is on a
/// circle any more (it is to be deleted).
pub fn circle_faults(krate: &str, graph: &Graph, allowed: &[&[&str]]) -> Vec<String> {
    let circles = circles(graph);
    let mut faults = Vec::new();
    for circle in &circles {
        if !allowed.iter().any(|list| circle.iter().all(|m| list.contains(&m.as_str()))) {
            let way = way_round(graph, circle).join(" -> ");
            let all = circle.iter().cloned().collect::<Vec<_>>().join(", ");
            faults.push(format!("{krate}: modules import each other in a circle: {way} (the whole circle: {all})"));
        }
    }
    for list in allowed {
        if !circles.iter().any(|c| c.iter().any(|m| list.contains(&m.as_str()))) {
            faults.push(format!("{krate}: the allowed circle {list:?} is gone: delete it from the allowed circles"));
        }
    }
    faults
}
