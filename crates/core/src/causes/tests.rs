//! Each rule just below and just above its thresholds, hysteresis, ranking and absent data.

use super::assessment::Assessment;
use super::finding::{Severity, Status};
use super::testkit::{Pair, Run};
use super::CauseEngine;
use crate::metrics::Window;
use dgscope_model::sample::names::event;
use dgscope_model::sample::DestStatus;
use std::time::Duration;

const MIN: Window = Window::Last(Duration::from_secs(60));

/// Runs `pair` for `secs` seconds, assessing every second as the app and `check` do.
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

fn top_warn(a: &Assessment) -> Option<&'static str> {
    a.findings
        .iter()
        .find(|f| f.severity >= Severity::Warn)
        .map(|f| f.id)
}

fn has(a: &Assessment, id: &str) -> bool {
    a.findings.iter().any(|f| f.id == id)
}

#[test]
fn healthy_pair_raises_nothing() {
    let a = assess(&Pair::default(), 90);
    assert!(a.findings.is_empty(), "{:?}", ids(&a));
    assert!(!a.warming_up);
    assert_eq!(a.status(), Status::Ok);
}

#[test]
fn warming_up_until_five_samples() {
    let a = assess(
        &Pair {
            lfpw_ms: 5.0,
            ..Pair::default()
        },
        4,
    );
    assert!(a.warming_up);
    assert!(a.findings.is_empty());
    assert_eq!(a.status(), Status::Unknown);
}

#[test]
fn no_waits_means_no_guess() {
    let a = assess(
        &Pair {
            tps: 0.0,
            lfpw_ms: 5.0,
            ..Pair::default()
        },
        60,
    );
    assert!(a.warming_up);
    assert!(!has(&a, "lgwr-write-slow"));
}

fn slow_srl() -> Pair {
    Pair {
        lfs_ms: 4.60,
        lfpw_ms: 0.62,
        remote_ms: Some(3.45),
        rfs_ms: Some(2.89),
        srl_members: 2,
        standby_log_w_ms: 2.9,
        primary_log_w_ms: 0.6,
        ..Pair::default()
    }
}

#[test]
fn standby_redo_write_slow_seed000_table1_ranks_first() {
    let a = assess(&slow_srl(), 60);
    assert_eq!(
        top_warn(&a),
        Some("standby-redo-write-slow"),
        "{:?}",
        ids(&a)
    );
    let f = &a.findings[0];
    assert_eq!(f.severity, Severity::Warn);
    assert!(
        f.title.contains("3.45 ms") && f.title.contains("0.62 ms") && f.title.contains("2.89 ms"),
        "{}",
        f.title
    );
    assert!(f
        .evidence
        .iter()
        .any(|e| e.metric == "SRL members per group" && e.value == 2.0));
    assert!(f.verify.contains(&super::VerifyKey::SrlLayout));
    // srl-config notes the two members, as INFO.
    assert!(a
        .findings
        .iter()
        .any(|f| f.id == "srl-config" && f.severity == Severity::Info));
}

#[test]
fn standby_redo_write_slow_thresholds() {
    // remote just under 1 ms: nothing.
    let below = Pair {
        lfs_ms: 1.2,
        lfpw_ms: 0.3,
        remote_ms: Some(0.99),
        rfs_ms: Some(0.8),
        ..Pair::default()
    };
    assert!(!has(&assess(&below, 40), "standby-redo-write-slow"));
    let at = Pair {
        remote_ms: Some(1.0),
        ..below.clone()
    };
    assert!(has(&assess(&at, 40), "standby-redo-write-slow"));
    // rfs under half of remote: the standby disk is not the story.
    let net = Pair {
        rfs_ms: Some(0.49),
        ..at.clone()
    };
    assert!(!has(&assess(&net, 40), "standby-redo-write-slow"));
    // remote under 2 × lfpw: local and remote are alike.
    let local = Pair {
        lfpw_ms: 0.51,
        ..at.clone()
    };
    assert!(!has(&assess(&local, 40), "standby-redo-write-slow"));
    // CRIT at 5 ms.
    let crit = Pair {
        remote_ms: Some(5.0),
        rfs_ms: Some(4.5),
        lfs_ms: 6.0,
        ..slow_srl()
    };
    let a = assess(&crit, 40);
    assert_eq!(a.findings[0].id, "standby-redo-write-slow");
    assert_eq!(a.findings[0].severity, Severity::Crit);
    assert_eq!(a.status(), Status::Crit);
    // FASTSYNC (no AFFIRM): never this cause.
    let fastsync = Pair {
        affirm: false,
        ..slow_srl()
    };
    assert!(!has(&assess(&fastsync, 40), "standby-redo-write-slow"));
}

