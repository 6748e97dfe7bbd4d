//! The walls inside the crates (issue 43): within each directory of a crate, the files
//! (modules) and sub-directories import one another in one direction only, never in a
//! circle. A reference from module `a::b::x` to `a::c::y` is an edge `b → c` inside `a`;
//! a module naming its own ancestors (the room's `mod.rs`, which re-exports the room's
//! API) or its own descendants is not an edge between siblings. `#[cfg(test)]` items and
//! test files are not counted: a test may import what it tests.
//!
//! A circle not in [`KNOWN`] (empty: none is) fails, and so does one listed that is gone.
//! docs/ARCHITECTURE.md shows each crate's graph between a `module-graph` block's fences;
//! `scripts/module-graph` rewrites it, and this test fails when it is stale.

use crate::layers::{
    ident_at, is_ident, item_end, repo, rust_files, skip_ws, strip, without_tests, CRATES,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Circles allowed to remain, as `crate dir: a ↔ b ↔ …` (members sorted). The seven found
/// when this test was written are gone; keep it empty.
const KNOWN: &[&str] = &[];

type Module = Vec<String>;

/// Every module of a crate (file modules), by path, with its code less its tests.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let files = rust_files(src);
    let mut test_paths: BTreeSet<Module> = BTreeSet::new();
    let mut out = BTreeMap::new();
    for p in &files {
        let rel = p.strip_prefix(src).unwrap();
        let mut m: Module = rel
            .iter()
            .map(|x| x.to_str().unwrap().trim_end_matches(".rs").to_string())
            .collect();
        if matches!(
            m.last().map(String::as_str),
            Some("mod") | Some("lib") | Some("main")
        ) {
            m.pop();
        }
        // A binary's other roots (src/bin/…) are not modules of the library.
        if m.first().is_some_and(|f| f == "bin") {
            continue;
        }
        let (code, test_mods) = without_tests(&strip(&std::fs::read_to_string(p).unwrap()));
        for t in test_mods {
            let mut tm = m.clone();
            tm.push(t);
            test_paths.insert(tm);
        }
        out.insert(m, code);
    }
    out.retain(|m, _| !test_paths.iter().any(|t| m.starts_with(t)));
    out
}

/// The paths a `use`/expression path names from `i` (just past `crate::`, `super::` …):
/// `a::b`, or each path of a `{…}` group, recursively.
fn paths_at(s: &[u8], i: usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut i = skip_ws(s, i);
    loop {
        if s.get(i) == Some(&b'{') {
            let end = item_end(s, i);
            let inner = &s[i + 1..end.saturating_sub(1)];
            let mut out = Vec::new();
            let mut depth = 0;
            let mut start = 0;
            for k in 0..=inner.len() {
                let at_end = k == inner.len();
                let c = inner.get(k).copied().unwrap_or(b',');
                match c {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    b',' if depth == 0 => {
                        let part = &inner[start..k];
                        for p in paths_at(part, 0) {
                            let mut full = prefix.clone();
                            full.extend(p);
                            out.push(full);
                        }
                        start = k + 1;
                    }
                    _ => {}
                }
                if at_end {
                    break;
                }
            }
            return out;
        }
        let name = ident_at(s, i);
        if name.is_empty() {
            return if prefix.is_empty() {
                Vec::new()
            } else {
                vec![prefix]
            };
        }
        prefix.push(name.to_string());
        i += name.len();
        let j = skip_ws(s, i);
        if s.get(j) == Some(&b':') && s.get(j + 1) == Some(&b':') {
            i = skip_ws(s, j + 2);
        } else {
            return vec![prefix];
        }
    }
}

