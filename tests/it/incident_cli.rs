//! `dgscope report incident` on a recording where SYNC to a slow standby log disk starts
//! after a baseline mark.

use crate::handmade;

use assert_cmd::Command;
use handmade::{recording_with, Second};

#[test]
fn incident_report_tells_the_story() {
    let rec = recording_with(
        240,
        |i| {
            if i < 120 {
                Second {
                    remote_ms: 0.8,
                    rfs_ms: 0.45,
                    standby_down: false,
                }
            } else {
                Second {
                    remote_ms: 3.45,
                    rfs_ms: 2.89,
                    standby_down: false,
                }
            }
        },
        &[(119, "baseline: before moving SRLs to the shared disk")],
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("incident.md");
    let run = Command::cargo_bin("dgscope")
        .unwrap()
        .args([
            "report",
            "incident",
            rec.path().to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let md = std::fs::read_to_string(&out).unwrap();
    // Configuration: both databases, their roles and the transport mode.
    assert!(
        md.contains(
            "| primary | prod_a | PRIMARY | READ WRITE | 19.21.0.0.0 | MAXIMUM AVAILABILITY |"
        ),
        "{md}"
    );
    assert!(
        md.contains("| standby | prod_b | PHYSICAL STANDBY | MOUNTED |"),
        "{md}"
    );
    assert!(
        md.contains("| LOG_ARCHIVE_DEST_2 | prod_b | SYNC AFFIRM |"),
        "{md}"
    );
    // Timeline: the mark, then the finding raised after it.
    let mark = md
        .find("mark: baseline: before moving SRLs")
        .expect("mark in timeline");
    let raised = md
        .find("WARN raised: standby-redo-write-slow")
        .expect("finding in timeline");
    assert!(mark < raised);
    // Impact vs the baseline mark: SYNC remote write went from 0.8 to ~3.45 ms.
    assert!(
        md.contains("## Impact vs baseline: baseline: before moving SRLs"),
        "{md}"
    );
    let row = md
        .lines()
        .find(|l| l.starts_with("| SYNC Remote Write avg |"))
        .unwrap();
    assert!(
        row.contains("| 0.80 |") && row.contains("| 3.45 |"),
        "{row}"
    );
    // The finding with evidence, advice and SQL.
    assert!(md.contains("### WARN standby-redo-write-slow"), "{md}");
    assert!(md.contains("| SYNC Remote Write avg | 3.45 ms |"), "{md}");
    // The recording has no SRL layout: the advice speaks of storage, not of members or
    // groups it has no evidence for.
    assert!(
        md.contains("What to do:\n\n- Move the standby redo logs to the standby's fastest storage"),
        "{md}"
    );
    assert!(
        !md.contains("SRL members per group") && !md.contains("one member per"),
        "{md}"
    );
    assert!(md.contains(
        "```sql\n-- standby redo log groups, sizes, block sizes and members (run on the standby)\nSELECT"
    ));
    // Before/after: first minute healthy, last minute slow.
    let row = md
        .lines()
        .find(|l| l.starts_with("| SYNC Remote Write avg | ms |"))
        .unwrap();
    assert!(row.contains("0.80") && row.contains("3.45"), "{row}");
}

#[test]
fn incident_report_to_stdout_and_bad_window() {
    let rec = handmade::recording(90, 0.8, 0.45, None);
    let path = rec.path().to_str().unwrap();
    let run = Command::cargo_bin("dgscope")
        .unwrap()
        .args(["report", "incident", path])
        .output()
        .unwrap();
    assert!(run.status.success());
    let md = String::from_utf8(run.stdout).unwrap();
    assert!(md.starts_with("# Data Guard incident report"));
    assert!(md.contains("No cause above INFO was found"));
    let run = Command::cargo_bin("dgscope")
        .unwrap()
        .args(["report", "incident", path, "--window", "5m..1m"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("ends before it starts"));
}
