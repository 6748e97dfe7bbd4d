//! Resource bounds across reconnects (issue 7): a connection that dies again and again must
//! not leak threads or file handles. It counts those of its process: it runs alone in one
//! (`common::alone`).

use crate::common;

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
    if !alone() {
        return;
    }
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
    std::thread::sleep(std::time::Duration::from_millis(200));
    let (threads, fds) = (count("/proc/self/task"), count("/proc/self/fd"));
    let ev = run(100);
    assert!(reconnects(&ev) >= 100, "{} reconnects", reconnects(&ev));
    // The session really came back each time.
    assert!(good_samples(&ev, "primary").len() >= 100);
    // Sampling threads finish just after the collector is joined: give stragglers a moment
    // (a leak would add one per reconnect, a hundred here, and never go away).
    let settled = |dir: &str, before: usize| {
        for _ in 0..250 {
            if count(dir) <= before {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        count(dir)
    };
    let t_after = settled("/proc/self/task", threads);
    let f_after = settled("/proc/self/fd", fds);
    assert!(
        t_after <= threads,
        "threads grew from {threads} to {t_after}"
    );
    assert!(f_after <= fds, "file handles grew from {fds} to {f_after}");
}
