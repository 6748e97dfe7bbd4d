//! Hostile inputs (issue 17 items 1, 2 and 9): values that size work, endless or damaged
//! files, FIFOs, overflowing window offsets, shuffled samples. Each gives one line and exit
//! 2 (`check`: 3), in bounded time and memory.

use crate::common;
use crate::handmade;
use crate::hardening;

use hardening::{rewrite, run, with_zero_tail};
use serde_json::json;

fn p(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().unwrap()
}

#[test]
fn dev_zero_as_a_recording_is_one_line() {
    run(&["check", "--replay", "/dev/zero"]).one_line(
        3,
        "/dev/zero:1: the line starting at byte 0 is longer than 8 MiB",
    );
    run(&[
        "report",
        "impact",
        "/dev/zero",
        "--baseline",
        "0s..1m",
        "--compare",
        "1m..",
    ])
    .one_line(2, "longer than 8 MiB");
    run(&["report", "incident", "/dev/zero"]).one_line(2, "/dev/zero: is not a regular file");
}

#[test]
fn a_zero_filled_tail_is_named_with_its_offset() {
    let rec = handmade::recording(30, 0.8, 0.45, None);
    let len = std::fs::metadata(rec.path()).unwrap().len();
    // 1 GiB of zeros, sparse on disk: reading it whole would take a GiB of memory.
    let bad = with_zero_tail(rec.path(), 1 << 30);
    let want = format!("the line starting at byte {len} is longer than 8 MiB");
    run(&["check", "--replay", p(&bad)]).one_line(3, &want);
    run(&["report", "incident", p(&bad)]).one_line(2, &want);
    run(&["report", "histogram", p(&bad), "--event", "log file sync"]).one_line(2, &want);
}

#[test]
fn values_that_would_size_loops_are_refused_where_they_enter() {
    let rec = handmade::recording(60, 3.45, 2.89, None);
    let logs = |bytes: u64, members: u64| {
        json!({"online": [{"group":1,"thread":1,"sequence":5,"bytes":bytes,"members":2,"status":"CURRENT"}],
               "standby": [{"group":11,"thread":1,"sequence":5,"bytes":1073741824u64,"members":members,"status":"ACTIVE"}]})
    };
    let zero = rewrite(rec.path(), |_, v| v["logs"] = logs(0, 1));
    run(&["check", "--replay", p(&zero)]).one_line(3, ":2: logs.online[0].bytes is 0");
    run(&["report", "incident", p(&zero)]).one_line(2, ":2: logs.online[0].bytes is 0");
    let members = rewrite(rec.path(), |_, v| v["logs"] = logs(1 << 30, 4294967295));
    run(&["check", "--replay", p(&members)])
        .one_line(3, "logs.standby[0].members = 4294967295 is outside 1..=32");
}

#[test]
fn one_byte_logs_make_the_what_if_unavailable_not_slow() {
    // One byte per log is a value the reader lets through; the model refuses it.
    let rec = handmade::recording(90, 3.45, 2.89, None);
    let tiny = rewrite(rec.path(), |_, v| {
        if v["slot"] == "primary" {
            v["logs"] = json!({"online": [{"group":1,"thread":1,"sequence":5,"bytes":1,"members":1,"status":"CURRENT"}]});
        }
    });
    let r = run(&["check", "--replay", p(&tiny), "--format", "json"]);
    assert!(r.code == 1 || r.code == 2, "{} {}", r.code, r.err);
    assert!(
        r.out
            .contains("what-if unavailable: observed online log size (MB)"),
        "{}",
        r.out
    );
}

#[test]
fn overflowing_window_offsets_are_refused() {
    let rec = handmade::recording(60, 0.8, 0.45, None);
    for cmd in [
        vec![
            "report",
            "histogram",
            p(&rec),
            "--event",
            "log file sync",
            "--window",
            "18446744073709551615..",
        ],
        vec![
            "report",
            "incident",
            p(&rec),
            "--window",
            "18446744073709551615..",
        ],
        vec![
            "report",
            "impact",
            p(&rec),
            "--baseline",
            "0s..10s",
            "--compare",
            "0..18446744073709551615",
        ],
    ] {
        run(&cmd).one_line(2, "is beyond 100 years");
    }
}

