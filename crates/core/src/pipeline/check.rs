//! `check` on the driver: the same judgement as `report::check::run_check`, keeping the
//! driver (its engine and assessment) so the run can also be rendered as OpenMetrics
//! (`exposition::check`).

use super::order::OrderCheck;
use super::{Driver, DriverConfig};
use crate::causes::context::Context;
use crate::causes::whatif::{annotate, observed_from, WhatIfModel};
use crate::causes::{Assessment, Severity, Thresholds};
use crate::metrics::{Delta, Engine, Window};
use dgscope_model::sample::names::event;
use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::release::Releases;
use dgscope_model::sample::Slot;
use dgscope_model::source::{PullSource, Tick};
use dgscope_model::timestamp::Timestamp;
use std::convert::Infallible;
use std::ops::Deref;
use std::time::Duration;

/// A check run's result and the driver that produced it.
#[derive(Debug)]
pub struct Checked {
    pub result: CheckResult,
    pub driver: Driver,
}

impl Deref for Checked {
    type Target = CheckResult;
    fn deref(&self) -> &CheckResult {
        &self.result
    }
}

/// Feeds entries (in time order) until `duration` past the first one, assessing at every
/// completed sampling instant; signature and result as `report::check::run_check`.
pub fn run_check<I, E>(
    entries: I,
    duration: Option<Duration>,
    thresholds: Thresholds,
    what_if: Option<&dyn WhatIfModel>,
) -> Result<Checked, E>
where
    I: IntoIterator<Item = Result<Entry, E>>,
{
    let mut driver = Driver::new(DriverConfig::for_check(duration, thresholds.clone()));
    let mut transitions = Vec::new();
    let mut order = OrderCheck::default();
    let mut worst: Option<Severity> = None;
    let mut step_ms: Option<i64> = None;
    let mut last_t: Option<Timestamp> = None;
    let worst_of = |d: &Driver| d.assessment().findings.iter().map(|f| f.severity).max();
    let mut steady = super::order::Steady::new(entries.into_iter());
    for entry in steady.by_ref() {
        let entry = entry?;
        let t = entry.t();
        if let Entry::Sample(s) = &entry {
            order.see(&s.slot, t);
        }
        if let Some(k) = last_t.filter(|k| t > *k) {
            let d = t.ms - k.ms;
            step_ms = Some(step_ms.map_or(d, |m| m.min(d)));
        }
        last_t = Some(last_t.map_or(t, |k| k.max(t)));
        if let (Some(d), Some(start)) = (duration, driver.first()) {
            if t.secs_since(start) > d.as_secs_f64() + 1e-9 {
                break;
            }
        }
        let tr = driver.push(entry);
        if !tr.is_empty() || driver.assessments() > 0 {
            worst = worst.max(worst_of(&driver));
        }
        transitions.extend(tr);
    }
    transitions.extend(driver.finish());
    worst = worst.max(worst_of(&driver));
    let window = driver.window();
    let engine = driver.engine();
    let mut assessment = driver.assessment().clone();
    if let Some(model) = what_if {
        let observed = observed_from(&Context::new(engine, window, None));
        annotate(&mut assessment.findings, &observed, model);
    }
    let primary = engine.primary_slot().cloned().unwrap_or_else(Slot::primary);
    let window_from = engine
        .slot(&primary)
        .and_then(|s| s.window(window))
        .map(|d| d.from);
    let result = CheckResult {
        metrics: CheckMetrics::from_engine(engine, window),
        assessment,
        from: window_from.or(driver.first()),
        to: engine.latest(),
        samples: driver.samples(),
        transitions,
        interval_s: step_ms.map(|ms| ms as f64 / 1000.0),
        warnings: steady
            .warnings("the judgement")
            .into_iter()
            .chain(order.warning("the judgement"))
            .chain(driver.skipped_warning())
            .chain(driver.counters_down_warning())
            .collect(),
        worst,
        whole: false,
        releases: releases(engine, None),
        thresholds,
    };
    Ok(Checked { result, driver })
}

