//! `report impact` and `report histogram` say so when samples came out of time order or
//! twice (issue 17 items 9/10: "shuffled or duplicated samples are dropped silently"), with
//! the same check and the same line as `check --replay`.

use crate::handmade;
use crate::hardening;

use hardening::run;
use serde_json::Value;

/// The handmade recording with one primary sample repeated and an early one moved to the end.
fn shuffled() -> tempfile::NamedTempFile {
    let rec = handmade::recording(60, 0.8, 0.45, None);
    let text = std::fs::read_to_string(rec.path()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    let dup = lines[10];
    lines.insert(11, dup);
    let early = lines.remove(3);
    lines.push(early);
    let f = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(f.path(), lines.join("\n") + "\n").unwrap();
    f
}

const LINE: &str =
    "warning: 1 sample(s) earlier than the one before and 1 repeated sample(s) were skipped";

fn warnings(out: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(out).unwrap();
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn report_impact_warns_on_stderr_and_in_json() {
    let f = shuffled();
    let path = f.path().to_str().unwrap();
    let args = [
        "report",
        "impact",
        path,
        "--baseline",
        "0s..20s",
        "--compare",
        "30s..50s",
    ];
    let r = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains(LINE), "{}", r.err);
    assert!(r.err.contains("the report uses the rest"), "{}", r.err);
    let w = warnings(&r.out);
    assert_eq!(w.len(), 1, "{}", r.out);
    assert!(
        w[0].starts_with(LINE.trim_start_matches("warning: ")),
        "{w:?}"
    );
    // The text form warns on stderr too and keeps stdout for the table.
    let t = run(&args);
    assert!(
        t.err.contains(LINE) && !t.out.contains("warning"),
        "{}",
        t.err
    );
}

#[test]
fn report_histogram_warns_on_stderr_and_in_json() {
    let f = shuffled();
    let path = f.path().to_str().unwrap();
    let r = run(&[
        "report",
        "histogram",
        path,
        "--event",
        "log file sync",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains(LINE), "{}", r.err);
    assert_eq!(warnings(&r.out).len(), 1, "{}", r.out);
}

#[test]
fn an_ordered_recording_has_no_warning() {
    let rec = handmade::recording(60, 0.8, 0.45, None);
    let path = rec.path().to_str().unwrap();
    let r = run(&[
        "report",
        "histogram",
        path,
        "--event",
        "log file sync",
        "--format",
        "json",
    ]);
    assert_eq!((r.code, r.err.as_str()), (0, ""), "{}", r.err);
    assert!(warnings(&r.out).is_empty());
}
