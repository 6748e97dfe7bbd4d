//! Catalog part 3: state before rates, every lag explained, a lag over threshold never OK, and
//! the cases a senior DBA's review found wrong (snapshot standby, broker APPLY-OFF, a
//! transient archive gap, a SYNC link drop, a standby catching up, a delayed standby). Each
//! is a pair of samples shaped like the published output it names, run through the engine
//! with its hysteresis.

use super::assessment::Assessment;
use super::finding::{Finding, Severity, Status};
use super::testkit::{Pair, Run};
use super::CauseEngine;
use crate::metrics::Window;
use dgscope_model::sample::{DestStatus, Gap, Role};
use std::time::Duration;

const MIN: Window = Window::Last(Duration::from_secs(60));

fn assess(pair: &Pair, secs: i64) -> Assessment {
    let mut run = Run::default();
    let mut engine = CauseEngine::default();
    let mut last = Assessment::default();
    for _ in 0..secs {
        run.step(pair);
        last = engine.assess(&run.engine, MIN);
    }
    last
}

fn ids(a: &Assessment) -> Vec<&'static str> {
    a.findings.iter().map(|f| f.id).collect()
}

fn get<'a>(a: &'a Assessment, id: &str) -> Option<&'a Finding> {
    a.findings.iter().find(|f| f.id == id)
}

fn has(a: &Assessment, id: &str) -> bool {
    get(a, id).is_some()
}

/// A standby that applies nothing while redo keeps arriving: the apply lag grows 1 s/s and
/// the primary reports recovery mode IDLE.
fn not_applying() -> Pair {
    Pair {
        mrp_action: None,
        recovery_mode: "IDLE".into(),
        apply_lag_s: 5.0,
        apply_lag_growth: 1.0,
        ..Pair::default()
    }
}

/// A snapshot standby (DG Concepts, "Managing a Snapshot Standby Database": DATABASE_ROLE
/// `SNAPSHOT STANDBY`, open READ WRITE, redo received but not applied) is off by design.
#[test]
fn a_snapshot_standby_is_apply_off_not_apply_stopped() {
    let pair = Pair {
        standby_role: Some(Role::SnapshotStandby),
        ..not_applying()
    };
    let a = assess(&pair, 120);
    assert!(!has(&a, "apply-stopped"), "{:?}", ids(&a));
    let f = get(&a, "apply-off").expect("apply-off");
    assert_eq!(f.severity, Severity::Info);
    assert!(f.title.contains("snapshot standby"), "{}", f.title);
    assert_eq!(a.status(), Status::Ok, "{:?}", ids(&a));
    // The very same standby as a physical standby is stopped: CRIT.
    let stopped = assess(&not_applying(), 120);
    assert!(has(&stopped, "apply-stopped"), "{:?}", ids(&stopped));
    assert!(!has(&stopped, "apply-off"));
}

/// DGMGRL `show database` prints "Intended State: APPLY-OFF" during maintenance and raises
/// no alarm; neither does dgscope.
#[test]
fn broker_apply_off_is_info_and_a_cancel_logged_as_ora_16037_is_too() {
    let broker = Pair {
        intended_state: Some("APPLY-OFF".into()),
        ..not_applying()
    };
    let a = assess(&broker, 120);
    assert!(!has(&a, "apply-stopped"), "{:?}", ids(&a));
    assert!(get(&a, "apply-off").is_some_and(|f| f.title.contains("APPLY-OFF")));
    // "MRP0: Background Media Recovery cancelled with status 16037" then "Managed Standby
    // Recovery Canceled" (the alert log of a RECOVER MANAGED STANDBY DATABASE CANCEL).
    let cancelled = Pair {
        standby_messages: vec![(
            10,
            "Informational".into(),
            16037,
            "MRP0: Background Media Recovery cancelled with status 16037".into(),
        )],
        ..not_applying()
    };
    let c = assess(&cancelled, 120);
    assert!(has(&c, "apply-off"), "{:?}", ids(&c));
    assert!(!has(&c, "apply-stopped"), "{:?}", ids(&c));
    // An error after the cancel means it is stopped by the error, not off by design.
    let then_error = Pair {
        standby_messages: vec![
            (
                10,
                "Informational".into(),
                16037,
                "MRP0: Background Media Recovery cancelled with status 16037".into(),
            ),
            (
                40,
                "Error".into(),
                1274,
                "MRP0: Background Media Recovery terminated with error 1274".into(),
            ),
        ],
        ..not_applying()
    };
    let e = assess(&then_error, 120);
    assert!(has(&e, "apply-stopped"), "{:?}", ids(&e));
    assert!(!has(&e, "apply-off"), "{:?}", ids(&e));
}

