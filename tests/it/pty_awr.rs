//! `dgscope replay REPORT`: an AWR report written by tests/it/common/awr_writer.rs opens on
//! the triage screen as one window (its two snapshots), in the real binary through a PTY.
//! Its figures and findings are the ones `report awr` prints for the same file.

use crate::common::awr_writer::AwrFixture;
use crate::common::pty::Tui;
use crate::report_awr::report_json;
use std::path::{Path, PathBuf};

/// The report written into a directory kept for the test's length.
fn write(dir: &Path, html: &str) -> PathBuf {
    let path = dir.join("awrrpt_1_1200_1201.html");
    std::fs::write(&path, html).unwrap();
    path
}

fn open(path: &Path, cols: u16, rows: u16) -> Tui {
    Tui::spawn_env(
        &["replay", path.to_str().unwrap()],
        &[("XDG_CONFIG_HOME", "/nonexistent")],
        cols,
        rows,
    )
}

#[test]
fn a_report_opens_as_one_window_with_every_pane_and_drill_down() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), &AwrFixture::v19().render());
    let v = report_json(&path);
    let finding = v["findings"][0]["title"].as_str().unwrap().to_string();
    let tps = v["metrics"]["tps"].as_f64().unwrap();
    assert_eq!(
        tps, 11.0,
        "commits and rollbacks, as the Load Profile counts"
    );

    let mut t = open(&path, 160, 48);
    for title in [
        "1 Commit path",
        "2 Throughput",
        "3 Lag",
        "4 Standby I/O",
        "5 Suggested causes",
    ] {
        t.wait_text(title);
    }
    // The window is the report's, its clock the end snapshot's; no pace, no warm-up.
    t.wait_text("report window 1h00m");
    t.wait_text("win whole report");
    t.wait_text("09:00:05");
    t.wait_text(&finding);
    let screen = t.text();
    assert!(!screen.contains("warming up"), "{screen}");
    // The same transactions per second as `report awr`, written the screen's way.
    assert!(
        screen
            .lines()
            .any(|l| l.contains("TPS") && l.contains("11 /s")),
        "{screen}"
    );
    // Evidence cites the report's sections, not the views a live source reads.
    assert!(screen.contains("Instance Activity Stats"), "{screen}");
    assert!(!screen.contains("V$LOG_HISTORY"), "{screen}");
    assert!(
        screen.contains("a report has no standby side: transport and apply lag unknown"),
        "{screen}"
    );
    // A report has no shorter window inside it: `w` says so and keeps the whole one.
    t.send("w");
    t.wait_text("a report is one window");
    assert!(t.text().contains("win whole report"));
    // Enter on the causes pane drills into the first finding, Esc comes back.
    t.send("5");
    t.send("\r");
    t.wait_for("the drill-down", |s| {
        let c = s.contents();
        c.contains(&finding) && c.contains("Esc back") && !c.contains("1 Commit path")
    });
    t.send("\x1b");
    t.wait_text("1 Commit path");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn a_report_fits_a_small_terminal_and_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let mut f = AwrFixture::v19();
    f.omit = vec!["Operating System Statistics"];
    let path = write(dir.path(), &f.render());
    let v = report_json(&path);
    let warnings: Vec<String> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect();
    assert!(
        warnings.iter().any(|w| w.contains("host CPU unknown")),
        "{warnings:?}"
    );
    let mut t = open(&path, 160, 48);
    t.wait_text("report window 1h00m");
    // What the report lacked is said on the screen, as `report awr` says it.
    for w in &warnings {
        t.wait_text(&format!("report: {}", &w[..w.len().min(40)]));
    }
    t.send("q");
    assert_eq!(t.wait_exit(), 0);

    let mut t = open(&path, 80, 24);
    t.wait_text("REPLAY");
    t.wait_text("Logs switch too often");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn a_file_neither_a_recording_nor_a_report_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.html");
    std::fs::write(&path, "<html><body>hello</body></html>\n").unwrap();
    let mut t = open(&path, 80, 24);
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    assert!(
        text.contains("is this a dgscope recording? Nor an AWR or Statspack report"),
        "{text}"
    );
    t.assert_never_entered_alternate_screen();
}

/// A report is one window shown whole: `--from` (for recordings) is refused with one line.
#[test]
fn a_report_with_from_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), &AwrFixture::v19().render());
    let mut t = Tui::spawn_env(
        &["replay", path.to_str().unwrap(), "--from", "end"],
        &[("XDG_CONFIG_HOME", "/nonexistent")],
        80,
        24,
    );
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    assert!(
        text.contains("--from is for recordings: a report is one window"),
        "{text}"
    );
    t.assert_never_entered_alternate_screen();
}
