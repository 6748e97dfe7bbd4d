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

/// A 10-minute slow-SRL twin recording (WARN as recorded): its directory, path and text.
fn slow_srl_10m() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("srl.jsonl");
    let r = run(&[
        "record",
        "--twin",
        "slow-srl",
        "--duration",
        "10m",
        "-o",
        rec.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&rec).unwrap();
    (dir, rec, text)
}

/// Reliability M1: one standby sample stamped an hour ahead (a clock step) hid the rest of
/// that slot's samples — a 10-minute slow-SRL recording judged OK. The lone sample is taken
/// out and said; the verdict and the incident report are the recording's.
#[test]
fn one_sample_stamped_an_hour_ahead_does_not_hide_its_slot() {
    let (dir, rec, text) = slow_srl_10m();
    let mut standby = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            if !l.contains(r#""slot":"standby""#) {
                return l.to_string();
            }
            standby += 1;
            if standby != 3 {
                return l.to_string();
            }
            // 05:00:06 → 06:00:06: the same instant an hour later.
            let t = &l[6..30];
            let later = t.replacen("T05:", "T06:", 1);
            assert_ne!(t, later, "{t}");
            l.replacen(t, &later, 1)
        })
        .collect();
    let stepped = dir.path().join("stepped.jsonl");
    std::fs::write(&stepped, lines.join("\n") + "\n").unwrap();
    let whole = run(&["check", "--replay", rec.to_str().unwrap()]);
    let r = run(&["check", "--replay", stepped.to_str().unwrap()]);
    assert_eq!(r.code, whole.code, "{}{}", r.out, r.err);
    assert_eq!(r.code, 1, "WARN, as the recording is: {}", r.out);
    assert!(r.out.contains("standby-redo-write-slow"), "{}", r.out);
    assert!(
        r.err
            .contains("warning: 1 entry stamped more than 5 min ahead of the rest and not followed by any other were skipped (first: slot standby at 2026-11-30T06:00:"),
        "{}",
        r.err
    );
    let inc = run(&["report", "incident", stepped.to_str().unwrap()]);
    assert_eq!(inc.code, 0, "{}", inc.err);
    assert!(inc.out.contains("standby-redo-write-slow"), "{}", inc.out);
    assert!(!inc.out.contains("looked healthy"), "{}", inc.out);
    // The report says what it took out, on its timeline, in check's words.
    assert!(
        inc.out.contains("1 entry stamped more than 5 min ahead of the rest and not followed by any other were skipped (first: slot standby at 2026-11-30T06:00:"),
        "{}",
        inc.out
    );
    // The same sample an hour behind instead: skipped alone by the engine, and said.
    let behind: Vec<String> = lines
        .iter()
        .map(|l| l.replacen("T06:", "T04:", 1))
        .collect();
    let behind_path = dir.path().join("behind.jsonl");
    std::fs::write(&behind_path, behind.join("\n") + "\n").unwrap();
    let r = run(&["check", "--replay", behind_path.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.out, r.err);
    let said = "1 sample(s) earlier than the one before and 0 repeated sample(s) were skipped (first: slot standby at 2026-11-30T04:00:";
    assert!(r.err.contains(said), "{}", r.err);
    let inc = run(&["report", "incident", behind_path.to_str().unwrap()]);
    assert_eq!(inc.code, 0, "{}", inc.err);
    assert!(inc.out.contains(said), "{}", inc.out);
    assert!(inc.out.contains("standby-redo-write-slow"), "{}", inc.out);
}

/// The recording's lines with every entry from 05:05:01 on (both slots, the clock of the
/// whole source) stamped `moved(t)` instead of `t`.
fn restamped_from_05_05_01(text: &str, moved: impl Fn(&str) -> String) -> Vec<String> {
    let mut stepped = false;
    let lines = text
        .lines()
        .map(|l| {
            let Some(t) = l
                .get(6..30)
                .filter(|t| l.starts_with("{\"t\":\"") && t.ends_with('Z'))
            else {
                return l.to_string();
            };
            stepped |= t >= "2026-11-30T05:05:01.000Z";
            if !stepped {
                return l.to_string();
            }
            l.replacen(t, &moved(t), 1)
        })
        .collect();
    assert!(stepped, "no entry from 05:05:01 on");
    lines
}

