//! `check`'s text output ends its first line with Nagios performance data. Parsed back here
//! with the plugin guidelines' grammar (`'label'=value[UOM];[warn];[crit];[min];[max]`,
//! values in `[-0-9.]`, warn/crit in the range format), for every twin scenario, and checked
//! against the same run's JSON: every known figure is there with its value, every unknown
//! one (JSON null) is left out, never written as 0.

use serde_json::Value;
use std::process::Command;

const UOMS: [&str; 11] = ["", "s", "ms", "us", "%", "B", "KB", "MB", "GB", "TB", "c"];

#[derive(Debug, Clone, PartialEq)]
struct Term {
    label: String,
    value: f64,
    uom: String,
    warn: Option<String>,
    crit: Option<String>,
    min: Option<f64>,
    max: Option<f64>,
}

fn dgscope(args: &[&str]) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(args)
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// A number in the guidelines' class `[-0-9.]`.
fn number(s: &str) -> Result<f64, String> {
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == '.')
    {
        return Err(format!("{s:?} is not in [-0-9.]"));
    }
    s.parse().map_err(|e| format!("{s:?}: {e}"))
}

/// The range format: `[@][start:]end`, start may be `~`, end may be empty after `:`.
fn range(s: &str) -> Result<(), String> {
    let s = s.strip_prefix('@').unwrap_or(s);
    match s.split_once(':') {
        Some((start, end)) => {
            if start != "~" {
                number(start)?;
            }
            if !end.is_empty() {
                number(end)?;
            }
            Ok(())
        }
        None => number(s).map(|_| ()),
    }
}

/// Splits the performance data into terms: space-separated, labels optionally in single
/// quotes (`''` for a quote inside).
fn parse_perfdata(perf: &str) -> Result<Vec<Term>, String> {
    let mut terms = Vec::new();
    let mut rest = perf.trim();
    while !rest.is_empty() {
        let (label, after) = if let Some(q) = rest.strip_prefix('\'') {
            let mut label = String::new();
            let mut chars = q.char_indices();
            let end = loop {
                match chars.next() {
                    Some((i, '\'')) if q[i + 1..].starts_with('\'') => {
                        label.push('\'');
                        chars.next();
                    }
                    Some((i, '\'')) => break i + 1,
                    Some((_, c)) => label.push(c),
                    None => return Err(format!("unterminated quoted label in {rest:?}")),
                }
            };
            (label, &q[end..])
        } else {
            let end = rest.find('=').ok_or(format!("no '=' in {rest:?}"))?;
            let label = &rest[..end];
            if label.contains(' ') || label.contains('\'') {
                return Err(format!("label {label:?} needs quotes"));
            }
            (label.to_string(), &rest[end..])
        };
        if label.is_empty() {
            return Err("empty label".into());
        }
        let after = after
            .strip_prefix('=')
            .ok_or(format!("no '=' after {label:?}"))?;
        let (body, next) = after.split_once(' ').unwrap_or((after, ""));
        let fields: Vec<&str> = body.split(';').collect();
        if fields.len() > 5 {
            return Err(format!("{label}: more than 5 fields"));
        }
        let v = fields[0];
        let split = v
            .find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '.'))
            .unwrap_or(v.len());
        let (value, uom) = v.split_at(split);
        if !UOMS.contains(&uom) {
            return Err(format!("{label}: unit {uom:?} is not a guidelines UOM"));
        }
        let field = |i: usize| {
            fields
                .get(i)
                .filter(|f| !f.is_empty())
                .map(|f| f.to_string())
        };
        let (warn, crit) = (field(1), field(2));
        for r in [&warn, &crit].into_iter().flatten() {
            range(r).map_err(|e| format!("{label}: threshold {e}"))?;
        }
        let min = field(3).map(|m| number(&m)).transpose()?;
        let max = field(4).map(|m| number(&m)).transpose()?;
        terms.push(Term {
            label,
            value: number(value)?,
            uom: uom.to_string(),
            warn,
            crit,
            min,
            max,
        });
        rest = next.trim_start();
    }
    Ok(terms)
}

/// The first line's status text and performance data; no `|` anywhere else (Nagios would
/// read what follows a `|` in the long output as more performance data).
fn split_output(text: &str) -> (String, Vec<Term>) {
    let mut lines = text.lines();
    let first = lines.next().expect("a first line");
    for l in lines {
        assert!(!l.contains('|'), "a '|' outside the first line: {l}");
    }
    let (status, perf) = first
        .split_once(" | ")
        .unwrap_or_else(|| panic!("no performance data: {first}"));
    assert!(!perf.contains('|'), "{first}");
    let terms = parse_perfdata(perf).unwrap_or_else(|e| panic!("{e}: {perf}"));
    (status.to_string(), terms)
}

/// Perfdata label, JSON metric, unit.
const FIGURES: [(&str, &str, &str); 8] = [
    ("transport_lag", "transport_lag_s", "s"),
    ("apply_lag", "apply_lag_s", "s"),
    ("log_file_sync", "log_file_sync_ms", "ms"),
    (
        "log_file_parallel_write",
        "log_file_parallel_write_ms",
        "ms",
    ),
    ("sync_remote_write", "sync_remote_write_ms", "ms"),
    ("rfs_random_io", "rfs_random_io_ms", "ms"),
    ("tps", "tps", ""),
    ("redo_mb_per_s", "redo_rate_mb_s", ""),
];

