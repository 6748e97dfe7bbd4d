//! The part-3 state keys (CAUSES.md "Catalog, part 3"): every twin member reports the
//! Data Guard state columns a 19c database has, destinations their REOPEN/FAILURE_COUNT
//! bookkeeping, and each part-3 scenario emits the data of its incident (fixed seeds). What
//! the rules make of it is the accuracy matrix's business, not these tests'.

use crate::twin_support;

use dgscope::sample::{DestStatus, DgMessage, OpenMode, Role, Sample};
use dgscope::source::twin::{Scenario, SlowParts, Twin, EPOCH};
use dgscope::source::PullSource;
use dgscope::timestamp::Timestamp;
use twin_support::run;

fn lags(s: &Sample) -> (f64, f64) {
    let dg = s.dg.as_ref().expect("standby dg");
    (
        dg.transport_lag_s.expect("transport lag").0,
        dg.apply_lag_s.expect("apply lag").0,
    )
}

fn mrp(s: &Sample) -> Option<&dgscope::sample::Process> {
    s.processes.iter().find(|p| p.name == "MRP0")
}

fn db(s: &Sample) -> &dgscope::sample::DbInfo {
    s.db.as_ref().expect("db")
}

fn messages(list: &[Sample]) -> Vec<&DgMessage> {
    list.iter()
        .filter_map(|s| s.dg_messages.as_ref())
        .flatten()
        .collect()
}

fn at_s(s: u64) -> Timestamp {
    EPOCH.add_millis(s as i64 * 1000)
}

fn rfs_receiving(s: &Sample) -> bool {
    let rfs: Vec<_> = s.processes.iter().filter(|p| p.name == "RFS").collect();
    !rfs.is_empty() && rfs.iter().all(|p| p.action.as_deref() == Some("RECEIVING"))
}

#[test]
fn a_healthy_pair_reports_the_state_columns_of_an_maa_19c_configuration() {
    let r = run(Scenario::HealthySync, 2, 5);
    let (p, sb) = (r.primary.last().unwrap(), r.standby.last().unwrap());
    for (s, switchover, intended) in [
        (p, "TO STANDBY", "TRANSPORT-ON"),
        (sb, "NOT ALLOWED", "APPLY-ON"),
    ] {
        let d = db(s);
        assert_eq!(d.switchover_status.as_deref(), Some(switchover));
        assert_eq!(d.dataguard_broker.as_deref(), Some("ENABLED"));
        assert_eq!(d.fs_failover_status.as_deref(), Some("DISABLED"));
        assert_eq!(d.fs_failover_target, None);
        assert_eq!(d.force_logging.as_deref(), Some("YES"));
        assert_eq!(d.flashback_on.as_deref(), Some("YES"));
        assert_eq!(d.intended_state.as_deref(), Some(intended));
    }
    let d = &p.dests[0];
    assert_eq!(
        (d.reopen_secs, d.max_failure, d.failure_count, d.fail_date),
        (Some(300), Some(0), Some(0), None)
    );
    assert_eq!(p.unrecoverable.as_deref(), Some(&vec![]), "read, none");
    assert_eq!(sb.unrecoverable, None, "read on the primary");
}

#[test]
fn every_scenario_fills_the_state_columns_on_every_member() {
    for sc in Scenario::ALL {
        let mut twin = Twin::new(sc, 4);
        let tick = twin.next_tick().unwrap();
        for s in tick.samples.iter().filter(|s| !s.is_error()) {
            let d = db(s);
            assert!(
                d.switchover_status.is_some()
                    && d.dataguard_broker.as_deref() == Some("ENABLED")
                    && d.fs_failover_status.is_some()
                    && d.force_logging.is_some()
                    && d.flashback_on.as_deref() == Some("YES")
                    && d.intended_state.is_some(),
                "{sc} {}: {d:?}",
                s.slot
            );
            for dest in &s.dests {
                assert_eq!(dest.reopen_secs, Some(300), "{sc} {}", s.slot);
                assert_eq!(dest.max_failure, Some(0), "{sc} {}", s.slot);
                assert_eq!(dest.failure_count, Some(0), "{sc} {}", s.slot);
            }
        }
        assert!(tick.samples[0].unrecoverable.is_some(), "{sc}: first read");
    }
}

