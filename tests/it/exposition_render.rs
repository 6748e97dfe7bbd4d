//! The exposition read back with a strict parser: a RAC primary, a mounted standby, a failed
//! standby (down, no lag gauges), an instance restart (counters reset, a new `_created`),
//! label escaping, and a pair that has produced nothing yet.

use dgscope::causes::Thresholds;
use dgscope::exposition::parse::{parse, Exposition};
use dgscope::exposition::{render, Format, PairSnapshot};
use dgscope::pipeline::{Driver, DriverConfig};
use dgscope::sample::recording::Entry;
use dgscope::sample::{Sample, SampleErrorKind, Slot};
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::PullSource;
use dgscope::timestamp::Timestamp;
use std::sync::Arc;

fn slots() -> Vec<Slot> {
    vec![Slot::primary(), Slot::standby()]
}

/// A twin pair driven for `ticks` seconds; the last tick's samples are returned too.
fn driven(scenario: Scenario, ticks: usize) -> (Driver, Vec<Sample>) {
    let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
    let mut twin = Twin::new(scenario, 1);
    let mut last = Vec::new();
    for _ in 0..ticks {
        last = twin.next_tick().unwrap().samples;
        for s in last.clone() {
            d.push(Entry::Sample(Box::new(s)));
        }
    }
    d.finish();
    (d, last)
}

fn snap(pair: &str, d: &Driver) -> Arc<PairSnapshot> {
    Arc::new(PairSnapshot::from_engine(
        pair,
        "twin",
        &slots(),
        d.engine(),
        d.assessment(),
    ))
}

fn both(pairs: &[Arc<PairSnapshot>]) -> (Exposition, Exposition, String) {
    let text = render(pairs, Format::Text);
    let om = render(pairs, Format::OpenMetrics);
    let t = parse(&text, Format::Text).unwrap_or_else(|e| panic!("text format: {e}"));
    let o = parse(&om, Format::OpenMetrics).unwrap_or_else(|e| panic!("OpenMetrics: {e}"));
    (t, o, om)
}

const P: (&str, &str) = ("slot", "primary");
const S: (&str, &str) = ("slot", "standby");

