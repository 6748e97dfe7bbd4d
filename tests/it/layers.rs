//! The walls between layers. The workspace's crates are the outer walls: the compiler keeps
//! a crate from naming one it does not depend on, and [`CRATES`] says which way the
//! dependencies may run (each crate only on crates of a lower level, so twin and oracle, the
//! sources, know nothing of each other), checked against every manifest and against the
//! graph drawn in docs/ARCHITECTURE.md. Inside a crate of several layers, no module may name
//! a module of a higher layer of its crate (`crate::x`, `use crate::{x, …}`, or `super::`
//! climbing out to the crate root) in non-test code, and the top-level modules' imports form
//! no cycle (within a layer neither). `#[cfg(test)]` items and the files of `#[cfg(test)] mod`
//! declarations are not checked: a test may reach up. Comments and string literals are
//! ignored, so a doc comment may mention any module.
//!
//! A new crate or top-level module must be placed in [`CRATES`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One crate of the workspace.
pub(crate) struct Crate {
    pub(crate) name: &'static str,
    pub(crate) dir: &'static str,
    /// A crate may depend only on crates of a lower level.
    level: usize,
    /// Its top-level modules, bottom → top: a module may import its own layer and those
    /// below. Empty for a crate that is one room (the twin, the Oracle source).
    layers: &'static [&'static [&'static str]],
}

/// Bottom → top.
pub(crate) const CRATES: &[Crate] = &[
    Crate {
        name: "dgscope-model",
        dir: "crates/model",
        level: 0,
        layers: &[
            &["units", "timestamp", "sanitize", "output", "display"],
            &["sample"],
            &["source"],
        ],
    },
    Crate {
        name: "dgscope-twin",
        dir: "crates/twin",
        level: 1,
        layers: &[],
    },
    Crate {
        name: "dgscope-oracle",
        dir: "crates/oracle",
        level: 1,
        layers: &[],
    },
    Crate {
        name: "dgscope-awr",
        dir: "crates/awr",
        level: 1,
        layers: &[],
    },
    Crate {
        name: "dgscope-core",
        dir: "crates/core",
        level: 2,
        layers: &[&["metrics"], &["causes"], &["pipeline"]],
    },
    Crate {
        name: "dgscope-export",
        dir: "crates/export",
        level: 3,
        layers: &[&["report", "exposition"], &["serve"]],
    },
    Crate {
        name: "dgscope-tui",
        dir: "crates/tui",
        level: 4,
        layers: &[&["app"], &["ui"], &["tui"]],
    },
    Crate {
        name: "dgscope",
        dir: ".",
        level: 5,
        layers: &[&["log"], &["cli", "config", "commands"]],
    },
];

impl Crate {
    pub(crate) fn src(&self) -> PathBuf {
        repo().join(self.dir).join("src")
    }