#[test]
fn network_latency_thresholds() {
    let far = Pair {
        lfs_ms: 7.5,
        remote_ms: Some(6.5),
        rfs_ms: Some(0.9),
        ..Pair::default()
    };
    let a = assess(&far, 40);
    assert_eq!(top_warn(&a), Some("network-latency"), "{:?}", ids(&a));
    let near = Pair {
        remote_ms: Some(1.59),
        rfs_ms: Some(0.6),
        ..Pair::default()
    };
    assert!(!has(&assess(&near, 40), "network-latency"));
    let just = Pair {
        remote_ms: Some(1.61),
        rfs_ms: Some(0.6),
        lfs_ms: 2.0,
        ..Pair::default()
    };
    assert!(has(&assess(&just, 40), "network-latency"));
    // No SYNC destination: no network finding whatever the numbers.
    let async_ = Pair { sync: false, ..far };
    assert!(!has(&assess(&async_, 40), "network-latency"));
}

fn polling() -> Pair {
    // Seed 001: 7–8 ms log file sync with 1–3 ms writes and polled sync writes.
    Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfs_ms: 7.5,
        lfpw_ms: 1.65,
        poll_writes_per_s: 3000.0,
        ..Pair::default()
    }
}

#[test]
fn adaptive_polling_seed001_ranks_above_slow_writes() {
    let a = assess(&polling(), 40);
    assert_eq!(ids(&a)[0], "adaptive-lfs-polling", "{:?}", ids(&a));
    // lfpw 1.65 ms is also above the 1 ms write threshold: ranked below.
    assert!(has(&a, "lgwr-write-slow"));
    // Without polled writes the same latencies are not polling.
    let posted = Pair {
        poll_writes_per_s: 0.0,
        ..polling()
    };
    assert!(!has(&assess(&posted, 40), "adaptive-lfs-polling"));
    // Polling but log file sync under 2 × the write: not the cause.
    let close = Pair {
        lfs_ms: 3.2,
        ..polling()
    };
    assert!(!has(&assess(&close, 40), "adaptive-lfs-polling"));
}

#[test]
fn cpu_starvation_thresholds() {
    let starved = Pair {
        lfs_ms: 3.3,
        lfpw_ms: 0.55,
        remote_ms: Some(1.2),
        rfs_ms: Some(0.7),
        cpu_pct: 95.0,
        ..Pair::default()
    };
    assert_eq!(top_warn(&assess(&starved, 40)), Some("lgwr-cpu-starved"));
    let busy_but_ok = Pair {
        cpu_pct: 89.0,
        ..starved.clone()
    };
    assert!(!has(&assess(&busy_but_ok, 40), "lgwr-cpu-starved"));
    // LOAD counts processes in I/O wait on Linux: a load at the CPU count with the CPU
    // 70 % busy is not starvation.
    let by_load = Pair {
        cpu_pct: 70.0,
        load: 16.0,
        ..starved.clone()
    };
    assert!(!has(&assess(&by_load, 40), "lgwr-cpu-starved"));
    // Polling explains the gap instead: CPU starvation is not claimed.
    let polls = Pair {
        poll_writes_per_s: 10.0,
        ..starved
    };
    assert!(!has(&assess(&polls, 40), "lgwr-cpu-starved"));
}

/// Review M3: `lgwr-storage` with LOAD 40 on 32 CPUs at 42 % busy. log file sync 4.30 ms
/// over 2.36 ms writes is the slow storage plus the normal group-commit queueing (≈ half a
/// write), and the load is processes in I/O wait: `lgwr-write-slow`, never CPU starvation.
#[test]
fn slow_storage_with_a_high_load_is_not_cpu_starvation() {
    let storage = Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfs_ms: 4.30,
        lfpw_ms: 2.36,
        cpu_pct: 42.0,
        load: 40.0,
        num_cpus: 32.0,
        ..Pair::default()
    };
    let a = assess(&storage, 40);
    assert!(!has(&a, "lgwr-cpu-starved"), "{:?}", ids(&a));
    assert!(has(&a, "lgwr-write-slow"), "{:?}", ids(&a));
    // Even with the CPU busy, 1.94 ms beyond the write is mostly the queueing (1.18 ms):
    // what is left is under the 1 ms the rule asks for.
    let busy = Pair {
        cpu_pct: 95.0,
        ..storage
    };
    let a = assess(&busy, 40);
    assert!(!has(&a, "lgwr-cpu-starved"), "{:?}", ids(&a));
    assert!(has(&a, "lgwr-write-slow"), "{:?}", ids(&a));
}

