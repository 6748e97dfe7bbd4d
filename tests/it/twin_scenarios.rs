//! Each scenario shows the signature CAUSES.md asks of it, and not the WARN/CRIT conditions of
//! the other causes. The conditions below are the catalog's defaults, evaluated over one
//! window of emitted samples (a stand-in for the rules engine, to keep the twin honest).

use crate::twin_support;

use dgscope::sample::{DestStatus, Sample};
use dgscope::source::twin::Scenario;
use std::collections::BTreeSet;
use twin_support::{run, switches_per_hour, window, Run, Window};

fn latest_good(list: &[Sample]) -> Option<&Sample> {
    list.iter().rev().find(|s| !s.is_error())
}

/// Which WARN/CRIT causes of the catalog hold over samples `[from, to]`.
fn warn_causes(r: &Run, from: usize, to: usize) -> (BTreeSet<&'static str>, Window) {
    let w = window(r, from, to);
    let mut out = BTreeSet::new();
    let p = &r.primary[to];
    let dest = &p.dests[0];
    let sync_affirm = dest.mode.is_sync() && dest.affirm;
    let lfpw = w.lfpw;
    let floor = w.remote.unwrap_or(0.0).max(lfpw);
    if let (true, Some(remote), Some(rfs)) = (sync_affirm, w.remote, w.rfs) {
        if remote >= 1.0 && remote >= 2.0 * lfpw && rfs >= 0.5 * remote {
            out.insert("standby-redo-write-slow");
        }
    }
    if let (true, Some(remote)) = (dest.mode.is_sync(), w.remote) {
        let rfs = w.rfs.unwrap_or(0.0);
        if remote - rfs >= 1.0 || (remote >= 5.0 && rfs < 1.0) {
            out.insert("network-latency");
        }
    }
    if w.poll_writes > 0 && w.lfs >= 2.0 * floor && w.lfs - floor >= 1.0 {
        out.insert("adaptive-lfs-polling");
    }
    if (w.cpu_pct >= 90.0 || w.load_over_cpus >= 1.0) && w.lfs - floor >= 1.0 && w.poll_writes == 0
    {
        out.insert("lgwr-cpu-starved");
    }
    if lfpw >= 1.0 || w.lfpw_p99_ms >= 16.0 {
        out.insert("lgwr-write-slow");
    }
    if switches_per_hour(p) > 6 {
        out.insert("log-switch-frequent");
    }
    let has_error = dest.status == DestStatus::Error || dest.error.is_some() || dest.has_gap();
    if has_error {
        out.insert("dest-error");
    }
    if r.standby[to].is_error() {
        out.insert("standby-down");
    }
    if let Some(dg) = latest_good(&r.standby[..=to]).and_then(|s| s.dg.as_ref()) {
        let tl = dg.transport_lag_s.unwrap().0;
        let al = dg.apply_lag_s.unwrap().0;
        if tl >= 10.0 && al - tl < 10.0 && !has_error {
            out.insert("transport-bandwidth");
        }
        if al - tl >= 10.0 {
            out.insert("apply-bound");
        }
        let age = dg.computed.unwrap().secs_since(dg.datum.unwrap());
        if age >= 30.0 {
            out.insert("lag-stale");
        }
    }
    for (s, pr) in [(w.s_log_w, w.p_log_w), (w.s_data_w, w.p_data_w)] {
        if let Some(s) = s {
            if s >= 2.0 * pr && s >= 2.0 {
                out.insert("standby-io-saturated");
            }
        }
    }
    (out, w)
}

/// Runs `scenario` for 2 minutes and checks the causes over the last 100 s.
fn check(scenario: Scenario, expected: &[&str], tolerated: &[&str]) -> Window {
    let r = run(scenario, 3, 120);
    let (got, w) = warn_causes(&r, 19, 119);
    for e in expected {
        assert!(
            got.contains(e),
            "{scenario}: expected {e}, got {got:?}; {w:?}"
        );
    }
    for g in &got {
        assert!(
            expected.contains(g) || tolerated.contains(g),
            "{scenario}: unexpected {g} (got {got:?}); {w:?}"
        );
    }
    w
}

#[test]
fn healthy_scenarios_stay_under_every_warn_threshold() {
    for s in [
        Scenario::HealthySync,
        Scenario::Fastsync,
        Scenario::HealthyAsync,
    ] {
        let w = check(s, &[], &[]);
        assert!(
            w.lfpw < 1.0 && w.cpu_pct < 90.0 && w.poll_writes == 0,
            "{s}: {w:?}"
        );
    }
    let w = check(Scenario::HealthySync, &[], &[]);
    assert!((1.0..=2.2).contains(&w.lfs), "healthy SYNC lfs {}", w.lfs);
    let fast = check(Scenario::Fastsync, &[], &[]);
    assert!(fast.lfs < w.lfs, "FASTSYNC {} vs SYNC {}", fast.lfs, w.lfs);
}

