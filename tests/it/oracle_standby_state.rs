//! The standby's state through the fake driver, per release: destination identity and
//! state, process delay and instance, the lag figures of MRP0's instance, archive gaps, the
//! recovery area, Data Guard messages (each once) and foreground waits; and what a missing
//! grant or a missing column on one of these parts does to the rest of the sample.

use crate::common;

use common::*;
use dgscope::sample::{DestStatus, DgMessage, Gap, Sample, Slot};
use dgscope::source::oracle::connect::Privilege;
use dgscope::source::oracle::fake::{vrow, FakeDriver};
use dgscope::source::oracle::scenarios::{
    primary, primary_dest_deferred, primary_nologging, primary_with_delay, rac_standby, standby,
    standby_gap_fra_full, standby_with_delay, Release,
};
use dgscope::source::oracle::OraError;
use dgscope::source::SourceEvent;
use dgscope::timestamp::Timestamp;
use dgscope::units::{Micros, Secs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const P: &str = "//dbhost1:1521/prod_a";
const S: &str = "//dbhost2:1521/prod_b";

const ALL: [Release; 5] = [
    Release::R11_2,
    Release::R12_1_0_1,
    Release::R12_1,
    Release::R12_2,
    Release::R19,
];

fn run(
    slot: &'static str,
    db: dgscope::source::oracle::fake::FakeDb,
    n: usize,
) -> (FakeDriver, Vec<SourceEvent>) {
    let d = FakeDriver::new();
    let (conn, privilege, s) = if slot == "primary" {
        (P, Privilege::Normal, Slot::primary())
    } else {
        (S, Privilege::Sysdg, Slot::standby())
    };
    d.add(conn, db);
    let ev = collect(
        &d,
        vec![target(s, &format!("mon@{conn}"), privilege)],
        |_| {},
        until_good(slot, n),
    );
    (d, ev)
}

fn texts(msgs: &[DgMessage]) -> Vec<&str> {
    msgs.iter().map(|m| m.message.as_str()).collect()
}

fn all_messages<'a>(samples: &[&'a Sample]) -> Vec<&'a DgMessage> {
    samples
        .iter()
        .flat_map(|s| s.dg_messages.iter().flatten())
        .collect()
}

#[test]
fn primary_destination_state_per_release() {
    for rel in ALL {
        let (_, ev) = run("primary", primary(rel, 1), 2);
        let s = good_samples(&ev, "primary");
        let d = &s[0].dests[0];
        assert_eq!(d.db_unique_name.as_deref(), Some("prod_b"), "{rel:?}");
        assert_eq!(d.dest_type.as_deref(), Some("PHYSICAL"), "{rel:?}");
        assert_eq!(d.delay_mins, Some(0), "{rel:?}: 0 is read, not absent");
        assert_eq!(d.recovery_mode.as_deref(), Some("MANAGED REAL TIME APPLY"));
        assert_eq!(d.database_mode.as_deref(), Some("MOUNTED-STANDBY"));
        assert_eq!((d.srl_count, d.srl_active), (Some(4), Some(1)), "{rel:?}");
        // The contract has SYNCHRONIZATION_STATUS from 12.1: 11.2 does not read it.
        let want = (rel != Release::R11_2).then_some("OK");
        assert_eq!(d.synchronization_status.as_deref(), want, "{rel:?}");

        let lfs = &s[0].events["log file sync"];
        assert_eq!(lfs.waits_fg, Some(lfs.waits), "{rel:?}");
        assert_eq!(lfs.us_fg, Some(lfs.us));
        let lfpw = &s[0].events["log file parallel write"];
        assert_eq!((lfpw.waits_fg, lfpw.us_fg), (Some(0), Some(Micros(0))));

        // The recovery area on the slow tick only; gaps are a standby's.
        let fra = s[0].fra.expect("fra on the first (slow) sample");
        assert_eq!(fra.limit_bytes, 536_870_912_000);
        assert_eq!(fra.used_bytes, 134_217_728_000);
        assert_eq!(fra.reclaimable_bytes, 21_474_836_480);
        assert_eq!(fra.files, Some(310));
        assert!(s[1].fra.is_none(), "not read on a fast tick");
        assert!(s[0].gaps.is_none());

        // Messages of the last five minutes (the 05:40 one is older), then none new.
        let m = s[0].dg_messages.as_ref().unwrap();
        assert_eq!(m.len(), 2, "{rel:?}: {:?}", texts(m));
        assert!(m[0].message.contains("sequence 811"));
        assert_eq!(m[0].facility.as_deref(), Some("Log Transport Services"));
        assert_eq!(m[0].severity, "Informational");
        assert_eq!((m[0].error_code, m[0].dest_id), (Some(0), Some(0)));
        // 05:58:10 in the database's zone (UTC+1).
        assert_eq!(
            m[0].time,
            dgscope::timestamp::Timestamp::parse("2026-11-30T04:58:10Z").unwrap()
        );
        assert_eq!(
            s[1].dg_messages.as_deref(),
            Some(&[][..]),
            "read, nothing new"
        );
    }
}