/// The CPU-starved finding shows the busy CPU it needs, the queueing it took out and the
/// load only as context.
#[test]
fn cpu_starvation_evidence_agrees_with_its_condition() {
    let starved = Pair {
        lfs_ms: 3.3,
        lfpw_ms: 0.55,
        remote_ms: Some(1.2),
        rfs_ms: Some(0.7),
        cpu_pct: 99.5,
        ..Pair::default()
    };
    let a = assess(&starved, 40);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == "lgwr-cpu-starved")
        .expect("lgwr-cpu-starved");
    let cpu = f
        .evidence
        .iter()
        .find(|e| e.metric.contains("CPU busy"))
        .unwrap();
    assert!(cpu.value >= 90.0, "{cpu:?}");
    assert!(f.title.contains("CPU 99.5 %"), "{}", f.title);
    let rest = f
        .evidence
        .iter()
        .find(|e| e.metric.starts_with("log file sync not explained"))
        .unwrap();
    // 3.3 − 1.2 (the remote write) − 0.6 (half of it, queueing).
    assert!((rest.value - 1.5).abs() < 0.05, "{rest:?}");
    let load = f
        .evidence
        .iter()
        .find(|e| e.metric.contains("load"))
        .unwrap();
    assert!(load.threshold.is_none(), "{load:?}");
}

#[test]
fn lgwr_write_slow_thresholds() {
    let at = |lfpw: f64| Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfpw_ms: lfpw,
        lfs_ms: lfpw * 1.3,
        ..Pair::default()
    };
    // 25 MB/s in 2000 writes/s: 12.8 KB a write, 0.025 ms of allowance on each threshold.
    assert!(!has(&assess(&at(0.99), 40), "lgwr-write-slow"));
    assert!(!has(&assess(&at(1.02), 40), "lgwr-write-slow"));
    let a = assess(&at(1.03), 40);
    assert_eq!(a.findings[0].id, "lgwr-write-slow");
    assert_eq!(a.findings[0].severity, Severity::Warn);
    assert_eq!(assess(&at(10.0), 40).findings[0].severity, Severity::Warn);
    assert_eq!(assess(&at(10.03), 40).findings[0].severity, Severity::Crit);
}

/// Review #20: a large average write legitimately takes longer. 200 MB/s in 100 writes/s
/// is 2 MB a write: 4 ms more on each threshold (`lfpw_ms_per_mb` 2 ms).
fn get_finding<'a>(a: &'a Assessment, id: &str) -> &'a super::finding::Finding {
    a.findings
        .iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("{id} missing: {:?}", ids(a)))
}

#[test]
fn lgwr_write_slow_allows_for_large_writes() {
    let at = |lfpw: f64| Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfpw_ms: lfpw,
        lfs_ms: lfpw * 1.3,
        redo_mb_s: 200.0,
        writes_per_s: 100.0,
        ..Pair::default()
    };
    assert!(!has(&assess(&at(3.0), 40), "lgwr-write-slow"));
    let a = assess(&at(5.5), 40);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == "lgwr-write-slow")
        .expect("lgwr-write-slow");
    // Over its threshold, but the healthy write of that size is 4.5 ms: only 1 of the 7.15
    // ms commit would go away, so it is INFO and says so (impact before blame).
    assert_eq!(f.severity, Severity::Info);
    assert!(
        (f.impact.amount.unwrap() - 1.0).abs() < 0.05,
        "{:?}",
        f.impact
    );
    assert_eq!(
        get_finding(&assess(&at(9.0), 40), "lgwr-write-slow").severity,
        Severity::Warn
    );
    let avg = &f.evidence[0];
    assert_eq!(
        avg.threshold.as_deref(),
        Some("≥ 5.00 ms (1.00 ms + 4.00 ms for the write size)")
    );
    assert!(f
        .evidence
        .iter()
        .any(|e| e.metric == "redo per write" && (e.value - 2048.0).abs() < 1.0));
    assert_eq!(assess(&at(12.0), 40).findings[0].severity, Severity::Warn);
    assert_eq!(assess(&at(14.5), 40).findings[0].severity, Severity::Crit);
}