#[test]
fn healthy_sync_has_a_clean_redo_configuration() {
    let r = run(Scenario::HealthySync, 3, 5);
    let p = r.primary.last().unwrap();
    let logs = p.logs.as_ref().unwrap();
    for th in 1..=3 {
        let orl: Vec<_> = logs.online.iter().filter(|l| l.thread == th).collect();
        let srl: Vec<_> = logs.standby.iter().filter(|l| l.thread == th).collect();
        assert!(
            srl.len() > orl.len(),
            "thread {th}: SRL groups ≥ ORL groups + 1"
        );
        assert!(srl
            .iter()
            .all(|l| l.bytes == orl[0].bytes && l.members == 1));
        assert!(orl.iter().all(|l| l.bytes >= 300 << 20));
    }
    let log_buffer: u64 = p.params.as_ref().unwrap()["log_buffer"].parse().unwrap();
    assert!((16 << 20..=128 << 20).contains(&log_buffer));
    assert!(switches_per_hour(p) <= 6);
    let sb = r.standby.last().unwrap();
    assert!(
        sb.lag_hist.is_none(),
        "a mounted standby has no lag histogram"
    );
    let ok = |name: &str| sb.processes.iter().any(|x| x.name == name);
    assert!(ok("MRP0") && ok("RFS"));
}

#[test]
fn slow_srl_points_at_the_standby_redo_write() {
    // The SRL disk is slow, so the standby's Log File w_await is too: seed 000's "red flag".
    let w = check(
        Scenario::SlowSrl,
        &["standby-redo-write-slow"],
        &["standby-io-saturated"],
    );
    let (remote, rfs) = (w.remote.unwrap(), w.rfs.unwrap());
    assert!(
        (3.0..=3.9).contains(&remote) && (2.5..=3.2).contains(&rfs),
        "{remote} {rfs}"
    );
    assert!((0.5..=0.75).contains(&w.lfpw), "{}", w.lfpw);
    let r = run(Scenario::SlowSrl, 3, 3);
    let srl = &r.primary[2].logs.as_ref().unwrap().standby;
    assert!(
        srl.iter().all(|l| l.members == 2),
        "srl-config INFO: 2 members"
    );
}

#[test]
fn sync_high_rtt_points_at_the_network() {
    let w = check(Scenario::SyncHighRtt, &["network-latency"], &[]);
    assert!(w.remote.unwrap() >= 6.0);
}

#[test]
fn adaptive_polling_shows_polls_and_a_7ms_log_file_sync() {
    // lfpw sits at 1–1.3 ms as in seed 001, which also meets lgwr-write-slow's 1 ms floor;
    // polling explains far more of the commit time (≈ 6 ms against ≈ 1 ms).
    let w = check(
        Scenario::AdaptivePolling,
        &["adaptive-lfs-polling"],
        &["lgwr-write-slow"],
    );
    assert!((6.5..=8.0).contains(&w.lfs), "lfs {}", w.lfs);
    assert!((1.0..=3.0).contains(&w.lfpw), "lfpw {}", w.lfpw);
    assert!(w.delta.polling_share().unwrap() > 0.99);
    let r = run(Scenario::AdaptivePolling, 3, 30);
    let polls: Vec<u64> = r
        .primary
        .iter()
        .map(|s| s.stat("redo synch poll writes").unwrap())
        .collect();
    assert!(
        polls.windows(2).all(|p| p[1] > p[0]),
        "poll writes rise every second"
    );
}

#[test]
fn lgwr_storage_points_at_the_local_log_write() {
    let w = check(Scenario::LgwrStorage, &["lgwr-write-slow"], &[]);
    assert!((2.0..=3.2).contains(&w.lfpw), "{}", w.lfpw);
}

#[test]
fn cpu_starved_shows_late_posts_not_slow_writes() {
    let w = check(Scenario::CpuStarved, &["lgwr-cpu-starved"], &[]);
    assert!(w.lfs > 3.0 * w.lfpw, "{} vs {}", w.lfs, w.lfpw);
}

#[test]
fn frequent_switches_switch_more_than_six_times_an_hour() {
    // The checkpoint bursts slow the SRL writes, so the remote write may cross the
    // standby-redo-write-slow line too: the mechanism seed 000 describes.
    check(
        Scenario::FrequentSwitches,
        &["log-switch-frequent"],
        &["standby-redo-write-slow"],
    );
}

