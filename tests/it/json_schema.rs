//! Every JSON output carries its `schema` and validates against its file under
//! docs/schema/: `check` for every twin scenario and a recording, `report impact` and
//! `report histogram` on the committed fixtures, `report awr` on reports the tests write.
//! The validator is small and covers exactly the JSON Schema (2020-12) keywords those files
//! use; a schema using any other keyword fails here rather than being half-checked.

use crate::common::once::dgscope_once;
use serde_json::{Map, Value};
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema(name: &str) -> Value {
    let p = root().join("docs/schema").join(name);
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn dgscope_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(args)
        .env_remove("DGSCOPE_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent")
        .output()
        .unwrap();
    json_of(args, &out)
}

/// The JSON document `dgscope ARGS` printed.
fn json_of(args: &[&str], out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// Keywords that only annotate.
const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "title", "description", "$defs"];
const KEYWORDS: [&str; 14] = [
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "$ref",
    "minimum",
    "maximum",
    "minLength",
    "format",
    "minItems",
    "maxItems",
];

struct Validator<'a> {
    root: &'a Value,
}

impl Validator<'_> {
    fn validate(&self, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let s = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                errors.push(format!("{at}: not allowed"));
                return;
            }
            Value::Object(s) => s,
            _ => panic!("{at}: a schema is an object or a boolean"),
        };
        for k in s.keys() {
            assert!(
                KEYWORDS.contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str()),
                "schema keyword {k:?} at {at} is not supported by this validator"
            );
        }
        if let Some(r) = s.get("$ref") {
            let r = r.as_str().unwrap();
            let name = r
                .strip_prefix("#/$defs/")
                .unwrap_or_else(|| panic!("only #/$defs/ references: {r}"));
            let target = &self.root["$defs"][name];
            assert!(!target.is_null(), "{r} is not defined");
            self.validate(target, v, at, errors);
        }
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                Value::String(x) => vec![x.as_str()],
                Value::Array(xs) => xs.iter().map(|x| x.as_str().unwrap()).collect(),
                _ => panic!("{at}: type"),
            };
            if !types.iter().any(|t| is_type(v, t)) {
                errors.push(format!("{at}: {v} is not of type {types:?}"));
                return;
            }
        }
        if let Some(e) = s.get("enum") {
            if !e.as_array().unwrap().contains(v) {
                errors.push(format!("{at}: {v} not in {e}"));
            }
        }
        if let Some(c) = s.get("const") {
            if c != v {
                errors.push(format!("{at}: {v} is not {c}"));
            }
        }
        if let Some(x) = v.as_f64() {
            if let Some(m) = s.get("minimum").and_then(Value::as_f64) {
                if x < m {
                    errors.push(format!("{at}: {x} < minimum {m}"));
                }
            }
            if let Some(m) = s.get("maximum").and_then(Value::as_f64) {
                if x > m {
                    errors.push(format!("{at}: {x} > maximum {m}"));
                }
            }
        }
        if let Some(x) = v.as_str() {
            if let Some(n) = s.get("minLength").and_then(Value::as_u64) {
                if (x.chars().count() as u64) < n {
                    errors.push(format!("{at}: shorter than {n}"));
                }
            }
            if let Some(f) = s.get("format").and_then(Value::as_str) {
                assert_eq!(f, "date-time", "{at}: only the date-time format is checked");
                if !is_date_time(x) {
                    errors.push(format!("{at}: {x:?} is not an RFC 3339 date-time"));
                }
            }
        }
        if let Some(items) = v.as_array() {
            if let Some(n) = s.get("minItems").and_then(Value::as_u64) {
                if (items.len() as u64) < n {
                    errors.push(format!("{at}: fewer than {n} items"));
                }
            }
            if let Some(n) = s.get("maxItems").and_then(Value::as_u64) {
                if (items.len() as u64) > n {
                    errors.push(format!("{at}: more than {n} items"));
                }
            }
            if let Some(item) = s.get("items") {
                for (i, x) in items.iter().enumerate() {
                    self.validate(item, x, &format!("{at}[{i}]"), errors);
                }
            }
        }
        if let Some(obj) = v.as_object() {
            self.object(s, obj, at, errors);
        }
    }

    fn object(
        &self,
        s: &Map<String, Value>,
        obj: &Map<String, Value>,
        at: &str,
        errors: &mut Vec<String>,
    ) {
        if let Some(req) = s.get("required") {
            for k in req.as_array().unwrap() {
                let k = k.as_str().unwrap();
                if !obj.contains_key(k) {
                    errors.push(format!("{at}: missing {k:?}"));
                }
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (k, x) in obj {
            let path = format!("{at}.{k}");
            match props.and_then(|p| p.get(k)) {
                Some(p) => self.validate(p, x, &path, errors),
                None => {
                    if let Some(extra) = s.get("additionalProperties") {
                        self.validate(extra, x, &path, errors);
                    }
                }
            }
        }
    }
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|x| x.fract() == 0.0),
        other => panic!("unknown type {other}"),
    }
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, fields in range.
fn is_date_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|x| x.iter().all(u8::is_ascii_digit))
            .then(|| s[r].parse::<u32>().unwrap())
    };
    let (Some(_y), Some(mo), Some(d), Some(h), Some(mi), Some(sec)) = (
        digits(0..4),
        digits(5..7),
        digits(8..10),
        digits(11..13),
        digits(14..16),
        digits(17..19),
    ) else {
        return false;
    };
    if b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return false;
    }
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(f) = rest.strip_prefix('.') {
        let n = f.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &f[n..];
    }
    match rest {
        "Z" | "z" => true,
        off => {
            let o = off.as_bytes();
            o.len() == 6
                && matches!(o[0], b'+' | b'-')
                && o[3] == b':'
                && off[1..3].parse::<u32>().is_ok_and(|x| x < 24)
                && off[4..6].parse::<u32>().is_ok_and(|x| x < 60)
        }
    }
}