#[test]
fn standby_down_counts_each_failed_reopen_and_dates_the_last_failure() {
    let r = run(Scenario::StandbyDown, 3, 720);
    let dest = |i: usize| r.primary[i].dests[0].clone();
    // Down at 60 s; SYNC waits NET_TIMEOUT (30 s), so the destination fails at 90 s.
    assert_eq!(dest(80).failure_count, Some(0));
    assert_eq!(dest(80).fail_date, None);
    assert_eq!(dest(100).failure_count, Some(1));
    assert_eq!(dest(100).fail_date, Some(at_s(90)));
    // The REOPEN try at 390 s fails too (the standby is back at 660 s).
    assert_eq!(dest(400).failure_count, Some(2));
    assert_eq!(dest(400).fail_date, Some(at_s(390)));
    // The try at 690 s succeeds: the count resets, the last failure's date stays.
    assert_eq!(dest(700).failure_count, Some(0));
    assert_eq!(dest(700).fail_date, Some(at_s(390)));
}

#[test]
fn protection_resync_keeps_one_failure_until_reopen() {
    let r = run(Scenario::ProtectionResync, 3, 420);
    for i in 95..=385 {
        let d = &r.primary[i].dests[0];
        assert_eq!(d.failure_count, Some(1), "at {i}");
        assert_eq!(d.fail_date, Some(at_s(90)), "at {i}");
    }
    assert_eq!(r.primary[400].dests[0].failure_count, Some(0));
    assert_eq!(
        db(&r.primary[200]).switchover_status.as_deref(),
        Some("NOT ALLOWED"),
        "no valid standby destination"
    );
}

#[test]
fn snapshot_standby_opens_read_write_and_keeps_receiving() {
    let r = run(Scenario::SnapshotStandby, 3, 200);
    assert_eq!(db(&r.standby[50]).role, Some(Role::PhysicalStandby));
    assert!(mrp(&r.standby[50]).is_some());
    for (p, s) in r.primary[62..].iter().zip(&r.standby[62..]) {
        let d = db(s);
        assert_eq!(d.role, Some(Role::SnapshotStandby));
        assert_eq!(d.open_mode, Some(OpenMode::ReadWrite));
        assert_eq!(d.intended_state.as_deref(), Some("APPLY-OFF"));
        assert!(mrp(s).is_none(), "no MRP0");
        assert!(!s.processes.iter().any(|x| x.name.starts_with("PR")));
        assert!(s.recovery.is_none());
        assert!(rfs_receiving(s), "{:?}", s.processes);
        assert!(lags(s).0 < 2.0, "transport keeps up");
        let dest = &p.dests[0];
        assert_eq!(dest.status, DestStatus::Valid);
        assert_eq!(dest.recovery_mode.as_deref(), Some("IDLE"));
        assert_eq!(dest.dest_type.as_deref(), Some("SNAPSHOT"));
        assert_eq!(dest.database_mode.as_deref(), Some("OPEN"));
    }
    // Redo is still archived on the standby, and the apply lag grows with the clock.
    let arch = |i: usize| r.standby[i].iostat["Archive Log"].wmb;
    assert!(arch(199) > arch(100));
    let rate = (lags(&r.standby[199]).1 - lags(&r.standby[99]).1) / 100.0;
    assert!((0.95..=1.05).contains(&rate), "apply lag {rate:.3} s/s");
    let cancel: Vec<_> = messages(&r.standby)
        .into_iter()
        .filter(|m| m.error_code == Some(16037))
        .collect();
    assert_eq!(cancel.len(), 2, "{cancel:?}");
}

#[test]
fn apply_off_stops_mrp_on_a_mounted_physical_standby() {
    let r = run(Scenario::ApplyOff, 3, 200);
    assert_eq!(
        db(&r.standby[50]).intended_state.as_deref(),
        Some("APPLY-ON")
    );
    for (p, s) in r.primary[62..].iter().zip(&r.standby[62..]) {
        let d = db(s);
        assert_eq!(d.role, Some(Role::PhysicalStandby));
        assert_eq!(d.open_mode, Some(OpenMode::Mounted));
        assert_eq!(d.intended_state.as_deref(), Some("APPLY-OFF"));
        assert!(mrp(s).is_none(), "{:?}", s.processes);
        assert!(rfs_receiving(s));
        assert_eq!(p.dests[0].recovery_mode.as_deref(), Some("IDLE"));
        assert_eq!(p.dests[0].dest_type.as_deref(), Some("PHYSICAL"));
        assert_eq!(s.gaps.as_deref(), Some(&[][..]));
    }
    let rate = (lags(&r.standby[199]).1 - lags(&r.standby[99]).1) / 100.0;
    assert!((0.95..=1.05).contains(&rate), "apply lag {rate:.3} s/s");
    let msgs = messages(&r.standby);
    let ora = msgs
        .iter()
        .filter(|m| {
            m.message
                .starts_with("ORA-16037: user requested cancel of managed recovery operation")
        })
        .count();
    assert_eq!(ora, 1, "{msgs:?}");
    assert!(
        !msgs.iter().any(|m| m.error_code == Some(1111)),
        "not an MRP crash"
    );
}

