//! Bookkeeping the twin must never get wrong, whatever the scenario: Little's law, redo
//! conservation, LGWR busy ≤ 100 %, monotone counters, histogram totals.

use crate::twin_support;

use dgscope::sample::Sample;
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::PullSource;
use twin_support::{run, window};

#[test]
fn littles_law_holds_within_one_percent() {
    for (i, scenario) in Scenario::ALL.into_iter().enumerate() {
        let seed = i as u64 + 1;
        let p = scenario.params();
        // Commits held for NET_TIMEOUT at a window's end have not completed yet, so the
        // window closes before an outage begins.
        let outage = p
            .outage
            .or(p.link_outage)
            .or(p.net_stall)
            .map(|o| o.start_s as usize);
        let to = outage.map_or(69, |s| s - 5);
        let r = run(scenario, seed, 70);
        let w = window(&r, 10, to);
        let n = f64::from(p.sessions);
        // A session waiting for room in the log buffer has not committed yet: its wait is
        // part of its cycle too.
        let commits = w.delta.stat("user commits").unwrap() as f64;
        let lbs_ms = w
            .delta
            .event("log buffer space")
            .map_or(0.0, |e| e.us as f64 / 1000.0 / commits);
        let cycle_s = (p.think_us / 1000.0 + w.lfs + lbs_ms) / 1000.0;
        let little = w.tps * cycle_s;
        assert!(
            (little - n).abs() / n < 0.01,
            "{scenario}: X·(Z+LFS+LBS) = {little:.2} vs N = {n}"
        );
    }
}

#[test]
fn redo_is_conserved_from_generation_to_apply() {
    for scenario in Scenario::ALL {
        let r = run(scenario, 4, 150);
        let i = r.twin.internals();
        assert_eq!(
            i.redo_generated,
            i.redo_written + i.redo_unwritten,
            "{scenario}: generated = written + in LGWR"
        );
        let shipped = i.received + i.shipped_backlog;
        assert!(
            (shipped - i.redo_written as f64).abs() < 16.0,
            "{scenario}: written {} vs received {} + backlog {}",
            i.redo_written,
            i.received,
            i.shipped_backlog
        );
        // A DELAY's backlog was on the standby before the run.
        assert!(
            (i.applied + i.apply_backlog - i.received - i.preloaded).abs() < 16.0,
            "{scenario}: applied {} + backlog {} vs received {} + preloaded {}",
            i.applied,
            i.apply_backlog,
            i.received,
            i.preloaded
        );
        // The sample agrees with the bookkeeping.
        assert_eq!(
            r.primary.last().unwrap().stat("redo size"),
            Some(i.redo_generated)
        );
    }
    // The scenarios that build a backlog really do.
    let i = run(Scenario::BandwidthAsync, 4, 150).twin.internals();
    assert!(i.shipped_backlog > 1e9, "{}", i.shipped_backlog);
    let i = run(Scenario::ApplyIoBound, 4, 150).twin.internals();
    assert!(i.apply_backlog > 1e9, "{}", i.apply_backlog);
}

#[test]
fn lgwr_is_never_busy_more_than_the_elapsed_time() {
    for scenario in Scenario::ALL {
        let r = run(scenario, 5, 100);
        let i = r.twin.internals();
        for (th, busy) in i.lgwr_busy_share.iter().enumerate() {
            assert!(*busy <= 1.0 + 1e-9, "{scenario}: thread {th} busy {busy}");
            assert!(*busy > 0.1, "{scenario}: thread {th} idle {busy}");
        }
    }
}

fn check_monotone(a: &Sample, b: &Sample, what: &str) {
    for (k, v) in &a.stats {
        assert!(b.stats[k] >= *v, "{what}: stat {k} went down");
    }
    for (k, e) in &a.events {
        let f = &b.events[k];
        assert!(
            f.waits >= e.waits && f.us >= e.us,
            "{what}: event {k} went down"
        );
        for bucket in &e.hist {
            let later = f.hist.iter().find(|x| x.0 == bucket.0).map_or(0, |x| x.1);
            assert!(
                later >= bucket.1,
                "{what}: {k} bucket {:?} went down",
                bucket.0
            );
        }
    }
    for k in ["BUSY_TIME", "IDLE_TIME"] {
        assert!(b.os[k] >= a.os[k], "{what}: {k} went down");
    }
    for (k, io) in &a.iostat {
        let j = &b.iostat[k];
        assert!(
            j.rreq >= io.rreq
                && j.wreq >= io.wreq
                && j.rmb >= io.rmb
                && j.wmb >= io.wmb
                && j.rms >= io.rms
                && j.wms >= io.wms,
            "{what}: iostat {k} went down"
        );
    }
}