/// What a check run saw and concluded.
#[derive(Debug, Clone)]
pub struct CheckResult {
    pub assessment: Assessment,
    pub from: Option<Timestamp>,
    pub to: Option<Timestamp>,
    pub metrics: CheckMetrics,
    pub samples: usize,
    /// Every finding raised or cleared during the run, in order.
    pub transitions: Vec<crate::causes::Transition>,
    /// The sampling interval seen (the smallest step between instants), when there were two.
    pub interval_s: Option<f64>,
    /// What was wrong with the input but did not stop the check (samples out of time order
    /// or repeated, which the engine cannot use): on stderr and in the JSON.
    pub warnings: Vec<String>,
    /// The worst severity any assessment of the run had (findings raised and cleared again
    /// included).
    pub worst: Option<crate::causes::Severity>,
    /// Judge the whole run (worst severity at any time) instead of the state at its end.
    pub whole: bool,
    /// The releases of the newest primary and standby samples: the verification SQL is
    /// spelled for them.
    pub releases: Releases,
    /// What the run judged against (the performance data's warn/crit).
    pub thresholds: Thresholds,
}

/// The releases of the engine's newest primary and standby samples (the chosen standby, or
/// the first), for spelling verification SQL. A failed sample has no release: its last good
/// one is used, a release does not go stale.
pub fn releases(engine: &Engine, standby: Option<&Slot>) -> Releases {
    let newest = |slot: Option<&Slot>| {
        slot.and_then(|s| engine.slot(s))
            .and_then(|s| s.last_good())
            .map(|s| s.as_ref())
    };
    let standby = standby.or_else(|| engine.standby_slots().first().copied());
    Releases::from_samples(newest(engine.primary_slot()), newest(standby))
}

/// The headline figures over the checked window.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckMetrics {
    pub tps: Option<f64>,
    pub redo_rate_mb_s: Option<f64>,
    pub log_file_sync_ms: Option<f64>,
    pub log_file_parallel_write_ms: Option<f64>,
    pub sync_remote_write_ms: Option<f64>,
    pub rfs_random_io_ms: Option<f64>,
    pub transport_lag_s: Option<f64>,
    pub apply_lag_s: Option<f64>,
    /// Each standby's own figures over the window (the first standby's are also above), in
    /// the engine's standby order: a figure of one member is never shown as another's.
    pub standbys: Vec<StandbyMetrics>,
}

/// One standby's (or far sync's) figures over the window.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StandbyMetrics {
    /// The slot, as `MemberState::slot` spells it.
    pub slot: String,
    /// `RFS random i/o` average over the window; `None` while the standby is stale.
    pub rfs_random_io_ms: Option<f64>,
}

impl CheckMetrics {
    pub fn from_engine(engine: &Engine, window: Window) -> Self {
        let deltas = engine.window_deltas(window, None);
        let p = deltas.primary.as_ref();
        let s = deltas.standby.as_ref();
        // The stale rule: a standby whose newest sample failed has no current lag or I/O
        // figures; they are null (unknown), never its last good ones shown as now.
        let standby_slot = engine.standby_slots().first().map(|s| (*s).clone());
        let standby_current = standby_slot
            .as_ref()
            .is_none_or(|slot| !engine.freshness(slot).is_stale());
        let standby_last = standby_slot
            .as_ref()
            .and_then(|slot| engine.slot(slot))
            .and_then(|st| st.current().cloned());
        let dg = standby_last.as_ref().and_then(|s| s.dg.clone());
        let s = s.filter(|_| standby_current);
        let standbys = engine
            .standby_slots()
            .into_iter()
            .map(|slot| {
                let current = !engine.freshness(slot).is_stale();
                let d = engine.window_deltas(window, Some(slot)).standby;
                StandbyMetrics {
                    slot: slot.to_string(),
                    rfs_random_io_ms: d
                        .as_ref()
                        .filter(|_| current)
                        .and_then(Delta::rfs_avg)
                        .map(|m| m.0),
                }
            })
            .collect();
        CheckMetrics {
            tps: p.and_then(Delta::tps),
            redo_rate_mb_s: p.and_then(Delta::redo_mb_s),
            log_file_sync_ms: p
                .and_then(|d| d.event_avg(event::LOG_FILE_SYNC))
                .map(|m| m.0),
            log_file_parallel_write_ms: p
                .and_then(|d| d.event_avg(event::LOG_FILE_PARALLEL_WRITE))
                .map(|m| m.0),
            sync_remote_write_ms: p.and_then(Delta::sync_remote_avg).map(|m| m.0),
            rfs_random_io_ms: s.and_then(Delta::rfs_avg).map(|m| m.0),
            transport_lag_s: dg.as_ref().and_then(|d| d.transport_lag_s).map(|x| x.0),
            apply_lag_s: dg.as_ref().and_then(|d| d.apply_lag_s).map(|x| x.0),
            standbys,
        }
    }
}