#[test]
fn gap_transient_lists_the_log_mrp_is_applying_for_twenty_seconds() {
    let r = run(Scenario::GapTransient, 3, 120);
    let mut with_row = 0;
    for (i, s) in r.standby.iter().enumerate() {
        let gaps = s.gaps.as_ref().unwrap();
        let m = mrp(s).expect("MRP0 runs throughout");
        assert_eq!(m.action.as_deref(), Some("APPLYING_LOG"), "at {i}");
        if gaps.is_empty() {
            continue;
        }
        with_row += 1;
        assert_eq!(gaps.len(), 1, "one row: {gaps:?}");
        let g = gaps[0];
        assert_eq!((g.thread, g.low, g.high), (1, m.sequence.unwrap(), g.low));
        assert!(lags(s).1 < 2.0, "nothing is missing: apply keeps up");
        assert_eq!(r.primary[i].dests[0].gap.as_deref(), Some("NO GAP"));
    }
    assert!(
        (19..=21).contains(&with_row),
        "{with_row} samples with the row"
    );
}

#[test]
fn catch_up_shrinks_a_two_day_apply_lag_at_three_times_real_time() {
    let r = run(Scenario::CatchUp, 3, 300);
    let (t0, a0) = lags(&r.standby[10]);
    assert!((172_700.0..=172_900.0).contains(&a0), "apply lag {a0}");
    assert!(t0 <= 1.0);
    let (_, a1) = lags(&r.standby[290]);
    // 3 s of the primary's redo applied per second: the lag falls ~2 s/s.
    let shrink = (a0 - a1) / 280.0;
    assert!((1.8..=2.05).contains(&shrink), "shrinks {shrink:.3} s/s");
    let finish = |i: usize| r.standby[i].dg.as_ref().unwrap().apply_finish_s.unwrap().0;
    // Apply finish time is the received backlog at the apply rate: a third of the lag.
    let ratio = finish(290) / a1;
    assert!((0.31..=0.35).contains(&ratio), "finish/lag {ratio:.3}");
    let fall = (finish(10) - finish(290)) / 280.0;
    assert!(
        (0.6..=0.7).contains(&fall),
        "finish time falls {fall:.3} s/s"
    );
    for s in &r.standby {
        assert_eq!(mrp(s).unwrap().action.as_deref(), Some("APPLYING_LOG"));
        assert_eq!(s.gaps.as_deref(), Some(&[][..]));
    }
    let d = &r.primary[290].dests[0];
    assert!(d.applied_seq.unwrap() + 100 < d.archived_seq.unwrap());
}

#[test]
fn sync_net_timeout_fails_with_ora_16198_and_waits_for_reopen() {
    let r = run(Scenario::SyncNetTimeout, 3, 480);
    let level = |i: usize| db(&r.primary[i]).protection_level.clone().unwrap();
    assert_eq!(level(50), "MAXIMUM AVAILABILITY");
    // Stalled at 60 s, failed at NET_TIMEOUT (90 s); the link is back at 130 s, but the
    // next REOPEN try is at 390 s.
    for i in 95..=385 {
        assert_eq!(level(i), "RESYNCHRONIZATION", "at {i}");
        let d = &r.primary[i].dests[0];
        assert_eq!(d.status, DestStatus::Error, "at {i}");
        assert!(d.error.as_deref().unwrap().starts_with("ORA-16198"));
        assert_eq!((d.failure_count, d.fail_date), (Some(1), Some(at_s(90))));
    }
    assert_eq!(level(479), "MAXIMUM AVAILABILITY");
    let end = &r.primary[479].dests[0];
    assert_eq!(
        (end.failure_count, end.fail_date),
        (Some(0), Some(at_s(90)))
    );
    assert_eq!(end.status, DestStatus::Valid);
    assert!(messages(&r.primary)
        .iter()
        .any(|m| m.error_code == Some(16198) && m.is_error()));
    assert!(r.standby.iter().all(|s| !s.is_error()), "the standby is up");
}