#[test]
fn counters_are_monotone_and_histograms_sum_to_waits_across_a_scenario_switch() {
    let mut twin = Twin::new(Scenario::HealthySync, 6);
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(), Vec::new()];
    let mut marks = Vec::new();
    for i in 0..140 {
        match i {
            30 => twin.set_scenario(Scenario::StandbyDown),
            110 => twin.set_scenario(Scenario::FrequentSwitches),
            125 => twin.set_scenario(Scenario::BandwidthAsync),
            _ => {}
        }
        let tick = twin.next_tick().unwrap();
        marks.extend(tick.marks);
        for (slot, s) in tick.samples.into_iter().enumerate() {
            samples[slot].push(s);
        }
    }
    assert_eq!(marks.len(), 3);
    let mut errors = 0;
    for (slot, list) in samples.iter().enumerate() {
        let good: Vec<&Sample> = list.iter().filter(|s| !s.is_error()).collect();
        errors += list.len() - good.len();
        for s in &good {
            for (name, e) in &s.events {
                let total: u64 = e.hist.iter().map(|b| b.1).sum();
                assert_eq!(total, e.waits, "slot {slot} {name} at {}", s.t);
                assert!(e.hist.windows(2).all(|w| w[0].0 < w[1].0));
                assert!(e.hist.iter().all(|b| b.0 .0.is_power_of_two()));
            }
        }
        for pair in good.windows(2) {
            check_monotone(pair[0], pair[1], &format!("slot {slot} at {}", pair[1].t));
        }
        assert!(list.windows(2).all(|w| w[0].t < w[1].t));
    }
    // The standby went down one minute into standby-down (second 90) until the next switch.
    assert_eq!(errors, 21, "samples at seconds 90..=110");
}

#[test]
fn every_scenario_keeps_counters_monotone_and_histograms_whole() {
    for scenario in Scenario::ALL {
        let r = run(scenario, 9, 100);
        for (slot, list) in [("primary", &r.primary), ("standby", &r.standby)] {
            let good: Vec<&Sample> = list.iter().filter(|s| !s.is_error()).collect();
            for s in &good {
                for (name, e) in &s.events {
                    let total: u64 = e.hist.iter().map(|b| b.1).sum();
                    assert_eq!(total, e.waits, "{scenario} {slot} {name} at {}", s.t);
                    // The workload's top waits are all foreground and say so by leaving
                    // the share out (a recording would repeat the totals every second).
                    let fg = e
                        .waits_fg
                        .or(e.class.is_some().then_some(e.waits))
                        .expect("foreground share read");
                    assert!(fg <= e.waits, "{scenario} {slot} {name}");
                }
            }
            for pair in good.windows(2) {
                check_monotone(
                    pair[0],
                    pair[1],
                    &format!("{scenario} {slot} at {}", pair[1].t),
                );
            }
        }
    }
}

#[test]
fn every_scenario_is_deterministic_for_its_seed() {
    for scenario in Scenario::ALL {
        let a = run(scenario, 21, 30);
        let b = run(scenario, 21, 30);
        assert_eq!(a.primary, b.primary, "{scenario}");
        assert_eq!(a.standby, b.standby, "{scenario}");
    }
}

#[test]
fn the_same_seed_gives_the_same_samples_and_another_seed_does_not() {
    let a = run(Scenario::OutlierSkew, 11, 20);
    let b = run(Scenario::OutlierSkew, 11, 20);
    let c = run(Scenario::OutlierSkew, 12, 20);
    assert_eq!(a.primary, b.primary);
    assert_eq!(a.standby, b.standby);
    assert_ne!(a.primary.last(), c.primary.last());
}

#[test]
fn switching_to_fewer_or_more_sessions_retires_or_adds_them() {
    let mut twin = Twin::new(Scenario::HealthyAsync, 8);
    let mut prim = Vec::new();
    let step = |twin: &mut Twin, n: usize, prim: &mut Vec<Sample>| {
        for _ in 0..n {
            prim.push(twin.next_tick().unwrap().samples.remove(0));
        }
    };
    step(&mut twin, 20, &mut prim);
    let mut fewer = Scenario::HealthyAsync.params();
    fewer.sessions = 40;
    twin.set_params(Scenario::HealthyAsync, fewer);
    step(&mut twin, 20, &mut prim);
    assert_eq!(twin.internals().sessions, 40);
    let mut more = Scenario::HealthyAsync.params();
    more.sessions = 160;
    twin.set_params(Scenario::HealthyAsync, more);
    step(&mut twin, 20, &mut prim);
    assert_eq!(twin.internals().sessions, 160);
    let tps = |a: usize, b: usize| {
        dgscope::metrics::Delta::between(&prim[a], &prim[b])
            .unwrap()
            .tps()
            .unwrap()
    };
    let (t120, t40, t160) = (tps(5, 19), tps(25, 39), tps(45, 59));
    // Closed loop: throughput follows the session count (Z ≫ log file sync here).
    assert!((t40 / t120 - 40.0 / 120.0).abs() < 0.03, "{t120} → {t40}");
    assert!(
        (t160 / t120 - 160.0 / 120.0).abs() < 0.05,
        "{t120} → {t160}"
    );
}
