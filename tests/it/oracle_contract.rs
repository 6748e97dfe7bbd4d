//! The SQL contract: every view and column our statements reference is documented (in
//! columns.tsv) for the release its variant targets; every statement is a SELECT; no SQL
//! text lives outside crates/oracle/src/.

use dgscope::source::oracle::sql;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The project's column contract, committed with the code that relies on it.
fn tsv_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/oracle/columns.tsv")
}

/// The research copy the contract started from, when it sits beside the clone.
fn research_tsv() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/oracle/columns.tsv");
    p.is_file().then_some(p)
}

type Version = Vec<u32>;

fn version(s: &str) -> Version {
    s.split('.').map(|p| p.parse().unwrap()).collect()
}

fn at_most(a: &Version, b: &Version) -> bool {
    let n = a.len().max(b.len());
    let get = |v: &Version, i: usize| v.get(i).copied().unwrap_or(0);
    for i in 0..n {
        if get(a, i) != get(b, i) {
            return get(a, i) < get(b, i);
        }
    }
    true
}

/// view (V$X) → column → since.
fn documented() -> BTreeMap<String, BTreeMap<String, Version>> {
    documented_in(&tsv_path())
}

fn documented_in(path: &Path) -> BTreeMap<String, BTreeMap<String, Version>> {
    let text = std::fs::read_to_string(path).expect("columns.tsv readable");
    let mut m: BTreeMap<String, BTreeMap<String, Version>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f.len() >= 3, "malformed TSV line {line:?}");
        m.entry(f[0].to_string())
            .or_default()
            .insert(f[1].to_string(), version(f[2]));
    }
    assert!(m.len() > 20, "columns.tsv looks truncated");
    m
}

#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String, bool),
    Str,
    Dot,
    Open,
    Other,
}

fn tokens(sql: &str) -> Vec<Tok> {
    let c: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '\'' {
            i += 1;
            while i < c.len() {
                if c[i] == '\'' && c.get(i + 1) == Some(&'\'') {
                    i += 2;
                } else if c[i] == '\'' {
                    break;
                } else {
                    i += 1;
                }
            }
            i += 1;
            out.push(Tok::Str);
        } else if ch == '"' {
            let start = i + 1;
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += 1;
            }
            out.push(Tok::Ident(
                c[start..i].iter().collect::<String>().to_uppercase(),
                true,
            ));
            i += 1;
        } else if ch.is_ascii_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_ascii_alphanumeric() || matches!(c[i], '_' | '$' | '#')) {
                i += 1;
            }
            out.push(Tok::Ident(
                c[start..i].iter().collect::<String>().to_uppercase(),
                false,
            ));
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_ascii_digit() || c[i] == '.') {
                i += 1;
            }
            out.push(Tok::Other);
        } else {
            out.push(match ch {
                '.' => Tok::Dot,
                '(' => Tok::Open,
                _ => Tok::Other,
            });
            i += 1;
        }
    }
    out
}

const KEYWORDS: &[&str] = &[
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "IN",
    "NOT",
    "NULL",
    "IS",
    "LIKE",
    "ESCAPE",
    "GROUP",
    "BY",
    "JOIN",
    "ON",
    "UNION",
    "ALL",
    "AS",
    "DATE",
    "SYSDATE",
    "SYSTIMESTAMP",
    "ORDER",
    "DESC",
    "ASC",
    "LEFT",
    "KEEP",
    "DENSE_RANK",
    "LAST",
    "ROWNUM",
];
const FUNCTIONS: &[&str] = &[
    "TO_CHAR",
    "TO_NUMBER",
    "NVL",
    "LOWER",
    "UPPER",
    "SUM",
    "COUNT",
    "MAX",
    "CAST",
    "SYS_EXTRACT_UTC",
    "CHR",
    "ROUND",
    "NULLIF",
    "TRUNC",
    "NVL2",
];

fn is_view(name: &str) -> bool {
    name.starts_with("V$") || name.starts_with("GV$")
}
fn base(view: &str) -> String {
    view.strip_prefix('G').unwrap_or(view).to_string()
}

