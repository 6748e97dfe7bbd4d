//! The walls between layers. Layers 1 and 2 but `log` are the `dgscope-model` crate
//! (`crates/model`, re-exported by `src/lib.rs` under the same names), which the compiler
//! keeps from reaching up; the other walls are checked here, until they are crates too: no
//! module under `src/` or `crates/model/src/` may name a module of a higher layer
//! (`crate::x`, `dgscope_model::x`, `use crate::{x, …}`, or `super::` climbing out to the
//! crate root) in non-test code, and the top-level modules' imports form no cycle (within a
//! layer neither). `#[cfg(test)]` items and the files of `#[cfg(test)] mod` declarations are
//! not checked: a test may reach up. Comments and string literals are ignored, so a doc
//! comment may mention any module.
//!
//! A new top-level module must be placed in [`LAYERS`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom → top. A module may import its own layer and the layers below.
const LAYERS: &[&[&str]] = &[
    &["units", "timestamp", "sanitize", "output", "display", "log"],
    &["sample"],
    &["source"],
    &["metrics"],
    &["causes"],
    &["pipeline"],
    &["app"],
    &["ui", "report", "exposition"],
    &["tui", "serve"],
    &["cli", "config", "commands"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The source with comments, string and char literals blanked (newlines kept, so line
/// numbers stay right).
fn strip(src: &str) -> String {
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
fn item_end(s: &[u8], from: usize) -> usize {
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
fn without_tests(stripped: &str) -> (String, Vec<String>) {
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

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn ident_at(s: &[u8], i: usize) -> &str {
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
    // `crate::x`, and `dgscope_model::x` (the model crate's modules, named from `src/`).
    for root in ["crate", "dgscope_model"] {
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

fn edges(src: &Path) -> Vec<Edge> {
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

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The model crate's sources: layers 1 and 2 but `log`.
fn model_src() -> PathBuf {
    repo().join("crates/model/src")
}

/// Every crate's edges: the model crate's and the main crate's.
fn all_edges() -> Vec<Edge> {
    let mut out = edges(&model_src());
    out.extend(edges(&repo().join("src")));
    out
}

/// The `pub mod` names of a crate root.
fn pub_mods(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect()
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string(repo().join("src/lib.rs")).unwrap();
    let model = pub_mods(&std::fs::read_to_string(model_src().join("lib.rs")).unwrap());
    // src/lib.rs re-exports the model crate's modules under their names, all and only those.
    let at = lib
        .find("pub use dgscope_model::{")
        .expect("src/lib.rs re-exports dgscope_model's modules");
    let group = &lib[at..];
    let group = &group[group.find('{').unwrap() + 1..group.find('}').unwrap()];
    let mut reexported: Vec<String> = group
        .split(',')
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect();
    reexported.sort();
    let mut sorted = model.clone();
    sorted.sort();
    assert_eq!(
        reexported, sorted,
        "src/lib.rs re-exports these of dgscope_model"
    );
    // The model crate holds layers 1 and 2 only.
    let above: Vec<_> = model.iter().filter(|m| layer_of(m) > Some(1)).collect();
    assert!(
        above.is_empty(),
        "dgscope-model holds layers 1 and 2 only: {above:?}"
    );
    let mut modules = pub_mods(&lib);
    modules.extend(model);
    assert!(modules.len() > 10, "{modules:?}");
    let missing: Vec<_> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        missing.is_empty(),
        "place these modules in LAYERS: {missing:?}"
    );
    let gone: Vec<_> = LAYERS
        .iter()
        .flat_map(|l| l.iter())
        .filter(|m| !modules.iter().any(|x| x == *m))
        .collect();
    assert!(
        gone.is_empty(),
        "LAYERS names modules neither crate has: {gone:?}"
    );
}

#[test]
fn no_module_imports_a_higher_layer() {
    let edges = all_edges();
    assert!(
        edges.len() > 100,
        "the scan found only {} references",
        edges.len()
    );
    let unknown: Vec<_> = edges
        .iter()
        .filter(|e| layer_of(&e.to).is_none() || layer_of(&e.from).is_none())
        .map(|e| format!("{}: {} → {}", e.at, e.from, e.to))
        .collect();
    assert!(
        unknown.is_empty(),
        "modules not in LAYERS:\n{}",
        unknown.join("\n")
    );
    let upward: Vec<_> = edges
        .iter()
        .filter(|e| layer_of(&e.to) > layer_of(&e.from))
        .map(|e| format!("{}: {} → {}", e.at, e.from, e.to))
        .collect();
    assert!(
        upward.is_empty(),
        "{} references to a higher layer (see LAYERS in tests/layers.rs):\n{}",
        upward.len(),
        upward.join("\n")
    );
}

#[test]
fn the_top_level_modules_import_each_other_without_a_cycle() {
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for e in all_edges() {
        graph.entry(e.from).or_default().entry(e.to).or_insert(e.at);
    }
    // Depth-first; a module on the current path met again closes a cycle.
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
        (11, "k".into()),
        (11, "l".into()),
        (5, "e".into()),
    ];
    assert_eq!(found, want);
    // One `super::` from two modules down stays inside the top-level module.
    assert!(references(&strip("use super::x;"), 2).is_empty());
    assert_eq!(
        references(&strip("use super::x;"), 1),
        [(1, "x".to_string())]
    );
}