#[test]
fn an_incident_window_outside_the_recording_is_an_error() {
    let rec = handmade::recording(30, 0.8, 0.45, None);
    run(&["report", "incident", p(&rec), "--window", "5m.."]).one_line(
        2,
        "window 5m.. holds fewer than two samples (the recording spans 0s..29s",
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_where_seeking_is_needed() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = common::fifo(dir.path(), "rec.fifo");
    // Without the check this would wait for a writer for ever (the run has a timeout).
    run(&["report", "incident", fifo.to_str().unwrap()])
        .one_line(2, "is not a regular file (a FIFO, device or socket)");
}

#[test]
fn shuffled_and_repeated_samples_are_reported_not_dropped_silently() {
    let rec = handmade::recording(60, 0.8, 0.45, None);
    let text = std::fs::read_to_string(rec.path()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // Repeat one primary sample and move an early one to the end.
    let dup = lines[10];
    lines.insert(11, dup);
    let early = lines.remove(3);
    lines.push(early);
    let shuffled = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(shuffled.path(), lines.join("\n") + "\n").unwrap();
    let r = run(&["check", "--replay", p(&shuffled), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("warning: 1 sample(s) earlier than the one before and 1 repeated sample(s) were skipped"), "{}", r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1, "{}", r.out);
}

#[test]
fn interval_bounds_for_the_twin_are_those_for_live() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.jsonl");
    let o = out.to_str().unwrap();
    run(&[
        "record",
        "--twin",
        "slow-srl",
        "--interval",
        "10000000h",
        "--duration",
        "1m",
        "-o",
        o,
    ])
    .one_line(2, "is out of range: use 100ms to 1h");
    run(&["check", "--twin", "slow-srl", "--interval", "50ms"])
        .one_line(3, "out of range: use 100ms to 1h");
    assert!(!out.exists());
}

/// A whole last line that is not a sample (`garbage` and its newline) is an error in every
/// reader, `report incident` and `recording info` included (reliability review m2: the
/// incident report took it for a crash's cut tail and said nothing). Only a line without its
/// newline is a cut tail.
#[test]
fn a_complete_bad_last_line_is_an_error_in_every_reader() {
    let rec = handmade::recording(30, 0.8, 0.45, None);
    let lines = std::fs::read_to_string(rec.path()).unwrap().lines().count();
    let at = format!(":{}:", lines + 1);
    for tail in ["garbage\n", "[[[[\n"] {
        let bad = tempfile::NamedTempFile::new().unwrap();
        let mut text = std::fs::read(rec.path()).unwrap();
        text.extend_from_slice(tail.as_bytes());
        std::fs::write(bad.path(), text).unwrap();
        let f = p(&bad);
        run(&["check", "--replay", f]).one_line(3, &at);
        run(&["report", "incident", f, "-o", "-"]).one_line(2, &at);
        run(&["recording", "info", f]).one_line(2, &at);
    }
}

/// Reliability m3: two recordings joined with `cat` said "missing field `t`" at the second
/// header; every reader names the second header.
#[test]
fn two_recordings_joined_name_the_second_header() {
    let rec = handmade::recording(30, 0.8, 0.45, None);
    let text = std::fs::read_to_string(rec.path()).unwrap();
    let at = format!(":{}: a second recording header", text.lines().count() + 1);
    let joined = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(joined.path(), text.repeat(2)).unwrap();
    let f = p(&joined);
    run(&["check", "--replay", f]).one_line(3, &at);
    run(&["report", "incident", f, "-o", "-"]).one_line(2, &at);
    run(&["recording", "info", f]).one_line(2, &at);
}