#[test]
fn a_rac_primary_keeps_each_instance_s_messages_and_one_destination() {
    let (_, ev) = run("primary", primary(Release::R19, 2), 1);
    let s = good_samples(&ev, "primary")[0];
    assert_eq!(s.dests.len(), 1);
    assert_eq!(s.dests[0].srl_count, Some(4));
    assert_eq!(s.dg_messages.as_ref().unwrap().len(), 4, "2 per instance");
    let lfs = &s.events["log file sync"];
    assert_eq!(lfs.waits_fg, Some(3_000_000), "summed over instances");
}

#[test]
fn standby_processes_lags_and_state_per_release() {
    for rel in ALL {
        let (_, ev) = run("standby", standby(rel, "MOUNTED"), 2);
        let s = good_samples(&ev, "standby");
        let mrp = s[0].processes.iter().find(|p| p.name == "MRP0").unwrap();
        assert_eq!(mrp.delay_mins, Some(0), "{rel:?}");
        assert_eq!(mrp.inst_id, Some(1), "{rel:?}");
        let dg = s[0].dg.as_ref().unwrap();
        assert_eq!(dg.inst_id, Some(1), "{rel:?}");
        assert_eq!(dg.apply_lag_s, Some(Secs(3.0)));
        assert_eq!(s[0].gaps.as_deref(), Some(&[][..]), "{rel:?}: read, no gap");
        assert_eq!(s[1].gaps.as_deref(), Some(&[][..]), "gaps every sample");
        assert!(s[0].fra.is_some() && s[1].fra.is_none());
        let m = s[0].dg_messages.as_ref().unwrap();
        assert_eq!(
            texts(m),
            [
                "Media Recovery Log +RECO/PROD_B/ARCHIVELOG/2026_11_30/thread_1_seq_812.301.1187654321",
                "Media Recovery Waiting for thread 1 sequence 813 (in transit)",
            ],
            "{rel:?}"
        );
        assert_eq!(m[1].facility.as_deref(), Some("Log Apply Services"));
        let rfs = &s[0].events["RFS random i/o"];
        assert_eq!(rfs.waits_fg, Some(0), "RFS waits are background waits");
    }
}

#[test]
fn the_state_parts_travel_in_the_one_statement_per_sample() {
    for rel in [Release::R11_2, Release::R19] {
        let (d, ev) = run("standby", standby(rel, "MOUNTED"), 3);
        let n = good_samples(&ev, "standby").len();
        let log = d.log();
        // The probe's statements (two on 11.2, three with VERSION_FULL), then one a sample.
        let probes = log
            .statements
            .iter()
            .take_while(|(_, q)| !q.contains("UNION ALL"))
            .count();
        assert_eq!(probes, if rel == Release::R19 { 3 } else { 2 });
        let per_sample: Vec<&String> = log.statements[probes..].iter().map(|(_, q)| q).collect();
        assert!(per_sample.len() >= n, "{rel:?}");
        for q in &per_sample {
            for view in [
                "FROM v$archive_gap",
                "FROM gv$dataguard_status",
                "FROM gv$dataguard_stats",
            ] {
                assert!(q.contains(view), "{rel:?}: {view} missing");
            }
            assert!(q.contains("UNION ALL"));
        }
        // The recovery area comes with the slow parts of the first statement only.
        assert!(per_sample[0].contains("FROM v$recovery_file_dest"));
        assert!(!per_sample[1].contains("FROM v$recovery_file_dest"));
    }
}