#[test]
fn outlier_skew_seed000_histogram() {
    // Seed 000's per-mille shape, scaled to a second of waits.
    let counts = [17610u64, 43670, 8394, 4072, 4344, 2109, 460, 6];
    let hist: Vec<(u64, u64)> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| (1024u64 << i, c / 10))
        .collect();
    let pair = Pair {
        lfs_hist: Some(hist),
        lfs_ms: 3.1,
        ..Pair::default()
    };
    let a = assess(&pair, 40);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == "lfs-outlier-skew")
        .unwrap_or_else(|| panic!("{:?}", ids(&a)));
    assert_eq!(f.severity, Severity::Info);
    assert!(f.title.contains("91.4 % of waits < 8 ms"), "{}", f.title);
    // INFO only: the overall status stays OK.
    assert_eq!(a.status(), Status::Ok);
}

#[test]
fn log_switch_thresholds() {
    let every = |s: f64| Pair {
        switch_every_s: s,
        ..Pair::default()
    };
    let a = assess(&every(120.0), 40);
    assert_eq!(top_warn(&a), Some("log-switch-frequent"));
    assert!(
        a.findings[0].title.contains("30 per hour"),
        "{}",
        a.findings[0].title
    );
    assert!(!has(&assess(&every(601.0), 40), "log-switch-frequent"));
    assert!(has(&assess(&every(590.0), 40), "log-switch-frequent"));
}

#[test]
fn frequent_switches_rank_above_writes_slow_only_below_critical() {
    // A log every 90 s and LGWR's writes just over the 1 ms threshold (an AWR of 42
    // switches an hour at 2 ms writes): the switches lead, the writes follow under them,
    // saying why.
    let pair = |lfpw_ms: f64| Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfs_ms: lfpw_ms + 0.5,
        lfpw_ms,
        switch_every_s: 90.0,
        ..Pair::default()
    };
    let a = assess(&pair(1.8), 40);
    assert_eq!(top_warn(&a), Some("log-switch-frequent"), "{:?}", ids(&a));
    let w = finding(&a, "lgwr-write-slow");
    assert_eq!(w.caused_by, Some("log-switch-frequent"));
    assert!(
        w.evidence
            .iter()
            .any(|e| e.metric.starts_with("log switches per hour") && e.value == 40.0),
        "{:?}",
        w.evidence
    );
    // Critical writes lead on their own, whatever the switches.
    let a = assess(&pair(12.0), 40);
    let w = finding(&a, "lgwr-write-slow");
    assert_eq!(w.severity, Severity::Crit);
    assert_eq!(w.caused_by, None);
    assert_eq!(ids(&a)[0], "lgwr-write-slow", "{:?}", ids(&a));
    // Without frequent switches the writes stand alone.
    let calm = Pair {
        switch_every_s: 1200.0,
        ..pair(1.8)
    };
    let a = assess(&calm, 40);
    assert_eq!(finding(&a, "lgwr-write-slow").caused_by, None);
}

#[test]
fn seed002_transport_lag_is_transport_not_apply() {
    // Transport lag of 4 min 11 s, equal to the apply lag, ASYNC, redo 140 MB/s.
    let pair = Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: Some(0.5),
        lfs_ms: 0.7,
        redo_mb_s: 140.0,
        transport_lag_s: 251.0,
        apply_lag_s: 251.0,
        apply_mb_s: 109.0,
        ..Pair::default()
    };
    let a = assess(&pair, 90);
    assert_eq!(top_warn(&a), Some("transport-bandwidth"), "{:?}", ids(&a));
    assert!(!has(&a, "apply-bound"), "{:?}", ids(&a));
    assert!(
        a.findings[0].title.contains("4m11s"),
        "{}",
        a.findings[0].title
    );
    assert_eq!(a.findings[0].severity, Severity::Warn);
    let crit = Pair {
        transport_lag_s: 300.0,
        apply_lag_s: 300.0,
        ..pair.clone()
    };
    assert_eq!(assess(&crit, 40).findings[0].severity, Severity::Crit);
    // Rising 0.5 s/s from a small lag also counts.
    let rising = Pair {
        transport_lag_s: 0.0,
        apply_lag_s: 0.0,
        transport_lag_growth: 0.6,
        apply_lag_growth: 0.6,
        ..pair.clone()
    };
    assert!(has(&assess(&rising, 50), "transport-bandwidth"));
    let small = Pair {
        transport_lag_s: 9.0,
        apply_lag_s: 9.0,
        ..pair
    };
    assert!(!has(&assess(&small, 60), "transport-bandwidth"));
}

