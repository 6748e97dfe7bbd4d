//! `check` on the driver: the same judgement as `report::check::run_check`, keeping the
//! driver (its engine and assessment) so the run can also be rendered as OpenMetrics.

use super::{Driver, DriverConfig};
use crate::causes::context::Context;
use crate::causes::whatif::{annotate, Observed, WhatIfModel};
use crate::causes::{Severity, Thresholds};
use crate::report::check::{CheckMetrics, CheckResult};
use crate::sample::recording::Entry;
use crate::sample::Slot;
use crate::timestamp::Timestamp;
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

impl Checked {
    /// The run's final state as the `serve` families, in `format`.
    pub fn exposition(&self, pair: &str, format: crate::exposition::Format) -> String {
        let engine = self.driver.engine();
        let snap = crate::exposition::PairSnapshot::from_engine(
            pair,
            "check",
            &[],
            engine,
            &self.result.assessment,
        );
        crate::exposition::render(&[std::sync::Arc::new(snap)], format)
    }

    /// `--textfile DIR`: the text format 0.0.4 (what node_exporter's textfile collector
    /// reads) written atomically to `DIR/dgscope_<pair>.prom`.
    pub fn write_textfile(
        &self,
        dir: &std::path::Path,
        pair: &str,
    ) -> Result<std::path::PathBuf, String> {
        let body = self.exposition(pair, crate::exposition::Format::Text);
        let name = crate::exposition::textfile::file_name(pair);
        crate::exposition::textfile::write_atomic(dir, &name, &body).map_err(|e| {
            format!(
                "--textfile {}: cannot write {name}: {e}; give an existing, writable directory",
                dir.display()
            )
        })
    }
}

/// The `pair` label of a check run: `twin-<scenario>`, `replay-<file stem>`, or the live
/// primary's service or alias.
pub fn pair_of(args: &crate::cli::CheckArgs) -> String {
    if let Some(t) = &args.twin {
        return format!("twin-{t}");
    }
    if let Some(p) = &args.replay {
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        return format!("replay-{}", stem.unwrap_or_default());
    }
    args.conn
        .primary
        .as_ref()
        .and_then(|p| crate::source::oracle::connect::parse("--primary", &p.0).ok())
        .map_or_else(|| "live".to_string(), |c| c.name)
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
    for entry in entries {
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
        let observed = Observed::from_context(&Context::new(engine, window, None));
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
        warnings: order.warning().into_iter().collect(),
        worst,
        whole: false,
        releases: crate::report::check::releases(engine, None),
        thresholds,
    };
    Ok(Checked { result, driver })
}

/// Samples a slot delivered out of time order or twice; the engine skips them, the user is told.
#[derive(Debug, Default)]
struct OrderCheck {
    last: std::collections::BTreeMap<Slot, Timestamp>,
    earlier: usize,
    repeated: usize,
    first_bad: Option<(Slot, Timestamp)>,
}

impl OrderCheck {
    fn see(&mut self, slot: &Slot, t: Timestamp) {
        match self.last.get(slot) {
            Some(&prev) if t <= prev => {
                if t == prev {
                    self.repeated += 1;
                } else {
                    self.earlier += 1;
                }
                self.first_bad.get_or_insert((slot.clone(), t));
            }
            _ => {
                self.last.insert(slot.clone(), t);
            }
        }
    }

    fn warning(&self) -> Option<String> {
        let (slot, t) = self.first_bad.as_ref()?;
        Some(format!(
            "{} sample(s) earlier than the one before and {} repeated sample(s) were skipped (first: slot {slot} at {t}); the judgement uses the rest",
            self.earlier, self.repeated
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::check::pull_entries;
    use crate::source::twin::whatif::TwinWhatIf;
    use crate::source::twin::{Scenario, Twin};

    /// The driver's check and the hand-written loop judge alike: same findings, transitions,
    /// window, figures and JSON, for a scenario that raises findings and one that does not.
    #[test]
    fn the_driver_judges_as_run_check_does() {
        for (scenario, secs) in [(Scenario::SlowSrl, 120), (Scenario::HealthySync, 70)] {
            let d = Duration::from_secs(secs);
            let mut a = Twin::new(scenario, 3);
            let mut b = Twin::new(scenario, 3);
            let wf = TwinWhatIf::default();
            let Ok(old) = crate::report::check::run_check(
                pull_entries(&mut a, d),
                Some(d),
                Thresholds::default(),
                Some(&wf),
            );
            let Ok(new) = run_check(
                pull_entries(&mut b, d),
                Some(d),
                Thresholds::default(),
                Some(&wf),
            );
            assert_eq!(old.json(), new.json(), "{scenario:?}");
            assert_eq!(old.transitions, new.transitions);
            assert_eq!(old.samples, new.samples);
            assert_eq!(old.from, new.from);
        }
    }
}
