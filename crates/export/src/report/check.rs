//! `dgscope check`: samples for a duration, prints the ranked findings and exits in the Nagios
//! convention (0 OK, 1 WARN, 2 CRIT, 3 UNKNOWN). The pipeline is the app's, minus the screen.

use super::format::round;
use super::perfdata::Breach;
use super::range::Limits;
use dgscope_core::causes::Status;
use dgscope_model::timestamp::Timestamp;
use dgscope_oracle::verify;
use serde_json::json;

/// The `schema` of `check --format json` (docs/schema/check.json): the number changes
/// when a key changes meaning or goes; new keys come with a new number too (2: `overview`).
pub const SCHEMA: &str = "dgscope.check/3";

// The result of a run is the pipeline's (one driver); this module renders it.
pub use dgscope_core::pipeline::{
    pull_entries, releases, CheckMetrics, CheckResult, StandbyMetrics,
};

/// `check`'s stdout when it could not judge (bad flags, an unreadable recording, no answer
/// from the primary, a timeout): the plugin guidelines want one status line always, and
/// JSON mode one document always. `message` is the first line of what stderr says.
pub fn unknown_text(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    format!(
        "dgscope check: UNKNOWN — {}\n",
        dgscope_model::sanitize::field(first)
    )
}

/// The JSON document of a check that could not judge: the schema's keys with nothing known
/// (`null`, empty lists) and `error` saying why.
pub fn unknown_json(message: &str) -> String {
    let metrics: serde_json::Map<String, serde_json::Value> = [
        "tps",
        "redo_rate_mb_s",
        "log_file_sync_ms",
        "log_file_parallel_write_ms",
        "sync_remote_write_ms",
        "rfs_random_io_ms",
        "transport_lag_s",
        "apply_lag_s",
    ]
    .into_iter()
    .map(|k| (k.to_string(), serde_json::Value::Null))
    .collect();
    let v = json!({
        "schema": SCHEMA,
        "status": Status::Unknown,
        "error": message.trim_end(),
        "window": {"from": null, "to": null},
        "warming_up": false,
        "warnings": [],
        "judged": "at end",
        "history": [],
        "findings": [],
        "decomposition": {"commit": null, "lag": {}},
        "metrics": metrics,
        "overview": {"primary": null, "standbys": []},
    });
    let mut s = serde_json::to_string_pretty(&v).expect("json values serialize");
    s.push('\n');
    s
}

/// A finding raised during a run (`history`): the standby it is about when not the first.
#[derive(Debug, Clone, PartialEq)]
pub struct Raised {
    pub id: &'static str,
    pub severity: dgscope_core::causes::Severity,
    pub raised: Timestamp,
    pub cleared: Option<Timestamp>,
    pub standby: Option<String>,
}

/// [`dgscope_core::pipeline::run_check`] without the driver, for callers that only render.
pub fn run_check<I, E>(
    entries: I,
    duration: Option<std::time::Duration>,
    thresholds: dgscope_core::causes::Thresholds,
    what_if: Option<&dyn dgscope_core::causes::WhatIfModel>,
) -> Result<CheckResult, E>
where
    I: IntoIterator<Item = Result<dgscope_model::sample::recording::Entry, E>>,
{
    dgscope_core::pipeline::run_check(entries, duration, thresholds, what_if).map(|c| c.result)
}

/// Which status makes `check` fail (exit non-zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    Warn,
    Crit,
}

/// What a check run's result says to a monitoring system: its status against the `-w`/`-c`
/// ranges, exit code, JSON and text. A trait because the result is the core's
/// ([`CheckResult`]) and how it is written is this crate's.
pub trait CheckReport {
    /// The figures outside their `-w`/`-c` ranges.
    fn breaches(&self, limits: &Limits) -> Vec<Breach>;

    /// The verdict with the `-w`/`-c` ranges: the worse of the findings' and the ranges'. A
    /// figure outside its range is a verdict even while the findings still warm up.
    fn status_within(&self, limits: &Limits) -> Status;

    fn status(&self) -> Status;