fn errors(schema: &Value, v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    Validator { root: schema }.validate(schema, v, "$", &mut e);
    e
}

fn assert_valid(schema: &Value, v: &Value, what: &str) {
    let e = errors(schema, v);
    assert!(
        e.is_empty(),
        "{what} does not match its schema:\n{}",
        e.join("\n")
    );
}

fn scenarios() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(["twin", "list"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

#[test]
fn check_json_matches_its_schema_for_every_scenario() {
    let s = schema("check.json");
    assert_eq!(s["$id"], "dgscope.check/3");
    let mut findings = 0;
    for sc in scenarios() {
        for d in ["20s", "3m"] {
            // The same run as the perfdata tests' (tests/it/check_perfdata.rs), run once.
            let args = ["check", "--twin", &sc, "--duration", d, "--format", "json"];
            let v = json_of(&args, &dgscope_once(&args));
            assert_eq!(v["schema"], "dgscope.check/3");
            assert_valid(&s, &v, &format!("check --twin {sc} --duration {d}"));
            findings += v["findings"].as_array().unwrap().len();
        }
    }
    assert!(findings > 20, "the scenarios raise findings to validate");
    let f = root().join("tests/fixtures/synthetic_slow_srl.jsonl");
    let v = dgscope_json(&["check", "--replay", f.to_str().unwrap(), "--format", "json"]);
    assert_valid(&s, &v, "check --replay");
}

/// A check that could not judge still prints one document, valid against the schema, with
/// its `error`; `-w`/`-c` add `ranges`.
#[test]
fn check_json_is_one_valid_document_when_unknown_and_with_ranges() {
    let s = schema("check.json");
    for args in [
        &["check", "--bogus", "--format", "json"][..],
        &[
            "check",
            "--replay",
            "/nonexistent/x.jsonl",
            "--format",
            "json",
        ],
        &[
            "check",
            "--twin",
            "slow-srl",
            "--duration",
            "5s",
            "--format",
            "json",
        ],
    ] {
        let v = dgscope_json(args);
        assert_eq!(v["status"], "UNKNOWN", "{args:?}");
        assert!(!v["error"].as_str().unwrap().is_empty(), "{args:?}");
        assert_valid(&s, &v, &format!("{args:?}"));
    }
    let v = dgscope_json(&[
        "check",
        "--twin",
        "bandwidth-async",
        "--duration",
        "5m",
        "-w",
        "transport_lag=10",
        "-c",
        "apply_lag=~:20",
        "--format",
        "json",
    ]);
    assert_valid(&s, &v, "ranges");
    let ranges = v["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 2, "{ranges:?}");
    assert_eq!(ranges[1]["status"], "CRIT");
    assert_eq!(v["status"], "CRIT");
}

#[test]
fn report_impact_json_matches_its_schema() {
    let s = schema("report-impact.json");
    let f = root().join("tests/fixtures/seed000_impact.jsonl");
    let v = dgscope_json(&[
        "report",
        "impact",
        f.to_str().unwrap(),
        "--baseline",
        "0s..980s",
        "--compare",
        "1000s..1980s",
        "--format",
        "json",
    ]);
    assert_eq!(v["schema"], "dgscope.report.impact/2");
    assert_eq!(v["rows"].as_array().unwrap().len(), 8);
    assert_valid(&s, &v, "report impact");
}

#[test]
fn report_histogram_json_matches_its_schema() {
    let s = schema("report-histogram.json");
    for (fixture, event) in [
        ("seed000_histogram.jsonl", "log file sync"),
        ("synthetic_slow_srl.jsonl", "log file parallel write"),
        ("synthetic_slow_srl.jsonl", "SYNC Remote Write"),
        ("synthetic_slow_srl.jsonl", "log file sync"),
    ] {
        let f = root().join("tests/fixtures").join(fixture);
        let v = dgscope_json(&[
            "report",
            "histogram",
            f.to_str().unwrap(),
            "--event",
            event,
            "--format",
            "json",
        ]);
        assert_eq!(v["schema"], "dgscope.report.histogram/1");
        assert_valid(&s, &v, &format!("report histogram {fixture} {event}"));
    }
}

#[test]
fn report_awr_json_matches_its_schema() {
    let s = schema("report-awr.json");
    let dir = tempfile::tempdir().unwrap();
    let mut thin = crate::common::awr_writer::AwrFixture::v19();
    thin.omit = vec!["Background Wait Events", "Operating System Statistics"];
    for (name, f) in [
        ("v19", crate::common::awr_writer::AwrFixture::v19()),
        ("v112", crate::common::awr_writer::AwrFixture::v112()),
        ("thin", thin),
    ] {
        let path = dir.path().join(format!("{name}.html"));
        std::fs::write(&path, f.render()).unwrap();
        let v = dgscope_json(&["report", "awr", path.to_str().unwrap(), "--format", "json"]);
        assert_eq!(v["schema"], "dgscope.report.awr/2");
        assert_valid(&s, &v, &format!("report awr {name}"));
    }
}

/// The validator finds what is wrong, so a pass above means something.
#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let s = schema("check.json");
    let good = dgscope_json(&[
        "check",
        "--twin",
        "slow-srl",
        "--duration",
        "2m",
        "--format",
        "json",
    ]);
    assert_valid(&s, &good, "slow-srl");
    let broken = |f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        errors(&s, &v)
    };
    type Break = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Break)> = vec![
        (
            "missing",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("status");
            }),
        ),
        ("not in", Box::new(|v| v["status"] = "FINE".into())),
        (
            "dgscope.check/3",
            Box::new(|v| v["schema"] = "dgscope.check/1".into()),
        ),
        (
            "missing",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("overview");
            }),
        ),
        (
            "not in",
            Box::new(|v| v["overview"]["standbys"][0]["apply"]["state"] = "sleeping".into()),
        ),
        (
            "minimum",
            Box::new(|v| v["overview"]["standbys"][0]["apply_lag_net_s"] = (-5.0).into()),
        ),
        (
            "not allowed",
            Box::new(|v| v["overview"]["primary"]["extra"] = 1.into()),
        ),
        ("not allowed", Box::new(|v| v["extra"] = 1.into())),
        (
            "not of type",
            Box::new(|v| v["metrics"]["tps"] = "many".into()),
        ),
        (
            "minimum",
            Box::new(|v| v["metrics"]["apply_lag_s"] = (-1.0).into()),
        ),
        (
            "date-time",
            Box::new(|v| v["window"]["from"] = "yesterday".into()),
        ),
        (
            "not of type",
            Box::new(|v| v["findings"][0]["advice"][0] = 3.into()),
        ),
        (
            "missing",
            Box::new(|v| {
                v["findings"][0].as_object_mut().unwrap().remove("since");
            }),
        ),
    ];
    for (want, f) in cases {
        let e = broken(&*f);
        assert!(
            e.iter().any(|m| m.contains(want)),
            "expected an error with {want:?}, got {e:?}"
        );
    }
    assert!(is_date_time("2026-11-30T05:00:00.000Z"));
    assert!(is_date_time("2026-11-30T06:00:00+01:00"));
    assert!(!is_date_time("2026-13-30T05:00:00Z"));
    assert!(!is_date_time("2026-11-30 05:00:00Z"));
}