/// Reliability review m4 and issue 28.4: the sampling host's clock stepped back two minutes
/// mid-run (an NTP step) — every later sample of both slots was "earlier than the one before"
/// and 238 of them were skipped. The stretch after the step is now judged as following on:
/// nothing is dropped, the verdict is the recording's, and every reader says what it did.
#[test]
fn a_step_back_of_the_whole_clock_is_followed_on_not_dropped() {
    let (dir, rec, text) = slow_srl_10m();
    // From 05:05:01 on, every line (both slots) stamped two minutes earlier.
    let lines = restamped_from_05_05_01(&text, |t| {
        let (min, sec) = (&t[14..16], &t[17..19]);
        let m: u32 = min.parse().unwrap();
        format!("{}{:02}:{sec}{}", &t[..14], m - 2, &t[19..])
    });
    let path = dir.path().join("ntp.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let said = "the source's clock stepped back 2m00s after 2026-11-30T05:05:00.000Z";
    let whole = run(&[
        "check",
        "--replay",
        rec.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let r = run(&[
        "check",
        "--replay",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, whole.code, "{}", r.err);
    assert!(r.err.contains(said), "{}", r.err);
    assert!(!r.err.contains("earlier than the one before"), "{}", r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
    let w: serde_json::Value = serde_json::from_str(&whole.out).unwrap();
    assert_eq!(v["samples"], w["samples"], "no sample dropped");
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1, "{}", r.out);
    let inc = run(&["report", "incident", path.to_str().unwrap()]);
    assert_eq!(inc.code, 0, "{}", inc.err);
    assert!(inc.out.contains(said), "{}", inc.out);
    assert!(inc.out.contains("standby-redo-write-slow"), "{}", inc.out);
    let imp = run(&[
        "report",
        "impact",
        path.to_str().unwrap(),
        "--baseline",
        "0s..2m",
        "--compare",
        "8m..",
        "--format",
        "json",
    ]);
    assert_eq!(imp.code, 0, "{}", imp.err);
    assert!(imp.err.contains(said), "{}", imp.err);
}

/// Issue 28.4: the sampling host's clock stepped an hour forward mid-run. The databases'
/// hosts counted one second (`V$OSSTAT` BUSY_TIME + IDLE_TIME), so the stretch after it
/// follows on instead of standing an hour later as a gap: the same samples and findings as
/// the unstepped recording, and every reader says what it did.
#[test]
fn a_step_forward_of_the_whole_clock_is_followed_on_not_a_gap() {
    let (dir, rec, text) = slow_srl_10m();
    let lines = restamped_from_05_05_01(&text, |t| t.replacen("T05:", "T06:", 1));
    let path = dir.path().join("ntp-forward.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let said = "the source's clock stepped forward 1h00m after 2026-11-30T05:05:00.000Z";
    let json = |p: &std::path::Path| {
        let r = run(&["check", "--replay", p.to_str().unwrap(), "--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&r.out).unwrap();
        (r, v)
    };
    let (whole, w) = json(&rec);
    let (r, v) = json(&path);
    assert_eq!(r.code, whole.code, "{}", r.err);
    assert!(r.err.contains(said), "{}", r.err);
    assert_eq!(v["samples"], w["samples"], "no sample dropped");
    assert_eq!(
        v["findings"], w["findings"],
        "judged as the unstepped recording"
    );
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1, "{}", r.out);
    let inc = run(&["report", "incident", path.to_str().unwrap()]);
    assert_eq!(inc.code, 0, "{}", inc.err);
    assert!(inc.out.contains(said), "{}", inc.out);
    assert!(inc.out.contains("standby-redo-write-slow"), "{}", inc.out);
}

/// Reliability review round 3: a recording stamped in year 9999 (or 0000) was judged without
/// a word. The times are taken as they are (the verdict is the recording's), and `check` and
/// the reports say the clock was set wrong.
#[test]
fn a_recording_stamped_in_another_century_is_judged_and_said() {
    let (dir, rec, text) = slow_srl_10m();
    let whole = run(&["check", "--replay", rec.to_str().unwrap()]);
    assert!(!whole.err.contains("outside 2000..2100"), "{}", whole.err);
    for year in ["9999", "1970"] {
        let moved = text.replace("\"2026-11-30T", &format!("\"{year}-11-30T"));
        assert_ne!(moved, text);
        let path = dir.path().join(format!("y{year}.jsonl"));
        std::fs::write(&path, &moved).unwrap();
        let r = run(&["check", "--replay", path.to_str().unwrap()]);
        assert_eq!(r.code, whole.code, "{year}: {}{}", r.out, r.err);
        assert!(
            r.err
                .contains(&format!("samples are stamped {year}-11-30T"))
                && r.err
                    .contains("outside 2000..2100: the source's clock was set wrong?"),
            "{year}: {}",
            r.err
        );
        let inc = run(&["report", "incident", path.to_str().unwrap()]);
        assert_eq!(inc.code, 0, "{}", inc.err);
        assert!(
            inc.out.contains("outside 2000..2100"),
            "{year}: {}",
            inc.out
        );
    }
}

/// Reliability review round 3, the counter sawtooth: a primary whose "user commits" drops to
/// a tenth on every other pair of samples (the same startup time) gave a TPS ten times too
/// low without a word. The verdict stands; `check` says the counters went down and where.
#[test]
fn counters_that_go_down_without_a_restart_are_said() {
    let (dir, rec, text) = slow_srl_10m();
    let whole = run(&["check", "--replay", rec.to_str().unwrap()]);
    assert!(!whole.err.contains("cumulative statistic"), "{}", whole.err);
    let mut primary = 0;
    let lines: Vec<String> = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if v["slot"] != "primary" || v["stats"]["user commits"].is_null() {
                return l.to_string();
            }
            primary += 1;
            if primary % 4 >= 2 {
                let c = v["stats"]["user commits"].as_u64().unwrap();
                v["stats"]["user commits"] = serde_json::json!(c / 10);
            }
            v.to_string()
        })
        .collect();
    assert!(primary > 100, "{primary} primary samples");
    let saw = dir.path().join("sawtooth.jsonl");
    std::fs::write(&saw, lines.join("\n") + "\n").unwrap();
    let r = run(&["check", "--replay", saw.to_str().unwrap()]);
    assert_eq!(r.code, whole.code, "{}{}", r.out, r.err);
    assert!(
        r.err.contains("had a cumulative statistic lower than the sample before with the same startup time (first: slot primary, 'user commits' at 2026-11-30T05:00:0"),
        "{}",
        r.err
    );
    let json = run(&[
        "check",
        "--replay",
        saw.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json.out).unwrap();
    let n = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w.as_str().unwrap().contains("cumulative statistic"))
        .count();
    assert_eq!(n, 1, "{}", json.out);
}
