//! The waits in flight now (`V$SESSION`) as evidence: a primary whose commits stop while
//! sessions wait on the commit path is `primary-hung` CRIT within 10–20 s of the hang —
//! before any of those waits completes, never "warming up" — naming the sessions, the
//! longest wait and the blocker; a `log file sync` in flight longer than the window's
//! average is evidence of the commit-path findings.

use super::assessment::Assessment;
use super::finding::{Finding, Severity};
use super::testkit::{Pair, Run};
use super::CauseEngine;
use crate::metrics::Window;
use dgscope_model::sample::names::event;
use std::time::Duration;

const MIN: Window = Window::Last(Duration::from_secs(60));
const LGWR: Option<&str> = Some("oracle@dbhost1 (LGWR)");

fn healthy_async() -> Pair {
    Pair {
        sync: false,
        affirm: false,
        remote_ms: None,
        ..Pair::default()
    }
}

/// Commits, redo and LGWR writes stop at `since`; `sessions` wait on `on` from then on. No
/// wait completes (a hung LGWR never ends a `log file sync`).
fn hung(on: &'static str, sessions: u32, since: i64) -> Pair {
    Pair {
        tps: 0.0,
        writes_per_s: 0.0,
        redo_mb_s: 0.0,
        waits_now: Some(vec![(on, sessions, LGWR)]),
        waits_now_since: since,
        ..healthy_async()
    }
}

fn get<'a>(a: &'a Assessment, id: &str) -> Option<&'a Finding> {
    a.findings.iter().find(|f| f.id == id)
}

/// Runs `before` for `secs_before` seconds then `after`, returning every assessment.
fn run(before: &Pair, secs_before: i64, after: &Pair, secs_after: i64) -> Vec<Assessment> {
    let mut run = Run::default();
    let mut engine = CauseEngine::default();
    (0..secs_before + secs_after)
        .map(|k| {
            run.step(if k < secs_before { before } else { after });
            engine.assess(&run.engine, MIN)
        })
        .collect()
}

/// Seconds after the hang when `primary-hung` is first raised.
fn raised_after(all: &[Assessment], hang: i64) -> Option<i64> {
    all.iter()
        .position(|a| get(a, "primary-hung").is_some())
        .map(|i| i as i64 - hang)
}

#[test]
fn a_hung_lgwr_is_crit_within_10_to_20_s_with_no_completed_wait() {
    let hang = 120;
    let all = run(
        &healthy_async(),
        hang,
        &hung(event::LOG_FILE_SYNC, 40, hang),
        40,
    );
    let after = raised_after(&all, hang).expect("primary-hung raised");
    assert!(
        (10..=20).contains(&after),
        "raised {after} s after the hang"
    );
    for a in &all[hang as usize..] {
        assert!(!a.warming_up, "a hung primary is never warming up");
    }
    let a = all.last().unwrap();
    let f = get(a, "primary-hung").unwrap();
    assert_eq!(f.severity, Severity::Crit);
    assert_eq!(a.findings[0].id, "primary-hung", "{:?}", a.findings);
    assert!(
        f.title.contains(
            "40 sessions waiting on log file sync, longest 39 s, blocker oracle@dbhost1 (LGWR)"
        ),
        "{}",
        f.title
    );
    let e = f.evidence.iter().find(|e| e.source == "V$SESSION").unwrap();
    assert_eq!(e.value, 39.0);
    assert_eq!(e.threshold.as_deref(), Some("≥ 10 s"));
}

#[test]
fn a_primary_hung_from_the_first_sample_is_crit_not_warming_up() {
    let p = hung(event::LOG_FILE_SWITCH_ARCHIVING_NEEDED, 120, 0);
    let all = run(&p, 0, &p, 25);
    let after = raised_after(&all, 0).expect("primary-hung raised");
    assert!((10..=20).contains(&after), "raised at {after} s");
    // From the first second its sessions have waited on the commit path, never warming up.
    assert!(all[1..].iter().all(|a| !a.warming_up));
    let f = get(all.last().unwrap(), "primary-hung").unwrap();
    assert!(f
        .title
        .contains("120 sessions waiting on log file switch (archiving needed)"));
    // Sessions on the switch for want of an archived log: the stuck archiver explains it.
    assert_eq!(f.caused_by, Some("primary-archiving-stuck"));
}

