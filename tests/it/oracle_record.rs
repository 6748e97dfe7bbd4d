//! `record` from live databases, end to end on the fake driver: header, samples of every
//! slot, error samples for an unreachable standby, readable by the recording reader.

use crate::common;

use clap::Parser;
use common::PASSWORD;
use dgscope::cli::{Cli, Command};
use dgscope::commands::live::{self, Passwords};
use dgscope::commands::record_live::{record, Recorder};
use dgscope::sample::recording::{read_all, Entry};
use dgscope::source::oracle::clock::SystemClock;
use dgscope::source::oracle::errors::OraError;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, unreachable, Release};
use std::sync::Arc;
use std::time::Duration;

struct Env;
impl Passwords for Env {
    fn env(&self, _: &str) -> Option<String> {
        Some(PASSWORD.into())
    }
    fn stdin_is_tty(&self) -> bool {
        false
    }
    fn prompt(&self, _: &str) -> std::io::Result<String> {
        panic!("no prompt expected")
    }
}

#[test]
fn records_every_slot_including_the_gap_of_a_dead_standby() {
    let d = FakeDriver::new();
    d.add("//dbhost1:1521/prod_a", primary(Release::R19, 1));
    d.add(
        "//dbhost2:1521/prod_b",
        unreachable(OraError::ora(1034, "ORACLE not available")),
    );
    let cli = Cli::try_parse_from([
        "dgscope",
        "record",
        "--primary",
        "mon@//dbhost1:1521/prod_a",
        "--standby",
        "mon@//dbhost2:1521/prod_b",
        "--password-env",
        "PW",
        "--interval",
        "100ms",
        "--duration",
        "1s",
        "-o",
        "unused.jsonl",
    ])
    .unwrap();
    let Command::Record(args) = cli.command else {
        unreachable!()
    };
    let src = live::start_with(
        &args.conn,
        &Env,
        |_| Ok(()),
        Arc::new(d),
        Arc::new(SystemClock),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("incident.jsonl");
    let file = Recorder::open(&path).unwrap();
    record(src, file, &path, Duration::from_millis(1200)).unwrap();

    let (header, entries) = read_all(&path).unwrap();
    assert_eq!(header.interval_ms, Some(100));
    let source = header.source.unwrap();
    assert!(
        source.contains("primary=mon@//dbhost1:1521/prod_a")
            && source.contains("standby=mon@//dbhost2:1521/prod_b"),
        "{source}"
    );
    let samples: Vec<_> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Sample(s) => Some(s),
            _ => None,
        })
        .collect();
    assert!(samples
        .iter()
        .any(|s| s.slot.as_str() == "primary" && s.error.is_none() && !s.events.is_empty()));
    let down: Vec<_> = samples
        .iter()
        .filter(|s| s.slot.as_str() == "standby")
        .collect();
    assert!(!down.is_empty());
    assert!(down.iter().all(|s| s
        .error
        .as_ref()
        .is_some_and(|e| e.kind.as_str() == "instance_down")));
    assert!(!std::fs::read_to_string(&path).unwrap().contains(PASSWORD));
}