#[test]
fn fsfo_over_lag_limit_reports_the_target_over_its_lag_limit() {
    let r = run(Scenario::FsfoOverLagLimit, 3, 240);
    let status = |i: usize| db(&r.primary[i]).fs_failover_status.clone().unwrap();
    assert_eq!(status(10), "TARGET UNDER LAG LIMIT");
    for i in 150..240 {
        assert!(lags(&r.standby[i]).1 > 30.0);
        assert_eq!(status(i), "TARGET OVER LAG LIMIT", "at {i}");
        assert_eq!(
            db(&r.standby[i]).fs_failover_status.as_deref(),
            Some("TARGET OVER LAG LIMIT")
        );
    }
    let d = db(&r.primary[239]);
    assert_eq!(d.fs_failover_target.as_deref(), Some("prod_b"));
    assert_eq!(d.fs_failover_threshold_s, Some(30));
    assert_eq!(d.fs_failover_lag_limit_s, Some(30));
    assert_eq!(d.fs_failover_observer_present, Some(true));
    assert_eq!(d.fs_failover_observer_host.as_deref(), Some("obshost1"));
    assert!(!r.primary[239].dests[0].mode.is_sync(), "an ASYNC target");
}

#[test]
fn nologging_advances_the_unrecoverable_changes_at_each_read() {
    let mut twin = Twin::new(Scenario::Nologging, 3);
    let mut reads = Vec::new();
    for _ in 0..130 {
        let tick = twin.next_tick().unwrap();
        let (p, sb) = (&tick.samples[0], &tick.samples[1]);
        assert_eq!(db(p).force_logging.as_deref(), Some("NO"));
        assert_eq!(db(sb).force_logging.as_deref(), Some("NO"));
        if let Some(u) = &p.unrecoverable {
            reads.push((tick.t, u.as_ref().clone()));
        }
    }
    assert_eq!(reads.len(), 3, "once a minute");
    for w in reads.windows(2) {
        let ((_, a), (t, b)) = (&w[0], &w[1]);
        assert_eq!(a.len(), 2);
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x.file, y.file);
            assert!(y.change > x.change && y.time > x.time);
            assert!(y.time.unwrap() <= *t);
        }
    }
}

#[test]
fn two_sync_one_slow_tells_which_standby_writes_slowly() {
    let mut twin = Twin::new(Scenario::TwoSyncOneSlow, 3);
    twin.set_slow_parts(SlowParts::Repeated);
    let mut last = Vec::new();
    for _ in 0..120 {
        last = twin.next_tick().unwrap().samples;
    }
    assert_eq!(last.len(), 3);
    let rfs_ms = |s: &Sample| {
        let e = &s.events["RFS random i/o"];
        e.us.0 as f64 / e.waits as f64 / 1000.0
    };
    let (p, near, far) = (&last[0], &last[1], &last[2]);
    assert_eq!(far.slot.to_string(), "standby:prod_c");
    assert!(rfs_ms(near) < 1.0, "near {}", rfs_ms(near));
    assert!((3.5..=4.5).contains(&rfs_ms(far)), "second {}", rfs_ms(far));
    assert!(far
        .processes
        .iter()
        .any(|x| x.name == "RFS" && x.role.as_deref() == Some("RFS sync")));
    assert_eq!(p.dests.len(), 2);
    for d in &p.dests {
        assert!(d.mode.is_sync() && d.affirm, "{d:?}");
        assert_eq!(d.status, DestStatus::Valid);
    }
    let lfs = &p.events["log file sync"];
    let lfs_ms = lfs.us.0 as f64 / lfs.waits as f64 / 1000.0;
    assert!(lfs_ms > 4.0, "commits wait for the slow one: {lfs_ms}");
    // The second standby's SRL groups have two members.
    let srl = &far.logs.as_ref().unwrap().standby;
    assert!(srl.iter().all(|l| l.members == 2));
}