#[test]
fn short_or_non_commit_path_waits_or_flowing_commits_are_no_hang() {
    // Commits flow while one session waits 30 s in flight on log file sync.
    let flowing = Pair {
        waits_now: Some(vec![(event::LOG_FILE_SYNC, 1, LGWR)]),
        waits_now_since: 0,
        ..healthy_async()
    };
    assert!(run(&flowing, 0, &flowing, 40)
        .iter()
        .all(|a| get(a, "primary-hung").is_none()));
    // An idle primary whose sessions wait on a row lock, not on the commit path.
    let idle_locked = Pair {
        waits_now: Some(vec![("enq: TX - row lock contention", 3, None)]),
        ..hung(event::LOG_FILE_SYNC, 0, 0)
    };
    assert!(run(&idle_locked, 0, &idle_locked, 40)
        .iter()
        .all(|a| get(a, "primary-hung").is_none()));
    // Not read: nothing to judge from in flight.
    let unread = Pair {
        waits_now: None,
        ..hung(event::LOG_FILE_SYNC, 40, 0)
    };
    assert!(run(&healthy_async(), 60, &unread, 40)
        .iter()
        .all(|a| get(a, "primary-hung").is_none()));
}

#[test]
fn a_commit_in_flight_longer_than_the_average_is_commit_path_evidence() {
    let slow = |waits_now| Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfpw_ms: 4.0,
        lfs_ms: 5.2,
        waits_now,
        waits_now_since: 35,
        ..Pair::default()
    };
    let all = run(
        &slow(Some(Vec::new())),
        35,
        &slow(Some(vec![(event::LOG_FILE_SYNC, 3, LGWR)])),
        5,
    );
    let f = get(all.last().unwrap(), "lgwr-write-slow").expect("lgwr-write-slow");
    let e = f
        .evidence
        .iter()
        .find(|e| e.source == "V$SESSION")
        .expect("in-flight evidence");
    assert!(
        e.metric
            .contains("3 sessions waiting on log file sync, longest 4.0 s"),
        "{}",
        e.metric
    );
    assert!(e
        .threshold
        .as_deref()
        .unwrap()
        .contains("average log file sync"));
    // A commit caught a millisecond into its wait is not news.
    let quiet = run(&slow(Some(Vec::new())), 40, &slow(Some(Vec::new())), 0);
    let f = get(quiet.last().unwrap(), "lgwr-write-slow").unwrap();
    assert!(f.evidence.iter().all(|e| e.source != "V$SESSION"));
}

#[test]
fn a_hang_sampled_every_5_s_is_raised_too() {
    let mut run = Run::default();
    let mut engine = CauseEngine::default();
    let (healthy, hang) = (healthy_async(), hung(event::LOG_FILE_SYNC, 40, 120));
    let mut raised_at = None;
    for i in 0..180i64 {
        let p = if i < 120 { &healthy } else { &hang };
        run.acc.advance(p);
        // Samples 5 s apart, 300 ms late each time (a real interval is never exact).
        if i % 5 == 0 {
            let mut ps = p.primary(run.i, &run.acc);
            ps.t = ps.t.add_millis(300);
            run.engine.push_sample(std::sync::Arc::new(ps));
            run.engine
                .push_sample(std::sync::Arc::new(p.standby(run.i, &run.acc)));
            let a = engine.assess(&run.engine, MIN);
            if raised_at.is_none() && get(&a, "primary-hung").is_some() {
                raised_at = Some(i - 120);
            }
        }
        run.i += 1;
    }
    let after = raised_at.expect("primary-hung raised");
    assert!(
        (10..=20).contains(&after),
        "raised {after} s after the hang"
    );
}