/// A pull source as a stream of entries for `duration` of its own (virtual) time.
pub fn pull_entries(
    source: &mut dyn PullSource,
    duration: Duration,
) -> impl Iterator<Item = Result<Entry, Infallible>> + '_ {
    let ticks = tick_count(source, duration);
    (0..ticks)
        .map_while(move |_| source.next_tick())
        .flat_map(tick_entries)
}

/// [`pull_entries`] with the source on a thread of its own, at most [`AHEAD`] ticks ahead
/// of `judge`: a simulated source (the twin) and the driver then run on two cores at once
/// instead of taking turns on one. The entries and their order are the same, and so is every
/// result. When `judge` stops early, the source's thread stops at its next tick.
pub fn with_entries_ahead<R>(
    source: &mut dyn PullSource,
    duration: Duration,
    judge: impl FnOnce(&mut dyn Iterator<Item = Result<Entry, Infallible>>) -> R,
) -> R {
    let ticks = tick_count(source, duration);
    let (tx, rx) = std::sync::mpsc::sync_channel::<Tick>(AHEAD);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            for _ in 0..ticks {
                let Some(tick) = source.next_tick() else {
                    break;
                };
                if tx.send(tick).is_err() {
                    break;
                }
            }
        });
        let mut entries = rx.into_iter().flat_map(tick_entries);
        judge(&mut entries)
    })
}

/// Ticks [`with_entries_ahead`] may hold ready: enough to even out the two sides' pace, a
/// few samples' memory.
pub(crate) const AHEAD: usize = 16;

fn tick_count(source: &dyn PullSource, duration: Duration) -> usize {
    (duration.as_secs_f64() / source.interval().as_secs_f64().max(1e-3)).round() as usize
}

fn tick_entries(tick: Tick) -> impl Iterator<Item = Result<Entry, Infallible>> {
    tick.samples
        .into_iter()
        .map(|s| Ok(Entry::Sample(Box::new(s))))
        .chain(tick.marks.into_iter().map(|m| Ok(Entry::Mark(m))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_twin::{Scenario, Twin};

    /// Read ahead on a thread, the entries are the ones a plain pull gives, in its order
    /// (marks included: a scenario switch mid-run writes one).
    #[test]
    fn reading_ahead_gives_the_same_entries_in_the_same_order() {
        let d = Duration::from_secs(90);
        let mut plain = Twin::new(Scenario::SlowSrl, 3);
        let mut want: Vec<Entry> = pull_entries(&mut plain, d).map(|e| e.unwrap()).collect();
        plain.set_scenario(Scenario::HealthySync);
        want.extend(pull_entries(&mut plain, d).map(|e| e.unwrap()));

        let mut ahead = Twin::new(Scenario::SlowSrl, 3);
        let mut got: Vec<Entry> =
            with_entries_ahead(&mut ahead, d, |it| it.map(|e| e.unwrap()).collect());
        ahead.set_scenario(Scenario::HealthySync);
        got.extend(with_entries_ahead(&mut ahead, d, |it| {
            it.map(|e| e.unwrap()).collect::<Vec<_>>()
        }));
        assert_eq!(got.len(), want.len());
        assert!(got.iter().any(|e| matches!(e, Entry::Mark(_))));
        assert!(got == want);
    }

    /// A judge that stops early does not wait for the rest of a long run.
    #[test]
    fn a_judge_that_stops_early_stops_the_source() {
        let mut twin = Twin::new(Scenario::HealthySync, 1);
        let first = with_entries_ahead(&mut twin, Duration::from_secs(24 * 3600), |it| {
            it.take(4).count()
        });
        assert_eq!(first, 4);
        // The source ran at most the ticks the channel holds beyond what was taken.
        let ticks = twin.now().secs_since(dgscope_twin::EPOCH);
        assert!(ticks <= (AHEAD + 4) as f64, "{ticks} s simulated");
    }
}