/// The ASYNC link's own evidence: the transport process's network send time next to the
/// standby's RFS write time says where the shipping time goes (the link, not the disk).
#[test]
fn transport_bandwidth_shows_the_async_send_and_the_standby_rfs_write() {
    let pair = Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: Some(0.5),
        lfs_ms: 0.7,
        redo_mb_s: 140.0,
        transport_lag_s: 251.0,
        apply_lag_s: 251.0,
        apply_mb_s: 109.0,
        primary_waits: vec![(event::ASYNC_REMOTE_WRITE, 80.0, 6.5)],
        ..Pair::default()
    };
    let a = assess(&pair, 90);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == "transport-bandwidth")
        .expect("transport-bandwidth");
    let value = |metric: &str| {
        f.evidence
            .iter()
            .find(|e| e.metric == metric)
            .map(|e| e.value)
    };
    let send = value("ASYNC Remote Write avg").expect("the send time is evidence");
    assert!((send - 6.5).abs() < 0.05, "{send}");
    let rfs = value("standby RFS write avg").expect("the RFS write is evidence");
    assert!((rfs - 0.5).abs() < 0.05, "{rfs}");
    // Without the event (11.2, or an older recording) the line is absent, never 0.
    let older = Pair {
        primary_waits: vec![],
        ..pair
    };
    let b = assess(&older, 90);
    let f = b
        .findings
        .iter()
        .find(|f| f.id == "transport-bandwidth")
        .expect("transport-bandwidth");
    assert!(f
        .evidence
        .iter()
        .all(|e| e.metric != "ASYNC Remote Write avg"));
}

#[test]
fn apply_bound_thresholds() {
    let pair = Pair {
        transport_lag_s: 0.0,
        apply_lag_s: 60.0,
        apply_lag_growth: 0.5,
        apply_mb_s: 47.0,
        redo_mb_s: 60.0,
        ..Pair::default()
    };
    let a = assess(&pair, 90);
    assert_eq!(top_warn(&a), Some("apply-bound"), "{:?}", ids(&a));
    assert!(!has(&a, "transport-bandwidth"));
    // A 9 s gap with apply faster than redo: nothing.
    let fine = Pair {
        apply_lag_s: 9.0,
        apply_lag_growth: 0.0,
        apply_mb_s: 80.0,
        ..pair.clone()
    };
    assert!(!has(&assess(&fine, 90), "apply-bound"));
    // A small lag that grows while apply is slower than redo for a minute.
    let slow = Pair {
        apply_lag_s: 2.0,
        apply_lag_growth: 0.1,
        apply_mb_s: 40.0,
        ..pair.clone()
    };
    assert!(has(&assess(&slow, 90), "apply-bound"));
    // The same rates with a small steady lag: apply keeps up (the Active Apply Rate is a
    // 3-minute average), so apply is not the bottleneck (changes to part 1).
    let steady = Pair {
        apply_lag_growth: 0.0,
        ..slow.clone()
    };
    assert!(!has(&assess(&steady, 90), "apply-bound"));
    // Growing just below the rise threshold (0.1 s/s): no.
    let barely = Pair {
        apply_lag_growth: 0.08,
        ..slow.clone()
    };
    assert!(!has(&assess(&barely, 60), "apply-bound"));
    // MRP0 not applying (waiting for a log, or gone): never apply-bound.
    for action in [Some("WAIT_FOR_LOG"), None] {
        let idle = Pair {
            mrp_action: action.map(str::to_string),
            ..pair.clone()
        };
        assert!(!has(&assess(&idle, 90), "apply-bound"), "{action:?}");
    }
    // A transport lag Oracle cannot compute does not hide the apply lag.
    let null_transport = Pair {
        transport_lag_null: true,
        ..pair
    };
    assert!(has(&assess(&null_transport, 90), "apply-bound"));
}

#[test]
fn standby_io_saturated_thresholds() {
    let busy = Pair {
        standby_data_w_ms: 5.0,
        primary_data_w_ms: 1.0,
        ..Pair::default()
    };
    assert_eq!(top_warn(&assess(&busy, 40)), Some("standby-io-saturated"));
    let ok = Pair {
        standby_data_w_ms: 1.9,
        primary_data_w_ms: 0.5,
        ..Pair::default()
    };
    assert!(!has(&assess(&ok, 40), "standby-io-saturated"));
}

/// Review #19: a few slow requests in the window are no saturation. Two data file writes a
/// second, 5 ms each, over a minute: 120 requests, enough; one every 10 s: not.
#[test]
fn standby_io_saturated_needs_enough_writes() {
    let few = Pair {
        standby_data_w_ms: 5.0,
        primary_data_w_ms: 1.0,
        standby_data_writes_per_s: 0.1,
        ..Pair::default()
    };
    assert!(!has(&assess(&few, 70), "standby-io-saturated"));
    let enough = Pair {
        standby_data_writes_per_s: 2.0,
        ..few
    };
    let a = assess(&enough, 70);
    let f = a
        .findings
        .iter()
        .find(|f| f.id == "standby-io-saturated")
        .expect("standby-io-saturated");
    let n = f
        .evidence
        .iter()
        .find(|e| e.metric.contains("write requests in the window"))
        .unwrap();
    assert!(n.value >= 100.0, "{n:?}");
}