/// "Sometimes Archive Gap is Just Temporary" (logic.edchen.org): `V$ARCHIVE_GAP` lists
/// 113187..113187 while MRP0 is `APPLYING_LOG` 113187 and the log is archived. Here the
/// sequence is MRP0's (800 in the test kit). Not a missing log.
#[test]
fn a_gap_row_for_the_sequence_mrp0_applies_is_transient_not_missing() {
    let pair = Pair {
        gaps: vec![Gap {
            thread: 1,
            low: 800,
            high: 800,
        }],
        apply_lag_s: 20.0,
        ..Pair::default()
    };
    let a = assess(&pair, 120);
    assert!(!has(&a, "apply-waiting-for-gap"), "{:?}", ids(&a));
    assert!(a.findings.iter().all(|f| f.severity == Severity::Info));
    // A gap past what MRP0 applies, there for the whole hold, is missing logs.
    let stuck = Pair {
        gaps: vec![Gap {
            thread: 1,
            low: 801,
            high: 802,
        }],
        ..pair.clone()
    };
    assert!(
        !has(&assess(&stuck, 20), "apply-waiting-for-gap"),
        "not at once"
    );
    let s = assess(&stuck, 90);
    let f = get(&s, "apply-waiting-for-gap").expect("raised once it lasted");
    assert!(f.title.contains("2 missing"), "{}", f.title);
}

/// The SYNC link drops (review M2: `protection-resync` during NET_TIMEOUT): the destination
/// still says VALID while nothing moves, and the transport lag grows 1 s/s. Never bandwidth.
#[test]
fn a_stalled_sync_link_is_never_transport_bandwidth_and_lag_high_says_why() {
    let pair = Pair {
        transport_lag_s: 2.0,
        apply_lag_s: 2.0,
        transport_lag_growth: 1.0,
        apply_lag_growth: 1.0,
        ..Pair::default()
    };
    let a = assess(&pair, 90);
    assert!(!has(&a, "transport-bandwidth"), "{:?}", ids(&a));
    let f = get(&a, "lag-high").expect("a 92 s transport lag pages");
    assert!(
        f.title
            .contains("SYNC destination is VALID but nothing arrives"),
        "{}",
        f.title
    );
    assert_eq!(f.severity, Severity::Warn, "92 s < 4 × 30 s");
    // The same under ASYNC with 70 % shipped is the link's, and lag-high names it.
    let asynchronous = Pair {
        sync: false,
        remote_ms: None,
        transport_lag_growth: 0.3,
        apply_lag_growth: 0.3,
        transport_lag_s: 20.0,
        apply_lag_s: 20.0,
        ..Pair::default()
    };
    let b = assess(&asynchronous, 90);
    let lag = get(&b, "lag-high").expect("lag-high");
    assert_eq!(lag.caused_by, Some("transport-bandwidth"), "{}", lag.title);
    assert_eq!(b.findings[0].id, "transport-bandwidth", "{:?}", ids(&b));
}

/// A standby back after two days, applying at 3× real time (its apply finish time as
/// `V$DATAGUARD_STATS` reports it): `lag-high` CRIT with the ETA, and nothing blames the
/// link, apply speed or a stopped apply.
#[test]
fn a_standby_catching_up_is_lag_high_with_an_eta_and_nothing_else_blamed() {
    let pair = Pair {
        sync: false,
        remote_ms: None,
        transport_lag_s: 1.0,
        apply_lag_s: 172_800.0,
        apply_lag_growth: -2.0,
        apply_finish_s: Some(86_400.0),
        apply_mb_s: 75.0,
        ..Pair::default()
    };
    let a = assess(&pair, 120);
    let f = get(&a, "lag-high").expect("a 2-day lag is never OK");
    assert_eq!(f.severity, Severity::Crit);
    assert_eq!(a.findings[0].id, "lag-high", "{:?}", ids(&a));
    assert!(
        f.title.contains("catching up, done in ≈ 1d00h"),
        "{}",
        f.title
    );
    for id in ["apply-bound", "apply-stopped", "transport-bandwidth"] {
        assert!(!has(&a, id), "{id}: {:?}", ids(&a));
    }
    assert_eq!(a.status(), Status::Crit);
}

