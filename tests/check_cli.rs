//! `dgscope check --replay`: exit codes, `--fail-on`, the JSON schema and bad input.

use assert_cmd::Command;
use serde_json::{json, Value};
use std::io::Write;

/// Writes a 1 s recording of a primary/standby pair with the given per-second averages.
/// `standby_down_after` turns the standby's samples into connection errors.
fn recording(
    secs: u64,
    remote_ms: f64,
    rfs_ms: f64,
    standby_down_after: Option<u64>,
) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        f,
        "{}",
        json!({"format":"dgscope-recording","version":1,"interval_ms":1000,"source":"test"})
    )
    .unwrap();
    let start = 1_796_014_800u64; // 2026-11-30T05:00:00Z
    let (tps, writes, lfpw) = (7000.0, 2000.0, 0.55);
    let lfs = remote_ms.max(lfpw) + 0.5;
    for i in 0..secs {
        let n = (i + 100) as f64;
        let t = format!("2026-11-30T05:{:02}:{:02}.000Z", i / 60, i % 60);
        let _ = start;
        let ev = |waits: f64, ms: f64| {
            let bound = ((ms * 1000.0) as u64).next_power_of_two();
            json!({"waits": waits as u64, "us": (waits * ms * 1000.0) as u64, "hist": [[bound, waits as u64]]})
        };
        let primary = json!({
            "t": t, "slot": "primary",
            "db": {"name":"prod_a","role":"PRIMARY","open_mode":"READ WRITE","startup":"2026-11-20T00:00:00Z"},
            "events": {
                "log file sync": ev(n * tps, lfs),
                "log file parallel write": ev(n * writes, lfpw),
                "SYNC Remote Write": ev(n * writes, remote_ms),
            },
            "stats": {"user commits": (n * tps) as u64, "redo size": (n * 25.0 * 1048576.0) as u64, "redo writes": (n * writes) as u64},
            "os": {"BUSY_TIME": (n * 40.0) as u64, "IDLE_TIME": (n * 60.0) as u64, "NUM_CPUS": 16, "LOAD": 3.0},
            "dests": [{"id":2,"name":"prod_b","status":"VALID","mode":"SYNC","affirm":true,"gap":"NO GAP","error":null}],
        });
        writeln!(f, "{primary}").unwrap();
        let standby = if standby_down_after.is_some_and(|d| i >= d) {
            json!({"t": t, "slot": "standby", "error": {"kind":"connection_lost","message":"ORA-03113: end-of-file on communication channel"}})
        } else {
            json!({
                "t": t, "slot": "standby",
                "db": {"name":"prod_b","role":"PHYSICAL STANDBY","open_mode":"MOUNTED","startup":"2026-11-21T00:00:00Z"},
                "events": {"RFS random i/o": ev(n * writes, rfs_ms)},
                "dg": {"transport_lag_s": 0, "apply_lag_s": 1, "computed": t, "datum": t},
            })
        };
        writeln!(f, "{standby}").unwrap();
    }
    f
}

fn check(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("dgscope")
        .unwrap()
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn healthy_is_ok_slow_srl_is_warn_standby_down_is_crit() {
    let healthy = recording(90, 0.85, 0.5, None);
    let (code, out, _) = check(&["--replay", healthy.path().to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("dgscope check: OK"), "{out}");

    let slow = recording(90, 3.45, 2.89, None);
    let (code, out, _) = check(&["--replay", slow.path().to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("WARN  standby-redo-write-slow"), "{out}");
    // --fail-on crit: a WARN does not fail.
    let (code, _, _) = check(&[
        "--replay",
        slow.path().to_str().unwrap(),
        "--fail-on",
        "crit",
    ]);
    assert_eq!(code, Some(0));

    let down = recording(90, 0.85, 0.5, Some(30));
    let (code, out, _) = check(&["--replay", down.path().to_str().unwrap()]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("CRIT  standby-down"), "{out}");
    let (code, _, _) = check(&[
        "--replay",
        down.path().to_str().unwrap(),
        "--fail-on",
        "crit",
    ]);
    assert_eq!(code, Some(2));
}

#[test]
fn duration_limits_what_is_judged() {
    // The standby goes down at 60 s: judging only the first 40 s sees a healthy pair.
    let down = recording(120, 0.85, 0.5, Some(60));
    let (code, out, _) = check(&[
        "--replay",
        down.path().to_str().unwrap(),
        "--duration",
        "40s",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("over 40 s"), "{out}");
}

#[test]
fn json_schema() {
    let slow = recording(90, 3.45, 2.89, None);
    let (code, out, _) = check(&[
        "--replay",
        slow.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(1));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "WARN");
    assert_eq!(v["window"]["from"], "2026-11-30T05:00:00.000Z");
    assert_eq!(v["window"]["to"], "2026-11-30T05:01:29.000Z");
    let f = &v["findings"][0];
    assert_eq!(f["id"], "standby-redo-write-slow");
    assert_eq!(f["severity"], "WARN");
    assert!(f["title"].as_str().unwrap().contains("3.45 ms"));
    let e = &f["evidence"][0];
    for key in ["metric", "value", "unit", "threshold", "source"] {
        assert!(e.get(key).is_some(), "evidence lacks {key}: {e}");
    }
    assert_eq!(e["source"], "V$SYSTEM_EVENT");
    assert!(f["advice"].as_array().unwrap().len() >= 2);
    let m = &v["metrics"];
    for key in [
        "tps",
        "redo_rate_mb_s",
        "log_file_sync_ms",
        "log_file_parallel_write_ms",
        "sync_remote_write_ms",
        "rfs_random_io_ms",
        "transport_lag_s",
        "apply_lag_s",
    ] {
        assert!(m.get(key).is_some(), "metrics lacks {key}");
    }
    assert!((m["tps"].as_f64().unwrap() - 7000.0).abs() < 1.0);
    assert!((m["sync_remote_write_ms"].as_f64().unwrap() - 3.45).abs() < 0.01);
}

#[test]
fn bad_input_is_unknown_with_one_line() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--replay", "/nonexistent.jsonl"],
            "/nonexistent.jsonl: cannot open",
        ),
        (vec!["--bogus"], "unexpected argument '--bogus'"),
        (
            vec!["--replay", "x", "--duration", "soon"],
            "invalid value 'soon'",
        ),
        (vec![], "check needs a source"),
    ];
    for (args, want) in cases {
        let (code, out, err) = check(&args);
        assert_eq!(code, Some(3), "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let mut empty = tempfile::NamedTempFile::new().unwrap();
    writeln!(empty, "{{\"format\":\"dgscope-recording\",\"version\":1}}").unwrap();
    let (code, _, err) = check(&["--replay", empty.path().to_str().unwrap()]);
    assert_eq!(code, Some(3));
    assert!(err.contains("holds no samples"), "{err}");
}