#[test]
fn contention_on_all_standby_disks_outranks_the_slow_srl_symptom() {
    let contention = Pair {
        standby_log_w_ms: 3.5,
        standby_data_w_ms: 8.0,
        primary_data_w_ms: 1.0,
        ..slow_srl()
    };
    let a = assess(&contention, 40);
    assert_eq!(top_warn(&a), Some("standby-io-saturated"), "{:?}", ids(&a));
    assert!(has(&a, "standby-redo-write-slow"));
    // Only the redo logs slow (seed 000's SRLs): the SRL finding leads.
    assert_eq!(
        top_warn(&assess(&slow_srl(), 40)),
        Some("standby-redo-write-slow")
    );
}

#[test]
fn stale_lag_and_dest_error_and_standby_down_are_crit() {
    let stale = assess(
        &Pair {
            datum_frozen: true,
            ..Pair::default()
        },
        60,
    );
    assert_eq!(stale.findings[0].id, "lag-stale");
    assert_eq!(stale.status(), Status::Crit);

    let dest = assess(
        &Pair {
            dest_status: DestStatus::Error,
            dest_error: Some("ORA-12541: TNS:no listener".into()),
            ..Pair::default()
        },
        30,
    );
    assert_eq!(dest.findings[0].id, "dest-error");
    assert!(dest.findings[0].title.contains("ORA-12541"));
    let gap = assess(
        &Pair {
            gap: "RESOLVABLE GAP".into(),
            ..Pair::default()
        },
        30,
    );
    assert_eq!(gap.findings[0].id, "dest-error");

    let down = assess(
        &Pair {
            standby_down_from_s: Some(10),
            dest_status: DestStatus::Error,
            dest_error: Some("ORA-03113".into()),
            ..Pair::default()
        },
        60,
    );
    assert_eq!(ids(&down)[0], "standby-down", "{:?}", ids(&down));
    assert!(has(&down, "dest-error"));
}

#[test]
fn config_infos() {
    let few = assess(
        &Pair {
            srl_groups: 4,
            ..Pair::default()
        },
        30,
    );
    assert_eq!(ids(&few), vec!["srl-config"]);
    assert_eq!(few.status(), Status::Ok);
    let sizes = assess(
        &Pair {
            log_buffer_mb: 8,
            orl_mb: 200,
            srl_mb: 200,
            ..Pair::default()
        },
        30,
    );
    assert_eq!(ids(&sizes), vec!["redo-sizing"]);
    assert!(sizes.findings[0].title.contains("log_buffer 8 MB"));
}

#[test]
fn a_one_sample_spike_neither_raises_nor_clears() {
    // A 1 s window holds two samples: let two count as enough data for this test.
    let mut engine = CauseEngine::new(super::Thresholds {
        min_samples: 2,
        ..super::Thresholds::default()
    });
    let mut run = Run::default();
    let healthy = Pair::default();
    let slow = Pair {
        sync: false,
        remote_ms: None,
        rfs_ms: None,
        lfpw_ms: 30.0,
        lfs_ms: 35.0,
        ..Pair::default()
    };
    let one_sec = Window::Last(Duration::from_secs(1));
    for _ in 0..30 {
        run.step(&healthy);
        engine.assess(&run.engine, one_sec);
    }
    run.step(&slow);
    assert!(engine.assess(&run.engine, one_sec).findings.is_empty());
    for _ in 0..20 {
        run.step(&healthy);
        assert!(engine.assess(&run.engine, one_sec).findings.is_empty());
    }
    // Held for 15 s: raised.
    for i in 0..16 {
        run.step(&slow);
        let a = engine.assess(&run.engine, one_sec);
        assert_eq!(has(&a, "lgwr-write-slow"), i >= 15, "second {i}");
    }
    // One healthy second does not clear it, nor do 29; the 31st does.
    for i in 0..31 {
        run.step(&healthy);
        let a = engine.assess(&run.engine, one_sec);
        assert_eq!(has(&a, "lgwr-write-slow"), i < 30, "healthy second {i}");
    }
}