/// Every module path `code` (of module `m`) names through `crate::`, `self::` or
/// `super::`, as absolute paths of segments.
fn named_paths(code: &str, m: &Module) -> Vec<Vec<String>> {
    let s = code.as_bytes();
    let mut out = Vec::new();
    for root in ["crate", "super", "self"] {
        for (i, _) in code.match_indices(root) {
            let end = i + root.len();
            let before = i.checked_sub(1).map(|k| s[k]);
            if before.is_some_and(|b| is_ident(b) || b == b'$' || b == b':')
                || s.get(end).is_some_and(|b| is_ident(*b))
            {
                continue;
            }
            let j = skip_ws(s, end);
            if !(s.get(j) == Some(&b':') && s.get(j + 1) == Some(&b':')) {
                continue;
            }
            let base: Module = match root {
                "crate" => Vec::new(),
                "self" => m.clone(),
                _ => m[..m.len().saturating_sub(1)].to_vec(),
            };
            for p in paths_at(s, j + 2) {
                // `super::super::x`: each further `super` climbs one more.
                let mut base = base.clone();
                let mut rest = p.as_slice();
                while rest.first().is_some_and(|x| x == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
                let mut full = base;
                full.extend(rest.iter().cloned());
                out.push(full);
            }
        }
    }
    out
}

/// Edges between siblings: directory → (from child → to children).
type Graph = BTreeMap<Module, BTreeMap<String, BTreeSet<String>>>;

fn graph(src: &Path) -> Graph {
    let mods = modules(src);
    let known: BTreeSet<&Module> = mods.keys().collect();
    let mut g = Graph::new();
    for (m, code) in &mods {
        for p in named_paths(code, m) {
            // The longest prefix of the path that is a module.
            let Some(n) = (1..=p.len())
                .rev()
                .map(|k| p[..k].to_vec())
                .find(|k| known.contains(k))
            else {
                continue;
            };
            let common = m.iter().zip(&n).take_while(|(a, b)| a == b).count();
            if m.len() > common && n.len() > common {
                g.entry(m[..common].to_vec())
                    .or_default()
                    .entry(m[common].clone())
                    .or_default()
                    .insert(n[common].clone());
            }
        }
    }
    g
}

/// The strongly connected groups of more than one member (Tarjan).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        e: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        let e = t.e;
        for w in e.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut group = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                t.out.push(group);
            }
        }
    }
    let mut t = T {
        e: edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&str> = edges
        .iter()
        .flat_map(|(k, v)| std::iter::once(k.as_str()).chain(v.iter().map(String::as_str)))
        .collect();
    for v in nodes {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out.sort();
    t.out
}

fn dir_label(krate: &str, dir: &Module) -> String {
    if dir.is_empty() {
        krate.to_string()
    } else {
        format!("{krate} {}", dir.join("::"))
    }
}

/// Every circle of every crate, as [`KNOWN`] writes them.
fn all_circles() -> Vec<String> {
    let mut out = Vec::new();
    for c in CRATES {
        for (dir, edges) in graph(&c.src()) {
            for group in circles(&edges) {
                out.push(format!(
                    "{}: {}",
                    dir_label(c.name, &dir),
                    group.join(" ↔ ")
                ));
            }
        }
    }
    out
}

/// The graph as docs/ARCHITECTURE.md shows it: per crate and directory, each module and
/// the siblings it imports.
pub(crate) fn graph_text() -> String {
    let mut out = String::new();
    for c in CRATES {
        for (dir, edges) in graph(&c.src()) {
            out.push_str(&format!("{}\n", dir_label(c.name, &dir)));
            for (from, to) in &edges {
                let to: Vec<&str> = to.iter().map(String::as_str).collect();
                out.push_str(&format!("  {from} → {}\n", to.join(", ")));
            }
        }
    }
    out
}

#[test]
fn no_new_circle_inside_a_crate() {
    let found = all_circles();
    let new: Vec<&String> = found
        .iter()
        .filter(|c| !KNOWN.contains(&c.as_str()))
        .collect();
    let gone: Vec<&&str> = KNOWN
        .iter()
        .filter(|k| !found.iter().any(|f| f == *k))
        .collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import circles inside crates changed.\nnew (make the flow one-way):\n{}\ngone (take them off KNOWN):\n{}",
        new.iter().map(|s| format!("  {s}")).collect::<Vec<_>>().join("\n"),
        gone.iter().map(|s| format!("  {s}")).collect::<Vec<_>>().join("\n"),
    );
}

const FENCE: &str = "```module-graph\n";

#[test]
fn the_module_graph_in_the_architecture_doc_is_current() {
    let path = repo().join("docs/ARCHITECTURE.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc
        .find(FENCE)
        .expect("a ```module-graph block in docs/ARCHITECTURE.md")
        + FENCE.len();
    let end = start + doc[start..].find("```").unwrap();
    let want = graph_text();
    if std::env::var_os("DGSCOPE_WRITE_MODULE_GRAPH").is_some() {
        let mut new = doc.clone();
        new.replace_range(start..end, &want);
        std::fs::write(&path, new).unwrap();
        return;
    }
    assert!(
        doc[start..end] == want,
        "docs/ARCHITECTURE.md's module graph is stale: run scripts/module-graph"
    );
}

#[test]
fn the_scan_resolves_paths_and_finds_circles() {
    let m: Module = vec!["causes".into(), "rules".into(), "lag".into()];
    let code = strip("use super::{spec::RuleSpec, weigh};\nuse crate::causes::engine::{self, X};\nlet a = super::super::context::Context::new();\nuse self::inner::Y;\n");
    let got = named_paths(&code, &m);
    let want: Vec<Vec<String>> = [
        "causes::engine::self",
        "causes::engine::X",
        "causes::rules::spec::RuleSpec",
        "causes::rules::weigh",
        "causes::context::Context::new",
        "causes::rules::lag::inner::Y",
    ]
    .iter()
    .map(|p| p.split("::").map(String::from).collect())
    .collect();
    for w in &want {
        assert!(got.contains(w), "{w:?} not in {got:?}");
    }
    let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")] {
        e.entry(a.into()).or_default().insert(b.into());
    }
    assert_eq!(
        circles(&e),
        vec![vec!["a".to_string(), "b".into(), "c".into()]]
    );
    e.entry("e".into()).or_default().insert("d".into());
    assert_eq!(circles(&e).len(), 2);
}
