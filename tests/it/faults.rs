//! Source faults through the whole pipeline (issue 7): what the twin's samples look like
//! after an instance restart, a switchover, skewed host clocks, and a standby that goes away
//! for minutes — and that metrics and causes stay sane through each.

use crate::twin_support;

use dgscope::causes::{CauseEngine, Severity, Transition};
use dgscope::metrics::{Engine, Window};
use dgscope::sample::recording::{Entry, Header, RecordingReader, RecordingWriter};
use dgscope::sample::{Role, Sample, Slot};
use dgscope::source::twin::Scenario;
use dgscope::timestamp::Timestamp;
use std::sync::Arc;
use std::time::Duration;
use twin_support::run;

const MINUTE: Window = Window::Last(Duration::from_secs(60));

/// Feeds primary/standby pairs in time order, assessing each second; returns the engine and
/// every finding raised at WARN or above.
fn pipeline(pairs: impl IntoIterator<Item = (Sample, Sample)>) -> (Engine, Vec<Transition>) {
    let mut engine = Engine::default();
    let mut causes = CauseEngine::default();
    let mut transitions = Vec::new();
    for (p, s) in pairs {
        engine.push_sample(Arc::new(p));
        engine.push_sample(Arc::new(s));
        transitions.extend(causes.assess_for(&engine, MINUTE, None).1);
    }
    (engine, transitions)
}

fn warn_raised(tr: &[Transition]) -> Vec<&'static str> {
    tr.iter()
        .filter_map(|t| match t {
            Transition::Raised(f) if f.severity >= Severity::Warn => Some(f.id),
            _ => None,
        })
        .collect()
}

/// The counters of `s` as a freshly started instance would report them: everything since
/// `base` (the last sample before the restart), with a new startup time.
fn restarted(s: &Sample, base: &Sample, startup: Timestamp) -> Sample {
    let mut r = s.clone();
    for (k, v) in r.stats.iter_mut() {
        *v = v.saturating_sub(base.stats.get(k).copied().unwrap_or(0));
    }
    for (k, e) in r.events.iter_mut() {
        if let Some(b) = base.events.get(k) {
            e.waits = e.waits.saturating_sub(b.waits);
            e.us.0 = e.us.0.saturating_sub(b.us.0);
            for bucket in e.hist.iter_mut() {
                let before = b.hist.iter().find(|x| x.0 == bucket.0).map_or(0, |x| x.1);
                bucket.1 = bucket.1.saturating_sub(before);
            }
        }
    }
    for (k, v) in r.os.iter_mut() {
        if k == "BUSY_TIME" || k == "IDLE_TIME" {
            *v = (*v - base.os.get(k).copied().unwrap_or(0.0)).max(0.0);
        }
    }
    for (k, io) in r.iostat.iter_mut() {
        if let Some(b) = base.iostat.get(k) {
            io.rreq = io.rreq.saturating_sub(b.rreq);
            io.wreq = io.wreq.saturating_sub(b.wreq);
            io.rmb = io.rmb.saturating_sub(b.rmb);
            io.wmb = io.wmb.saturating_sub(b.wmb);
            io.rms = io.rms.saturating_sub(b.rms);
            io.wms = io.wms.saturating_sub(b.wms);
        }
    }
    r.db.as_mut().map(std::sync::Arc::make_mut).unwrap().startup = Some(startup);
    r
}

#[test]
fn instance_restart_resets_counters_without_negative_rates_or_spikes() {
    let r = run(Scenario::HealthySync, 11, 240);
    let cut = 120;
    let base = r.primary[cut - 1].clone();
    let startup = r.primary[cut].t.add_millis(-500);
    let primary: Vec<Sample> = r
        .primary
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if i >= cut {
                restarted(s, &base, startup)
            } else {
                s.clone()
            }
        })
        .collect();
    // The restart really reset the counters.
    assert!(primary[cut].stat("user commits").unwrap() < base.stat("user commits").unwrap() / 100);
    let (engine, tr) = pipeline(primary.into_iter().zip(r.standby.clone()));
    let points: Vec<_> = engine
        .slot(&Slot::primary())
        .unwrap()
        .points()
        .iter()
        .copied()
        .collect();
    let tps: Vec<f64> = points.iter().filter_map(|p| p.tps).collect();
    let mut sorted = tps.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    for p in &points {
        for v in [p.tps, p.redo_mb_s, p.lfs_ms, p.lfpw_ms, p.cpu_pct]
            .into_iter()
            .flatten()
        {
            assert!(v >= 0.0, "negative rate at {}: {p:?}", p.t);
        }
        if let Some(t) = p.tps {
            assert!(t < 2.0 * median, "spike at {}: {t} vs median {median}", p.t);
        }
    }
    // The interval across the restart has no rate at all; the ones after it do.
    assert_eq!(points[cut].tps, None);
    assert!(points[cut + 1].tps.is_some());
    // Windows spanning the restart sum both sides.
    let d = engine
        .slot(&Slot::primary())
        .unwrap()
        .window(Window::Last(Duration::from_secs(300)))
        .unwrap();
    assert!(
        (d.tps().unwrap() - median).abs() < median * 0.1,
        "{} vs {median}",
        d.tps().unwrap()
    );
    assert!(warn_raised(&tr).is_empty(), "{:?}", warn_raised(&tr));
}