#[test]
fn ranking_is_severity_then_explained_share() {
    let f = |id, severity, explains| super::testkit::ranked_finding(id, severity, explains, None);
    let mut v = vec![
        f("a", Severity::Info, 100.0),
        f("b", Severity::Warn, 1.0),
        f("c", Severity::Crit, 0.1),
        f("d", Severity::Warn, 2.0),
    ];
    super::rank(&mut v);
    let order: Vec<_> = v.iter().map(|f| f.id).collect();
    assert_eq!(order, vec!["c", "d", "b", "a"]);
}

#[test]
fn absent_standby_and_no_sync_raise_no_standby_causes() {
    // Primary only, ASYNC destination, slow-looking numbers that need a standby to judge.
    let mut run = Run::default();
    let mut engine = CauseEngine::default();
    let pair = Pair {
        sync: false,
        remote_ms: None,
        ..slow_srl()
    };
    let mut a = Assessment::default();
    for i in 0..40 {
        run.acc.advance(&pair);
        run.engine
            .push_sample(std::sync::Arc::new(pair.primary(i, &run.acc)));
        a = engine.assess(&run.engine, MIN);
    }
    for id in [
        "standby-redo-write-slow",
        "network-latency",
        "transport-bandwidth",
        "apply-bound",
        "standby-io-saturated",
        "standby-down",
        "lag-stale",
        "srl-config",
    ] {
        assert!(!has(&a, id), "{id} raised without a standby: {:?}", ids(&a));
    }
}

#[test]
fn text_only_evidence_never_prints_a_number() {
    let a = assess(
        &Pair {
            dest_status: DestStatus::Error,
            dest_error: Some("ORA-12541: TNS:no listener".into()),
            ..Pair::default()
        },
        30,
    );
    let f = &a.findings[0];
    // How the report and the screen print such evidence is tested beside them
    // (tests/it/evidence_agrees.rs): they are above this crate.
    assert!(f.evidence.iter().any(|e| !e.has_value()));
    assert!(f
        .evidence
        .iter()
        .all(|e| e.has_value() || !e.source.is_empty()));
}

/// Runs `pair` and returns the last assessment with the run, for what-if observations.
fn assess_run(pair: &Pair, secs: i64) -> (Assessment, Run) {
    let mut run = Run::default();
    let mut engine = CauseEngine::default();
    let mut last = Assessment::default();
    for _ in 0..secs {
        run.step(pair);
        last = engine.assess(&run.engine, MIN);
    }
    (last, run)
}

fn finding<'a>(a: &'a Assessment, id: &str) -> &'a super::Finding {
    a.findings
        .iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("{id} missing: {:?}", ids(a)))
}

#[test]
fn srl_advice_follows_the_evidence() {
    // Two members, enough groups: advise one member, never more groups.
    let a = assess(&slow_srl(), 60);
    for id in ["standby-redo-write-slow", "srl-config"] {
        let f = finding(&a, id);
        let advice = f.advice.join("\n");
        assert!(
            advice.contains("one member per standby redo log group (2 now)"),
            "{id}: {advice}"
        );
        assert!(
            !advice.contains("group per thread") && !advice.contains("Add standby redo log groups"),
            "{id}: {advice}"
        );
    }
    // One member, one group short on thread 1: advise the group, never "one member".
    let short = Pair {
        srl_members: 1,
        srl_groups: 4,
        ..slow_srl()
    };
    let a = assess(&short, 60);
    for id in ["standby-redo-write-slow", "srl-config"] {
        let advice = finding(&a, id).advice.join("\n");
        assert!(
            advice.contains(
                "Add standby redo log groups for thread 1: 4 usable for 4 online groups, 5 needed"
            ),
            "{id}: {advice}"
        );
        assert!(!advice.contains("one member per"), "{id}: {advice}");
    }
    let f = finding(&a, "standby-redo-write-slow");
    assert!(
        f.title
            .contains("log file parallel write 0.62 ms on the primary"),
        "{}",
        f.title
    );
}

