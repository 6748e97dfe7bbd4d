//! Two screens in one directory pressing `r` at the same moment (issue 17.3: "two screens
//! pressing r in the same second destroyed both recordings"): two distinct recordings, both
//! wholly readable, and each status line names the file that screen really writes.

use crate::common;

use common::pty::Tui;
use dgscope::sample::recording::RecordingReader;
use std::time::{Duration, Instant};

/// The path after `recording to ` on the screen's status line.
fn recording_path(t: &Tui) -> String {
    let text = t.text();
    let line = text
        .lines()
        .find(|l| l.contains("recording to "))
        .unwrap_or_else(|| panic!("no status line:\n{text}"));
    let rest = &line[line.find("recording to ").unwrap() + "recording to ".len()..];
    rest.split_whitespace().next().unwrap().to_string()
}

#[test]
fn two_screens_recording_at_once_write_two_whole_files() {
    // Same scenario and seed: both sources' clocks say the same time, so both screens pick
    // the same name first.
    let args = ["demo", "--seed", "3"];
    let mut a = Tui::spawn(&args, 160, 48);
    let mut b = Tui::spawn_in(a.dir.path(), &args, 160, 48);
    a.wait_text("5 Suggested causes");
    b.wait_text("5 Suggested causes");
    a.send("r");
    b.send("r");
    a.wait_text("recording to ");
    b.wait_text("recording to ");
    let (pa, pb) = (recording_path(&a), recording_path(&b));
    assert_ne!(pa, pb, "both screens claim one file");
    // Let both write for a few seconds, then stop.
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        a.pump();
        b.pump();
        std::thread::sleep(Duration::from_millis(20));
    }
    a.send("r");
    b.send("r");
    a.wait_text("recording saved:");
    b.wait_text("recording saved:");
    a.send("q");
    b.send("q");
    assert_eq!(a.wait_exit(), 0);
    assert_eq!(b.wait_exit(), 0);
    let dir = a.dir.path();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    for shown in [&pa, &pb] {
        let path = dir.join(std::path::Path::new(shown).file_name().unwrap());
        assert!(files.contains(&path), "{shown} is not one of {files:?}");
        // Every line parses: nothing interleaved or truncated by the other screen.
        let reader = RecordingReader::open(&path).unwrap();
        let entries: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
        assert!(entries.len() >= 4, "{shown}: {} entries", entries.len());
    }
}