#[test]
fn switchover_swaps_roles_and_the_panes_follow_the_roles() {
    let r = run(Scenario::HealthySync, 12, 240);
    let cut = 120;
    // After the switchover the connection named "primary" reaches the standby database and
    // vice versa: swap the databases behind the slots.
    let pairs = (0..240).map(|i| {
        let (p, s) = (r.primary[i].clone(), r.standby[i].clone());
        if i < cut {
            (p, s)
        } else {
            let mut now_standby = s;
            now_standby.slot = Slot::primary();
            let mut now_primary = p;
            now_primary.slot = Slot::standby();
            (now_standby, now_primary)
        }
    });
    let (engine, tr) = pipeline(pairs);
    assert_eq!(engine.primary_slot(), Some(&Slot::standby()));
    assert_eq!(engine.standby_slots(), vec![&Slot::primary()]);
    let deltas = engine.window_deltas(MINUTE, None);
    let tps = deltas.primary.unwrap().tps().unwrap();
    assert!(tps > 5000.0, "{tps}");
    assert_eq!(
        engine
            .slot(&Slot::standby())
            .unwrap()
            .last_good()
            .unwrap()
            .role(),
        Some(&Role::Primary)
    );
    // No finding above INFO from the swap itself (counters of a different database are never
    // subtracted from each other).
    assert!(warn_raised(&tr).is_empty(), "{:?}", warn_raised(&tr));
}

#[test]
fn skewed_host_clocks_do_not_fake_stale_lag() {
    let r = run(Scenario::HealthySync, 13, 180);
    // The standby host runs five minutes ahead, the primary's two minutes behind: every time
    // the databases report about themselves is off, the client's sample times are not.
    let pairs = r.primary.iter().zip(&r.standby).map(|(p, s)| {
        let mut p = p.clone();
        let mut s = s.clone();
        if let Some(sw) = p.switches.as_mut().map(std::sync::Arc::make_mut) {
            for x in sw.iter_mut() {
                x.time = x.time.add_millis(-120_000);
            }
        }
        if let Some(dg) = s.dg.as_mut() {
            dg.computed = dg.computed.map(|t| t.add_millis(300_000));
            dg.datum = dg.datum.map(|t| t.add_millis(300_000));
        }
        (p, s)
    });
    let (engine, tr) = pipeline(pairs);
    assert!(warn_raised(&tr).is_empty(), "{:?}", warn_raised(&tr));
    let lag = engine
        .slot(&Slot::standby())
        .unwrap()
        .points()
        .last()
        .unwrap()
        .transport_lag_s;
    assert_eq!(lag, Some(0.0));
}

#[test]
fn standby_away_for_minutes_leaves_error_samples_not_holes_and_comes_back() {
    // standby-down: unreachable for 10 minutes, then gap resolution.
    let r = run(Scenario::StandbyDown, 14, 13 * 60);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("outage.jsonl");
    {
        let mut w =
            RecordingWriter::create(&path, &Header::new(r.primary[0].t, 1000, "test")).unwrap();
        for (p, s) in r.primary.iter().zip(&r.standby) {
            w.write_sample(p).unwrap();
            w.write_sample(s).unwrap();
        }
    }
    let entries: Vec<Entry> = RecordingReader::open(&path)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let standby: Vec<&Sample> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Sample(s) if s.slot == Slot::standby() => Some(&**s),
            _ => None,
        })
        .collect();
    // One standby entry every second, none missing.
    assert_eq!(standby.len(), 13 * 60);
    assert!(standby.windows(2).all(|w| w[1].t.secs_since(w[0].t) == 1.0));
    let failed = standby.iter().filter(|s| s.is_error()).count();
    assert!((540..=620).contains(&failed), "{failed} error samples");
    assert!(!standby.last().unwrap().is_error(), "the standby came back");
    // The primary never stopped.
    let primary_ok = entries
        .iter()
        .filter(|e| matches!(e, Entry::Sample(s) if s.slot == Slot::primary() && !s.is_error()))
        .count();
    assert_eq!(primary_ok, 13 * 60);
    // standby-down is raised during the outage and cleared after it.
    let (_, tr) = pipeline(r.primary.into_iter().zip(r.standby));
    let raised = tr
        .iter()
        .position(|t| matches!(t, Transition::Raised(f) if f.id == "standby-down"));
    let cleared = tr
        .iter()
        .position(|t| matches!(t, Transition::Cleared { id, .. } if *id == "standby-down"));
    assert!(
        raised.is_some() && cleared.is_some() && raised < cleared,
        "{tr:?}"
    );
}