    /// Each finding raised during the run: its id, severity, raise and clear times, and the
    /// standby it is about when not the first.
    fn history(&self) -> Vec<Raised>;

    /// Nagios exit code, softened by `--fail-on crit` (WARN then exits 0).
    fn exit_code(&self, fail_on: FailOn) -> u8;

    /// As [`CheckReport::exit_code`], with the `-w`/`-c` ranges.
    fn exit_code_within(&self, fail_on: FailOn, limits: &Limits) -> u8;

    fn json(&self) -> String;

    /// The JSON document, with the `-w`/`-c` ranges in its status and `ranges`.
    fn json_within(&self, limits: &Limits) -> String;

    fn text(&self) -> String;

    /// The text verdict, with the `-w`/`-c` ranges: in the status, one line per figure
    /// outside its range, and in the performance data's `warn`/`crit`.
    fn text_within(&self, limits: &Limits) -> String;
}

impl CheckReport for CheckResult {
    fn breaches(&self, limits: &Limits) -> Vec<Breach> {
        if limits.is_empty() {
            return Vec::new();
        }
        let terms =
            super::perfdata::terms(&self.metrics, &self.assessment.overview, &self.thresholds);
        super::perfdata::breaches(&terms, limits)
    }

    fn status_within(&self, limits: &Limits) -> Status {
        let own = self.status();
        let ranges =
            self.breaches(limits)
                .iter()
                .map(|b| b.status)
                .fold(None, |acc: Option<Status>, s| match (acc, s) {
                    (Some(Status::Crit), _) | (_, Status::Crit) => Some(Status::Crit),
                    _ => Some(s),
                });
        match (own, ranges) {
            (s, None) => s,
            (Status::Crit, _) | (_, Some(Status::Crit)) => Status::Crit,
            (_, Some(s)) => s,
        }
    }

    fn status(&self) -> Status {
        if self.samples == 0 {
            return Status::Unknown;
        }
        let at_end = self.assessment.status();
        if !self.whole {
            return at_end;
        }
        // Whole run: a finding raised and cleared again still counts.
        match (self.worst, at_end) {
            (Some(dgscope_core::causes::Severity::Crit), _) => Status::Crit,
            (_, Status::Crit) => Status::Crit,
            (Some(dgscope_core::causes::Severity::Warn), _) => Status::Warn,
            (_, s) => s,
        }
    }

    fn history(&self) -> Vec<Raised> {
        use dgscope_core::causes::Transition;
        let mut out: Vec<Raised> = Vec::new();
        for tr in &self.transitions {
            match tr {
                Transition::Raised(f) => out.push(Raised {
                    id: f.id,
                    severity: f.severity,
                    raised: f.since,
                    cleared: None,
                    standby: f.standby.clone(),
                }),
                Transition::Cleared { id, at, standby } => {
                    if let Some(h) = out
                        .iter_mut()
                        .rev()
                        .find(|h| h.id == *id && &h.standby == standby && h.cleared.is_none())
                    {
                        h.cleared = Some(*at);
                    }
                }
            }
        }
        out
    }

    fn exit_code(&self, fail_on: FailOn) -> u8 {
        self.exit_code_within(fail_on, &Limits::default())
    }

    fn exit_code_within(&self, fail_on: FailOn, limits: &Limits) -> u8 {
        match (self.status_within(limits), fail_on) {
            (Status::Warn, FailOn::Crit) => 0,
            (s, _) => s.exit_code(),
        }
    }

    fn json(&self) -> String {
        self.json_within(&Limits::default())
    }