/// Views and column references (with the view an alias points to) of one statement.
#[allow(clippy::type_complexity)]
fn references(sql: &str) -> (BTreeSet<String>, Vec<(Option<String>, String)>) {
    let t = tokens(sql);
    let mut views = BTreeSet::new();
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    for (i, tok) in t.iter().enumerate() {
        if let Tok::Ident(name, false) = tok {
            if is_view(name) {
                views.insert(name.clone());
                if let Some(Tok::Ident(alias, false)) = t.get(i + 1) {
                    if !KEYWORDS.contains(&alias.as_str()) {
                        aliases.insert(alias.clone(), name.clone());
                    }
                }
            }
        }
    }
    // Output aliases (`… AS avg_ms`) name results, not columns, wherever they appear later.
    let output_aliases: BTreeSet<String> = t
        .windows(2)
        .filter_map(|w| match (&w[0], &w[1]) {
            (Tok::Ident(a, false), Tok::Ident(alias, _)) if a == "AS" => Some(alias.clone()),
            _ => None,
        })
        .collect();
    let mut cols = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if let Tok::Ident(name, quoted) = &t[i] {
            if t.get(i + 1) == Some(&Tok::Dot) {
                if let Some(Tok::Ident(col, _)) = t.get(i + 2) {
                    let view = aliases.get(name).cloned();
                    assert!(view.is_some(), "alias {name} not bound in {sql}");
                    cols.push((view, col.clone()));
                    i += 3;
                    continue;
                }
            }
            let skip = !quoted
                && (is_view(name)
                    || KEYWORDS.contains(&name.as_str())
                    || aliases.contains_key(name)
                    || output_aliases.contains(name)
                    || (FUNCTIONS.contains(&name.as_str()) && t.get(i + 1) == Some(&Tok::Open)));
            if !skip {
                cols.push((None, name.clone()));
            }
        }
        i += 1;
    }
    (views, cols)
}

fn check(
    label: &str,
    sql: &str,
    at: &Version,
    doc: &BTreeMap<String, BTreeMap<String, Version>>,
    problems: &mut Vec<String>,
) -> BTreeSet<String> {
    let (views, cols) = references(sql);
    for v in &views {
        match doc.get(&base(v)) {
            None => problems.push(format!("{label}: view {v} is not in columns.tsv")),
            Some(c) => {
                let since = c.values().min().unwrap();
                if !at_most(since, at) {
                    problems.push(format!("{label}: view {v} exists only from {since:?}"));
                }
            }
        }
    }
    for (view, col) in cols {
        let candidates: Vec<&String> = match &view {
            Some(v) => vec![v],
            None => views.iter().collect(),
        };
        let ok = candidates.iter().any(|v| {
            (v.starts_with("GV$") && col == "INST_ID")
                || doc
                    .get(&base(v))
                    .and_then(|c| c.get(&col))
                    .is_some_and(|since| at_most(since, at))
        });
        if !ok {
            problems.push(format!(
                "{label}: column {col} is not documented for {} at {at:?}",
                candidates
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("/")
            ));
        }
    }
    views
}

#[test]
fn every_view_and_column_is_documented_for_its_release() {
    let doc = documented();
    let mut problems = Vec::new();
    let mut columns_checked = 0;
    for v in sql::variants() {
        let at = version(v.version);
        for kind in sql::kinds(&v) {
            for p in sql::parts(kind, v.features) {
                let label = format!("{}/{kind:?}/{}", v.label, p.name);
                let views = check(&label, &p.sql, &at, &doc, &mut problems);
                if let Some(alt) = &p.alt_sql {
                    let alt_views = check(&format!("{label}/alt"), alt, &at, &doc, &mut problems);
                    assert_eq!(
                        alt_views, views,
                        "{label}: the alternative reads other views"
                    );
                }
                columns_checked += references(&p.sql).1.len();
                let declared: BTreeSet<String> = p.views.iter().map(|s| s.to_string()).collect();
                if views != declared {
                    problems.push(format!(
                        "{label}: declares {declared:?} but reads {views:?}"
                    ));
                }
            }
        }
    }
    // The probe runs on every release; VERSION_FULL only from 18c.
    check(
        "probe/identity",
        sql::PROBE_IDENTITY,
        &version("11.2.0.4"),
        &doc,
        &mut problems,
    );
    check(
        "probe/fixed",
        &sql::probe_fixed_views(),
        &version("11.2.0.4"),
        &doc,
        &mut problems,
    );
    check(
        "probe/version_full",
        sql::PROBE_VERSION_FULL,
        &version("18.1"),
        &doc,
        &mut problems,
    );
    // The CDB column from 12.1 (the probe asks only there).
    check(
        "probe/cdb",
        sql::PROBE_CDB,
        &version("12.1"),
        &doc,
        &mut problems,
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        columns_checked > 150,
        "only {columns_checked} column references found"
    );
}

