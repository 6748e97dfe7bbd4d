//! The standby's own state (CAUSES.md "Catalog, part 2"): every scenario fills the
//! standby-state keys as a real pair of its kind would, and each part-2 scenario shows a DBA
//! the data of its incident (fixed seeds).

use crate::twin_support;

use dgscope::sample::{DestStatus, DgMessage, Sample};
use dgscope::source::twin::Scenario;
use twin_support::{run, Run};

fn dg_lags(s: &Sample) -> (Option<f64>, f64) {
    let dg = s.dg.as_ref().expect("standby dg");
    (
        dg.transport_lag_s.map(|x| x.0),
        dg.apply_lag_s.expect("apply lag").0,
    )
}

fn mrp_action(s: &Sample) -> Option<&str> {
    s.processes
        .iter()
        .find(|p| p.name == "MRP0")
        .and_then(|p| p.action.as_deref())
}

fn all_messages(list: &[Sample]) -> Vec<&DgMessage> {
    list.iter()
        .filter_map(|s| s.dg_messages.as_ref())
        .flatten()
        .collect()
}

fn param<'a>(s: &'a Sample, name: &str) -> &'a str {
    &s.params.as_ref().unwrap()[name]
}

#[test]
fn every_scenario_fills_the_standby_state_keys() {
    // far-sync's SYNC member is a far sync instance (no apply, its own destination type):
    // tests/twin_topology.rs checks its keys.
    for sc in Scenario::ALL
        .into_iter()
        .filter(|s| *s != Scenario::FarSync)
    {
        let r = run(sc, 2, 3);
        let (p, sb) = (r.primary.last().unwrap(), r.standby.last().unwrap());
        let d = &p.dests[0];
        assert_eq!(d.db_unique_name.as_deref(), Some("prod_b"), "{sc}");
        assert_eq!(d.dest_type.as_deref(), Some("PHYSICAL"), "{sc}");
        assert!(
            d.delay_mins.is_some() && d.srl_count == Some(15),
            "{sc}: {d:?}"
        );
        assert!(d.srl_active.is_some_and(|a| a <= 15), "{sc}");
        let p_cfg = sc.params();
        let want_db_mode = if p_cfg.active_dg {
            "OPEN_READ-ONLY"
        } else {
            "MOUNTED-STANDBY"
        };
        assert_eq!(d.database_mode.as_deref(), Some(want_db_mode), "{sc}");
        let want_sync = if d.mode.is_sync() {
            "OK"
        } else {
            "CHECK CONFIGURATION"
        };
        assert_eq!(d.synchronization_status.as_deref(), Some(want_sync), "{sc}");
        let want_rm = if p_cfg.delay_mins > 0 {
            "MANAGED"
        } else {
            "MANAGED REAL TIME APPLY"
        };
        assert_eq!(d.recovery_mode.as_deref(), Some(want_rm), "{sc}");
        // Foreground shares: commits wait on log file sync, LGWR/NSS on the writes.
        let lfs = &p.events["log file sync"];
        assert_eq!(
            (lfs.waits_fg, lfs.us_fg),
            (Some(lfs.waits), Some(lfs.us)),
            "{sc}"
        );
        let lfpw = &p.events["log file parallel write"];
        assert_eq!(lfpw.waits_fg, Some(0), "{sc}");
        if let Some(r) = p.events.get("SYNC Remote Write") {
            assert_eq!(r.waits_fg, Some(0), "{sc}");
        }
        for (name, e) in &sb.events {
            assert_eq!(e.waits_fg, Some(0), "{sc}: standby {name} is background");
        }
        for s in [p, sb] {
            let f = s.fra.expect("fra on both sides");
            assert!(f.used_bytes <= f.limit_bytes && f.limit_bytes > 0, "{sc}");
            assert!(s.dg_messages.is_some(), "{sc}: read, maybe empty");
        }
        assert_eq!(sb.gaps.as_deref(), Some(&[][..]), "{sc}: read, no gap");
        assert_eq!(sb.dg.as_ref().unwrap().inst_id, Some(1), "{sc}");
        assert!(
            sb.processes
                .iter()
                .all(|x| x.inst_id.is_some() && x.delay_mins.is_some()),
            "{sc}"
        );
    }
}

