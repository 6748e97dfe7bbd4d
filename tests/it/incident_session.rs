//! `e` on the screen writes the incident of the whole session, as `report incident` does for
//! the same data: findings raised and cleared before `e` was pressed stay in the timeline
//! and the findings (a 15-minute standby outage replayed to its end: "No finding was raised"
//! was the screen's report before).

use dgscope::app::Mode;
use dgscope::pipeline::ScreenAssessor;
use dgscope::sample::recording::{read_all, Entry};
use dgscope::source::SourceEvent;
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::theme::Theme;
use std::collections::BTreeSet;
use std::process::Command;
use std::time::Duration;

/// The finding ids a report's timeline raises and clears.
fn timeline_ids(md: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut raised, mut cleared) = (BTreeSet::new(), BTreeSet::new());
    for l in md.lines() {
        if let Some((_, rest)) = l.split_once(" raised: ") {
            raised.insert(rest.split(' ').next().unwrap().to_string());
        }
        if let Some((_, rest)) = l.split_once("cleared: ") {
            cleared.insert(rest.split([' ', '(']).next().unwrap().trim().to_string());
        }
    }
    (raised, cleared)
}

#[test]
fn the_screen_report_keeps_what_was_raised_and_cleared() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("sd.jsonl");
    let bin = env!("CARGO_BIN_EXE_dgscope");
    let st = Command::new(bin)
        .args([
            "record",
            "--twin",
            "standby-down",
            "--duration",
            "15m",
            "-o",
        ])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(st.status.success(), "{st:?}");
    let out = Command::new(bin)
        .args(["report", "incident"])
        .arg(&rec)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();

    // The same recording on the screen, replayed to its end, then `e`.
    let (header, entries) = read_all(&rec).unwrap();
    let opts = TuiOptions::new(
        Mode::Replay,
        header.source.unwrap_or_default(),
        Duration::from_secs(1),
    );
    let assessor = ScreenAssessor::new(None).into_assessor();
    let mut app = tui::build_app(&opts, Theme::all_builtin(true), assessor);
    for e in entries {
        app.ingest(match e {
            Entry::Sample(s) => SourceEvent::Sample(s),
            Entry::Mark(m) => SourceEvent::Mark(m),
        });
        app.refresh();
    }
    app.ingest(SourceEvent::End);
    app.refresh();
    let screen = tui::incident_markdown(&app);

    let (r_raised, r_cleared) = timeline_ids(&report);
    let (s_raised, s_cleared) = timeline_ids(&screen);
    assert!(r_raised.contains("standby-down"), "{report}");
    assert!(r_cleared.contains("standby-down"), "{report}");
    // Everything the recording's report raised and cleared, the screen's report has too.
    for id in &r_raised {
        assert!(
            s_raised.contains(id),
            "{id} missing from the screen's report:\n{screen}"
        );
    }
    for id in &r_cleared {
        assert!(
            s_cleared.contains(id),
            "{id} missing from the screen's report:\n{screen}"
        );
    }
    assert!(!screen.contains("No finding was raised"), "{screen}");
    assert!(!screen.contains("looked healthy"), "{screen}");
    // The findings section details the cleared outage with its evidence.
    assert!(screen.contains("### CRIT standby-down — "), "{screen}");
}
