//! Process faults while recording (issue 7): a signal, an SSH hang-up, a panic or `kill -9`
//! while `dgscope demo` records with `r`. The terminal is restored where the process can do it,
//! and the recording is valid up to its last full line in every case.

use crate::common;

use common::pty::Tui;
use dgscope::sample::recording::{Entry, RecordingReader};
use std::path::{Path, PathBuf};

fn recording_in(t: &Tui) -> PathBuf {
    std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .expect("a recording")
}

/// Every complete line parses; returns the number of samples and whether a partial last line
/// was dropped.
fn check_recording(path: &Path) -> (usize, bool) {
    let mut r = RecordingReader::open(path).unwrap();
    let mut samples = 0;
    for e in r.by_ref() {
        if let Entry::Sample(_) = e.unwrap_or_else(|e| panic!("{e}")) {
            samples += 1;
        }
    }
    (samples, r.truncated_tail())
}

/// Starts the demo fast, recording, and waits until a few samples are on disk.
fn recording_demo(env: &[(&str, &str)]) -> Tui {
    let mut t = Tui::spawn_env(&["demo", "--speed", "8"], env, 120, 40);
    t.wait_text("5 Suggested causes");
    t.send("r");
    t.wait_text("●REC dgscope-");
    // Let the twin produce some samples into the file.
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_millis(1500) {
        t.pump();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    t
}

#[test]
fn sigterm_while_recording_restores_the_terminal_and_keeps_the_recording() {
    let mut t = recording_demo(&[]);
    t.signal(libc::SIGTERM);
    assert_eq!(t.wait_exit(), 143);
    t.assert_restored();
    let (samples, _) = check_recording(&recording_in(&t));
    assert!(samples >= 4, "{samples} samples");
}

#[test]
fn ssh_hang_up_while_recording_restores_the_terminal_and_keeps_the_recording() {
    let mut t = recording_demo(&[]);
    t.signal(libc::SIGHUP);
    assert_eq!(t.wait_exit(), 129);
    t.assert_restored();
    let (samples, _) = check_recording(&recording_in(&t));
    assert!(samples >= 4, "{samples} samples");
}

#[test]
fn a_panic_while_recording_restores_the_terminal_and_keeps_the_recording() {
    // Debug builds panic on purpose after this many source events (fault injection).
    let mut t = recording_demo(&[("DGSCOPE_DEBUG_PANIC_AFTER", "40")]);
    assert_eq!(t.wait_exit(), 101, "a Rust panic exits 101");
    t.assert_restored();
    let (samples, _) = check_recording(&recording_in(&t));
    assert!(samples >= 4, "{samples} samples");
}

#[test]
fn kill_9_while_recording_leaves_a_readable_recording() {
    let mut t = recording_demo(&[]);
    t.signal(libc::SIGKILL);
    assert_eq!(t.wait_exit(), 128 + 9);
    // Nothing can restore a terminal after SIGKILL; the file is what must survive.
    let (samples, _truncated) = check_recording(&recording_in(&t));
    assert!(samples >= 4, "{samples} samples");
}