#[test]
fn apply_stopped_loses_mrp_while_redo_keeps_arriving() {
    let r = run(Scenario::ApplyStopped, 3, 150);
    let before = &r.standby[50];
    assert_eq!(mrp_action(before), Some("APPLYING_LOG"));
    assert_eq!(param(before, "standby_file_management"), "MANUAL");
    // MRP0 dies at 60 s: ERROR for a few seconds, then its row is gone.
    assert_eq!(mrp_action(&r.standby[61]), Some("ERROR"));
    for s in &r.standby[89..] {
        assert!(mrp_action(s).is_none(), "{:?}", s.processes);
        assert!(
            s.recovery.is_none(),
            "no media recovery, no V$RECOVERY_PROGRESS"
        );
        assert!(s
            .processes
            .iter()
            .filter(|x| x.name == "RFS")
            .all(|x| x.action.as_deref() == Some("RECEIVING")));
        let (tl, _) = dg_lags(s);
        assert!(
            tl.is_some_and(|t| t < 10.0),
            "transport lag known and small"
        );
    }
    let (_, a90) = dg_lags(&r.standby[89]);
    let (_, a150) = dg_lags(&r.standby[149]);
    let rate = (a150 - a90) / 60.0;
    assert!(rate >= 0.9, "apply lag rises {rate:.2} s/s");
    for p in &r.primary[89..] {
        assert_eq!(p.dests[0].recovery_mode.as_deref(), Some("IDLE"));
        assert_eq!(p.dests[0].status, DestStatus::Valid);
    }
    let msgs = all_messages(&r.standby);
    let errors: Vec<_> = msgs
        .iter()
        .filter(|m| m.is_error() && matches!(m.error_code, Some(1111 | 1157)))
        .collect();
    // MRP0's termination, ORA-01111 and ORA-01157, each delivered once.
    for text in [
        "MRP0: Background Media Recovery terminated",
        "ORA-01111:",
        "ORA-01157:",
    ] {
        let n = errors
            .iter()
            .filter(|m| m.message.starts_with(text))
            .count();
        assert_eq!(n, 1, "{text}: {msgs:?}");
    }
    assert!(errors
        .iter()
        .all(|m| m.facility.as_deref() == Some("Log Apply Services")));
}

#[test]
fn gap_fra_full_stops_receipt_and_leaves_a_gap() {
    let r = run(Scenario::GapFraFull, 3, 180);
    let pct = |s: &Sample| s.fra.unwrap().used_net_pct().unwrap();
    assert!(pct(&r.standby[0]) < 99.0);
    assert!(r.standby.windows(2).all(|w| pct(&w[1]) >= pct(&w[0])));
    let last = r.standby.last().unwrap();
    assert!(pct(last) >= 97.0, "{}", pct(last));
    let (tl, al) = dg_lags(last);
    assert_eq!(tl, None, "transport lag NULL");
    assert!(al >= 100.0, "apply lag {al}");
    let (_, al_mid) = dg_lags(&r.standby[119]);
    assert!(al > al_mid + 50.0, "apply lag keeps growing");
    assert_eq!(mrp_action(last), Some("WAIT_FOR_GAP"));
    let gaps = last.gaps.as_ref().unwrap();
    assert_eq!(gaps.len(), 3, "one row per primary thread: {gaps:?}");
    assert!(gaps.iter().all(|g| g.low <= g.high));
    let d = &r.primary.last().unwrap().dests[0];
    assert_eq!(d.status, DestStatus::Error);
    assert!(d.error.as_deref().unwrap().starts_with("ORA-16086"));
    assert_eq!(d.gap.as_deref(), Some("RESOLVABLE GAP"));
    let msgs = all_messages(&r.standby);
    let has = |code: i64| msgs.iter().any(|m| m.error_code == Some(code));
    assert!(has(19815) && has(19809), "{msgs:?}");
    assert!(msgs
        .iter()
        .any(|m| m.message.contains("No standby redo logfiles available")));
}

#[test]
fn delayed_apply_lags_by_the_delay_and_no_more() {
    let r = run(Scenario::DelayedApply, 3, 300);
    for s in &r.standby {
        let (tl, al) = dg_lags(s);
        assert!((1800.0..=1830.0).contains(&al), "apply lag {al} at {}", s.t);
        assert!(tl.is_some_and(|t| t <= 1.0));
        let mrp = s.processes.iter().find(|x| x.name == "MRP0").unwrap();
        assert_eq!(mrp.delay_mins, Some(30));
    }
    let p = r.primary.last().unwrap();
    assert_eq!(p.dests[0].delay_mins, Some(30));
    assert!(param(p, "log_archive_dest_2").contains("DELAY=30"));
}

#[test]
fn dest_deferred_ships_nothing_and_the_standby_idles() {
    let r = run(Scenario::DestDeferred, 3, 180);
    assert_eq!(r.primary[50].dests[0].status, DestStatus::Valid);
    for (p, s) in r.primary[61..].iter().zip(&r.standby[61..]) {
        assert_eq!(p.dests[0].status, DestStatus::Deferred);
        assert!(p.dests[0].error.is_none());
        assert_eq!(param(p, "log_archive_dest_state_2"), "DEFER");
        assert!(!s.is_error(), "the standby itself is fine");
        assert!(s
            .processes
            .iter()
            .filter(|x| x.name == "RFS")
            .all(|x| x.action.as_deref() == Some("IDLE")));
        assert_eq!(
            s.dg.as_ref().unwrap().datum,
            r.standby[61].dg.as_ref().unwrap().datum
        );
    }
    let (t1, _) = dg_lags(&r.standby[89]);
    let (t2, _) = dg_lags(&r.standby[179]);
    let rate = (t2.unwrap() - t1.unwrap()) / 90.0;
    assert!(rate >= 0.9, "transport lag grows {rate:.2} s/s");
}

