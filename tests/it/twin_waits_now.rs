//! The twin's "what is waiting now" (`V$SESSION`'s in-flight waits) on the primary: a few
//! short commits in flight when all is well, the sessions piling up on the switch behind a
//! stuck archiver with a longest wait that grows second by second, the switch waiting for a
//! checkpoint on small logs. Fixed seeds.

use crate::twin_support;

use dgscope::sample::names::event;
use dgscope::sample::{Sample, WaitNow};
use dgscope::source::twin::Scenario;
use twin_support::run;

fn now<'a>(s: &'a Sample, name: &str) -> Option<&'a WaitNow> {
    s.waits_now
        .as_deref()
        .expect("the primary reads V$SESSION")
        .iter()
        .find(|w| w.event == name)
}

#[test]
fn healthy_primary_has_only_short_commits_in_flight() {
    let r = run(Scenario::HealthyAsync, 4, 120);
    let mut seen = 0;
    for s in &r.primary {
        let w = s.waits_now.as_deref().expect("read every sample");
        assert!(w.iter().all(|w| w.event == event::LOG_FILE_SYNC), "{w:?}");
        if let Some(l) = now(s, event::LOG_FILE_SYNC) {
            seen += 1;
            assert!(l.longest_s < 0.5, "{l:?}");
            assert_eq!(l.blocker_short(), Some("LGWR"));
        }
    }
    assert!(seen > 10, "commits in flight in {seen} samples");
}

#[test]
fn archiver_stuck_piles_sessions_on_the_switch_and_the_longest_wait_grows() {
    let r = run(Scenario::ArchiverStuck, 1, 240);
    let p = &r.primary;
    assert!(now(&p[60], event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).is_none());
    let a = now(&p[200], event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).expect("piled up");
    let b = now(&p[239], event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).expect("still");
    assert!(a.sessions >= 100 && b.sessions >= a.sessions, "{a:?} {b:?}");
    assert!(
        (b.longest_s - a.longest_s - 39.0).abs() < 1.5,
        "{a:?} {b:?}"
    );
    assert!(b.longest_s > 60.0);
    assert_eq!(b.class.as_deref(), Some("Configuration"));
    assert_eq!(b.blocker_short(), Some("LGWR"));
    // The longest first.
    assert_eq!(
        p[239].waits_now.as_deref().unwrap()[0].event,
        event::LOG_FILE_SWITCH_ARCHIVING_NEEDED
    );
}

#[test]
fn checkpoint_incomplete_shows_sessions_behind_the_switch() {
    let r = run(Scenario::CheckpointIncomplete, 3, 300);
    let seen: Vec<&WaitNow> = r.primary[200..]
        .iter()
        .filter_map(|s| now(s, event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE))
        .collect();
    assert!(
        !seen.is_empty(),
        "no switch caught waiting for its checkpoint"
    );
    assert!(seen.iter().all(|w| w.sessions > 0 && w.longest_s > 0.0));
    assert!(r.primary[200..]
        .iter()
        .all(|s| now(s, event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).is_none()));
}

/// The hang end to end: the twin's archiver stops, sessions pile up on the switch, commits
/// stop; the driver (the screen's, `check`'s and `serve`'s judge) raises `primary-hung` CRIT
/// 10–20 s after the first session stopped, never "warming up" meanwhile, its evidence
/// naming the sessions, the longest wait and LGWR.
#[test]
fn the_driver_raises_primary_hung_10_to_20_s_into_the_hang() {
    use dgscope::causes::{Severity, Thresholds, Transition};
    use dgscope::pipeline::{Driver, DriverConfig};
    use dgscope::sample::recording::Entry;
    use dgscope::source::twin::Twin;
    use dgscope::source::PullSource;

    for seed in [1, 5] {
        let mut twin = Twin::new(Scenario::ArchiverStuck, seed);
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut hang_at = None;
        let mut raised = None;
        for _ in 0..240 {
            let samples = twin.next_tick().unwrap().samples;
            if hang_at.is_none() && twin.internals().stuck_sessions > 0 {
                hang_at = samples.first().map(|s| s.t);
            }
            for s in samples {
                for tr in d.push(Entry::Sample(Box::new(s))) {
                    if let Transition::Raised(f) = tr {
                        if f.id == "primary-hung" && raised.is_none() {
                            raised = Some(f);
                        }
                    }
                }
            }
            if hang_at.is_some() && raised.is_none() {
                assert!(
                    !d.assessment().warming_up,
                    "seed {seed}: warming up in a hang"
                );
            }
        }
        let hang_at = hang_at.expect("the archiver stops");
        let f = raised.expect("primary-hung raised");
        let after = f.since.secs_since(hang_at);
        assert!(
            (9.0..=20.0).contains(&after),
            "seed {seed}: {after} s after the hang"
        );
        assert_eq!(f.severity, Severity::Crit);
        assert!(
            f.title
                .contains("waiting on log file switch (archiving needed)")
                && f.title.contains("blocker oracle@dbhost1 (LGWR)"),
            "{}",
            f.title
        );
        assert_eq!(f.caused_by, Some("primary-archiving-stuck"));
    }
}
