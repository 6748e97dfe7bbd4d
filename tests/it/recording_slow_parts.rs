//! Read-when-read: a twin recording whose slow parts (logs, switches, params, recovery area)
//! appear only when read gives the same `check --replay`, `report incident`, `report impact`
//! and `report histogram` as the version 1 shape that repeats them in every line: the
//! repeated recordings here are written as version 1 files (whole lines), the read-when-read
//! ones as version 2 (changes lines), so the comparison covers both forms of the format.

use crate::common::recordings::write_tick;
use assert_cmd::Command;
use dgscope::sample::recording::{Header, RecordingWriter};
use dgscope::source::twin::{Scenario, SlowParts, Twin, EPOCH};
use dgscope::source::PullSource;
use proptest::prelude::*;
use std::path::Path;

fn record(path: &Path, scenario: Scenario, seed: u64, secs: usize, mode: SlowParts) {
    let mut twin = Twin::new(scenario, seed);
    twin.set_slow_parts(mode);
    let file = std::fs::File::create(path).unwrap();
    let mut header = Header::new(EPOCH, 1000, "twin");
    if mode == SlowParts::Repeated {
        header.version = 1;
    }
    let mut w = RecordingWriter::new(file, &header).unwrap();
    for _ in 0..secs {
        let tick = twin.next_tick().unwrap();
        write_tick(&mut w, &tick);
    }
}

fn run(args: &[&str], path: &Path) -> (Option<i32>, String) {
    let out = Command::cargo_bin("dgscope")
        .unwrap()
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (
        out.status.code(),
        text.replace(path.to_str().unwrap(), "FILE"),
    )
}

const SCENARIOS: [Scenario; 4] = [
    Scenario::HealthySync,
    Scenario::FrequentSwitches,
    Scenario::SlowSrl,
    Scenario::HealthyAsync,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn read_when_read_and_repeated_recordings_give_identical_results(
        which in 0usize..SCENARIOS.len(),
        seed in 0u64..1000,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let sparse = dir.path().join("sparse.jsonl");
        let full = dir.path().join("full.jsonl");
        let sc = SCENARIOS[which];
        record(&sparse, sc, seed, 200, SlowParts::WhenRead);
        record(&full, sc, seed, 200, SlowParts::Repeated);
        let small = std::fs::metadata(&sparse).unwrap().len();
        let big = std::fs::metadata(&full).unwrap().len();
        prop_assert!(small * 10 < big * 4, "{small} vs {big}");
        for args in [
            &["check", "--format", "json", "--replay"][..],
            &["check", "--replay"][..],
            &["report", "incident", "--format", "json"][..],
            &["report", "impact", "--baseline", "0s..90s", "--compare", "100s..190s"][..],
            &["report", "histogram", "--event", "log file sync", "--format", "json"][..],
        ] {
            let a = run(args, &sparse);
            let b = run(args, &full);
            prop_assert_eq!(&a, &b, "{:?}", args);
        }
    }
}

/// The comparison above is only worth something if the commands read the files: a frequent
/// switches run raises its finding from the sparse file, whose logs and switches appear once
/// a minute.
#[test]
fn the_sparse_recording_still_raises_findings_that_need_slow_parts() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = dir.path().join("sparse.jsonl");
    record(
        &sparse,
        Scenario::FrequentSwitches,
        7,
        200,
        SlowParts::WhenRead,
    );
    let text = std::fs::read_to_string(&sparse).unwrap();
    let with_logs = text.lines().filter(|l| l.contains("\"logs\":")).count();
    assert_eq!(
        with_logs,
        2 * 4,
        "primary and standby at 1 s, 61 s, 121 s, 181 s"
    );
    let (_, out) = run(&["check", "--format", "json", "--replay"], &sparse);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert!(ids.contains(&"log-switch-frequent"), "{ids:?}");
}

/// `recording compact` turns a version 1 file (slow parts in every line) into a compressed
/// read-when-read one; carrying the parts forward gives back every line of the original.
#[test]
fn compact_round_trips() {
    use dgscope::sample::recording::{read_all, Entry};
    use dgscope::sample::slow;
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("v1.jsonl");
    let small = dir.path().join("v1.jsonl.zst");
    let back = dir.path().join("back.jsonl");
    record(
        &full,
        Scenario::FrequentSwitches,
        3,
        300,
        SlowParts::Repeated,
    );
    for (i, o) in [(&full, &small), (&small, &back)] {
        let out = Command::cargo_bin("dgscope")
            .unwrap()
            .args(["recording", "compact"])
            .arg(i)
            .arg("-o")
            .arg(o)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(
        size(&small) * 10 < size(&full),
        "{} {}",
        size(&small),
        size(&full)
    );
    let (h1, want) = read_all(&full).unwrap();
    let (h2, got) = read_all(&small).unwrap();
    assert_eq!((h1.source, h1.interval_ms), (h2.source, h2.interval_ms));
    assert!(got.len() == want.len());
    let mut dropped = 0;
    let mut prev = std::collections::BTreeMap::new();
    for (g, w) in got.into_iter().zip(&want) {
        let g = match g {
            Entry::Sample(mut s) => {
                dropped += usize::from(s.logs.is_none());
                if let Some(p) = prev.get(&s.slot) {
                    slow::fill(&mut s, p);
                }
                prev.insert(s.slot.clone(), (*s).clone());
                Entry::Sample(s)
            }
            m => m,
        };
        assert!(&g == w, "{:?}", g.t());
    }
    assert!(dropped > 500, "{dropped}");
    // Compacting again changes nothing.
    assert_eq!(read_all(&back).unwrap().1, read_all(&small).unwrap().1);
}