#[test]
fn a_standby_behind_a_full_recovery_area_per_release() {
    for rel in ALL {
        let (_, ev) = run("standby", standby_gap_fra_full(rel), 1);
        let s = good_samples(&ev, "standby")[0];
        let dg = s.dg.as_ref().unwrap();
        assert_eq!(dg.transport_lag_s, None, "{rel:?}: NULL stays unknown");
        assert_eq!(dg.apply_lag_s, Some(Secs(147_600.0)), "+01 17:00:00");
        let mrp = s.processes.iter().find(|p| p.name == "MRP0").unwrap();
        assert_eq!(mrp.action.as_deref(), Some("WAIT_FOR_GAP"), "{rel:?}");
        assert_eq!(mrp.sequence, Some(2542));
        let gaps = s.gaps.as_ref().unwrap();
        assert_eq!(
            gaps,
            &vec![Gap {
                thread: 1,
                low: 2542,
                high: 2550
            }]
        );
        assert_eq!(gaps[0].missing(), 9);
        let fra = s.fra.unwrap();
        let pct = fra.used_net_pct().unwrap();
        assert!((pct - 99.0).abs() < 0.01, "{pct}");
        let m = s.dg_messages.as_ref().unwrap();
        let full = m.iter().find(|m| m.error_code == Some(19815)).unwrap();
        assert!(full.is_error(), "{rel:?}");
        assert_eq!(full.facility.as_deref(), Some("Remote File Server"));
        assert_eq!(full.dest_id, Some(0));
        assert!(full.message.starts_with("ORA-19815: WARNING"));
        assert!(m
            .iter()
            .any(|m| m.message.contains("No standby redo logfiles available")));
        // The contract's JSON names.
        let line = serde_json::to_string(s).unwrap();
        assert!(line.contains(r#""gaps":[{"thread":1,"low":2542,"high":2550}]"#));
        assert!(line.contains(r#""limit_bytes":107374182400"#));
        assert!(line.contains(r#""error_code":19815"#));
    }
}

#[test]
fn a_deferred_destination_and_every_other_status_keep_their_spelling() {
    for rel in [Release::R11_2, Release::R19] {
        let (_, ev) = run("primary", primary_dest_deferred(rel), 1);
        let s = good_samples(&ev, "primary")[0];
        assert_eq!(
            s.dests.len(),
            1,
            "{rel:?}: a deferred dest is still watched"
        );
        assert_eq!(s.dests[0].status, DestStatus::Deferred);
        assert_eq!(
            s.params.as_ref().unwrap()["log_archive_dest_state_2"],
            "DEFER"
        );
    }
    // 19c adds IDLE; a spelling dgscope has no name for is kept as Oracle wrote it.
    for status in ["BAD PARAM", "IDLE", "SOMETHING NEW"] {
        let mut db = primary(Release::R19, 1);
        for r in db.view("V$ARCHIVE_DEST") {
            if r.get("DEST_ID").map(String::as_str) == Some("2") {
                r.insert("STATUS".into(), status.into());
            }
        }
        let (_, ev) = run("primary", db, 1);
        let d = &good_samples(&ev, "primary")[0].dests[0];
        assert_eq!(d.status.as_str(), status);
        let json = serde_json::to_string(d).unwrap();
        assert!(json.contains(&format!(r#""status":"{status}""#)), "{json}");
    }
}

#[test]
fn an_apply_delay_shows_on_the_destination_and_on_mrp0() {
    for rel in ALL {
        let (_, ev) = run("primary", primary_with_delay(rel, 30), 1);
        let d = &good_samples(&ev, "primary")[0].dests[0];
        assert_eq!(d.delay_mins, Some(30), "{rel:?}");

        let (_, ev) = run("standby", standby_with_delay(rel, 30), 1);
        let s = good_samples(&ev, "standby")[0];
        let mrp = s.processes.iter().find(|p| p.name == "MRP0").unwrap();
        assert_eq!(mrp.delay_mins, Some(30), "{rel:?}");
        assert_eq!(s.dg.as_ref().unwrap().apply_lag_s, Some(Secs(1801.0)));
    }
    // Database Specialists, "Monitoring Standby Databases" (The Specialist, September
    // 2007, dbspecialists.com): with DELAY=480 the standby's apply lag read just over eight
    // hours (`+00 08:03:01`); the fixture's is eight hours and one second.
    let (_, ev) = run("standby", standby_with_delay(Release::R19, 480), 1);
    let s = good_samples(&ev, "standby")[0];
    assert_eq!(s.dg.as_ref().unwrap().apply_lag_s, Some(Secs(28_801.0)));
    assert_eq!(
        s.processes
            .iter()
            .find(|p| p.name == "MRP0")
            .unwrap()
            .delay_mins,
        Some(480)
    );
}

#[test]
fn a_rac_standby_reads_the_lag_of_the_instance_running_mrp0() {
    for rel in [Release::R11_2, Release::R12_2, Release::R19] {
        let (d, ev) = run("standby", rac_standby(rel, "MOUNTED"), 1);
        let s = good_samples(&ev, "standby")[0];
        assert_eq!(s.db.as_ref().unwrap().instances, Some(2));
        let mrp = s.processes.iter().find(|p| p.name == "MRP0").unwrap();
        assert_eq!(mrp.inst_id, Some(2), "{rel:?}");
        let mut rfs: Vec<Option<u32>> = s
            .processes
            .iter()
            .filter(|p| p.name == "RFS")
            .map(|p| p.inst_id)
            .collect();
        rfs.sort();
        assert_eq!(rfs, [Some(1), Some(2)]);
        let dg = s.dg.as_ref().unwrap();
        assert_eq!(dg.inst_id, Some(2), "{rel:?}: not the session's instance 1");
        assert_eq!(dg.apply_lag_s, Some(Secs(3.0)), "instance 1 says 600 s");
        assert!(
            s.recovery.is_some(),
            "V$RECOVERY_PROGRESS of MRP0's instance"
        );
        // MRP0's messages come from instance 2's V$DATAGUARD_STATUS.
        assert_eq!(s.dg_messages.as_ref().unwrap().len(), 2);
        assert!(d
            .log()
            .statements
            .iter()
            .any(|(_, q)| q.contains("FROM gv$dataguard_stats")));
    }
    // Without MRP0 (apply stopped) the session's own instance is read.
    let mut db = rac_standby(Release::R19, "MOUNTED");
    db.view("V$DATAGUARD_PROCESS")
        .retain(|r| r.get("NAME").map(String::as_str) != Some("MRP0"));
    let (_, ev) = run("standby", db, 1);
    let dg = good_samples(&ev, "standby")[0].dg.clone().unwrap();
    assert_eq!((dg.inst_id, dg.apply_lag_s), (Some(1), Some(Secs(600.0))));
}

#[test]
fn each_message_once_across_samples_even_across_a_reconnect() {
    let d = FakeDriver::new();
    let mut db = standby(Release::R19, "MOUNTED");
    // Every fourth query kills the session: the collector reconnects again and again.
    db.lose_after = Some((
        4,
        OraError::ora(3113, "end-of-file on communication channel"),
    ));
    d.add(S, db);
    let added = Arc::new(AtomicBool::new(false));
    let (d2, added2) = (d.clone(), Arc::clone(&added));
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Sysdg,
        )],
        |_| {},
        move |ev| {
            let n = good_samples(ev, "standby").len();
            if n >= 2 && !added2.swap(true, Ordering::SeqCst) {
                // A new message arrives between two samples.
                d2.update(S, |db| {
                    db.view("V$DATAGUARD_STATUS").push(vrow(&[
                        ("INST_ID", "1"),
                        ("FACILITY", "Log Apply Services"),
                        ("SEVERITY", "Error"),
                        ("DEST_ID", "0"),
                        ("MESSAGE_NUM", "203"),
                        ("ERROR_CODE", "1110"),
                        ("TIMESTAMP", "2026-11-30 05:59:59"),
                        (
                            "MESSAGE",
                            "ORA-01110: data file 7: '/u02/oradata/users02.dbf'",
                        ),
                    ]));
                });
            }
            n >= 6
        },
    );
    assert!(added.load(Ordering::SeqCst));
    let s = good_samples(&ev, "standby");
    assert!(
        samples(&ev, "standby").iter().any(|x| x.error.is_some()),
        "the session was lost at least once"
    );
    let msgs = all_messages(&s);
    let t: Vec<&str> = msgs.iter().map(|m| m.message.as_str()).collect();
    assert_eq!(t.len(), 3, "{t:?}");
    assert!(t[0].contains("seq_812") && t[1].contains("sequence 813"));
    assert!(t[2].starts_with("ORA-01110"));
    assert_eq!(msgs[2].error_code, Some(1110));
    // The new message came with a later sample than the first two.
    let first_with_new = s
        .iter()
        .position(|x| {
            x.dg_messages
                .iter()
                .flatten()
                .any(|m| m.error_code == Some(1110))
        })
        .unwrap();
    assert!(first_with_new >= 2, "{first_with_new}");
}

#[test]
fn a_restarted_instance_s_messages_are_new_again() {
    let d = FakeDriver::new();
    d.add(S, standby(Release::R19, "MOUNTED"));
    let restarted = Arc::new(AtomicBool::new(false));
    let (d2, r2) = (d.clone(), Arc::clone(&restarted));
    let ev = collect(
        &d,
        vec![target(
            Slot::standby(),
            &format!("mon@{S}"),
            Privilege::Sysdg,
        )],
        |_| {},
        move |ev| {
            let n = good_samples(ev, "standby").len();
            if n >= 2 && !r2.swap(true, Ordering::SeqCst) {
                // The instance restarts: a new startup time, the view starts again at 1.
                d2.update(S, |db| {
                    db.view("V$INSTANCE")[0]
                        .insert("STARTUP_TIME".into(), "2026-11-30 05:58:30".into());
                    let v = db.view("V$DATAGUARD_STATUS");
                    v.clear();
                    v.push(vrow(&[
                        ("INST_ID", "1"),
                        ("FACILITY", "Log Apply Services"),
                        ("SEVERITY", "Informational"),
                        ("DEST_ID", "0"),
                        ("MESSAGE_NUM", "1"),
                        ("ERROR_CODE", "0"),
                        ("TIMESTAMP", "2026-11-30 05:59:00"),
                        (
                            "MESSAGE",
                            "Managed Standby Recovery starting Real Time Apply",
                        ),
                    ]));
                });
            }
            // The collector may have sampled ahead of this callback, so samples taken before
            // the restart can still arrive: stop once the restarted instance's message came
            // (and give up after many samples), not after a fixed count.
            let samples = good_samples(ev, "standby");
            let seen = all_messages(&samples)
                .iter()
                .any(|m| m.message.contains("starting Real Time Apply"));
            (n >= 4 && seen) || n >= 60
        },
    );
    let msgs = all_messages(&good_samples(&ev, "standby"));
    assert_eq!(msgs.len(), 3, "{:?}", msgs);
    assert!(msgs[2].message.contains("starting Real Time Apply"));
}

#[test]
fn a_denied_state_view_keeps_the_rest_and_names_its_part_and_grant() {
    for (view, part, grant) in [
        ("V$ARCHIVE_GAP", "gaps", "SYS.V_$ARCHIVE_GAP"),
        ("V$RECOVERY_FILE_DEST", "fra", "SYS.V_$RECOVERY_FILE_DEST"),
        (
            "V$DATAGUARD_STATUS",
            "dg_messages",
            "SYS.GV_$DATAGUARD_STATUS",
        ),
    ] {
        let mut db = standby_gap_fra_full(Release::R19);
        db.denied.insert(view.into());
        let (_, ev) = run("standby", db, 2);
        for s in good_samples(&ev, "standby") {
            assert_eq!(s.errors.len(), 1, "{view}: {:?}", s.errors);
            let pe = &s.errors[0];
            assert_eq!((pe.part.as_str(), pe.code.as_str()), (part, "ORA-00942"));
            assert!(
                pe.message
                    .contains(&format!("GRANT SELECT ON {grant} TO mon;")),
                "{}",
                pe.message
            );
            // The rest of the sample is there; the denied part is absent, not empty.
            assert_eq!(s.dg.as_ref().unwrap().apply_lag_s, Some(Secs(147_600.0)));
            assert!(s.processes.iter().any(|p| p.name == "MRP0"));
            match part {
                "gaps" => assert!(s.gaps.is_none()),
                "fra" => assert!(s.fra.is_none()),
                _ => assert!(s.dg_messages.is_none()),
            }
            if part != "gaps" {
                assert_eq!(s.gaps.as_ref().unwrap().len(), 1);
            }
            if part != "dg_messages" {
                assert!(s.dg_messages.is_some());
            }
        }
    }
}

#[test]
fn a_release_without_delay_mins_in_v_dataguard_process_falls_back() {
    let mut db = standby_with_delay(Release::R12_2, 30);
    db.missing_columns.insert("delay_mins".into());
    let (d, ev) = run("standby", db, 2);
    for s in good_samples(&ev, "standby") {
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let mrp = s.processes.iter().find(|p| p.name == "MRP0").unwrap();
        assert_eq!(mrp.action.as_deref(), Some("APPLYING_LOG"));
        assert_eq!(mrp.delay_mins, None, "not read is absent, never 0");
        assert_eq!(mrp.inst_id, Some(1));
        assert!(s.gaps.is_some() && s.dg_messages.is_some());
    }
    let log = d.log();
    let last = &log.statements.last().unwrap().1;
    assert!(last.contains("gv$dataguard_process") && !last.contains("delay_mins"));
}

#[test]
fn a_release_without_synchronization_status_keeps_the_destinations() {
    let mut db = primary(Release::R19, 1);
    db.missing_columns.insert("s.synchronization_status".into());
    let (_, ev) = run("primary", db, 2);
    for s in good_samples(&ev, "primary") {
        assert!(s.errors.is_empty(), "{:?}", s.errors);
        let d = &s.dests[0];
        assert_eq!(d.synchronization_status, None);
        assert_eq!(d.recovery_mode.as_deref(), Some("MANAGED REAL TIME APPLY"));
        assert_eq!(d.srl_count, Some(4));
    }
}

#[test]
fn a_column_without_a_fallback_costs_its_part_only() {
    // TOTAL_WAITS_FG is in every release dgscope has SQL for, so it has no alternative: if
    // a database still rejects it, the events part is reported and the rest stays.
    let mut db = standby(Release::R19, "MOUNTED");
    db.missing_columns.insert("total_waits_fg".into());
    let (_, ev) = run("standby", db, 1);
    let s = good_samples(&ev, "standby")[0];
    assert!(s.events.is_empty());
    assert_eq!(s.errors.len(), 1);
    assert_eq!(
        (s.errors[0].part.as_str(), s.errors[0].code.as_str()),
        ("events", "ORA-00904")
    );
    assert!(s.dg.is_some() && s.gaps.is_some());
}

fn ts(s: &str) -> Timestamp {
    Timestamp::parse(s).unwrap()
}

/// The role-transition readiness of `V$DATABASE` on both roles, per release; the broker's
/// lag limit only where a fixed view has it (21c+), and never an intended state.
#[test]
fn role_transition_readiness_per_release() {
    for rel in ALL.into_iter().chain([Release::R21]) {
        let (d, ev) = run("primary", primary(rel, 1), 2);
        let s = good_samples(&ev, "primary");
        for x in &s {
            let db = x.db.as_ref().unwrap();
            assert_eq!(
                db.switchover_status.as_deref(),
                Some("TO STANDBY"),
                "{rel:?}"
            );
            assert_eq!(db.force_logging.as_deref(), Some("YES"), "{rel:?}");
            assert_eq!(db.flashback_on.as_deref(), Some("YES"), "{rel:?}");
            assert_eq!(db.intended_state, None, "{rel:?}: no fixed view has it");
            if rel == Release::R11_2 {
                // No broker: FSFO DISABLED, the NULL target and observer stay absent (not
                // "" and not false); the threshold is read as Oracle reports it.
                assert_eq!(db.dataguard_broker.as_deref(), Some("DISABLED"));
                assert_eq!(db.fs_failover_status.as_deref(), Some("DISABLED"));
                assert_eq!(db.fs_failover_target, None);
                assert_eq!(db.fs_failover_observer_present, None);
                assert_eq!(db.fs_failover_observer_host, None);
                assert_eq!(db.fs_failover_threshold_s, Some(0));
            } else {
                assert_eq!(db.dataguard_broker.as_deref(), Some("ENABLED"), "{rel:?}");
                assert_eq!(db.fs_failover_status.as_deref(), Some("SYNCHRONIZED"));
                assert_eq!(db.fs_failover_target.as_deref(), Some("prod_b"));
                assert_eq!(db.fs_failover_threshold_s, Some(30));
                assert_eq!(db.fs_failover_observer_present, Some(true));
                assert_eq!(db.fs_failover_observer_host.as_deref(), Some("obshost1"));
            }
            // The fixture's lag limit is 0 beside a threshold of 30: Some(0) is the right
            // row, absent before 21c.
            let want = (rel == Release::R21).then_some(0);
            assert_eq!(db.fs_failover_lag_limit_s, want, "{rel:?}");
        }
        let broker_view_read = d
            .log()
            .statements
            .iter()
            .any(|(_, q)| q.contains("v$dg_broker_property"));
        assert_eq!(broker_view_read, rel == Release::R21, "{rel:?}");
    }
    for rel in [Release::R11_2, Release::R19, Release::R21] {
        let (d, ev) = run("standby", standby(rel, "MOUNTED"), 2);
        let db = good_samples(&ev, "standby")[0].db.clone().unwrap();
        assert_eq!(db.switchover_status.as_deref(), Some("NOT ALLOWED"));
        assert_eq!(db.flashback_on.as_deref(), Some("NO"));
        assert_eq!(
            db.fs_failover_observer_present,
            (rel != Release::R11_2).then_some(true)
        );
        // The lag limit is read on the primary only.
        assert_eq!(db.fs_failover_lag_limit_s, None);
        assert!(d
            .log()
            .statements
            .iter()
            .all(|(_, q)| !q.contains("v$dg_broker_property")));
    }
}

/// A `NO` observer and an unexpected spelling: `NO` is false, anything else is not known.
#[test]
fn observer_present_no_is_false_and_an_odd_value_is_unknown() {
    for (value, want) in [("NO", Some(false)), ("UNKNOWN", None)] {
        let mut db = primary(Release::R19, 1);
        for r in db.view("V$DATABASE") {
            r.insert("FS_FAILOVER_OBSERVER_PRESENT".into(), value.into());
            r.insert("FS_FAILOVER_STATUS".into(), "UNSYNCHRONIZED".into());
        }
        let (_, ev) = run("primary", db, 1);
        let d = good_samples(&ev, "primary")[0].db.clone().unwrap();
        assert_eq!(d.fs_failover_observer_present, want, "{value}");
        assert_eq!(d.fs_failover_status.as_deref(), Some("UNSYNCHRONIZED"));
    }
}

/// REOPEN_SECS, MAX_FAILURE, FAILURE_COUNT, FAIL_DATE and BINDING of the remote destination,
/// single instance and RAC (the instance that failed names the count and the last failure).
#[test]
fn destination_retry_settings_and_failures() {
    for rel in ALL {
        let (_, ev) = run("primary", primary(rel, 1), 1);
        let dest = good_samples(&ev, "primary")[0].dests[0].clone();
        assert_eq!(dest.id, 2);
        assert_eq!(dest.reopen_secs, Some(300), "{rel:?}");
        assert_eq!(dest.max_failure, Some(0), "{rel:?}");
        assert_eq!(dest.failure_count, Some(0), "{rel:?}");
        assert_eq!(dest.fail_date, None, "{rel:?}: NULL until it fails");
        assert_eq!(dest.binding.as_deref(), Some("OPTIONAL"), "{rel:?}");
        assert!(!dest.is_mandatory());
    }
    let (_, ev) = run("primary", primary(Release::R19, 2), 1);
    let dest = good_samples(&ev, "primary")[0].dests[0].clone();
    assert_eq!(dest.failure_count, Some(3));
    // 05:58:40 in the database's zone (UTC+1).
    assert_eq!(dest.fail_date, Some(ts("2026-11-30T04:58:40Z")));
    assert_eq!(dest.reopen_secs, Some(300));
}

/// V$DATAFILE's unrecoverable changes: on the primary, on the slow tick only, `Some(empty)`
/// when every file is logged; never read on a standby.
#[test]
fn unrecoverable_changes_are_a_slow_part_of_the_primary() {
    for rel in [Release::R11_2, Release::R12_1, Release::R19] {
        let (d, ev) = run("primary", primary(rel, 1), 3);
        let s = good_samples(&ev, "primary");
        assert_eq!(s[0].unrecoverable.as_deref(), Some(&vec![]), "{rel:?}");
        assert!(s[1..].iter().all(|x| x.unrecoverable.is_none()), "{rel:?}");
        let log = d.log();
        let per_sample: Vec<&String> = log
            .statements
            .iter()
            .map(|(_, q)| q)
            .filter(|q| q.contains("UNION ALL"))
            .collect();
        assert!(per_sample[0].contains("FROM v$datafile"));
        assert!(per_sample[1..].iter().all(|q| !q.contains("v$datafile")));

        let d = FakeDriver::new();
        d.add(P, primary_nologging(rel));
        let (ev, n) = collect_counted(
            &d,
            vec![target(
                Slot::primary(),
                &format!("mon@{P}"),
                Privilege::Normal,
            )],
            |_| {},
            until_good("primary", 2),
        );
        let first = good_samples(&ev, "primary")[0].clone();
        let u = first.unrecoverable.as_deref().unwrap();
        assert_eq!(
            u.iter()
                .map(|x| (x.file, x.change, x.time))
                .collect::<Vec<_>>(),
            vec![
                (14, 5_965_284_131, Some(ts("2026-11-30T04:41:12Z"))),
                (32, 5_965_290_077, None),
            ],
            "{rel:?}"
        );
        assert_eq!(
            first.db.as_ref().unwrap().force_logging.as_deref(),
            Some("NO")
        );
        // Still one statement a sample, of every sample the collector sent (it may have begun
        // one more tick before it was stopped): the new part rides in the UNION ALL, no
        // round trip of its own.
        let log = d.log();
        let probes = log
            .statements
            .iter()
            .take_while(|(_, q)| !q.contains("UNION ALL"))
            .count();
        let ticks = &log.statements[probes..];
        assert!(ticks.len() <= n + 1, "{rel:?}: {} for {n}", ticks.len());
        assert!(
            ticks.iter().all(|(_, q)| q.contains("UNION ALL")),
            "{rel:?}"
        );
    }
    for rel in [Release::R11_2, Release::R19] {
        let (d, ev) = run("standby", standby(rel, "MOUNTED"), 2);
        assert!(good_samples(&ev, "standby")
            .iter()
            .all(|x| x.unrecoverable.is_none()));
        assert!(d
            .log()
            .statements
            .iter()
            .all(|(_, q)| !q.contains("v$datafile")));
    }
}

/// A monitor without the grant on V$DATAFILE keeps every other part and the other slow
/// parts; the part is named in the sample's errors and the field stays absent.
#[test]
fn a_denied_datafile_view_costs_the_unrecoverable_part_only() {
    let mut db = primary_nologging(Release::R19);
    db.denied.insert("V$DATAFILE".into());
    let (_, ev) = run("primary", db, 2);
    let s = good_samples(&ev, "primary");
    assert!(s[0].unrecoverable.is_none());
    assert!(s[0].fra.is_some() && s[0].logs.is_some());
    assert!(s[0].errors.iter().any(|e| e.part == "unrecoverable"));
    assert_eq!(
        s[0].db.as_ref().unwrap().force_logging.as_deref(),
        Some("NO")
    );
}