/// The text and the JSON of the same run agree, figure by figure.
fn agree(args: &[&str]) -> (Vec<Term>, Value) {
    let (text, code) = dgscope(args);
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let (json, json_code) = dgscope(&json_args);
    assert_eq!(code, json_code, "{args:?}");
    let v: Value = serde_json::from_str(&json).unwrap();
    let (status, terms) = split_output(&text);
    assert!(
        status.starts_with(&format!("dgscope check: {}", v["status"].as_str().unwrap())),
        "{status}"
    );
    let labels: Vec<&str> = terms.iter().map(|t| t.label.as_str()).collect();
    let mut sorted = labels.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), labels.len(), "a label twice: {labels:?}");
    for t in &terms {
        assert!(
            FIGURES.iter().any(|(l, _, _)| *l == t.label),
            "unexpected label {}",
            t.label
        );
    }
    for (label, key, uom) in FIGURES {
        let term = terms.iter().find(|t| t.label == label);
        match (v["metrics"][key].as_f64(), term) {
            (None, None) => {}
            (Some(x), Some(t)) => {
                assert!(
                    (t.value - x).abs() <= 0.0006,
                    "{args:?} {label}: perfdata {} vs JSON {x}",
                    t.value
                );
                assert_eq!(t.uom, uom, "{label}");
                assert_eq!(t.min, Some(0.0), "{label}");
                assert_eq!(t.max, None, "{label}");
            }
            (None, Some(t)) => panic!("{args:?}: {label} is unknown in JSON but {t:?} here"),
            (Some(x), None) => panic!("{args:?}: {label} = {x} in JSON but missing here"),
        }
    }
    (terms, v)
}

fn scenarios() -> Vec<String> {
    let (list, code) = dgscope(&["twin", "list"]);
    assert_eq!(code, 0);
    let names: Vec<String> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect();
    assert!(names.len() > 10, "{names:?}");
    names
}

#[test]
fn every_scenario_prints_perfdata_that_parses_and_matches_the_json() {
    let mut left_out = 0;
    for s in scenarios() {
        for d in ["20s", "3m"] {
            let (terms, _) = agree(&["check", "--twin", &s, "--duration", d]);
            left_out += FIGURES.len() - terms.len();
            // Thresholds are the defaults' (docs/CONFIG.md): transport 10 s / 300 s.
            if let Some(t) = terms.iter().find(|t| t.label == "transport_lag") {
                assert_eq!(t.warn.as_deref(), Some("10"));
                assert_eq!(t.crit.as_deref(), Some("300"));
            }
            if let Some(t) = terms.iter().find(|t| t.label == "log_file_parallel_write") {
                assert_eq!(t.warn.as_deref(), Some("1"));
                assert_eq!(t.crit.as_deref(), Some("10"));
            }
            if let Some(t) = terms.iter().find(|t| t.label == "log_file_sync") {
                assert_eq!((t.warn.as_deref(), t.crit.as_deref()), (None, None));
            }
        }
    }
    // Some runs have unknown figures (a standby that stopped answering, no SYNC
    // destination): they were left out, and the loop above proved each one null in JSON.
    assert!(left_out > 0);
}

#[test]
fn a_stopped_standby_leaves_its_lag_out_rather_than_zero() {
    let (terms, v) = agree(&["check", "--twin", "standby-down", "--duration", "3m"]);
    assert!(v["metrics"]["transport_lag_s"].is_null());
    assert!(!terms.iter().any(|t| t.label == "transport_lag"));
    assert!(!terms.iter().any(|t| t.label == "apply_lag"));
    assert!(terms.iter().any(|t| t.label == "log_file_sync"));
}

#[test]
fn a_recording_prints_perfdata_too() {
    let f = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/synthetic_slow_srl.jsonl"
    );
    let (terms, _) = agree(&["check", "--replay", f]);
    assert!(terms.iter().any(|t| t.label == "sync_remote_write"));
}

#[test]
fn thresholds_come_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        "[thresholds]\ntransport_lag_s = 42.5\nlag_crit_s = 600\nlfpw_warn_ms = 2\n",
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let (text, _) = dgscope(&[
        "--config",
        cfg,
        "check",
        "--twin",
        "healthy-sync",
        "--duration",
        "30s",
    ]);
    let (_, terms) = split_output(&text);
    let t = terms.iter().find(|t| t.label == "transport_lag").unwrap();
    assert_eq!(
        (t.warn.as_deref(), t.crit.as_deref()),
        (Some("42.5"), Some("600"))
    );
    let a = terms.iter().find(|t| t.label == "apply_lag").unwrap();
    assert_eq!((a.warn.as_deref(), a.crit.as_deref()), (None, Some("600")));
    let w = terms
        .iter()
        .find(|t| t.label == "log_file_parallel_write")
        .unwrap();
    assert_eq!(w.warn.as_deref(), Some("2"));
}

/// The parser here is the grammar, not a mirror of the printer: it takes what the
/// guidelines allow and refuses what they do not.
#[test]
fn the_grammar_parser_accepts_and_refuses_as_the_guidelines_say() {
    let ok = parse_perfdata("'a b''c'=1.5ms;@10:20;~:5;0;100 time=3s;;;0 users=4").unwrap();
    assert_eq!(ok[0].label, "a b'c");
    assert_eq!((ok[0].value, ok[0].uom.as_str()), (1.5, "ms"));
    assert_eq!(ok[0].warn.as_deref(), Some("@10:20"));
    assert_eq!(ok[0].max, Some(100.0));
    assert_eq!(ok[1].crit, None);
    assert_eq!(ok[2].uom, "");
    for bad in [
        "x=1e3s", "x=NaN", "x=1 MB", "x=1m/s", "a b=1", "x=1;a", "x=1;;;;;", "'x=1", "=1", "x=",
    ] {
        assert!(parse_perfdata(bad).is_err(), "{bad:?} accepted");
    }
}