#[test]
fn protection_resync_degrades_the_level_then_resynchronises() {
    let r = run(Scenario::ProtectionResync, 3, 480);
    let level = |i: usize| {
        r.primary[i]
            .db
            .as_ref()
            .unwrap()
            .protection_level
            .clone()
            .unwrap()
    };
    assert!(
        r.primary
            .iter()
            .all(|p| p.db.as_ref().unwrap().protection_mode.as_deref()
                == Some("MAXIMUM AVAILABILITY"))
    );
    assert_eq!(level(50), "MAXIMUM AVAILABILITY");
    // NET_TIMEOUT (30 s) after the drop at 60 s, LGWR gives up; the next REOPEN try is at
    // 390 s, so the level stays down that long although the link is back at 150 s.
    for i in 95..=300 {
        assert_eq!(level(i), "RESYNCHRONIZATION", "at {i}");
    }
    let d = &r.primary[120].dests[0];
    assert_eq!(d.status, DestStatus::Error);
    assert_eq!(d.synchronization_status.as_deref(), Some("CHECK NETWORK"));
    assert!(
        r.standby.iter().all(|s| !s.is_error()),
        "dgscope still reaches the standby"
    );
    assert_eq!(level(479), "MAXIMUM AVAILABILITY");
    let end = &r.primary[479].dests[0];
    assert_eq!(end.synchronization_status.as_deref(), Some("OK"));
    assert_eq!(dg_lags(&r.standby[479]).0, Some(0.0));
    let msgs = all_messages(&r.primary);
    assert!(msgs
        .iter()
        .any(|m| m.message.ends_with("is UNSYNCHRONIZED")));
    assert!(msgs.iter().any(|m| m.message.ends_with("is SYNCHRONIZED")));
}

#[test]
fn mira_apply_reports_an_active_rate_of_zero_while_keeping_up() {
    let r = run(Scenario::MiraApply, 3, 120);
    for s in &r.standby[5..] {
        let rec = s.recovery.as_ref().unwrap();
        assert_eq!(rec.active_apply_kbps, Some(0.0), "the MIRA quirk");
        assert!(rec.average_apply_kbps.unwrap() > 0.0);
        let (_, al) = dg_lags(s);
        assert!((1.0..=2.0).contains(&al), "apply lag {al}");
        assert_eq!(s.db.as_ref().unwrap().instances, Some(2));
    }
    let last = r.standby.last().unwrap();
    let on = |name: &str, inst: u32| {
        last.processes
            .iter()
            .any(|x| x.name == name && x.inst_id == Some(inst))
    };
    assert!(on("MRP0", 1) && !on("MRP0", 2), "one coordinator");
    assert!(on("PR00", 1) && on("PR00", 2), "recovery slaves on both");
    assert_eq!(last.dg.as_ref().unwrap().inst_id, Some(1));
}

fn hist_count(r: &Run, i: usize, event: &str, min_us: u64) -> u64 {
    r.primary[i].events[event]
        .hist
        .iter()
        .filter(|b| b.0 .0 > min_us)
        .map(|b| b.1)
        .sum()
}

#[test]
fn sync_stall_fills_the_response_histogram_and_the_commit_tail() {
    let r = run(Scenario::SyncStall, 3, 300);
    let d = &r.primary[299].dests[0];
    let stalled: u64 = d
        .resp_hist
        .iter()
        .filter(|(s, _)| (3..=6).contains(s))
        .map(|x| x.1)
        .sum();
    // Five or six stalls in 5 minutes, each catching one write per redo thread.
    assert!(stalled >= 15, "{:?}", d.resp_hist);
    assert!(
        d.resp_hist.iter().all(|(s, _)| *s <= 6),
        "{:?}",
        d.resp_hist
    );
    assert!(d.resp_hist.iter().any(|&(s, n)| s == 1 && n > 100_000));
    // Bucket bounds above 2^21 µs hold waits of ≥ 2.1 s: the commits caught in a stall.
    let lfs = hist_count(&r, 299, "log file sync", 1 << 21);
    let remote = hist_count(&r, 299, "SYNC Remote Write", 1 << 21);
    assert!(lfs >= 200, "{lfs} commits waited seconds");
    assert_eq!(remote, stalled, "one remote write per stalled response");
    // Between stalls the destination is healthy.
    assert_eq!(hist_count(&r, 10, "SYNC Remote Write", 1 << 21), 0);
    assert_eq!(d.status, DestStatus::Valid);
}