/// The contract may add columns to the research notes it started from, or move a column to
/// a later (safer) release; it may not drop one or claim an earlier release.
#[test]
fn the_contract_only_adds_to_the_research_notes_or_is_more_cautious() {
    let Some(research) = research_tsv() else {
        return;
    };
    let contract = documented();
    let mut problems = Vec::new();
    for (view, cols) in documented_in(&research) {
        for (col, since) in cols {
            match contract.get(&view).and_then(|c| c.get(&col)) {
                None => problems.push(format!("{view}.{col} dropped")),
                Some(c) if !at_most(&since, c) => {
                    problems.push(format!("{view}.{col}: {c:?} is earlier than {since:?}"))
                }
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// (view, column) pairs one variant's statements reference, aliases resolved.
fn referenced(v: &sql::Variant, kind: sql::DbKind) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for p in sql::parts(kind, v.features) {
        let (views, cols) = references(&p.sql);
        for (view, col) in cols {
            let candidates: Vec<String> = match view {
                Some(v) => vec![base(&v)],
                None => views.iter().map(|v| base(v)).collect(),
            };
            for c in candidates {
                out.insert((c, col.clone()));
            }
        }
    }
    out
}

/// The standby-state columns are not only allowed (the test above) but read, in every
/// release that has them, and left out where the contract says the release lacks them.
#[test]
fn the_standby_state_columns_are_read_where_their_release_has_them() {
    let doc = documented();
    let wanted: &[(sql::DbKind, &str, &str)] = &[
        (sql::DbKind::Primary, "V$ARCHIVE_DEST", "DB_UNIQUE_NAME"),
        (sql::DbKind::Primary, "V$ARCHIVE_DEST", "DELAY_MINS"),
        (sql::DbKind::Primary, "V$ARCHIVE_DEST_STATUS", "TYPE"),
        (
            sql::DbKind::Primary,
            "V$ARCHIVE_DEST_STATUS",
            "RECOVERY_MODE",
        ),
        (
            sql::DbKind::Primary,
            "V$ARCHIVE_DEST_STATUS",
            "DATABASE_MODE",
        ),
        (
            sql::DbKind::Primary,
            "V$ARCHIVE_DEST_STATUS",
            "SYNCHRONIZATION_STATUS",
        ),
        (
            sql::DbKind::Primary,
            "V$ARCHIVE_DEST_STATUS",
            "STANDBY_LOGFILE_COUNT",
        ),
        (
            sql::DbKind::Primary,
            "V$ARCHIVE_DEST_STATUS",
            "STANDBY_LOGFILE_ACTIVE",
        ),
        (sql::DbKind::Primary, "V$SYSTEM_EVENT", "TOTAL_WAITS_FG"),
        (
            sql::DbKind::Primary,
            "V$SYSTEM_EVENT",
            "TIME_WAITED_MICRO_FG",
        ),
        (sql::DbKind::Standby, "V$SYSTEM_EVENT", "TOTAL_WAITS_FG"),
        (
            sql::DbKind::Standby,
            "V$SYSTEM_EVENT",
            "TIME_WAITED_MICRO_FG",
        ),
        (sql::DbKind::Standby, "V$DATAGUARD_PROCESS", "DELAY_MINS"),
        (sql::DbKind::Standby, "V$MANAGED_STANDBY", "DELAY_MINS"),
        (sql::DbKind::Standby, "V$ARCHIVE_GAP", "THREAD#"),
        (sql::DbKind::Standby, "V$ARCHIVE_GAP", "LOW_SEQUENCE#"),
        (sql::DbKind::Standby, "V$ARCHIVE_GAP", "HIGH_SEQUENCE#"),
        (sql::DbKind::Primary, "V$RECOVERY_FILE_DEST", "SPACE_LIMIT"),
        (sql::DbKind::Standby, "V$RECOVERY_FILE_DEST", "SPACE_LIMIT"),
        (sql::DbKind::Standby, "V$RECOVERY_FILE_DEST", "SPACE_USED"),
        (
            sql::DbKind::Standby,
            "V$RECOVERY_FILE_DEST",
            "SPACE_RECLAIMABLE",
        ),
        (
            sql::DbKind::Standby,
            "V$RECOVERY_FILE_DEST",
            "NUMBER_OF_FILES",
        ),
        (sql::DbKind::Primary, "V$DATAGUARD_STATUS", "MESSAGE_NUM"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "MESSAGE_NUM"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "SEVERITY"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "FACILITY"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "ERROR_CODE"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "DEST_ID"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "TIMESTAMP"),
        (sql::DbKind::Standby, "V$DATAGUARD_STATUS", "MESSAGE"),
        // Role-transition readiness, retry state and NOLOGGING damage; the broker's lag
        // limit only from 21c (V$DG_BROKER_PROPERTY), so absent from every earlier variant.
        (sql::DbKind::Primary, "V$DATABASE", "SWITCHOVER_STATUS"),
        (sql::DbKind::Primary, "V$DATABASE", "DATAGUARD_BROKER"),
        (sql::DbKind::Primary, "V$DATABASE", "FS_FAILOVER_STATUS"),
        (
            sql::DbKind::Primary,
            "V$DATABASE",
            "FS_FAILOVER_CURRENT_TARGET",
        ),
        (sql::DbKind::Primary, "V$DATABASE", "FS_FAILOVER_THRESHOLD"),
        (
            sql::DbKind::Primary,
            "V$DATABASE",
            "FS_FAILOVER_OBSERVER_PRESENT",
        ),
        (
            sql::DbKind::Primary,
            "V$DATABASE",
            "FS_FAILOVER_OBSERVER_HOST",
        ),
        (sql::DbKind::Primary, "V$DATABASE", "FORCE_LOGGING"),
        (sql::DbKind::Primary, "V$DATABASE", "FLASHBACK_ON"),
        (sql::DbKind::Standby, "V$DATABASE", "SWITCHOVER_STATUS"),
        (sql::DbKind::Standby, "V$DATABASE", "FS_FAILOVER_STATUS"),
        (sql::DbKind::Standby, "V$DATABASE", "FLASHBACK_ON"),
        (sql::DbKind::Primary, "V$ARCHIVE_DEST", "REOPEN_SECS"),
        (sql::DbKind::Primary, "V$ARCHIVE_DEST", "MAX_FAILURE"),
        (sql::DbKind::Primary, "V$ARCHIVE_DEST", "FAILURE_COUNT"),
        (sql::DbKind::Primary, "V$ARCHIVE_DEST", "FAIL_DATE"),
        (sql::DbKind::Primary, "V$DATAFILE", "UNRECOVERABLE_CHANGE#"),
        (sql::DbKind::Primary, "V$DATAFILE", "UNRECOVERABLE_TIME"),
        (sql::DbKind::Primary, "V$DG_BROKER_PROPERTY", "VALUE"),
    ];
    let mut problems = Vec::new();
    let mut read = 0;
    for v in sql::variants() {
        let at = version(v.version);
        for &(kind, view, col) in wanted {
            let since = doc
                .get(view)
                .and_then(|c| c.get(col))
                .unwrap_or_else(|| panic!("{view}.{col} is not in the contract"));
            // The process view is release-dependent itself: only the one the variant uses.
            let view_used = match view {
                "V$DATAGUARD_PROCESS" => v.features.dg_process,
                "V$MANAGED_STANDBY" => !v.features.dg_process,
                _ => true,
            };
            let has = referenced(&v, kind).contains(&(view.to_string(), col.to_string()));
            let should = view_used && at_most(since, &at);
            if has != should {
                problems.push(format!(
                    "{}/{kind:?}: {view}.{col} read={has}, documented from {since:?}",
                    v.label
                ));
            }
            read += usize::from(has);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(read > 100, "only {read} column reads found");
    // A standby has no NOLOGGING damage of its own to report and the lag limit is the
    // primary's: neither view is in a standby's statement.
    for v in sql::variants() {
        for (view, _) in referenced(&v, sql::DbKind::Standby) {
            assert!(
                view != "V$DATAFILE" && view != "V$DG_BROKER_PROPERTY",
                "{}: standby reads {view}",
                v.label
            );
        }
    }
}

/// The topology columns (issue 13) are read in every release and role that has them, and a
/// far sync instance reads none of the apply views.
#[test]
fn the_topology_columns_are_read_where_their_release_has_them() {
    use sql::DbKind::{FarSync, Primary, Standby};
    let doc = documented();
    let wanted: &[(sql::DbKind, &str, &str)] = &[
        (Primary, "V$DATAGUARD_CONFIG", "PARENT_DBUN"),
        (Standby, "V$DATAGUARD_CONFIG", "PARENT_DBUN"),
        (FarSync, "V$DATAGUARD_CONFIG", "PARENT_DBUN"),
        (Standby, "V$DATAGUARD_CONFIG", "DEST_ROLE"),
        (Primary, "V$IOSTAT_FILE", "CON_ID"),
        (Standby, "V$IOSTAT_FILE", "CON_ID"),
        (FarSync, "V$ARCHIVE_DEST", "DB_UNIQUE_NAME"),
        (FarSync, "V$STANDBY_LOG", "USED"),
        (FarSync, "V$DATAGUARD_STATS", "DATUM_TIME"),
        (FarSync, "V$ARCHIVE_GAP", "LOW_SEQUENCE#"),
    ];
    let mut problems = Vec::new();
    let mut far_sync_variants = 0;
    for v in sql::variants() {
        let at = version(v.version);
        let kinds = sql::kinds(&v);
        if kinds.contains(&FarSync) {
            far_sync_variants += 1;
            let read = referenced(&v, FarSync);
            for apply_view in [
                "V$RECOVERY_PROGRESS",
                "V$STANDBY_EVENT_HISTOGRAM",
                "V$LOG_HISTORY",
            ] {
                if read.iter().any(|(view, _)| view == apply_view) {
                    problems.push(format!("{}/FarSync reads {apply_view}", v.label));
                }
            }
        }
        for &(kind, view, col) in wanted {
            if !kinds.contains(&kind) {
                continue;
            }
            let since = &doc[view][col];
            let has = referenced(&v, kind).contains(&(view.to_string(), col.to_string()));
            if has != at_most(since, &at) {
                problems.push(format!(
                    "{}/{kind:?}: {view}.{col} read={has}, documented from {since:?}",
                    v.label
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Far sync came with 12.1: every variant from there has the far sync parts.
    assert_eq!(far_sync_variants, sql::variants().len() - 1);
}

#[test]
fn the_checker_catches_wrong_columns_and_releases() {
    let doc = documented();
    let mut p = Vec::new();
    check(
        "t",
        "SELECT inst_id, event, bogus_col FROM gv$system_event",
        &version("19.0"),
        &doc,
        &mut p,
    );
    assert_eq!(p.len(), 1, "{p:?}");
    p.clear();
    check(
        "t",
        "SELECT event FROM gv$event_histogram_micro",
        &version("11.2.0.4"),
        &doc,
        &mut p,
    );
    assert!(p.iter().any(|m| m.contains("exists only from")), "{p:?}");
    p.clear();
    check(
        "t",
        "SELECT version_full FROM v$instance",
        &version("12.2.0.1"),
        &doc,
        &mut p,
    );
    assert_eq!(p.len(), 1, "{p:?}");
    p.clear();
    check("t", "SELECT d.dest_id, s.compression FROM gv$archive_dest d JOIN gv$archive_dest_status s ON s.inst_id = d.inst_id", &version("19.0"), &doc, &mut p);
    assert_eq!(p.len(), 1, "{p:?}");
}

const FORBIDDEN: &[&str] = &[
    "INSERT",
    "UPDATE",
    "DELETE",
    "MERGE",
    "DROP",
    "ALTER",
    "CREATE",
    "GRANT",
    "REVOKE",
    "EXECUTE",
    "EXEC",
    "BEGIN",
    "DECLARE",
    "CALL",
    "COMMIT",
    "ROLLBACK",
    "LOCK",
    "TRUNCATE",
    "SAVEPOINT",
    "RENAME",
    "COMMENT",
    "AUDIT",
    "FOR",
];

#[test]
fn every_statement_is_a_select() {
    let all = sql::all_statements();
    assert!(all.len() > 50);
    for (label, s) in all {
        let t = s.trim_start().to_ascii_uppercase();
        assert!(
            t.starts_with("SELECT ") || t.starts_with("WITH "),
            "{label}: {s}"
        );
        assert!(!s.contains(';'), "{label}: contains ';'");
        for tok in tokens(&s) {
            if let Tok::Ident(w, false) = tok {
                assert!(!FORBIDDEN.contains(&w.as_str()), "{label}: {w} in {s}");
                // A mounted standby answers fixed views only: DUAL is not one.
                assert!(w != "DUAL", "{label}: DUAL in {s}");
            }
        }
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every crate under `crates/`.
fn crate_dirs(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    out.sort();
    assert!(out.len() >= 3, "found only {out:?} under crates/");
    out
}

fn looks_like_sql(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.contains("from v$")
        || l.contains("from gv$")
        || l.contains("join v$")
        || l.contains("join gv$")
        || l.contains("grant select")
        || (line.contains("SELECT ") && line.contains(" FROM "))
}

#[test]
fn no_sql_text_outside_the_oracle_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let home = root.join("crates/oracle/src");
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    // Nor has any other crate of the workspace.
    for c in crate_dirs(root) {
        rs_files(&c.join("src"), &mut files);
    }
    let mut inside = 0;
    let mut offenders = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let hits = text.lines().filter(|l| looks_like_sql(l)).count();
        if f.starts_with(&home) {
            inside += hits;
        } else if hits > 0 {
            offenders.push(f.display().to_string());
        }
    }
    assert!(
        offenders.is_empty(),
        "SQL text outside crates/oracle/src/: {offenders:?}"
    );
    // The scan must see the SQL where it does live, or it proves nothing.
    assert!(
        inside >= 10,
        "scan found only {inside} SQL lines in crates/oracle/src/"
    );
}

/// The SQL shown to DBAs in drill-downs, reports and `check` ("what to check") obeys the same
/// contract: every variant of every query — each release dgscope has SQL for, single instance
/// and RAC — reads only views and columns documented for that release, and is one SELECT.
#[test]
fn verification_sql_in_findings_is_documented_and_select_only() {
    use dgscope::causes::VerifyKey;
    use dgscope::source::oracle::verify::{resolve, variants, Releases};
    let doc = documented();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (label, at, r) in variants() {
        let releases = Releases {
            primary: r,
            standby: r,
        };
        for &k in VerifyKey::ALL {
            let v = resolve(k, &releases);
            let name = format!("{label}{}/{}", if r.rac { "/RAC" } else { "" }, v.name);
            let body = v.sql.trim().trim_end_matches(';');
            assert!(!body.contains(';'), "{name}: more than one statement");
            let t = body.trim_start().to_ascii_uppercase();
            assert!(t.starts_with("SELECT "), "{name}: {body}");
            for tok in tokens(body) {
                if let Tok::Ident(w, false) = tok {
                    assert!(!FORBIDDEN.contains(&w.as_str()), "{name}: {w}");
                }
            }
            check(&name, body, &version(at), &doc, &mut problems);
            checked += 1;
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(checked, VerifyKey::ALL.len() * variants().len());
}