    /// The layer of one of its modules; modules re-exported from the crates below are
    /// below every layer of this one.
    fn layer_of(&self, module: &str, below: &[String]) -> Option<usize> {
        if below.iter().any(|m| m == module) {
            return Some(0);
        }
        self.layers
            .iter()
            .position(|l| l.contains(&module))
            .map(|i| i + 1)
    }
}

/// The source with comments, string and char literals blanked (newlines kept, so line
/// numbers stay right).
pub(crate) fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let n = c.len();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, text: &[char]| {
        out.extend(text.iter().map(|&ch| if ch == '\n' { '\n' } else { ' ' }));
    };
    let ident = |i: usize| i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    let mut i = 0;
    while i < n {
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            let end = (i..n).find(|&j| c[j] == '\n').unwrap_or(n);
            blank(&mut out, &c[i..end]);
            i = end;
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let (mut depth, mut j) = (0, i);
            while j < n {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &c[i..j.min(n)]);
            i = j;
        } else if !ident(i) && (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) && {
            let k = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = (k..n).take_while(|&j| c[j] == '#').count();
            c.get(k + hashes) == Some(&'"')
        } {
            // Raw string: r"…", r#"…"#, br"…".
            let k = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = (k..n).take_while(|&j| c[j] == '#').count();
            let mut j = k + hashes + 1;
            while j < n && !(c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#'))) {
                j += 1;
            }
            let end = (j + 1 + hashes).min(n);
            blank(&mut out, &c[i..end]);
            i = end;
        } else if c[i] == '"' || (c[i] == 'b' && !ident(i) && c.get(i + 1) == Some(&'"')) {
            let mut j = if c[i] == 'b' { i + 2 } else { i + 1 };
            while j < n && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(n);
            blank(&mut out, &c[i..end]);
            i = end;
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{1F600}'), else a lifetime or label.
            let end = if c.get(i + 1) == Some(&'\\') {
                (i + 2..n).find(|&j| c[j] == '\'').map(|j| j + 1)
            } else if c.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    blank(&mut out, &c[i..end]);
                    i = end;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The index just past the item starting at `from`: its `;`, or its `{ … }` block.
pub(crate) fn item_end(s: &[u8], from: usize) -> usize {
    let mut depth = 0i32;
    let mut i = from;
    while i < s.len() {
        match s[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth == 0 => return i + 1,
            b'{' if depth == 0 => {
                let mut braces = 0;
                while i < s.len() {
                    match s[i] {
                        b'{' => braces += 1,
                        b'}' => {
                            braces -= 1;
                            if braces == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                return s.len();
            }
            _ => {}
        }
        i += 1;
    }
    s.len()
}

const CFG_TEST: &str = "#[cfg(test)]";

/// `stripped` without its `#[cfg(test)]` items (blanked, newlines kept), and the names of
/// the `#[cfg(test)] mod name;` declarations (files that are test code).
pub(crate) fn without_tests(stripped: &str) -> (String, Vec<String>) {
    let s = stripped.as_bytes();
    let mut out = String::with_capacity(stripped.len());
    let mut test_mods = Vec::new();
    let mut at = 0;
    while let Some(found) = stripped[at..].find(CFG_TEST) {
        let start = at + found;
        let end = item_end(s, start + CFG_TEST.len());
        out.push_str(&stripped[at..start]);
        let item = &stripped[start..end];
        let words: Vec<&str> = item[CFG_TEST.len()..]
            .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if item.ends_with(';') {
            if let Some(p) = words.iter().position(|w| *w == "mod") {
                if let Some(name) = words.get(p + 1) {
                    test_mods.push(name.to_string());
                }
            }
        }
        out.extend(item.chars().map(|ch| if ch == '\n' { '\n' } else { ' ' }));
        at = end;
    }
    out.push_str(&stripped[at..]);
    (out, test_mods)
}

pub(crate) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

pub(crate) fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

pub(crate) fn ident_at(s: &[u8], i: usize) -> &str {
    let end = (i..s.len()).find(|&j| !is_ident(s[j])).unwrap_or(s.len());
    std::str::from_utf8(&s[i..end]).unwrap()
}

/// `path::` followed by optional whitespace: the index after it.
fn after_sep(s: &[u8], i: usize) -> Option<usize> {
    let i = skip_ws(s, i);
    (s.get(i) == Some(&b':') && s.get(i + 1) == Some(&b':')).then(|| skip_ws(s, i + 2))
}

/// The top-level modules a `crate::` path at `i` (just past `crate::`) names: one, or each
/// first segment of a `{…}` group.
fn named_at(s: &[u8], i: usize) -> Vec<String> {
    if s.get(i) != Some(&b'{') {
        let name = ident_at(s, i);
        return if name.is_empty() {
            Vec::new()
        } else {
            vec![name.to_string()]
        };
    }
    let end = item_end(s, i);
    let group = std::str::from_utf8(&s[i + 1..end.saturating_sub(1)]).unwrap();
    let mut names = Vec::new();
    let mut depth = 0;
    let mut first = true;
    for (k, ch) in group.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => first = true,
            ch if first && depth == 0 && (ch.is_alphanumeric() || ch == '_') => {
                names.push(ident_at(group.as_bytes(), k).to_string());
                first = false;
            }
            _ => {}
        }
    }
    names
}

/// Every reference in `code` to a top-level module: (line, module).
fn references(code: &str, depth: usize) -> Vec<(usize, String)> {
    let s = code.as_bytes();
    let line = |i: usize| code[..i].matches('\n').count() + 1;
    let mut refs = Vec::new();
    // `crate::x` (another crate's modules are the compiler's and the manifests' business).
    for root in ["crate"] {
        for (i, _) in code.match_indices(root) {
            let end = i + root.len();
            if (i > 0 && (is_ident(s[i - 1]) || s[i - 1] == b'$'))
                || s.get(end).is_some_and(|b| is_ident(*b))
            {
                continue;
            }
            if let Some(j) = after_sep(s, end) {
                refs.extend(named_at(s, j).into_iter().map(|m| (line(i), m)));
            }
        }
    }
    // `super::super::x` climbing to the crate root from `depth` modules down.
    let mut i = 0;
    while let Some(found) = code[i..].find("super") {
        let start = i + found;
        i = start + 5;
        if (start > 0 && (is_ident(s[start - 1]) || s[start - 1] == b':'))
            || s.get(i).is_some_and(|b| is_ident(*b))
        {
            continue;
        }
        let (mut count, mut j) = (1, i);
        while let Some(k) = after_sep(s, j) {
            if code[k..].starts_with("super") && !s.get(k + 5).is_some_and(|b| is_ident(*b)) {
                count += 1;
                j = k + 5;
            } else {
                if count >= depth {
                    refs.extend(named_at(s, k).into_iter().map(|m| (line(start), m)));
                }
                break;
            }
        }
        i = j;
    }
    refs
}

struct Edge {
    from: String,
    to: String,
    at: String,
}

/// Every `.rs` file under `src`, sorted.
pub(crate) fn rust_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn edges(src: &Path) -> Vec<Edge> {
    let files = rust_files(src);
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    let mut code = BTreeMap::new();
    for p in &files {
        let (c, test_mods) = without_tests(&strip(&std::fs::read_to_string(p).unwrap()));
        let name = p.file_name().unwrap().to_str().unwrap();
        let dir = if matches!(name, "mod.rs" | "lib.rs" | "main.rs") {
            p.parent().unwrap().to_path_buf()
        } else {
            p.with_extension("")
        };
        for m in test_mods {
            test_files.insert(dir.join(format!("{m}.rs")));
            test_files.insert(dir.join(&m));
        }
        code.insert(p.clone(), c);
    }
    let mut out = Vec::new();
    for (p, c) in &code {
        if test_files.iter().any(|t| p.starts_with(t)) {
            continue;
        }
        let rel = p.strip_prefix(src).unwrap();
        let parts: Vec<&str> = rel.iter().map(|x| x.to_str().unwrap()).collect();
        if parts == ["lib.rs"] || parts == ["main.rs"] {
            continue;
        }
        let top = parts[0].trim_end_matches(".rs").to_string();
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        for (line, to) in references(c, depth) {
            if to != top {
                out.push(Edge {
                    from: top.clone(),
                    to,
                    at: format!("{}:{line}", p.strip_prefix(repo()).unwrap().display()),
                });
            }
        }
    }
    out
}

pub(crate) fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The crates of several layers, each with its edges and the modules it re-exports from
/// the crates below.
fn layered() -> Vec<(&'static Crate, Vec<Edge>, Vec<String>)> {
    CRATES
        .iter()
        .filter(|c| !c.layers.is_empty())
        .map(|c| {
            let lib = std::fs::read_to_string(c.src().join("lib.rs")).unwrap();
            (c, edges(&c.src()), reexports(&lib))
        })
        .collect()
}

/// The modules a crate root declares: `pub mod x;`, `mod x;` and `pub mod x { … }` (not
/// `#[cfg(test)]` ones).
fn declared_mods(lib: &str) -> Vec<String> {
    let (code, _) = without_tests(&strip(lib));
    code.lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))
        })
        .map(|m| {
            m.split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// The modules a crate root re-exports from other crates: `pub use dgscope_x::{a, b};`,
/// and an inline `pub mod a { … }` of nothing but `pub use dgscope_…` items.
fn reexports(lib: &str) -> Vec<String> {
    let code = strip(lib);
    let mut out = Vec::new();
    for (i, _) in code.match_indices("pub mod ") {
        let name = ident_at(code.as_bytes(), i + 8);
        let rest = code[i + 8 + name.len()..].trim_start();
        if let Some(body) = rest.strip_prefix('{') {
            let body = &body[..body.find('}').unwrap_or(body.len())];
            let items: Vec<&str> = body
                .split(';')
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect();
            if !items.is_empty() && items.iter().all(|x| x.starts_with("pub use dgscope_")) {
                out.push(name.to_string());
            }
        }
    }
    let mut at = 0;
    while let Some(found) = code[at..].find("pub use dgscope_") {
        let start = at + found;
        let end = start + code[start..].find(';').unwrap();
        let item = &code[start..end];
        if let (Some(open), Some(close)) = (item.find('{'), item.rfind('}')) {
            out.extend(
                item[open + 1..close]
                    .split(',')
                    .map(|m| m.trim().to_string())
                    .filter(|m| !m.is_empty()),
            );
        }
        at = end;
    }
    out
}

/// A crate's workspace dependencies from its manifest's `[dependencies]` (not the
/// dev-dependencies: a test may reach anywhere).
fn workspace_deps(c: &Crate) -> Vec<String> {
    let text = std::fs::read_to_string(repo().join(c.dir).join("Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&text).unwrap();
    let mut deps: Vec<String> = manifest
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| {
            d.keys()
                .filter(|k| CRATES.iter().any(|c| c.name == k.as_str()))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    deps.sort();
    deps
}

#[test]
fn every_crate_depends_only_on_crates_below_it() {
    let members: toml::Table =
        toml::from_str(&std::fs::read_to_string(repo().join("Cargo.toml")).unwrap()).unwrap();
    let mut listed: Vec<String> = members["workspace"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    listed.sort();
    let mut known: Vec<String> = CRATES.iter().map(|c| c.dir.to_string()).collect();
    known.sort();
    assert_eq!(listed, known, "place every workspace member in CRATES");
    let mut upward = Vec::new();
    let mut edges = 0;
    for c in CRATES {
        for d in workspace_deps(c) {
            edges += 1;
            let to = CRATES.iter().find(|x| x.name == d).unwrap();
            if to.level >= c.level {
                upward.push(format!("{} → {}", c.name, d));
            }
        }
    }
    assert!(edges >= 6, "the scan found only {edges} dependencies");
    assert!(
        upward.is_empty(),
        "dependencies that do not run down (see CRATES in tests/it/layers.rs): {upward:?}"
    );
}

/// docs/ARCHITECTURE.md draws the crate graph as `name → dependencies` lines in a
/// ```` ```crates ```` block; it must be the manifests' graph, edge for edge.
#[test]
fn the_crate_graph_in_the_architecture_doc_is_the_manifests() {
    let doc = std::fs::read_to_string(repo().join("docs/ARCHITECTURE.md")).unwrap();
    let at = doc
        .find("```crates\n")
        .expect("a ```crates block in docs/ARCHITECTURE.md");
    let block = &doc[at + 10..];
    let block = &block[..block.find("```").unwrap()];
    let mut drawn: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (name, deps) = line.split_once('→').unwrap_or((line, ""));
        let mut deps: Vec<String> = deps
            .split(',')
            .map(|d| d.trim().to_string())
            .filter(|d| !d.is_empty())
            .collect();
        deps.sort();
        drawn.insert(name.trim().to_string(), deps);
    }
    let actual: BTreeMap<String, Vec<String>> = CRATES
        .iter()
        .map(|c| (c.name.to_string(), workspace_deps(c)))
        .collect();
    assert_eq!(drawn, actual, "the ```crates block of docs/ARCHITECTURE.md");
}

#[test]
fn every_top_level_module_has_a_layer() {
    let mut seen = 0;
    for (c, _, below) in layered() {
        let lib = std::fs::read_to_string(c.src().join("lib.rs")).unwrap();
        let own: Vec<String> = declared_mods(&lib)
            .into_iter()
            .filter(|m| !below.contains(m))
            .collect();
        seen += own.len();
        let missing: Vec<_> = own
            .iter()
            .filter(|m| c.layer_of(m, &[]).is_none())
            .collect();
        assert!(
            missing.is_empty(),
            "{}: place these modules in its layers: {missing:?}",
            c.name
        );
        let gone: Vec<_> = c
            .layers
            .iter()
            .flat_map(|l| l.iter())
            .filter(|m| !own.iter().any(|x| x == *m))
            .collect();
        assert!(
            gone.is_empty(),
            "{}: its layers name modules it does not have: {gone:?}",
            c.name
        );
    }
    assert!(seen > 10, "found only {seen} modules");
}

#[test]
fn no_module_imports_a_higher_layer() {
    let mut count = 0;
    for (c, edges, below) in layered() {
        count += edges.len();
        let unknown: Vec<_> = edges
            .iter()
            .filter(|e| {
                c.layer_of(&e.to, &below).is_none() || c.layer_of(&e.from, &below).is_none()
            })
            .map(|e| format!("{}: {} → {}", e.at, e.from, e.to))
            .collect();
        assert!(
            unknown.is_empty(),
            "{}: modules not in its layers:\n{}",
            c.name,
            unknown.join("\n")
        );
        let upward: Vec<_> = edges
            .iter()
            .filter(|e| c.layer_of(&e.to, &below) > c.layer_of(&e.from, &below))
            .map(|e| format!("{}: {} → {}", e.at, e.from, e.to))
            .collect();
        assert!(
            upward.is_empty(),
            "{} references to a higher layer (see CRATES in tests/it/layers.rs):\n{}",
            upward.len(),
            upward.join("\n")
        );
    }
    assert!(count > 100, "the scan found only {count} references");
}

#[test]
fn the_top_level_modules_import_each_other_without_a_cycle() {
    for (_, edges, _) in layered() {
        let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for e in edges {
            graph.entry(e.from).or_default().entry(e.to).or_insert(e.at);
        }
        let mut done = BTreeSet::new();
        for m in graph.keys() {
            if let Some(cycle) = visit(m, &graph, &mut Vec::new(), &mut done) {
                let at: Vec<_> = cycle
                    .windows(2)
                    .map(|w| format!("{} → {} ({})", w[0], w[1], graph[&w[0]][&w[1]]))
                    .collect();
                panic!("import cycle:\n{}", at.join("\n"));
            }
        }
    }
}

/// Depth-first; a module on the current path met again closes a cycle.
fn visit(
    m: &str,
    graph: &BTreeMap<String, BTreeMap<String, String>>,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(p) = path.iter().position(|x| x == m) {
        let mut cycle = path[p..].to_vec();
        cycle.push(m.to_string());
        return Some(cycle);
    }
    if !done.insert(m.to_string()) {
        return None;
    }
    path.push(m.to_string());
    for to in graph.get(m).into_iter().flat_map(|t| t.keys()) {
        if let Some(c) = visit(to, graph, path, done) {
            return Some(c);
        }
    }
    path.pop();
    None
}

#[test]
fn the_scan_sees_what_it_must() {
    let code = strip(
        "use crate::{a::X, b};\n// crate::c\nlet s = \"crate::d\";\nlet c = '\"';\nfn f<'a>() { super::super::e::f(); crate::g::h(); }\n#[cfg(test)]\nmod tests { use crate::i; }\n#[cfg(test)]\nmod more;\n$crate::j\nuse dgscope_model::{k, l::M}; my_dgscope_model::n();\n",
    );
    let (code, test_mods) = without_tests(&code);
    assert_eq!(test_mods, ["more"]);
    let found = references(&code, 2);
    let want: Vec<(usize, String)> = vec![
        (1, "a".into()),
        (1, "b".into()),
        (5, "g".into()),
        (5, "e".into()),
    ];
    assert_eq!(found, want);
    // One `super::` from two modules down stays inside the top-level module.
    assert!(references(&strip("use super::x;"), 2).is_empty());
    assert_eq!(
        references(&strip("use super::x;"), 1),
        [(1, "x".to_string())]
    );
    // A crate root's own modules and what it re-exports from the crates below.
    let lib = "//! pub mod doc;\npub use dgscope_a::{b, c};\npub mod d;\nmod e;\npub mod f {\n    pub use dgscope_g as g;\n}\n#[cfg(test)]\nmod h;\n";
    assert_eq!(declared_mods(lib), ["d", "e", "f"]);
    assert_eq!(reexports(lib), ["f", "b", "c"]);
}

/// The command-line library is the binary's alone: the crates below own their choices as
/// plain enums and the binary maps its arguments onto them (`src/cli/choices.rs`).
#[test]
fn only_the_binary_depends_on_the_cli_library() {
    let mut with_clap = Vec::new();
    for c in CRATES {
        let text = std::fs::read_to_string(repo().join(c.dir).join("Cargo.toml")).unwrap();
        let manifest: toml::Table = toml::from_str(&text).unwrap();
        let names_clap = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .is_some_and(|d| d.keys().any(|k| k.starts_with("clap")));
        if names_clap {
            with_clap.push(c.name);
        }
    }
    assert_eq!(with_clap, ["dgscope"]);
}
