//! `check`'s text output ends its first line with Nagios performance data. Parsed back here
//! with the plugin guidelines' grammar (`'label'=value[UOM];[warn];[crit];[min];[max]`,
//! values in `[-0-9.]`, warn/crit in the range format), for every twin scenario, and checked
//! against the same run's JSON: every known figure is there with its value, every unknown
//! one (JSON null) is left out, never written as 0.

use crate::common::once::dgscope_once;
use serde_json::Value;

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

/// Every command here depends on its arguments alone: each runs once (`dgscope_once`).
fn dgscope(args: &[&str]) -> (String, i32) {
    let out = dgscope_once(args);
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

/// The primary's figures: perfdata label, JSON metric, unit.
const FIGURES: [(&str, &str, &str); 5] = [
    ("log_file_sync", "log_file_sync_ms", "ms"),
    (
        "log_file_parallel_write",
        "log_file_parallel_write_ms",
        "ms",
    ),
    ("sync_remote_write", "sync_remote_write_ms", "ms"),
    ("tps", "tps", ""),
    ("redo_mb_per_s", "redo_rate_mb_s", ""),
];

/// Each standby's figures: perfdata label prefix (the member's name follows), its key in
/// the JSON's `overview.standbys[]`, unit. The apply lag is the one net of DELAY.
const MEMBER_FIGURES: [(&str, &str, &str); 4] = [
    ("transport_lag_", "transport_lag_s", "s"),
    ("apply_lag_", "apply_lag_net_s", "s"),
    ("apply_finish_", "apply_finish_s", "s"),
    ("rfs_random_io_", "rfs_random_io_ms", "ms"),
];

/// Every figure's (label, JSON value, unit) for a run: the primary's, then each standby's
/// under its name.
fn expected(v: &Value) -> Vec<(String, Option<f64>, &'static str)> {
    let mut out: Vec<_> = FIGURES
        .iter()
        .map(|(l, k, u)| (l.to_string(), v["metrics"][k].as_f64(), *u))
        .collect();
    for m in v["overview"]["standbys"].as_array().unwrap() {
        let name = m["name"].as_str().or(m["slot"].as_str()).unwrap();
        for (prefix, key, uom) in MEMBER_FIGURES {
            out.push((format!("{prefix}{name}"), m[key].as_f64(), uom));
        }
    }
    out
}

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
    let want = expected(&v);
    for t in &terms {
        assert!(
            want.iter().any(|(l, _, _)| *l == t.label),
            "unexpected label {}",
            t.label
        );
    }
    for (label, x, uom) in want {
        let term = terms.iter().find(|t| t.label == label);
        match (x, term) {
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

fn term<'a>(terms: &'a [Term], label: &str) -> Option<&'a Term> {
    terms.iter().find(|t| t.label == label)
}

#[test]
fn every_scenario_prints_perfdata_that_parses_and_matches_the_json() {
    let mut left_out = 0;
    for s in scenarios() {
        for d in ["20s", "3m"] {
            let (terms, v) = agree(&["check", "--twin", &s, "--duration", d]);
            left_out += expected(&v).len() - terms.len();
            // Thresholds are the defaults' (docs/CONFIG.md): lag-high's 30 s / 120 s for
            // transport, 300 s / 1200 s for apply net of DELAY.
            for t in &terms {
                let levels = if t.label.starts_with("transport_lag_") {
                    Some(("30", "120"))
                } else if t.label.starts_with("apply_lag_") {
                    Some(("300", "1200"))
                } else if t.label.starts_with("apply_finish_")
                    || t.label.starts_with("rfs_random_io_")
                {
                    Some(("", ""))
                } else {
                    None
                };
                if let Some((w, c)) = levels {
                    assert_eq!(
                        (
                            t.warn.as_deref().unwrap_or(""),
                            t.crit.as_deref().unwrap_or("")
                        ),
                        (w, c),
                        "{s} {d}: {t:?}"
                    );
                }
            }
            if let Some(t) = term(&terms, "log_file_parallel_write") {
                assert_eq!(t.warn.as_deref(), Some("1"));
                assert_eq!(t.crit.as_deref(), Some("10"));
            }
            if let Some(t) = term(&terms, "log_file_sync") {
                assert_eq!((t.warn.as_deref(), t.crit.as_deref()), (None, None));
            }
            // The old unlabelled lag keys are gone: every standby's figure names it.
            for old in ["transport_lag", "apply_lag", "rfs_random_io"] {
                assert!(term(&terms, old).is_none(), "{s}: {old}");
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
    let m = &v["overview"]["standbys"][0];
    assert_eq!(m["stale"], true, "{m}");
    for k in [
        "transport_lag_s",
        "apply_lag_s",
        "apply_lag_net_s",
        "apply_finish_s",
        "rfs_random_io_ms",
        "delay_s",
    ] {
        assert!(m[k].is_null(), "{k}: {m}");
    }
    assert_eq!(m["transport"]["state"], "standby-down");
    assert_eq!(m["apply"]["state"], "unknown");
    assert!(m["as_of"].is_string(), "its last good word is dated: {m}");
    assert!(!terms.iter().any(|t| t.label.contains("lag")), "{terms:?}");
    assert!(
        !terms.iter().any(|t| t.label.contains("prod_b")),
        "{terms:?}"
    );
    assert!(term(&terms, "log_file_sync").is_some());
    // The text says so, with the as-of time, and prints no lag for it.
    let (text, _) = dgscope(&["check", "--twin", "standby-down", "--duration", "3m"]);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("prod_b ") && l.contains("PHYSICAL STANDBY"))
        .unwrap_or_else(|| panic!("no row for prod_b:\n{text}"));
    assert!(row.contains("standby down"), "{row}");
    assert!(!row.contains(" s "), "a lag as now: {row}");
    let as_of = m["as_of"].as_str().unwrap();
    assert!(
        text.lines()
            .any(|l| l.contains("prod_b: stale") && l.contains(as_of)),
        "{text}"
    );
}

/// Two standbys: each has its own labelled figures, with its own values (the far one's slow
/// SRL disk is not the near one's).
#[test]
fn two_standbys_each_have_their_own_figures() {
    let (terms, v) = agree(&["check", "--twin", "two-standbys", "--duration", "2m"]);
    let names: Vec<&str> = v["overview"]["standbys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["prod_b", "prod_c"]);
    for n in &names {
        for p in ["transport_lag_", "apply_lag_", "rfs_random_io_"] {
            assert!(term(&terms, &format!("{p}{n}")).is_some(), "{p}{n}");
        }
    }
    let near = term(&terms, "rfs_random_io_prod_b").unwrap().value;
    let far = term(&terms, "rfs_random_io_prod_c").unwrap().value;
    assert!(far > 2.0 * near, "near {near} ms, far {far} ms");
    let modes: Vec<&str> = v["overview"]["standbys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["transport_mode"].as_str().unwrap())
        .collect();
    assert_eq!(modes, ["SYNC", "ASYNC"]);
}

/// A far sync: its RFS figure is on its own row and label, the terminal standby's on the
/// terminal's (review #10), and the far sync has no apply lag (it applies nothing).
#[test]
fn far_sync_figures_stay_with_their_member() {
    let (terms, v) = agree(&["check", "--twin", "far-sync", "--duration", "2m"]);
    let fs = term(&terms, "rfs_random_io_prod_fs")
        .expect("the far sync's RFS")
        .value;
    let terminal = term(&terms, "rfs_random_io_prod_c")
        .expect("the terminal's RFS")
        .value;
    assert!(
        fs > 2.0 * terminal,
        "far sync {fs} ms, terminal {terminal} ms"
    );
    assert!(term(&terms, "apply_lag_prod_fs").is_none());
    assert!(term(&terms, "apply_lag_prod_c").is_some());
    let finding = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "standby-redo-write-slow")
        .expect("the far sync's slow SRL is found");
    let rfs_ev = finding["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["metric"].as_str().unwrap().starts_with("RFS random i/o"))
        .unwrap()["value"]
        .as_f64()
        .unwrap();
    assert!(
        (rfs_ev - fs).abs() < 0.01,
        "finding {rfs_ev} vs perfdata {fs}"
    );
    // The text: the primary's line holds no standby figure; each row holds its own.
    let (text, _) = dgscope(&["check", "--twin", "far-sync", "--duration", "2m"]);
    let primary = text.lines().find(|l| l.starts_with("primary: ")).unwrap();
    assert!(
        !primary.contains("RFS") && !primary.contains("lag"),
        "{primary}"
    );
    let row = |n: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_else(|| panic!("no row for {n}:\n{text}"))
            .to_string()
    };
    assert!(
        row("prod_fs").contains(&format!("{:.2} ms", fs)),
        "{}",
        row("prod_fs")
    );
    assert!(row("prod_fs").contains("FAR SYNC"));
    assert!(
        row("prod_c").contains(&format!("{:.2} ms", terminal)),
        "{}",
        row("prod_c")
    );
}

/// DELAY=30: the apply lag in the performance data is net of it, under its WARN level, so
/// the figures agree with an OK verdict; the gross 1800 s is in the JSON and the text says
/// the figure is net.
#[test]
fn a_delayed_standby_reports_its_apply_lag_net_of_the_delay() {
    let (terms, v) = agree(&["check", "--twin", "delayed-apply", "--duration", "3m"]);
    assert_eq!(v["status"], "OK");
    let m = &v["overview"]["standbys"][0];
    assert_eq!(m["delay_s"], 1800.0);
    assert!(m["apply_lag_s"].as_f64().unwrap() >= 1790.0, "{m}");
    let a = term(&terms, "apply_lag_prod_b").unwrap();
    let warn: f64 = a.warn.as_deref().unwrap().parse().unwrap();
    assert!(a.value < warn, "{a:?}: over WARN while the verdict is OK");
    assert!(a.value < 60.0, "{a:?}");
    let (text, code) = dgscope(&["check", "--twin", "delayed-apply", "--duration", "3m"]);
    assert_eq!(code, 0);
    assert!(
        text.lines()
            .any(|l| l.contains("prod_b: apply delayed on purpose by 30m00s")
                && l.contains("net of it")),
        "{text}"
    );
}

/// Across every scenario, no perfdata lag is at or over its CRIT level while the verdict
/// is OK: the figures and the exit code do not contradict each other.
#[test]
fn no_lag_over_crit_with_an_ok_verdict() {
    for s in scenarios() {
        let (text, code) = dgscope(&["check", "--twin", &s, "--duration", "3m"]);
        let (_, terms) = split_output(&text);
        for t in terms.iter().filter(|t| t.label.contains("_lag_")) {
            let crit: f64 = t.crit.as_deref().unwrap().parse().unwrap();
            assert!(
                !(code == 0 && t.value >= crit),
                "{s}: {t:?} over CRIT with exit 0"
            );
        }
    }
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
        "[thresholds]\nlag_high_transport_s = 42.5\nlag_high_apply_s = 600\nlag_high_crit_factor = 3\nlfpw_warn_ms = 2\n",
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
    let t = term(&terms, "transport_lag_prod_b").unwrap();
    assert_eq!(
        (t.warn.as_deref(), t.crit.as_deref()),
        (Some("42.5"), Some("127.5"))
    );
    let a = term(&terms, "apply_lag_prod_b").unwrap();
    assert_eq!(
        (a.warn.as_deref(), a.crit.as_deref()),
        (Some("600"), Some("1800"))
    );
    let w = term(&terms, "log_file_parallel_write").unwrap();
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