#[test]
fn rac_primary_and_mounted_standby() {
    let (d, last) = driven(Scenario::SlowSrl, 90);
    let (t, o, _) = both(&[snap("twin-slow-srl", &d)]);
    let primary = last.iter().find(|s| s.slot == Slot::primary()).unwrap();
    let pair = ("pair", "twin-slow-srl");
    for e in [&t, &o] {
        assert_eq!(e.value("dgscope_up", &[pair, P]), Some(1.0));
        assert_eq!(e.value("dgscope_up", &[pair, S]), Some(1.0));
        assert_eq!(
            e.matching("dgscope_up", &[pair, P])[0].label("database"),
            Some("prod_a")
        );
        let info = e.matching("dgscope_database_info", &[pair, S]);
        assert_eq!(info[0].label("open_mode"), Some("MOUNTED"));
        assert_eq!(info[0].label("role"), Some("PHYSICAL STANDBY"));
        assert_eq!(info[0].label("database"), Some("prod_b"));
        assert_eq!(e.value("dgscope_instances", &[pair, P]), Some(3.0));
        // Lags are the standby's: present there, absent for the primary.
        assert!(e
            .value("dgscope_transport_lag_seconds", &[pair, S])
            .is_some());
        assert!(e.value("dgscope_apply_lag_seconds", &[pair, S]).is_some());
        assert!(e.value("dgscope_apply_lag_seconds", &[pair, P]).is_none());
        assert!(
            e.value("dgscope_apply_rate_bytes_per_second", &[pair, S])
                .unwrap()
                > 0.0
        );
        assert_eq!(
            e.value(
                "dgscope_finding",
                &[
                    pair,
                    ("id", "standby-redo-write-slow"),
                    ("database", "prod_a")
                ]
            ),
            Some(1.0)
        );
        assert_eq!(e.value("dgscope_warming_up", &[pair]), Some(0.0));
        assert_eq!(
            e.value(
                "dgscope_destination_status",
                &[pair, ("dest_id", "2"), ("status", "VALID")]
            ),
            Some(1.0)
        );
        assert_eq!(
            e.value(
                "dgscope_destination_status",
                &[pair, ("dest_id", "2"), ("status", "ERROR")]
            ),
            Some(0.0)
        );
        assert_eq!(
            e.value("dgscope_protection_degraded", &[pair, P]),
            Some(0.0)
        );
    }
    // The log file sync histogram is Oracle's, bucket for bucket.
    let lfs = &primary.events["log file sync"];
    let ev = [pair, P, ("event", "log file sync")];
    for e in [&t, &o] {
        assert_eq!(
            e.value("dgscope_wait_event_duration_seconds_count", &ev),
            Some(lfs.waits as f64)
        );
        assert_eq!(
            e.value(
                "dgscope_wait_event_duration_seconds_bucket",
                &[ev[0], ev[1], ev[2], ("le", "+Inf")]
            ),
            Some(lfs.waits as f64)
        );
        let sum = e
            .value("dgscope_wait_event_duration_seconds_sum", &ev)
            .unwrap();
        assert!((sum - lfs.us.0 as f64 / 1e6).abs() < 1e-6);
        for b in &lfs.hist {
            let le = format!("{}", b.upper().0 as f64 / 1e6);
            let below: u64 = lfs
                .hist
                .iter()
                .filter(|x| x.upper() <= b.upper())
                .map(|x| x.count())
                .sum();
            assert_eq!(
                e.value(
                    "dgscope_wait_event_duration_seconds_bucket",
                    &[ev[0], ev[1], ev[2], ("le", le.as_str())]
                ),
                Some(below as f64),
                "le={le}"
            );
        }
        let c = e.value("dgscope_user_commits_total", &[pair, P]);
        assert_eq!(c, Some(primary.stat("user commits").unwrap() as f64));
    }
    // OpenMetrics carries the instance startup as _created; the text format has none.
    let startup = primary.startup().unwrap().ms as f64 / 1000.0;
    assert_eq!(
        o.value("dgscope_user_commits_created", &[pair, P]),
        Some(startup)
    );
    assert_eq!(
        o.value("dgscope_wait_event_duration_seconds_created", &ev),
        Some(startup)
    );
    assert!(t.series("dgscope_user_commits_created").is_empty());
    assert_eq!(o.family("dgscope_user_commits").unwrap().kind, "counter");
    assert_eq!(
        t.family("dgscope_user_commits_total").unwrap().kind,
        "counter"
    );
}

#[test]
fn a_failed_standby_is_down_with_its_error_and_no_figures() {
    let (mut d, last) = driven(Scenario::HealthySync, 30);
    let t0 = last[0].t;
    let good_t = t0.ms as f64 / 1000.0;
    let t1 = t0.add_millis(1000);
    let mut primary = last
        .iter()
        .find(|s| s.slot == Slot::primary())
        .unwrap()
        .clone();
    primary.t = t1;
    d.push(Entry::Sample(Box::new(primary)));
    d.push(Entry::Sample(Box::new(Sample::failed(
        t1,
        Slot::standby(),
        SampleErrorKind::Timeout,
        "ORA-03136 …".into(),
    ))));
    d.finish();
    let (t, o, _) = both(&[snap("p", &d)]);
    for e in [&t, &o] {
        let up = e.matching("dgscope_up", &[S]);
        assert_eq!(up.len(), 1);
        assert_eq!(up[0].value, 0.0);
        assert_eq!(up[0].label("error"), Some("timeout"));
        assert_eq!(
            up[0].label("database"),
            Some("prod_b"),
            "known from the last good sample"
        );
        assert!(e.matching("dgscope_transport_lag_seconds", &[]).is_empty());
        assert!(e.matching("dgscope_apply_lag_seconds", &[]).is_empty());
        assert!(e
            .matching("dgscope_apply_rate_bytes_per_second", &[])
            .is_empty());
        assert!(e
            .matching("dgscope_wait_event_duration_seconds_count", &[S])
            .is_empty());
        assert!(e.matching("dgscope_database_info", &[S]).is_empty());
        // Nor its states or apply finish time: a down standby is dgscope_up 0, not a
        // last-known "running".
        for fam in [
            "dgscope_apply_state",
            "dgscope_transport_state",
            "dgscope_apply_finish_seconds",
            "dgscope_switchover_status",
        ] {
            assert!(e.matching(fam, &[S]).is_empty(), "{fam}");
        }
        // How old the standby's figures are stays visible; the primary is unaffected.
        assert_eq!(
            e.value("dgscope_last_sample_timestamp_seconds", &[S]),
            Some(good_t)
        );
        assert_eq!(e.value("dgscope_up", &[P]), Some(1.0));
        assert!(e.matching("dgscope_up", &[P])[0].label("error").is_none());
        assert!(!e
            .matching("dgscope_wait_event_duration_seconds_count", &[P])
            .is_empty());
    }
}

