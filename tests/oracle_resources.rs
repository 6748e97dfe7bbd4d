//! Resource bounds across reconnects (issue 7): a connection that dies again and again must
//! not leak threads or file handles.

mod common;

use common::*;
use dgscope::sample::Slot;
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::errors::OraError;
use dgscope::source::oracle::fake::FakeDriver;
use dgscope::source::oracle::scenarios::{primary, Release};
use dgscope::source::{ConnState, SourceEvent};

const P: &str = "//dbhost1:1521/prod_a";

fn count(dir: &str) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

fn reconnects(ev: &[SourceEvent]) -> usize {
    states(ev, "primary")
        .iter()
        .filter(|s| matches!(s, ConnState::Reconnecting { .. }))
        .count()
}

#[test]
fn a_hundred_reconnects_leak_no_threads_or_file_handles() {
    let d = FakeDriver::new();
    let mut db = primary(Release::R19, 1);
    // Every session dies after its probe and two samples.
    db.lose_after = Some((
        5,
        OraError::ora(3113, "end-of-file on communication channel"),
    ));
    d.add(P, db);
    let run = |n: usize| {
        collect(
            &d,
            vec![target(
                Slot::primary(),
                &format!("mon@{P}"),
                Privilege::Normal,
            )],
            |_| {},
            move |ev| reconnects(ev) >= n,
        )
    };
    // Warm up once so lazily created process-wide resources exist before we count.
    let first = run(10);
    assert!(reconnects(&first) >= 10);
    let (threads, fds) = (count("/proc/self/task"), count("/proc/self/fd"));
    let ev = run(100);
    assert!(reconnects(&ev) >= 100, "{} reconnects", reconnects(&ev));
    // The session really came back each time.
    assert!(good_samples(&ev, "primary").len() >= 100);
    assert_eq!(count("/proc/self/task"), threads, "threads grew");
    assert_eq!(count("/proc/self/fd"), fds, "file handles grew");
}
