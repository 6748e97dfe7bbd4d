//! `dgscope report` end to end on the hand-built seed 000 fixtures, and its bad-input paths.

use assert_cmd::Command;
use serde_json::Value;
use std::io::Write;

fn dgscope() -> Command {
    Command::cargo_bin("dgscope").unwrap()
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json(args: &[&str]) -> Value {
    let out = dgscope().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(v: &Value, want: f64, tol: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() <= tol)
}

#[test]
fn seed000_histogram_through_report_histogram() {
    let v = json(&[
        "report",
        "histogram",
        &fixture("seed000_histogram.jsonl"),
        "--event",
        "log file sync",
        "--format",
        "json",
    ]);
    assert_eq!(v["total"], 80_665);
    assert!(close(&v["below_ms_pct"]["8"], 91.4, 0.05), "{v}");
    assert!(close(&v["below_ms_pct"]["4"], 86.4, 0.05), "{v}");
    assert_eq!(v["p50_le_ms"], 2.0);
    assert_eq!(v["p90_le_ms"], 8.0);
    assert_eq!(v["p99_le_ms"], 32.0);
    assert!(close(&v["avg_ms"], 3.1, 0.001));
    let buckets = v["buckets"].as_array().unwrap();
    assert_eq!(buckets.len(), 8);
    assert_eq!(buckets[0]["le_us"], 1000);
    assert_eq!(buckets[0]["count"], 17610);
    assert!(close(&buckets[7]["cum_pct"], 100.0, 1e-9));
}

#[test]
fn seed000_histogram_text_says_it_plainly() {
    let out = dgscope()
        .args([
            "report",
            "histogram",
            &fixture("seed000_histogram.jsonl"),
            "--event",
            "log file sync",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("p50 ≤ 2 ms   p90 ≤ 8 ms   p99 ≤ 32 ms"),
        "{text}"
    );
    assert!(text.contains("91.4 % < 8 ms"), "{text}");
}

#[test]
fn seed000_impact_column() {
    let v = json(&[
        "report",
        "impact",
        &fixture("seed000_impact.jsonl"),
        "--baseline",
        "0s..980s",
        "--compare",
        "1000s..1980s",
        "--format",
        "json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    let row = |id: &str| rows.iter().find(|r| r["metric"] == id).unwrap().clone();
    // Seed 000 prints TPS −20.3 % (6224.03 / 7814.92 − 1 = −20.36 %): within rounding.
    assert!(close(&row("tps")["change_pct"], -20.3, 0.1));
    assert!(close(&row("log_file_sync_ms")["change_pct"], 576.0, 0.5));
    assert!(close(
        &row("log_file_parallel_write_ms")["change_pct"],
        8.8,
        0.05
    ));
    assert!(close(&row("redo_writes_per_s")["change_pct"], -61.2, 0.05));
    assert!(close(&row("redo_write_kb")["change_pct"], 93.8, 0.05));
    // No SYNC and no standby samples in the baseline: null, not zero.
    for id in ["sync_remote_write_ms", "rfs_random_io_ms"] {
        assert!(row(id)["baseline"].is_null(), "{id}");
        assert!(row(id)["change_pct"].is_null(), "{id}");
    }
    assert!(close(&row("sync_remote_write_ms")["compare"], 3.45, 1e-6));
    assert!(close(&row("rfs_random_io_ms")["compare"], 2.89, 1e-6));
    assert_eq!(v["baseline"]["from"], "2026-11-30T05:00:00.000Z");
    assert_eq!(v["compare"]["to"], "2026-11-30T05:33:00.000Z");
    let ids: Vec<&str> = rows.iter().map(|r| r["metric"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "redo_rate_mb_s",
            "log_file_sync_ms",
            "log_file_parallel_write_ms",
            "tps",
            "rfs_random_io_ms",
            "sync_remote_write_ms",
            "redo_writes_per_s",
            "redo_write_kb"
        ]
    );
}

#[test]
fn impact_markdown_and_rfc3339_windows() {
    let out = dgscope()
        .args([
            "report",
            "impact",
            &fixture("seed000_impact.jsonl"),
            "--baseline",
            "2026-11-30T05:00:00Z..2026-11-30T05:16:20Z",
            "--compare",
            "2026-11-30T06:16:40+01:00..",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("| log file sync avg | ms | 0.68 | 4.60 | +576.5 % |"),
        "{text}"
    );
}

/// Runs a report that must fail: exit 2 and exactly one line on stderr containing `want`.
fn bad(args: &[&str], want: &str) {
    let out = dgscope().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(want), "{args:?}: wanted {want:?} in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn temp_file(content: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(content.as_bytes()).unwrap();
    f
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    let hist = fixture("seed000_histogram.jsonl");
    let imp = fixture("seed000_impact.jsonl");
    let h = |extra: &[&str], want: &str| {
        let mut a = vec!["report", "histogram"];
        a.extend_from_slice(extra);
        bad(&a, want);
    };
    h(
        &["/nonexistent/x.jsonl", "--event", "log file sync"],
        "/nonexistent/x.jsonl: cannot open",
    );
    let empty = temp_file("");
    h(
        &[empty.path().to_str().unwrap(), "--event", "x"],
        "the file is empty",
    );
    let wrong = temp_file("{\"format\":\"csv\",\"version\":1}\n");
    h(
        &[wrong.path().to_str().unwrap(), "--event", "x"],
        ":1: unknown format",
    );
    let v2 = temp_file("{\"format\":\"dgscope-recording\",\"version\":9}\n");
    h(
        &[v2.path().to_str().unwrap(), "--event", "x"],
        "version 9 is not supported",
    );
    let header_only = temp_file("{\"format\":\"dgscope-recording\",\"version\":1}\n");
    h(
        &[header_only.path().to_str().unwrap(), "--event", "x"],
        "holds no samples",
    );
    let mut lines: Vec<String> = std::fs::read_to_string(&hist)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines.insert(
        2,
        "{\"t\":\"2026-11-30T05:00:00.500Z\",\"slot\":\"primary\",\"stats\":".into(),
    );
    let corrupt = temp_file(&(lines.join("\n") + "\n"));
    let corrupt_path = corrupt.path().to_str().unwrap().to_string();
    h(
        &[&corrupt_path, "--event", "log file sync"],
        &format!("{corrupt_path}:3: bad sample"),
    );
    h(
        &[&hist, "--event", "log file snyc"],
        "no event \"log file snyc\" on slot primary; events with data: log file sync",
    );
    h(
        &[&hist, "--event", "log file sync", "--slot", "standby"],
        "no slot \"standby\" in this recording; it has: primary",
    );
    h(
        &[&hist, "--event", "log file sync", "--window", "20m..10m"],
        "ends before it starts",
    );
    h(
        &[&hist, "--event", "log file sync", "--window", "2h..3h"],
        "holds fewer than two samples",
    );
    h(
        &[&hist, "--event", "log file sync", "--window", "10m"],
        "must look like A..B",
    );
    bad(
        &[
            "report",
            "impact",
            &imp,
            "--baseline",
            "0s..980s",
            "--compare",
            "later..never",
        ],
        "is neither an offset",
    );
    bad(
        &["report", "impact", &imp, "--baseline", "0s..980s"],
        "--compare",
    );
    bad(
        &[
            "report",
            "histogram",
            &hist,
            "--event",
            "x",
            "--format",
            "xml",
        ],
        "invalid value 'xml'",
    );
}

#[test]
fn truncated_last_line_still_reports() {
    let mut text = std::fs::read_to_string(fixture("seed000_histogram.jsonl")).unwrap();
    text.push_str("{\"t\":\"2026-11-30T05:20:00.000Z\",\"slot\":\"prim");
    let f = temp_file(&text);
    let v = json(&[
        "report",
        "histogram",
        f.path().to_str().unwrap(),
        "--event",
        "log file sync",
        "--format",
        "json",
    ]);
    assert_eq!(v["total"], 80_665);
}