#[test]
fn bandwidth_async_builds_transport_lag_and_compression_removes_it() {
    check(Scenario::BandwidthAsync, &["transport-bandwidth"], &[]);
    check(Scenario::BandwidthAsyncCompressed, &[], &[]);
    let r = run(Scenario::BandwidthAsync, 3, 60);
    let sb = r.standby.last().unwrap();
    assert!(
        sb.lag_hist.as_ref().is_some_and(|h| !h.is_empty()),
        "ADG lag histogram"
    );
    let lags: Vec<f64> = r
        .standby
        .iter()
        .map(|s| s.dg.as_ref().unwrap().transport_lag_s.unwrap().0)
        .collect();
    assert!(lags[59] > lags[30] && lags[30] > lags[5], "{lags:?}");
}

#[test]
fn apply_io_bound_lags_in_apply_not_transport() {
    check(Scenario::ApplyIoBound, &["apply-bound"], &[]);
    let r = run(Scenario::ApplyIoBound, 3, 120);
    let dg = r.standby.last().unwrap().dg.clone().unwrap();
    assert_eq!(dg.transport_lag_s.unwrap().0, 0.0);
    assert!(dg.apply_lag_s.unwrap().0 >= 15.0, "{dg:?}");
}

#[test]
fn standby_io_contention_shows_slow_standby_datafile_writes() {
    let w = check(
        Scenario::StandbyIoContention,
        &["standby-io-saturated"],
        &[],
    );
    assert!(w.s_data_w.unwrap() >= 2.0 * w.p_data_w);
}

#[test]
fn outlier_skew_keeps_healthy_averages_with_a_heavy_tail() {
    let w = check(Scenario::OutlierSkew, &[], &[]);
    let hist = &w.delta.event("log file sync").unwrap().hist;
    let (mut n_all, mut n_8, mut t_all, mut t_8) = (0.0, 0.0, 0.0, 0.0);
    for &(ub, c) in hist.buckets() {
        let t = c as f64 * ub.0 as f64 * 0.75;
        n_all += c as f64;
        t_all += t;
        if ub.0 > 8192 {
            n_8 += c as f64;
            t_8 += t;
        }
    }
    assert!(n_8 / n_all <= 0.15, "waits ≥ 8 ms: {:.3}", n_8 / n_all);
    assert!(
        t_8 / t_all >= 0.5,
        "their share of wait time: {:.3}",
        t_8 / t_all
    );
    assert!(w.lfs < 4.0 && w.lfpw < 1.0, "{w:?}");
}

#[test]
fn standby_down_stalls_then_errors_then_resolves_the_gap() {
    let r = run(Scenario::StandbyDown, 3, 900);
    // Before the outage: healthy.
    let (before, _) = warn_causes(&r, 10, 55);
    assert!(before.is_empty(), "{before:?}");
    // During: the standby sample fails; after NET_TIMEOUT the destination is in error.
    let (during, _) = warn_causes(&r, 100, 200);
    assert!(
        during.contains("standby-down") && during.contains("dest-error"),
        "{during:?}"
    );
    let commit_stall = window(&r, 55, 95);
    let stalled: u64 = commit_stall
        .delta
        .event("log file sync")
        .unwrap()
        .hist
        .buckets()
        .iter()
        .filter(|b| b.0 .0 >= 1 << 24)
        .map(|b| b.1)
        .sum();
    // LGWR waited NET_TIMEOUT (30 s): nearly every session sat in one ≥ 16 s commit.
    assert!(stalled >= 100, "{stalled} commits waited ≥ 16 s");
    assert!(r.standby[100].is_error() && !r.standby[700].is_error());
    let d = &r.primary[200].dests[0];
    assert_eq!(d.status, DestStatus::Error);
    assert!(
        d.resp_hist.iter().any(|&(secs, n)| secs >= 30 && n > 0),
        "{:?}",
        d.resp_hist
    );
    // After the reconnect the gap ships and the lag drains back to zero.
    let peak = r
        .standby
        .iter()
        .filter_map(|s| s.dg.as_ref())
        .map(|g| g.transport_lag_s.unwrap().0)
        .fold(0.0, f64::max);
    assert!(peak >= 600.0, "{peak}");
    let last = r.standby.last().unwrap().dg.clone().unwrap();
    assert_eq!(last.transport_lag_s.unwrap().0, 0.0);
    assert_eq!(
        r.primary.last().unwrap().dests[0].gap.as_deref(),
        Some("NO GAP")
    );
}
