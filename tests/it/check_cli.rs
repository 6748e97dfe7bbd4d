//! `dgscope check --replay`: exit codes, `--fail-on`, the JSON schema and bad input.

use crate::handmade;
use assert_cmd::Command;

use handmade::recording;
use serde_json::Value;
use std::io::Write;

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
        // The plugin guidelines: one status line on stdout, UNKNOWN too.
        assert_eq!(out.lines().count(), 1, "{args:?}: {out}");
        assert!(out.starts_with("dgscope check: UNKNOWN — "), "{out}");
        assert!(out.contains(want), "{args:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let mut empty = tempfile::NamedTempFile::new().unwrap();
    writeln!(empty, "{{\"format\":\"dgscope-recording\",\"version\":1}}").unwrap();
    let (code, _, err) = check(&["--replay", empty.path().to_str().unwrap()]);
    assert_eq!(code, Some(3));
    assert!(err.contains("holds no samples"), "{err}");
}

#[test]
fn config_thresholds_change_the_verdict_and_bad_config_is_unknown() {
    let slow = recording(90, 3.45, 2.89, None);
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, "[thresholds]\nremote_min_ms = 5.0\n").unwrap();
    let (code, out, _) = check(&[
        "--replay",
        slow.path().to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}");
    std::fs::write(&cfg, "[thresholds]\nremote_min_ms = \"five\"\n").unwrap();
    let (code, _, err) = check(&[
        "--replay",
        slow.path().to_str().unwrap(),
        "--config",
        cfg.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(3));
    assert!(err.contains("config.toml:2:17: invalid type"), "{err}");
}

#[test]
fn live_check_without_instant_client_is_unknown_with_the_install_help() {
    let out = assert_cmd::Command::cargo_bin("dgscope")
        .unwrap()
        .args([
            "check",
            "--primary",
            "u@//127.0.0.1:1/x",
            "--password-env",
            "DGSCOPE_TEST_PW",
        ])
        .env("DGSCOPE_TEST_PW", "not-a-real-password")
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("DPI-1047"), "{err}");
    assert!(!err.contains("not-a-real-password"));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "dgscope check: UNKNOWN — cannot load the Oracle Client library (DPI-1047).\n"
    );
}

/// `-w`/`-c` in the plugins' range syntax: a figure outside its range sets the status, says
/// so on a line of its own and fills the performance data's warn/crit.
#[test]
fn warning_and_critical_ranges_judge_the_lags_and_fill_the_perfdata() {
    let (code, out, err) = check(&[
        "--twin",
        "bandwidth-async",
        "--duration",
        "5m",
        "-w",
        "transport_lag=10",
        "-c",
        "apply_lag=~:20",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("dgscope check: CRIT — "), "{out}");
    assert!(
        lines[0].contains(" transport_lag_prod_b=66s;10;120;0 "),
        "{out}"
    );
    assert!(
        lines[0].contains(" apply_lag_prod_b=66s;300;~:20;0 "),
        "{out}"
    );
    assert_eq!(lines[1], "WARN  transport_lag_prod_b 66 s outside -w 10");
    assert_eq!(lines[2], "CRIT  apply_lag_prod_b 66 s outside -c ~:20");
    // Inside the ranges: the findings' own verdict stands (transport-bandwidth is WARN).
    let (code, out, _) = check(&[
        "--twin",
        "bandwidth-async",
        "--duration",
        "5m",
        "-w",
        "600",
        "-c",
        "1200",
    ]);
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("outside"), "{out}");
    // A bad range is UNKNOWN, said once.
    let (code, out, err) = check(&["--twin", "healthy-sync", "-w", "lag=5"]);
    assert_eq!(code, Some(3));
    assert!(out.starts_with("dgscope check: UNKNOWN — "), "{out}");
    assert!(err.contains("unknown figure \"lag\""), "{err}");
}

/// `-t`: past the timeout, UNKNOWN with its one status line, whatever the check waits on.
#[test]
fn a_timeout_is_unknown_with_one_status_line() {
    let (code, out, err) = check(&["--twin", "healthy-sync", "--duration", "12h", "-t", "1"]);
    assert_eq!(code, Some(3), "{out}{err}");
    assert_eq!(
        out,
        "dgscope check: UNKNOWN — timed out after 1s (-t); raise -t or shorten --duration\n"
    );
    assert!(err.contains("timed out after 1s"), "{err}");
}

#[test]
fn every_flag_has_a_dgscope_environment_variable() {
    let slow = recording(90, 3.45, 2.89, None);
    let out = assert_cmd::Command::cargo_bin("dgscope")
        .unwrap()
        .args(["check", "--replay", slow.path().to_str().unwrap()])
        .env("DGSCOPE_FAIL_ON", "crit")
        .env("DGSCOPE_FORMAT", "json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "WARN");
    // A flag on the command line wins over the environment.
    let out = assert_cmd::Command::cargo_bin("dgscope")
        .unwrap()
        .args([
            "check",
            "--replay",
            slow.path().to_str().unwrap(),
            "--format",
            "text",
        ])
        .env("DGSCOPE_FORMAT", "json")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("dgscope check: WARN"));
    // Every long flag of every command names its variable in --help.
    let cmd = dgscope::commands::cli_command();
    fn walk(c: &clap::Command, missing: &mut Vec<String>) {
        for a in c.get_arguments() {
            if let Some(long) = a.get_long() {
                // --force has no variable on purpose: one left set must never permit
                // overwriting a file.
                if !matches!(long, "help" | "version" | "force") && a.get_env().is_none() {
                    missing.push(format!("{} --{long}", c.get_name()));
                }
            }
        }
        for s in c.get_subcommands() {
            walk(s, missing);
        }
    }
    let mut missing = Vec::new();
    walk(&cmd, &mut missing);
    assert!(missing.is_empty(), "{missing:?}");
}