    fn json_within(&self, limits: &Limits) -> String {
        let findings: Vec<_> = self
            .assessment
            .findings
            .iter()
            .map(|f| {
                let mut v = json!({
                    "id": f.id,
                    "severity": f.severity,
                    "kind": f.kind,
                    "title": f.title,
                    "impact": super::decomposition::impact_json(&f.impact),
                    "caused_by": f.caused_by,
                    "since": f.since,
                    "evidence": f.evidence.iter().map(|e| json!({
                        "metric": e.metric,
                        "value": round(e.value, 4),
                        "unit": e.unit,
                        "threshold": e.threshold,
                        "source": e.source,
                    })).collect::<Vec<_>>(),
                    "advice": f.advice,
                    "check_sql": verify::texts(&f.verify, &self.releases),
                    "what_if": f.what_if,
                });
                if let Some(sb) = &f.standby {
                    v["standby"] = json!(sb);
                }
                v
            })
            .collect();
        let m = &self.metrics;
        let r = |v: Option<f64>| v.map(|x| round(x, 4));
        let v = json!({
            "schema": SCHEMA,
            "status": self.status_within(limits),
            "window": {"from": self.from, "to": self.to},
            "warming_up": self.assessment.warming_up,
            "warnings": self.warnings,
            "judged": if self.whole { "whole run" } else { "at end" },
            "history": self.history().iter().map(|h| {
                let mut v = json!({
                    "id": h.id, "severity": h.severity, "raised": h.raised, "cleared": h.cleared,
                });
                if let Some(sb) = &h.standby {
                    v["standby"] = json!(sb);
                }
                v
            }).collect::<Vec<_>>(),
            "findings": findings,
            "decomposition": super::decomposition::decomposition_json(&self.assessment.decomposition),
            "metrics": {
                "tps": r(m.tps),
                "redo_rate_mb_s": r(m.redo_rate_mb_s),
                "log_file_sync_ms": r(m.log_file_sync_ms),
                "log_file_parallel_write_ms": r(m.log_file_parallel_write_ms),
                "sync_remote_write_ms": r(m.sync_remote_write_ms),
                "rfs_random_io_ms": r(m.rfs_random_io_ms),
                "transport_lag_s": r(m.transport_lag_s),
                "apply_lag_s": r(m.apply_lag_s),
            },
            "overview": super::overview::json(&self.assessment.overview, &m.standbys),
        });
        let mut v = v;
        if !limits.is_empty() {
            v["ranges"] = json!(self
                .breaches(limits)
                .iter()
                .map(|b| json!({
                    "label": b.label,
                    "value": round(b.value, 4),
                    "unit": b.uom,
                    "status": b.status,
                    "range": b.range,
                }))
                .collect::<Vec<_>>());
        }
        let mut s = serde_json::to_string_pretty(&v).expect("json values serialize");
        s.push('\n');
        s
    }

    fn text(&self) -> String {
        self.text_within(&Limits::default())
    }

