//! The primary's own outages (catalog part 3): a recovery area full or filling, an archiver
//! that cannot archive, a frozen primary, log switches waiting for a checkpoint, sessions
//! waiting for the log buffer. The review's two synthetic cases are here: a primary whose
//! recovery area is 100 % full (once "OK, exit 0"), and a primary frozen on `log file switch
//! (archiving needed)` (once "UNKNOWN, warming up").

use super::assessment::Assessment;
use super::finding::{Finding, Severity, Status};
use super::testkit::{Pair, Run};
use super::CauseEngine;
use crate::metrics::Window;
use dgscope_model::sample::names::event;
use dgscope_model::sample::DestStatus;
use std::time::Duration;

const MIN: Window = Window::Last(Duration::from_secs(60));

/// Runs `before` for `secs_before` seconds, then `after` for `secs_after`.
fn assess_then(before: &Pair, secs_before: i64, after: &Pair, secs_after: i64) -> Assessment {
    let mut run = Run::default();
    let mut engine = CauseEngine::default();
    let mut last = Assessment::default();
    for k in 0..secs_before + secs_after {
        run.step(if k < secs_before { before } else { after });
        last = engine.assess(&run.engine, MIN);
    }
    last
}

fn assess(pair: &Pair, secs: i64) -> Assessment {
    assess_then(pair, 0, pair, secs)
}

fn ids(a: &Assessment) -> Vec<&'static str> {
    a.findings.iter().map(|f| f.id).collect()
}

fn get<'a>(a: &'a Assessment, id: &str) -> Option<&'a Finding> {
    a.findings.iter().find(|f| f.id == id)
}

/// The `healthy-async` shape: ASYNC, no SYNC remote write.
fn healthy_async() -> Pair {
    Pair {
        sync: false,
        affirm: false,
        remote_ms: None,
        ..Pair::default()
    }
}