#[test]
fn an_instance_restart_resets_counters_with_a_new_created() {
    let (mut d, last) = driven(Scenario::HealthySync, 20);
    let before = snap("p", &d);
    let old = last.iter().find(|s| s.slot == Slot::primary()).unwrap();
    let old_startup = old.startup().unwrap();
    let mut fresh = old.clone();
    let new_startup = old.t.add_millis(500);
    fresh.t = old.t.add_millis(1000);
    fresh
        .db
        .as_mut()
        .map(std::sync::Arc::make_mut)
        .unwrap()
        .startup = Some(new_startup);
    for v in fresh.stats.values_mut() {
        *v /= 100;
    }
    for ev in fresh.events.values_mut() {
        ev.waits /= 100;
        ev.us.0 /= 100;
        for b in &mut ev.hist {
            b.1 /= 100;
        }
    }
    d.push(Entry::Sample(Box::new(fresh.clone())));
    d.finish();
    let after = snap("p", &d);
    let (_, o1, _) = both(&[before]);
    let (_, o2, _) = both(&[after]);
    let c1 = o1.value("dgscope_user_commits_total", &[P]).unwrap();
    let c2 = o2.value("dgscope_user_commits_total", &[P]).unwrap();
    assert!(c2 < c1, "the counter reset is exported raw: {c1} → {c2}");
    let ev = [P, ("event", "log file sync")];
    assert!(
        o2.value("dgscope_wait_event_duration_seconds_count", &ev)
            .unwrap()
            < o1.value("dgscope_wait_event_duration_seconds_count", &ev)
                .unwrap()
    );
    let secs = |t: Timestamp| t.ms as f64 / 1000.0;
    assert_eq!(
        o1.value("dgscope_user_commits_created", &[P]),
        Some(secs(old_startup))
    );
    assert_eq!(
        o2.value("dgscope_user_commits_created", &[P]),
        Some(secs(new_startup))
    );
    assert_eq!(
        o2.value("dgscope_wait_event_duration_seconds_created", &ev),
        Some(secs(new_startup))
    );
}