    fn text_within(&self, limits: &Limits) -> String {
        let span = match (self.from, self.to) {
            (Some(a), Some(b)) => {
                format!("{:.0} s ({} .. {})", b.secs_since(a), a.text(), b.text())
            }
            _ => "no data".into(),
        };
        let warn_or_worse = self
            .assessment
            .findings
            .iter()
            .filter(|f| f.severity >= dgscope_core::causes::Severity::Warn)
            .count();
        let mut out = format!(
            "dgscope check: {} — {} finding(s), {warn_or_worse} at WARN or above, over {span}\n",
            self.status_within(limits),
            self.assessment.findings.len(),
        );
        for b in self.breaches(limits) {
            let flag = if b.status == Status::Crit { "-c" } else { "-w" };
            out.push_str(&format!(
                "{:<5} {} {} {} outside {flag} {}\n",
                b.status.to_string(),
                dgscope_model::sanitize::field(&b.label),
                super::perfdata::number(b.value),
                b.uom,
                b.range
            ));
        }
        if self.assessment.warming_up && self.assessment.findings.is_empty() {
            out.push_str("warming up: not enough samples or no commits in the window to judge\n");
        }
        // Titles, evidence and advice quote names from the databases or the recording:
        // every field is made safe for a terminal (no escapes, no forged lines).
        use dgscope_model::sanitize::field as safe;
        for f in &self.assessment.findings {
            out.push_str(&format!(
                "{:<5} {}  {}\n",
                f.severity,
                safe(f.id),
                safe(&f.title)
            ));
            out.push_str(&format!("      {}\n", safe(&f.impact.describe(f.kind))));
            for e in &f.evidence {
                out.push_str(&format!(
                    "      {} [{}]\n",
                    safe(&evidence_text(e)),
                    safe(&e.source)
                ));
            }
            for w in &f.what_if {
                out.push_str(&format!(
                    "      what if {}: {}\n",
                    safe(&w.change),
                    safe(&w.outcome)
                ));
            }
            if let Some(a) = f.advice.first() {
                out.push_str(&format!("      → {}\n", safe(a)));
            }
        }
        let history = self.history();
        if self.whole && !history.is_empty() {
            out.push_str("history (whole run):\n");
            for h in &history {
                let sev = h.severity;
                let about = h
                    .standby
                    .as_deref()
                    .map_or(String::new(), |sb| format!(" ({})", safe(sb)));
                out.push_str(&format!(
                    "      {sev:<5} {}{about} raised {}, {}\n",
                    safe(h.id),
                    h.raised.text(),
                    h.cleared
                        .map_or("still raised at the end".to_string(), |c| format!(
                            "cleared {}",
                            c.text()
                        ))
                ));
            }
        }
        if let Some(c) = &self.assessment.decomposition.commit {
            out.push_str(&format!(
                "commit: {}\n",
                safe(&super::decomposition::commit_line(c))
            ));
        }
        out.push_str(&super::overview::text(
            &self.assessment.overview,
            &self.metrics.standbys,
        ));
        // The primary's figures: each standby's are on its own row above (never one
        // member's next to another's).
        let m = &self.metrics;
        let part = |label: &str, v: Option<f64>, unit: &str| {
            v.map(|x| format!("{label} {} {unit}", fmt_value(x)))
        };
        let parts: Vec<String> = [
            part("TPS", m.tps, "/s"),
            part("redo", m.redo_rate_mb_s, "MB/s"),
            part("log file sync", m.log_file_sync_ms, "ms"),
            part(
                "log file parallel write",
                m.log_file_parallel_write_ms,
                "ms",
            ),
            part("SYNC remote write", m.sync_remote_write_ms, "ms"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !parts.is_empty() {
            out.push_str(&format!("primary: {}\n", parts.join(", ")));
        }
        // Nagios performance data after `|` on the first line.
        let perf = super::perfdata::perfdata(
            &self.metrics,
            &self.assessment.overview,
            &self.thresholds,
            limits,
        );
        super::perfdata::append_to_first_line(&out, &perf)
    }
}

/// "SYNC Remote Write avg 3.45 ms", or the metric alone for text-only evidence.
pub fn evidence_text(e: &dgscope_core::causes::Evidence) -> String {
    if !e.has_value() {
        return e.metric.clone();
    }
    // The screen's format for each quantity (one format everywhere).
    format!(
        "{} {}",
        e.metric,
        dgscope_model::display::evidence_value(e.value, &e.unit)
    )
}

fn fmt_value(v: f64) -> String {
    if (v.fract() == 0.0 && v.abs() < 1e9) || v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod stale_figures {
    use super::*;
    use dgscope_core::causes::Thresholds;
    use dgscope_twin::{Scenario, Twin};
    use std::time::Duration;

    fn check(scenario: Scenario, secs: u64) -> CheckResult {
        let mut twin = Twin::new(scenario, 7);
        let d = Duration::from_secs(secs);
        run_check(
            pull_entries(&mut twin, d),
            Some(d),
            Thresholds::default(),
            None,
        )
        .unwrap()
    }

    /// The standby is unreachable from its first minute on: its lag and I/O figures are
    /// unknown (null), never its last good ones printed as now.
    #[test]
    fn a_standby_that_stopped_answering_has_null_lag_and_io() {
        let r = check(Scenario::StandbyDown, 120);
        assert_eq!(r.metrics.transport_lag_s, None);
        assert_eq!(r.metrics.apply_lag_s, None);
        assert_eq!(r.metrics.rfs_random_io_ms, None);
        let v: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
        assert!(v["metrics"]["transport_lag_s"].is_null(), "{v}");
        assert!(
            v["metrics"]["tps"].is_number(),
            "the primary still answers: {v}"
        );
        let healthy = check(Scenario::HealthySync, 60);
        assert!(healthy.metrics.transport_lag_s.is_some());
    }
}
