//! The primary's own outages in the twin (CAUSES.md "Catalog, part 3"): each scenario emits
//! the data of its incident (fixed seeds). What the rules make of it is the accuracy
//! matrix's business, not these tests'.

use crate::twin_support;

use dgscope::report::check::CheckReport;
use dgscope::sample::names::{event, stat};
use dgscope::sample::Sample;
use dgscope::source::twin::Scenario;
use twin_support::run;

fn waits(s: &Sample, name: &str) -> (u64, f64) {
    s.events
        .get(name)
        .map_or((0, 0.0), |e| (e.waits, e.us.0 as f64 / 1e6))
}

fn commits(s: &Sample) -> u64 {
    s.stats[stat::USER_COMMITS]
}

fn fra_pct(s: &Sample) -> f64 {
    s.fra.expect("primary fra").used_net_pct().expect("limit")
}

#[test]
fn twin_archiver_stuck_fills_the_area_stops_commits_and_piles_up_switch_waits() {
    let r = run(Scenario::ArchiverStuck, 1, 240);
    let p = &r.primary;
    // Minute 1: commits flow, no archiver wait, the area below full.
    assert!(commits(&p[60]) - commits(&p[30]) > 30 * 5000);
    assert_eq!(waits(&p[60], event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).0, 0);
    assert!(fra_pct(&p[60]) < 99.9);
    // Full near minute 2 (the redo rate varies with the seed).
    let full_at = p
        .iter()
        .position(|s| fra_pct(s) >= 100.0)
        .expect("the area fills");
    assert!((100..=140).contains(&full_at), "full at {full_at} s");
    // Afterwards: no commit, no redo, every session waits a second per second.
    let (a, b) = (&p[200], &p[239]);
    assert_eq!(commits(b), commits(a));
    assert_eq!(b.stats[stat::REDO_SIZE], a.stats[stat::REDO_SIZE]);
    let (w0, s0) = waits(a, event::LOG_FILE_SWITCH_ARCHIVING_NEEDED);
    let (w1, s1) = waits(b, event::LOG_FILE_SWITCH_ARCHIVING_NEEDED);
    let per_s = (s1 - s0) / 39.0;
    assert!((100.0..=121.0).contains(&per_s), "{per_s} s/s");
    assert!((w1 - w0) as f64 / 39.0 >= 100.0);
    assert!(r.twin.internals().stuck_sessions >= 100);
    // The alert log's words, in the primary's V$DATAGUARD_STATUS.
    let codes: Vec<i64> = p
        .iter()
        .filter_map(|s| s.dg_messages.as_ref())
        .flatten()
        .filter_map(|m| m.error_code)
        .collect();
    for c in [19809, 19804, 16038, 257] {
        assert!(codes.contains(&c), "ORA-{c:05} missing: {codes:?}");
    }
    // Retried once a minute, not every sample.
    assert!(codes.iter().filter(|c| **c == 257).count() <= 3);
}

#[test]
fn twin_primary_fra_filling_grows_80_to_96_percent_in_7_minutes() {
    let r = run(Scenario::PrimaryFraFilling, 2, 421);
    let p = &r.primary;
    let start = fra_pct(&p[0]);
    let end = fra_pct(&p[420]);
    assert!((79.9..=80.5).contains(&start), "{start}");
    assert!((94.0..=98.0).contains(&end), "{end}");
    assert_eq!(p[420].fra.unwrap().reclaimable_bytes, 0);
    // Still archiving: commits flow, no archiver waits, no error.
    assert!(commits(&p[420]) - commits(&p[400]) > 20 * 5000);
    assert_eq!(waits(&p[420], event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).0, 0);
    assert!(p
        .iter()
        .filter_map(|s| s.dg_messages.as_ref())
        .flatten()
        .all(|m| m.error_code != Some(257)));
}

#[test]
fn twin_checkpoint_incomplete_stalls_switches_on_small_logs() {
    let r = run(Scenario::CheckpointIncomplete, 3, 300);
    let p = &r.primary;
    let logs = p[299].logs.as_ref().expect("logs");
    assert!(logs.online.iter().all(|l| l.bytes == 256 << 20));
    // The first stalls come once LGWR is back at a log it left less than 110 s ago.
    let (w, secs) = waits(&p[299], event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE);
    assert!(w > 0, "no checkpoint incomplete waits");
    let (w0, s0) = waits(&p[239], event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE);
    // They keep coming: the stall shrinks once the switches have slowed to DBWR's pace.
    assert!(w > w0 && secs > s0, "{w0}..{w} waits, {s0}..{secs} s");
    assert!(secs > 10.0, "{secs} s");
    // Stalls, not a hang: commits keep flowing, archiving is fine.
    assert!(commits(&p[299]) - commits(&p[239]) > 60 * 1000);
    assert_eq!(waits(&p[299], event::LOG_FILE_SWITCH_ARCHIVING_NEEDED).0, 0);
}

#[test]
fn twin_healthy_primary_waits_on_no_archiver_or_checkpoint() {
    let r = run(Scenario::HealthyAsync, 4, 300);
    let last = &r.primary[299];
    assert!(!last
        .events
        .contains_key(event::LOG_FILE_SWITCH_ARCHIVING_NEEDED));
    assert!(!last
        .events
        .contains_key(event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE));
    let f = last.fra.expect("fra");
    assert!(f.used_net_pct().unwrap() < 85.0);
}

/// Review C1's frozen primary, end to end: `check` over the last three minutes of
/// archiver-stuck (no commit in them) is CRIT, not "UNKNOWN, warming up".
#[test]
fn twin_archiver_stuck_last_three_minutes_check_is_crit_not_warming_up() {
    use dgscope::causes::{Status, Thresholds};
    use dgscope::report::check::{pull_entries, run_check};
    use dgscope::source::twin::Twin;
    use dgscope::source::PullSource;
    use std::time::Duration;
    let mut twin = Twin::new(Scenario::ArchiverStuck, 5);
    for _ in 0..150 {
        twin.next_tick();
    }
    let d = Duration::from_secs(180);
    let Ok::<_, std::convert::Infallible>(r) = run_check(
        pull_entries(&mut twin, d),
        Some(d),
        Thresholds::default(),
        None,
    );
    assert!(!r.assessment.warming_up);
    assert_eq!(r.status(), Status::Crit);
    let ids: Vec<&str> = r.assessment.findings.iter().map(|f| f.id).collect();
    assert_eq!(ids[0], "primary-archiving-stuck", "{ids:?}");
    assert!(ids.contains(&"primary-hung"), "{ids:?}");
}