/// "apply lag +00 08:03:01" with DELAY=480 (Database Specialists, September 2007): net of
/// the delay the lag is 3 min, under the threshold; the same lag without a delay pages.
#[test]
fn lag_high_judges_apply_lag_net_of_delay() {
    let delayed = Pair {
        delay_mins: 480,
        apply_lag_s: 28_981.0,
        ..Pair::default()
    };
    let a = assess(&delayed, 90);
    assert!(!has(&a, "lag-high"), "{:?}", ids(&a));
    let undelayed = Pair {
        delay_mins: 0,
        ..delayed
    };
    let b = assess(&undelayed, 90);
    let f = get(&b, "lag-high").expect("8 h without a delay pages");
    assert_eq!(f.severity, Severity::Crit);
}

/// Just below and above the transport threshold, for the hold.
#[test]
fn lag_high_holds_its_threshold_and_names_a_deferred_destination_as_the_cause() {
    let below = Pair {
        sync: false,
        remote_ms: None,
        transport_lag_s: 29.0,
        apply_lag_s: 29.0,
        ..Pair::default()
    };
    assert!(!has(&assess(&below, 90), "lag-high"));
    let deferred = Pair {
        dest_status: DestStatus::Deferred,
        transport_lag_s: 31.0,
        apply_lag_s: 31.0,
        transport_lag_growth: 1.0,
        apply_lag_growth: 1.0,
        ..below
    };
    let a = assess(&deferred, 90);
    let f = get(&a, "lag-high").expect("lag-high");
    assert_eq!(f.caused_by, Some("dest-deferred"));
    assert_eq!(
        a.findings[0].id,
        "dest-deferred",
        "the root first: {:?}",
        ids(&a)
    );
}

/// `V$DATABASE` of a FSFO configuration whose ASYNC target is over the lag limit, and one
/// whose observer is gone (`FS_FAILOVER_OBSERVER_PRESENT = NO`).
#[test]
fn fsfo_not_ready_warns_over_the_lag_limit_and_is_crit_without_observer() {
    let over = Pair {
        fsfo: Some(("TARGET OVER LAG LIMIT".into(), true, 30)),
        ..Pair::default()
    };
    let a = assess(&over, 90);
    let f = get(&a, "fsfo-not-ready").expect("fsfo-not-ready");
    assert_eq!(f.severity, Severity::Warn);
    assert!(f.title.contains("TARGET OVER LAG LIMIT"), "{}", f.title);
    let no_observer = Pair {
        fsfo: Some(("SYNCHRONIZED".into(), false, 30)),
        ..Pair::default()
    };
    let b = assess(&no_observer, 90);
    assert_eq!(
        get(&b, "fsfo-not-ready").map(|f| f.severity),
        Some(Severity::Crit)
    );
    for ready in ["SYNCHRONIZED", "TARGET UNDER LAG LIMIT", "DISABLED"] {
        let ok = Pair {
            fsfo: Some((ready.into(), true, 30)),
            ..Pair::default()
        };
        assert!(!has(&assess(&ok, 90), "fsfo-not-ready"), "{ready}");
    }
}

/// A NOLOGGING load: `V$DATAFILE.UNRECOVERABLE_CHANGE#` advancing while FORCE_LOGGING is NO.
#[test]
fn unrecoverable_changes_need_nologging_and_force_logging_off() {
    let nologging = Pair {
        force_logging: Some("NO".into()),
        unrecoverable: Some(vec![(7, 1_000_000, 50, 5)]),
        ..Pair::default()
    };
    let a = assess(&nologging, 60);
    let f = get(&a, "unrecoverable-changes").expect("unrecoverable-changes");
    assert_eq!(f.severity, Severity::Warn);
    assert!(f.title.contains("1 datafile"), "{}", f.title);
    // An old NOLOGGING change, long before, that has not moved: not news.
    let old = Pair {
        unrecoverable: Some(vec![(7, 1_000_000, 0, 86_400 * 30)]),
        ..nologging.clone()
    };
    assert!(!has(&assess(&old, 60), "unrecoverable-changes"));
    // FORCE LOGGING on: whatever the file says, the standby received the redo.
    let forced = Pair {
        force_logging: Some("YES".into()),
        ..nologging
    };
    assert!(!has(&assess(&forced, 60), "unrecoverable-changes"));
}