#[test]
fn switch_rates_say_per_thread_or_in_total() {
    // Three threads: thread 1 every 2 min, thread 2 every 4, thread 3 every 8 (testkit).
    let pair = Pair {
        switch_every_s: 120.0,
        orl_threads: 3,
        orl_mb: 1024,
        srl_mb: 1024,
        srl_groups: 13,
        ..Pair::default()
    };
    let (a, run) = assess_run(&pair, 40);
    let f = finding(&a, "log-switch-frequent");
    assert!(f.title.contains("30 per hour on thread 1"), "{}", f.title);
    // 30 + 15 + 7.5 per hour: the figure the screen shows as "/h total".
    assert!(f.title.contains("52 per hour in total"), "{}", f.title);
    let total = f
        .evidence
        .iter()
        .find(|e| e.metric.starts_with("log switches per hour in total"))
        .expect("total switch rate");
    assert!((total.value - 52.5).abs() < 0.01, "{}", total.value);
    let ctx = super::context::Context::new(&run.engine, MIN, None);
    let rates = super::rates::primary_switch_rates(&ctx);
    assert!((super::rates::total_per_hour(&rates) - total.value).abs() < 1e-9);
    // Every switch rate in the evidence names its thread or says "in total".
    for e in f.evidence.iter().filter(|e| e.unit == "/h") {
        assert!(
            e.metric.contains("thread") || e.metric.contains("in total"),
            "{}",
            e.metric
        );
    }
}

#[test]
fn logs_for_20_minutes_is_one_figure_per_thread() {
    use crate::causes::whatif::{annotate, observed_from};
    let pair = Pair {
        switch_every_s: 120.0,
        orl_threads: 3,
        orl_mb: 1024,
        srl_mb: 1024,
        srl_groups: 13,
        redo_mb_s: 21.0,
        ..Pair::default()
    };
    let (mut a, run) = assess_run(&pair, 40);
    let ctx = super::context::Context::new(&run.engine, MIN, None);
    let observed = observed_from(&ctx);
    let f = finding(&a, "log-switch-frequent");
    let size = f
        .evidence
        .iter()
        .find(|e| e.metric.starts_with("log size for 20 min on thread 1"))
        .expect("sizing evidence")
        .clone();
    // Per thread: thread 1 switched 30 of the 52.5 logs per hour (equal sizes), so it carries
    // 30/52.5 of the redo, not all of it.
    let redo = ctx.p().and_then(|d| d.redo_mb_s()).unwrap();
    let expected = redo * 30.0 / 52.5 * 1200.0;
    assert!(
        (size.value - expected).abs() < 1.0,
        "{} vs {expected}",
        size.value
    );
    assert_eq!(observed.log_mb_for_20_min, Some(size.value));
    // The twin's what-if quotes the same size.
    annotate(
        &mut a.findings,
        &observed,
        &crate::pipeline::whatif::TwinWhatIf {
            secs: 20,
            seed: 1,
            ..Default::default()
        },
    );
    let f = finding(&a, "log-switch-frequent");
    let w = f.what_if.first().expect("what-if");
    // Shown the same way too: the evidence's formatter.
    let shown = dgscope_model::display::evidence_value(size.value, &size.unit);
    assert!(
        w.outcome.starts_with(&format!("{shown} logs")),
        "{}",
        w.outcome
    );
    assert!(
        f.advice[0].contains(&format!("about {shown}")),
        "{}",
        f.advice[0]
    );
}

#[test]
fn outlier_skew_never_reads_100_percent() {
    // One 32 s stall per 2 500 fast commits: 99.96 % of waits are under 8 ms, and the title
    // must say so rather than round it onto "100.0 %".
    let stall = Pair {
        lfs_hist: Some(vec![(1024, 2499), (1 << 25, 1)]),
        ..Pair::default()
    };
    let a = assess(&stall, 40);
    let f = finding(&a, "lfs-outlier-skew");
    assert!(f.title.contains("99.96 % of waits < 8 ms"), "{}", f.title);
    let shown: Vec<String> = f
        .evidence
        .iter()
        .map(|e| dgscope_model::display::evidence_value(e.value, &e.unit))
        .collect();
    assert_eq!(shown[0], "99.96 %", "{shown:?}");
    assert!(
        !shown.iter().any(|s| s == "100.0 %" || s == "0.0 %"),
        "{shown:?}"
    );
    // Every wait under 8 ms: no outliers, no skew, whatever the spread below 8 ms.
    let none = Pair {
        lfs_hist: Some(vec![(1024, 2000), (4096, 400), (8192, 100)]),
        ..Pair::default()
    };
    assert!(!has(&assess(&none, 40), "lfs-outlier-skew"));
}

#[test]
fn evidence_values_read_one_way() {
    use dgscope_model::display::evidence_value as v;
    assert_eq!(v(129.0, "s"), "2m09s");
    assert_eq!(v(2.15, "min"), "2m09s");
    assert_eq!(v(42.0, "s"), "42 s");
    assert_eq!(v(0.62, "ms"), "0.62 ms");
    assert_eq!(v(29999.76, "ms"), "30 000 ms");
    assert_eq!(v(2.0, ""), "2");
    assert_eq!(v(f64::NAN, "ms"), "–");
}