#[test]
fn label_values_are_escaped_and_read_back_exactly() {
    let (d, _) = driven(Scenario::HealthySync, 5);
    let nasty = "a\"b\\c\nd";
    let (t, o, om) = both(&[snap(nasty, &d)]);
    assert!(om.contains(r#"pair="a\"b\\c\nd""#));
    for e in [&t, &o] {
        assert_eq!(e.value("dgscope_up", &[("pair", nasty), P]), Some(1.0));
    }
}

#[test]
fn a_pair_that_has_produced_nothing_is_down_without_a_database() {
    let p = Arc::new(PairSnapshot::pending("prod", "oracle", &slots(), "no_data"));
    let (t, o, _) = both(&[p]);
    for e in [&t, &o] {
        let up = e.series("dgscope_up");
        assert_eq!(up.len(), 2);
        for s in up {
            assert_eq!(s.value, 0.0);
            assert_eq!(s.label("error"), Some("no_data"));
            assert_eq!(s.label("database"), None);
        }
        assert!(e.series("dgscope_last_sample_timestamp_seconds").is_empty());
        assert_eq!(
            e.value("dgscope_warming_up", &[("pair", "prod")]),
            Some(1.0)
        );
        assert_eq!(e.series("dgscope_build_info").len(), 1);
    }
}

#[test]
fn the_bucket_ladder_is_the_same_whatever_buckets_have_filled() {
    let (d1, _) = driven(Scenario::HealthySync, 3);
    let (d2, _) = driven(Scenario::SlowSrl, 60);
    let les = |d: &Driver| -> Vec<String> {
        let (_, o, _) = both(&[snap("p", d)]);
        o.matching(
            "dgscope_wait_event_duration_seconds_bucket",
            &[P, ("event", "log file sync")],
        )
        .iter()
        .map(|s| s.label("le").unwrap().to_string())
        .collect()
    };
    let (a, b) = (les(&d1), les(&d2));
    assert_eq!(a, b);
    assert_eq!(a.first().map(String::as_str), Some("0.000001"));
    assert_eq!(a.last().map(String::as_str), Some("+Inf"));
    assert_eq!(a.len(), 24);
}

#[test]
fn rac_standby_names_the_instance_its_lags_come_from_and_11g_buckets_keep_their_ladder() {
    let (mut d, last) = driven(Scenario::HealthySync, 10);
    let t = last[0].t.add_millis(1000);
    for s in &last {
        let mut s = s.clone();
        s.t = t;
        if s.slot == Slot::standby() {
            s.dg.as_mut().unwrap().inst_id = Some(2);
        } else {
            // 11.2: V$EVENT_HISTOGRAM in milliseconds (1000 µs × 2^k bounds).
            let ev = s.events.get_mut("log file sync").unwrap();
            let total = ev.waits;
            ev.hist = vec![
                dgscope::sample::Bucket(dgscope::units::Micros(1000), total / 2),
                dgscope::sample::Bucket(dgscope::units::Micros(4000), total - total / 2),
            ];
        }
        d.push(Entry::Sample(Box::new(s)));
    }
    d.finish();
    let (_, o, _) = both(&[snap("p", &d)]);
    let info = o.matching("dgscope_dataguard_stats_instance_info", &[S]);
    assert_eq!(info.len(), 1);
    assert_eq!(info[0].label("inst_id"), Some("2"));
    let lfs = o.matching(
        "dgscope_wait_event_duration_seconds_bucket",
        &[P, ("event", "log file sync")],
    );
    let les: Vec<_> = lfs.iter().map(|s| s.label("le").unwrap()).collect();
    assert_eq!(&les[..4], &["0.001", "0.002", "0.004", "0.008"]);
    assert_eq!(lfs[1].value, lfs[0].value, "nothing between 1 and 2 ms");
}

/// The same rule raised for the first standby and for another one: two series, told apart
/// by the `standby` label, and the exposition stays valid (no duplicate series).
#[test]
fn a_finding_about_another_standby_is_its_own_series() {
    use dgscope::causes::Severity;
    use dgscope::exposition::FindingState;
    let (d, _) = driven(Scenario::HealthySync, 20);
    let mut p = PairSnapshot::from_engine("twin", "twin", &slots(), d.engine(), d.assessment());
    for standby in [None, Some("standby:far".to_string())] {
        p.findings.push(FindingState {
            id: "apply-stopped",
            severity: Severity::Crit,
            title: "MRP0 is not running".into(),
            impact: dgscope::causes::Impact::of(
                dgscope::causes::Symptom::ApplyLag,
                Some(60.0),
                Some(80.0),
                None,
            )
            .for_standby(standby.clone()),
            standby,
        });
    }
    let (t, o, _) = both(&[Arc::new(p)]);
    for e in [&t, &o] {
        let series = e.matching("dgscope_finding", &[("id", "apply-stopped")]);
        assert_eq!(series.len(), 2);
        let shares = e.matching("dgscope_finding_impact_ratio", &[("id", "apply-stopped")]);
        assert_eq!(shares.len(), 2, "one share per finding");
        assert!(shares
            .iter()
            .all(|s| (s.value - 0.75).abs() < 1e-9 && s.label("symptom") == Some("apply-lag")));
        // No DB time is known for a lag: no series, never 0.
        assert!(e
            .matching("dgscope_finding_db_time_ratio", &[("id", "apply-stopped")])
            .is_empty());
        let labels: Vec<Option<&str>> = series.iter().map(|s| s.label("standby")).collect();
        assert!(labels.contains(&None), "{labels:?}");
        assert!(labels.contains(&Some("standby:far")), "{labels:?}");
    }
}

/// Stateset families: every known state is written, exactly one is 1.
fn one_current(e: &Exposition, fam: &str, labels: &[(&str, &str)], key: &str) -> String {
    let series = e.matching(fam, labels);
    assert!(
        series.len() > 1,
        "{fam} {labels:?}: {} series",
        series.len()
    );
    let on: Vec<_> = series.iter().filter(|s| s.value == 1.0).collect();
    assert_eq!(on.len(), 1, "{fam} {labels:?}: {} at 1", on.len());
    assert!(series.iter().all(|s| s.value == 0.0 || s.value == 1.0));
    on[0].label(key).unwrap().to_string()
}

/// Two standbys and a far sync: each member's apply and transport state and apply finish
/// time on its own slot; the far sync applies nothing; the primary's switchover readiness.
#[test]
fn each_member_has_its_apply_and_transport_state() {
    for (scenario, pair) in [
        (Scenario::TwoStandbys, "twin-two-standbys"),
        (Scenario::FarSync, "twin-far-sync"),
    ] {
        let (d, _) = driven(scenario, 60);
        let (t, o, _) = both(&[snap(pair, &d)]);
        let far = ("slot", "standby:prod_c");
        for e in [&t, &o] {
            for slot in [S, far] {
                let apply = one_current(e, "dgscope_apply_state", &[slot], "state");
                let transport = one_current(e, "dgscope_transport_state", &[slot], "state");
                assert_eq!(transport, "shipping", "{pair} {slot:?}");
                let fs = e.matching("dgscope_database_info", &[slot])[0]
                    .label("role")
                    .unwrap()
                    == "FAR SYNC";
                assert_eq!(
                    apply,
                    if fs { "not-applicable" } else { "running" },
                    "{pair} {slot:?}"
                );
                assert_eq!(
                    e.value("dgscope_apply_finish_seconds", &[slot]).is_some(),
                    !fs,
                    "{pair} {slot:?}"
                );
            }
            assert!(e.matching("dgscope_apply_state", &[P]).is_empty());
            assert!(e.matching("dgscope_transport_state", &[P]).is_empty());
            // The twin's primary can switch over (TO STANDBY); its FSFO is DISABLED: the
            // status says so, and readiness is absent rather than a 0 that reads "not ready".
            assert_eq!(
                one_current(e, "dgscope_switchover_status", &[P], "status"),
                "TO STANDBY",
                "{pair}"
            );
            assert_eq!(
                e.value("dgscope_switchover_ready", &[P]),
                Some(1.0),
                "{pair}"
            );
            assert_eq!(
                one_current(e, "dgscope_fsfo_status", &[P], "status"),
                "DISABLED",
                "{pair}"
            );
            for fam in [
                "dgscope_fsfo_ready",
                "dgscope_fsfo_observer_present",
                "dgscope_fsfo_target_info",
            ] {
                assert!(
                    e.series(fam).is_empty(),
                    "{fam}: disabled is absent, never 0"
                );
            }
        }
    }
}

/// A primary with fast-start failover over its lag limit, no observer and a switchover that
/// is not allowed; a standby reporting its own switchover status. Then FSFO disabled.
#[test]
fn fsfo_and_switchover_readiness() {
    let run = |fsfo: &str, observer: bool| {
        let mut d = Driver::new(DriverConfig::last_minute(Thresholds::default()));
        let mut twin = Twin::new(Scenario::HealthySync, 1);
        for _ in 0..20 {
            for mut s in twin.next_tick().unwrap().samples {
                let primary = s.slot == Slot::primary();
                if let Some(db) = s.db.as_mut().map(std::sync::Arc::make_mut) {
                    if primary {
                        db.fs_failover_status = Some(fsfo.into());
                        db.fs_failover_target = Some("prod_b".into());
                        db.fs_failover_observer_present = Some(observer);
                        db.fs_failover_observer_host = Some("obs \"1\"".into());
                        db.switchover_status = Some("FAILED DESTINATION".into());
                    } else {
                        db.switchover_status = Some("NOT ALLOWED".into());
                    }
                }
                d.push(Entry::Sample(Box::new(s)));
            }
        }
        d.finish();
        both(&[snap("p", &d)])
    };
    let (t, o, _) = run("TARGET OVER LAG LIMIT", false);
    for e in [&t, &o] {
        assert_eq!(
            one_current(e, "dgscope_fsfo_status", &[P], "status"),
            "TARGET OVER LAG LIMIT"
        );
        assert_eq!(e.value("dgscope_fsfo_ready", &[P]), Some(0.0));
        assert_eq!(e.value("dgscope_fsfo_observer_present", &[P]), Some(0.0));
        let info = e.matching("dgscope_fsfo_target_info", &[P]);
        assert_eq!(info[0].label("target"), Some("prod_b"));
        assert_eq!(info[0].label("observer_host"), Some("obs \"1\""));
        assert!(
            e.matching("dgscope_fsfo_status", &[S]).is_empty(),
            "the primary's"
        );
        assert_eq!(
            one_current(e, "dgscope_switchover_status", &[P], "status"),
            "FAILED DESTINATION"
        );
        assert_eq!(
            one_current(e, "dgscope_switchover_status", &[S], "status"),
            "NOT ALLOWED"
        );
        assert_eq!(e.value("dgscope_switchover_ready", &[P]), Some(0.0));
        assert!(e.matching("dgscope_switchover_ready", &[S]).is_empty());
    }
    let (t, o, _) = run("SYNCHRONIZED", true);
    for e in [&t, &o] {
        assert_eq!(e.value("dgscope_fsfo_ready", &[P]), Some(1.0));
        assert_eq!(e.value("dgscope_fsfo_observer_present", &[P]), Some(1.0));
    }
    let (t, o, _) = run("DISABLED", false);
    for e in [&t, &o] {
        assert_eq!(
            one_current(e, "dgscope_fsfo_status", &[P], "status"),
            "DISABLED"
        );
        for fam in [
            "dgscope_fsfo_ready",
            "dgscope_fsfo_observer_present",
            "dgscope_fsfo_target_info",
        ] {
            assert!(e.series(fam).is_empty(), "{fam} while FSFO is disabled");
        }
    }
}

/// Under Multi-Instance Redo Apply Oracle's Active Apply Rate is 0: unknown, so absent
/// (review M5), while a single-instance standby's rate is exported.
#[test]
fn the_apply_rate_under_mira_is_absent_not_zero() {
    let (d, last) = driven(Scenario::MiraApply, 60);
    let standby = last.iter().find(|s| s.slot == Slot::standby()).unwrap();
    let kbps = standby.recovery.as_ref().unwrap().active_apply_kbps;
    assert_eq!(kbps, Some(0.0), "the twin reports Oracle's 0 under MIRA");
    let (t, o, _) = both(&[snap("twin-mira-apply", &d)]);
    for e in [&t, &o] {
        assert!(e.value("dgscope_up", &[S]) == Some(1.0));
        assert!(e
            .matching("dgscope_apply_rate_bytes_per_second", &[])
            .is_empty());
        assert!(e.value("dgscope_apply_lag_seconds", &[S]).is_some());
    }
}

/// What is waiting now, per event, from the primary's newest sample: the sessions piled on
/// the switch behind a stuck archiver and the longest of their waits; none from a slot that
/// did not read it (the twin's standby).
#[test]
fn sessions_waiting_now_by_event() {
    let (d, last) = driven(Scenario::ArchiverStuck, 200);
    let (t, o, _) = both(&[snap("twin-archiver-stuck", &d)]);
    let primary = last.iter().find(|s| s.slot == Slot::primary()).unwrap();
    let w = primary
        .waits_now
        .as_deref()
        .unwrap()
        .iter()
        .find(|w| w.event == "log file switch (archiving needed)")
        .unwrap();
    let ev = [P, ("event", "log file switch (archiving needed)")];
    for e in [&t, &o] {
        assert_eq!(
            e.value("dgscope_sessions_waiting", &ev),
            Some(f64::from(w.sessions))
        );
        assert_eq!(
            e.value("dgscope_session_wait_longest_seconds", &ev),
            Some(w.longest_s)
        );
        assert!(e.matching("dgscope_sessions_waiting", &[S]).is_empty());
    }
}
