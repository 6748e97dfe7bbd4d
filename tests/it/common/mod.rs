//! Shared test support. The submodules serve the screen tests (deterministic samples,
//! hand-built findings, app, screen and PTY helpers); the functions here run the Oracle
//! collector on a fake driver in virtual time.

pub mod awr_writer;
pub mod board;
pub mod findings;
pub mod once;
pub mod pty;
pub mod pty_process;
pub mod recordings;
pub mod screen;
pub mod serve;
pub mod synthetic;
pub mod twin_runs;

use dgscope::sample::{Sample, Slot};
use dgscope::source::oracle::clock::VirtualClock;
use dgscope::source::oracle::collector::{
    spawn_collector_with_clock, CollectorConfig, TargetConfig,
};
use dgscope::source::oracle::connect::{self, Privilege};
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::{LoginSpec, Secret};
use dgscope::source::{ConnState, SourceEvent};
use dgscope::timestamp::Timestamp;
use std::sync::Arc;
use std::time::Duration;

pub const PASSWORD: &str = "Tr0ub4dor&3-secret";

pub fn start() -> Timestamp {
    Timestamp::parse("2026-11-30T05:00:00.500Z").unwrap()
}

pub fn target(slot: Slot, conn: &str, privilege: Privilege) -> TargetConfig {
    let spec = connect::parse("--test", conn).unwrap();
    let password = spec.user.as_ref().map(|_| Secret::new(PASSWORD));
    TargetConfig {
        slot,
        login: LoginSpec {
            conn: spec,
            privilege,
            password,
            call_timeout: Duration::from_secs(10),
        },
    }
}

/// Runs the collector until `done` says so (or 20 000 events), then stops it.
pub fn collect(
    driver: &FakeDriver,
    targets: Vec<TargetConfig>,
    tune: impl FnOnce(&mut CollectorConfig),
    done: impl Fn(&[SourceEvent]) -> bool,
) -> Vec<SourceEvent> {
    collect_counted(driver, targets, tune, done).0
}

/// As [`collect`], with the number of samples the collector sent in all: on the virtual
/// clock it runs ahead of the test by up to the channel's capacity, so what the test
/// received is not all it read.
pub fn collect_counted(
    driver: &FakeDriver,
    targets: Vec<TargetConfig>,
    tune: impl FnOnce(&mut CollectorConfig),
    done: impl Fn(&[SourceEvent]) -> bool,
) -> (Vec<SourceEvent>, usize) {
    let mut config = CollectorConfig::new(targets, Duration::from_secs(1));
    tune(&mut config);
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    let handle = spawn_collector_with_clock(
        config,
        Arc::new(driver.clone()),
        Arc::new(VirtualClock { start: start() }),
        tx,
    );
    let mut events = Vec::new();
    while let Some(ev) = rx.blocking_recv() {
        events.push(ev);
        if done(&events) || events.len() >= 20_000 {
            break;
        }
    }
    handle.stop();
    let is_sample = |e: &SourceEvent| matches!(e, SourceEvent::Sample(_));
    let mut sent = events.iter().filter(|e| is_sample(e)).count();
    // Until the collector has stopped and dropped its sender.
    while let Some(ev) = rx.blocking_recv() {
        sent += usize::from(is_sample(&ev));
    }
    handle.join();
    (events, sent)
}

pub fn samples<'a>(events: &'a [SourceEvent], slot: &str) -> Vec<&'a Sample> {
    events
        .iter()
        .filter_map(|e| match e {
            SourceEvent::Sample(s) if s.slot.as_str() == slot => Some(s.as_ref()),
            _ => None,
        })
        .collect()
}

pub fn good_samples<'a>(events: &'a [SourceEvent], slot: &str) -> Vec<&'a Sample> {
    samples(events, slot)
        .into_iter()
        .filter(|s| s.error.is_none())
        .collect()
}

pub fn states<'a>(events: &'a [SourceEvent], slot: &str) -> Vec<&'a ConnState> {
    events
        .iter()
        .filter_map(|e| match e {
            SourceEvent::Status { slot: s, state } if s.as_str() == slot => Some(state),
            _ => None,
        })
        .collect()
}

/// Until `slot` has `n` good samples.
pub fn until_good(slot: &'static str, n: usize) -> impl Fn(&[SourceEvent]) -> bool {
    move |ev| good_samples(ev, slot).len() >= n
}

/// `y`'s text is the incident report's text for the same part: every line of the copy is in
/// the Markdown report, a table row as the same cells in a Markdown row.
pub fn assert_copy_in_report(copy: &str, md: &str) {
    let esc = |s: &str| s.replace('<', "&lt;").replace('|', "\\|");
    for line in copy.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if md.contains(&esc(line)) {
            continue;
        }
        let cells: Vec<String> = line
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(esc)
            .collect();
        let row = format!("| {} |", cells.join(" | "));
        assert!(
            cells.len() > 1 && md.contains(&row),
            "copied line {line:?} is not in the report:\n{md}"
        );
    }
}

/// Runs the calling test again in a process of its own and says whether the caller is that
/// process: `if !alone() { return; }` opens a test that measures the whole process (its
/// threads, file handles or resident memory) or installs something for all of it (the log),
/// which it would otherwise share with every other test of the binary. In the binary's own
/// process it runs this test binary on that one test (libtest names a test's thread after the
/// test), relays its output, asserts that it ran and passed, and returns `false`.
pub fn alone() -> bool {
    const CHILD: &str = "DGSCOPE_TEST_ALONE";
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let name = std::thread::current()
        .name()
        .expect("a test thread is named after its test")
        .to_string();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD, &name)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{name} failed in its own process");
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "{name} did not run in its own process"
    );
    false
}

/// A FIFO named `name` in `dir`, made with `mkfifo`.
pub fn fifo(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let fifo = dir.join(name);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    fifo
}

/// A temporary file written by `write` through a buffer: a JSON value prints itself in many
/// small pieces, each a write(2) unbuffered (a 2-hour recording took 6 M of them).
pub fn temp_file_written(write: impl FnOnce(&mut dyn std::io::Write)) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    let mut w = std::io::BufWriter::new(file.as_file());
    write(&mut w);
    std::io::Write::flush(&mut w).unwrap();
    drop(w);
    file
}