/// No redo, no commits, no LGWR writes: the primary is frozen (or idle).
fn frozen(waits: Vec<(&'static str, f64, f64)>) -> Pair {
    Pair {
        tps: 0.0,
        writes_per_s: 0.0,
        redo_mb_s: 0.0,
        primary_waits: waits,
        ..healthy_async()
    }
}

/// 200 sessions waiting on `log file switch (archiving needed)`, each wait timing out
/// after a second: 200 waits and 200 s waited per second.
fn archiving_needed() -> Vec<(&'static str, f64, f64)> {
    vec![(event::LOG_FILE_SWITCH_ARCHIVING_NEEDED, 200.0, 1000.0)]
}

/// A MANDATORY destination in error holds every online log: the primary cannot archive, and
/// the finding names the destination with its error. The same destination OPTIONAL is the
/// transport's problem only (`dest-error`), not the primary's.
#[test]
fn a_failing_mandatory_destination_means_the_primary_cannot_archive() {
    let failing = |binding| Pair {
        dest_status: DestStatus::Error,
        dest_error: Some("ORA-12541: TNS:no listener".into()),
        dest_binding: Some(binding),
        ..healthy_async()
    };
    let a = assess(&failing("MANDATORY"), 40);
    let f = get(&a, "primary-archiving-stuck").unwrap_or_else(|| panic!("{:?}", ids(&a)));
    assert_eq!(f.severity, Severity::Crit);
    assert!(
        f.title
            .contains("MANDATORY destination 2 (prod_b) is in error"),
        "{}",
        f.title
    );
    assert!(f
        .evidence
        .iter()
        .any(|e| e.metric
            == "dest 2 prod_b BINDING MANDATORY, STATUS ERROR: ORA-12541: TNS:no listener"));
    let b = assess(&failing("OPTIONAL"), 40);
    assert!(
        get(&b, "primary-archiving-stuck").is_none(),
        "{:?}",
        ids(&b)
    );
    assert!(get(&b, "dest-error").is_some(), "{:?}", ids(&b));
}

/// Review C1, synthetic 1: the primary's recovery area 100 % of 2 TB, nothing reclaimable.
#[test]
fn a_full_primary_recovery_area_is_crit_not_ok() {
    let pair = Pair {
        primary_fra: Some((2048, 100.0, 0.0)),
        ..healthy_async()
    };
    let a = assess(&pair, 120);
    assert_eq!(a.status(), Status::Crit, "{:?}", ids(&a));
    assert_eq!(ids(&a)[0], "primary-archiving-stuck");
    let f = get(&a, "primary-archiving-stuck").unwrap();
    assert!(f.title.contains("100.0 %"), "{}", f.title);
    // One outage, one finding: the area's own finding defers to the stuck archiver.
    assert!(get(&a, "primary-fra-full").is_none(), "{:?}", ids(&a));
    // Advice never deletes logs a standby still needs.
    assert!(f.advice.iter().any(|x| x.contains("DELETION POLICY")));
    assert!(f.advice.iter().any(|x| x.contains("Never remove")));
}

/// Review C1, synthetic 2: frozen from minute 2, 200 s/s of `log file switch (archiving
/// needed)`; judged on the whole run and on the last three minutes alone.
#[test]
fn a_frozen_primary_is_crit_never_warming_up() {
    let a = assess_then(&healthy_async(), 120, &frozen(archiving_needed()), 180);
    assert!(!a.warming_up);
    assert_eq!(a.status(), Status::Crit, "{:?}", ids(&a));
    assert_eq!(ids(&a)[0], "primary-archiving-stuck", "{:?}", ids(&a));
    let hung = get(&a, "primary-hung").expect("primary-hung");
    assert_eq!(hung.severity, Severity::Crit);
    assert_eq!(hung.caused_by, Some("primary-archiving-stuck"));
    assert!(hung.title.contains("log file switch (archiving needed)"));
    // The last three minutes only: no commit at all in the data.
    let last3 = assess(&frozen(archiving_needed()), 180);
    assert!(!last3.warming_up);
    assert_eq!(last3.status(), Status::Crit, "{:?}", ids(&last3));
    assert!(get(&last3, "primary-hung").is_some(), "{:?}", ids(&last3));
}

/// An idle primary (no commits, no stall waits) is still "warming up" for the rates, and
/// never "hung".
#[test]
fn an_idle_primary_is_not_hung() {
    let a = assess(&frozen(vec![]), 120);
    assert!(a.warming_up);
    assert!(get(&a, "primary-hung").is_none(), "{:?}", ids(&a));
    assert_eq!(a.status(), Status::Unknown);
    // A few seconds of switch waits in a window without commits are not a hang.
    let brief = assess(
        &frozen(vec![(event::LOG_FILE_SWITCH_COMPLETION, 1.0, 50.0)]),
        120,
    );
    assert!(get(&brief, "primary-hung").is_none(), "{:?}", ids(&brief));
}

/// A frozen primary on checkpoints names checkpoint-incomplete as the cause of the hang.
#[test]
fn a_primary_frozen_on_checkpoints_is_hung_by_checkpoint_incomplete() {
    let a = assess(
        &frozen(vec![(
            event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE,
            40.0,
            1000.0,
        )]),
        120,
    );
    let hung = get(&a, "primary-hung").expect("primary-hung");
    assert_eq!(hung.caused_by, Some("checkpoint-incomplete"));
    // The cause ranks first, at the severity of the hang it causes.
    assert_eq!(ids(&a)[0], "checkpoint-incomplete");
    assert_eq!(a.status(), Status::Crit);
}

#[test]
fn a_filling_primary_recovery_area_warns_with_its_time_to_full() {
    let pair = Pair {
        primary_fra: Some((64, 86.0, 0.0)),
        primary_fra_pct_per_min: 2.0,
        ..healthy_async()
    };
    let a = assess(&pair, 240);
    let f = get(&a, "primary-fra-full").expect("primary-fra-full");
    assert_eq!(f.severity, Severity::Warn);
    // 92 % after 3 reads, 2 % a minute: 4 minutes to full.
    assert!(f.title.contains("92.0 %"), "{}", f.title);
    assert!(f.title.contains("full in about"), "{}", f.title);
    let to_full = f
        .evidence
        .iter()
        .find(|e| e.metric.starts_with("time until"))
        .expect("time to full");
    assert!(
        (200.0..=280.0).contains(&to_full.value),
        "{}",
        to_full.value
    );
    assert!(get(&a, "primary-archiving-stuck").is_none());
    let crit = Pair {
        primary_fra: Some((64, 98.0, 0.0)),
        ..healthy_async()
    };
    let c = assess(&crit, 60);
    assert_eq!(
        get(&c, "primary-fra-full").map(|f| f.severity),
        Some(Severity::Crit)
    );
    // Reclaimable space does not count: 95 % used, 30 % reclaimable is fine.
    let ok = Pair {
        primary_fra: Some((64, 95.0, 30.0)),
        ..healthy_async()
    };
    assert!(get(&assess(&ok, 60), "primary-fra-full").is_none());
}

#[test]
fn archiver_error_messages_alone_say_the_primary_cannot_archive() {
    let pair = Pair {
        primary_messages: vec![(
            30,
            "Error".into(),
            16038,
            "ORA-16038: log 3 sequence# 1260 cannot be archived".into(),
        )],
        ..healthy_async()
    };
    let a = assess(&pair, 60);
    let f = get(&a, "primary-archiving-stuck").expect("stuck");
    assert!(f.title.contains("ORA-16038"), "{}", f.title);
    // An 85 % warning is no archiver error.
    let warn = Pair {
        primary_messages: vec![(
            30,
            "Warning".into(),
            19815,
            "ORA-19815: WARNING: db_recovery_file_dest_size of 4294967296 bytes is 85.00% used, and has 644245094 remaining bytes available.".into(),
        )],
        ..healthy_async()
    };
    assert!(get(&assess(&warn, 60), "primary-archiving-stuck").is_none());
}

#[test]
fn checkpoint_incomplete_warns_and_a_quick_switch_does_not() {
    let mut pair = healthy_async();
    pair.primary_waits = vec![(event::LOG_FILE_SWITCH_CHECKPOINT_INCOMPLETE, 0.5, 800.0)];
    let a = assess(&pair, 90);
    let f = get(&a, "checkpoint-incomplete").expect("checkpoint-incomplete");
    assert_eq!(f.severity, Severity::Warn);
    assert!(f.title.contains("checkpoint incomplete"), "{}", f.title);
    assert!(get(&a, "primary-hung").is_none());
    // A switch of a few milliseconds now and then is normal.
    pair.primary_waits = vec![(event::LOG_FILE_SWITCH_COMPLETION, 0.2, 3.0)];
    assert!(get(&assess(&pair, 90), "checkpoint-incomplete").is_none());
    // A slow switch that costs sessions 5 % of the window is not.
    pair.primary_waits = vec![(event::LOG_FILE_SWITCH_COMPLETION, 0.5, 100.0)];
    assert!(get(&assess(&pair, 90), "checkpoint-incomplete").is_some());
}

#[test]
fn log_buffer_space_warns_from_one_percent() {
    let mut pair = healthy_async();
    pair.primary_waits = vec![(event::LOG_BUFFER_SPACE, 2.0, 10.0)];
    let a = assess(&pair, 90);
    let f = get(&a, "log-buffer-space").expect("log-buffer-space");
    assert_eq!(f.severity, Severity::Warn);
    assert!(f.evidence.iter().any(|e| e.metric == "log_buffer"));
    pair.primary_waits = vec![(event::LOG_BUFFER_SPACE, 1.0, 5.0)];
    assert!(get(&assess(&pair, 90), "log-buffer-space").is_none());
}

// Fixtures: published outputs of stuck archivers and full recovery areas, as the rows
// dgscope reads (`V$RECOVERY_FILE_DEST` on the primary, the primary's Data Guard status).

fn error(at: i64, code: i64, text: &str) -> (i64, String, i64, String) {
    (at, "Error".into(), code, text.into())
}

/// https://syedanwarahmedoracle.blog/tag/oracle-19c/ ("ORA-00257: Archiver Error in Oracle
/// 19c CDB"): `V$RECOVERY_FILE_DEST` +RECO, limit 4,095.00 GB, used 4,075.65 GB,
/// reclaimable .00, 2426 files, while sessions got "ORA-00257: Archiver error. Connect AS
/// SYSDBA only until resolved."
#[test]
fn fixture_19c_recovery_area_at_99_5_percent_with_ora_00257() {
    let used = 4075.65 / 4095.0 * 100.0;
    let area = Pair {
        primary_fra: Some((4095, used, 0.0)),
        ..healthy_async()
    };
    // The area alone: CRIT at 99.5 %, before any message.
    let a = assess(&area, 60);
    let f = get(&a, "primary-fra-full").expect("primary-fra-full");
    assert_eq!(f.severity, Severity::Crit);
    assert!(f.title.contains("99.5 %"), "{}", f.title);
    // With the archiver's error, the primary cannot archive: one finding for the outage.
    let stuck = Pair {
        primary_messages: vec![error(
            20,
            257,
            "ORA-00257: Archiver error. Connect AS SYSDBA only until resolved.",
        )],
        ..area
    };
    let s = assess(&stuck, 60);
    assert_eq!(ids(&s)[0], "primary-archiving-stuck", "{:?}", ids(&s));
    assert!(get(&s, "primary-fra-full").is_none());
    let f = get(&s, "primary-archiving-stuck").unwrap();
    assert!(f.evidence.iter().any(|e| e.metric.contains("ORA-00257")));
}

/// http://jhdba.wordpress.com/2008/07/16/25/ ("ORA-19809: limit exceeded for recovery
/// files"): the alert log's ORA-19815 at 100.00 % with 0 bytes left, ORA-19809, ORA-19804
/// and "ARCH: Error 19809 Creating archive log file to '+FRA'" on a 40 GB area.
#[test]
fn fixture_alert_lines_of_a_full_area_at_100_percent() {
    let pair = Pair {
        primary_messages: vec![
            error(
                20,
                19815,
                "ORA-19815: WARNING: db_recovery_file_dest_size of 42949672960 bytes is 100.00% used, and has 0 remaining bytes available.",
            ),
            error(20, 19809, "ORA-19809: limit exceeded for recovery files"),
            error(
                20,
                19804,
                "ORA-19804: cannot reclaim 1063256064 bytes disk space from 42949672960 limit",
            ),
            error(20, 19809, "ARCH: Error 19809 Creating archive log file to '+FRA'"),
        ],
        ..healthy_async()
    };
    let a = assess(&pair, 60);
    let f = get(&a, "primary-archiving-stuck").expect("stuck");
    assert_eq!(f.severity, Severity::Crit);
    assert_eq!(a.status(), Status::Crit);
    // The newest message names it in the title; the evidence keeps the last three.
    assert!(f.title.contains("Error 19809"), "{}", f.title);
    assert!(
        f.evidence
            .iter()
            .filter(|e| e.source == "V$DATAGUARD_STATUS")
            .count()
            == 3
    );
}

/// http://www.beyondoracle.com/2008/10/11/archivelog-ora-16014-log-sequence-not-archived/
/// (a 2 GB default recovery area full: "ORA-16038: log one sequence 3144 cannot be
/// archived", "ORA-19809: limit exceeded for recovery files") and
/// https://vkarthickeyan.wordpress.com/2012/05/09/database-startup-fails-with-error-ora-16038ora-19809-ora-00312/
/// ("ORA-16038: log 3 sequence# 572 cannot be archived").
#[test]
fn fixture_ora_16038_says_the_log_cannot_be_archived() {
    for text in [
        "ORA-16038: log one sequence 3144 cannot be archived",
        "ORA-16038: log 3 sequence# 572 cannot be archived",
    ] {
        let pair = Pair {
            primary_messages: vec![
                error(20, 16038, text),
                error(20, 19809, "ORA-19809: limit exceeded for recovery files"),
            ],
            primary_fra: Some((2, 100.0, 0.0)),
            ..healthy_async()
        };
        let a = assess(&pair, 60);
        let f = get(&a, "primary-archiving-stuck").expect("stuck");
        assert!(
            f.evidence.iter().any(|e| e.metric.contains("ORA-16038")),
            "{text}"
        );
        assert!(f.title.contains("100.0 %"), "{}", f.title);
    }
}

/// https://enriqueorbegozo.com/en/blog/schrodinger-fast-recovery-area: `V$RECOVERY_FILE_DEST`
/// +FRA01 4,096.00 GiB limit, 2,711.05 used, 1.32 reclaimable, 2,143 files: 66 %, no alarm.
#[test]
fn fixture_a_two_thirds_full_area_is_fine() {
    let pair = Pair {
        primary_fra: Some((4096, 2711.05 / 4096.0 * 100.0, 1.32 / 4096.0 * 100.0)),
        ..healthy_async()
    };
    let a = assess(&pair, 60);
    assert!(get(&a, "primary-fra-full").is_none(), "{:?}", ids(&a));
    assert!(get(&a, "primary-archiving-stuck").is_none());
}
