//! `dgscope report incident`: a Markdown incident report — configuration, a timeline of
//! findings and marks, key metrics before and after, the impact table when a baseline mark
//! exists, and each finding's evidence, SQL and advice. The TUI's `e` renders the same type.

use super::format::{cell, markdown_table, pct_cell};
use super::scan::ReportError;
use dgscope_core::causes::Context;
use dgscope_core::causes::{annotate, observed_from, WhatIfModel};
use dgscope_core::causes::{rank, Finding, Thresholds};
use dgscope_core::metrics::{impact_table, Engine, ImpactRow, Window, WindowSpec};
use dgscope_core::pipeline::CheckMetrics;
use dgscope_core::pipeline::Event;
use dgscope_core::pipeline::{Driver, DriverConfig, SessionLog};
use dgscope_model::sample::ahead::read_ahead_scoped;
use dgscope_model::sample::index::RecordingIndex;
use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::{Dest, Name, Sample};
use dgscope_model::sanitize::md_text;
use dgscope_model::timestamp::Timestamp;
use std::path::Path;
use std::time::Duration;

/// One database as the report's configuration section shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct DbLine {
    pub slot: String,
    pub name: String,
    pub role: String,
    pub open_mode: String,
    pub version: String,
    pub protection: String,
    pub host: String,
}

impl DbLine {
    pub fn from_sample(s: &Sample) -> Self {
        let db = s.db.as_deref().cloned().unwrap_or_default();
        let or = |v: Option<String>| v.unwrap_or_else(|| "–".into());
        let text = |v: Option<Name>| v.map(String::from);
        DbLine {
            slot: s.slot.to_string(),
            name: or(text(db.name)),
            role: or(db.role.map(|r| r.to_string())),
            open_mode: or(db.open_mode.map(|m| m.to_string())),
            version: or(text(db.version)),
            protection: or(text(db.protection_mode)),
            host: or(text(db.host)),
        }
    }
}

pub use super::commit_path::{commit_rows, CommitRow};

#[derive(Debug, Clone, PartialEq)]
pub struct TimelineItem {
    pub t: Timestamp,
    pub text: String,
}

/// Everything an incident report says, independent of where it came from.
#[derive(Debug, Clone, Default)]
pub struct Incident {
    pub source: String,
    pub from: Option<Timestamp>,
    pub to: Option<Timestamp>,
    pub databases: Vec<DbLine>,
    pub dests: Vec<Dest>,
    pub timeline: Vec<TimelineItem>,
    /// The primary's commit path over the last window.
    pub commit_path: Vec<CommitRow>,
    /// What `before` and `after` cover ("first minute", "last minute").
    pub before_label: String,
    pub after_label: String,
    pub before: CheckMetrics,
    pub after: CheckMetrics,
    /// The baseline's label and the rows, when a baseline was marked.
    pub impact: Option<(String, Vec<ImpactRow>)>,
    pub findings: Vec<Finding>,
    /// The releases of the newest primary and standby samples, for the verification SQL.
    pub releases: dgscope_oracle::verify::Releases,
    /// Where the last window's commit time goes and why each lag is what it is.
    pub decomposition: dgscope_core::causes::Decomposition,
    /// What the Findings section says when there is none and "healthy" would not be true
    /// (the screen's `e` while it warms up); `None`: the usual "looked healthy".
    pub no_findings: Option<String>,
}

impl Incident {
    /// The configuration as the engine's newest samples describe it (also used by the TUI).
    pub fn configuration(engine: &Engine) -> (Vec<DbLine>, Vec<Dest>) {
        let mut dbs = Vec::new();
        let mut dests = Vec::new();
        for (slot, series) in engine.slots() {
            if let Some(s) = series.last_good() {
                dbs.push(DbLine::from_sample(s));
                if Some(slot) == engine.primary_slot() {
                    dests = s.dests.clone();
                }
            }
        }
        (dbs, dests)
    }

    /// The session's timeline (marks, findings raised and cleared, in order) and every
    /// finding raised in it, ranked, as the driver kept them: the same for a recording
    /// (`report incident`) and the screen (`e`).
    pub fn history(session: &SessionLog) -> (Vec<TimelineItem>, Vec<Finding>) {
        let mut timeline: Vec<TimelineItem> = Vec::new();
        if session.dropped() > 0 {
            timeline.push(TimelineItem {
                t: session
                    .events()
                    .next()
                    .map_or_else(Timestamp::default, |e| e.t()),
                text: format!(
                    "(the {} oldest events of this session are not kept)",
                    session.dropped()
                ),
            });
        }
        timeline.extend(session.events().map(Self::timeline_item));
        timeline.sort_by_key(|i| i.t);
        let mut findings: Vec<Finding> = session.findings().cloned().collect();
        rank(&mut findings);
        (timeline, findings)
    }

    pub fn timeline_item(e: &Event) -> TimelineItem {
        match e {
            Event::Mark(m) => TimelineItem {
                t: m.t,
                text: format!("mark: {}", m.text),
            },
            Event::Raised(f) => TimelineItem {
                t: f.since,
                text: format!("{} raised: {} — {}", f.severity, f.id, f.title),
            },
            Event::Cleared { id, at, standby } => TimelineItem {
                t: *at,
                text: match standby {
                    Some(sb) => format!("cleared: {id} ({sb})"),
                    None => format!("cleared: {id}"),
                },
            },
        }
    }
}

/// Replays a recording (or the part in `window`) through metrics and causes.
pub fn from_recording(
    path: &Path,
    window: Option<&str>,
    what_if: Option<&dyn WhatIfModel>,
) -> Result<Incident, ReportError> {
    let spec = match window {
        Some(w) => WindowSpec::parse(w)?,
        None => WindowSpec::whole(),
    };
    let index = RecordingIndex::build(path)?;
    let (Some(first), Some(last)) = (index.first_t(), index.last_t()) else {
        return Err(ReportError::NoSamples {
            path: index.path().to_string(),
        });
    };
    let (from, to) = spec.resolve(first, last);
    let minute = Window::Last(Duration::from_secs(60));
    let mut driver = Driver::new(DriverConfig::for_report(Thresholds::default()));
    let mut before: Option<CheckMetrics> = None;
    let mut baseline: Option<(String, Timestamp, dgscope_core::metrics::WindowDeltas)> = None;
    // A whole pass: the index's entries are read and parsed on a second core.
    // A lone sample stamped far ahead would hide the rest of its slot (order::Steady).
    let mut entries = dgscope_core::pipeline::Steady::new(index.entries_from(from)?);
    let mut order = dgscope_core::pipeline::OrderCheck::default();
    std::thread::scope(|sc| -> Result<(), ReportError> {
        for entry in read_ahead_scoped(sc, entries.by_ref()) {
            let entry = entry?;
            let t = entry.t();
            // The whole recording is read to its end: after a step back of its clock the
            // entries are judged later than stamped, past the index's last time.
            if window.is_some() && t > to {
                break;
            }
            if let Entry::Sample(s) = &entry {
                order.see(&s.slot, t);
            }
            // The driver assesses the instant this entry closes; the report reads the engine
            // as it is before the entry goes in.
            let assessed = driver.assessments();
            driver.begin(&entry);
            let s0 = driver.first().unwrap_or(t);
            if driver.assessments() > assessed && before.is_none() && t.secs_since(s0) > 60.0 {
                before = Some(CheckMetrics::from_engine(driver.engine(), minute));
            }
            if let Entry::Mark(m) = &entry {
                if baseline.is_none() && m.text.to_ascii_lowercase().contains("baseline") {
                    let len = Duration::from_secs_f64(m.t.secs_since(s0).clamp(1.0, 900.0));
                    baseline = Some((
                        m.text.clone(),
                        m.t,
                        driver.engine().window_deltas(Window::Last(len), None),
                    ));
                }
            }
            driver.push(entry);
        }
        Ok(())
    })?;
    let samples = driver.samples();
    let start = driver.first();
    // A window outside the recording is a mistake, not a healthy incident.
    if samples < 2 && window.is_some() {
        return Err(ReportError::WindowOutside {
            path: index.path().to_string(),
            spec: window.unwrap_or_default().to_string(),
            span: super::scan::span_text(first, last),
        });
    }
    driver.finish();
    let (mut timeline, mut findings) = Incident::history(driver.session());
    // Samples the engine could not use are said where the first one was, in check's words
    // (reliability review M1: the report said nothing).
    for (at, line) in [
        (entries.first_at(), entries.warning("the report")),
        (order.first_at(), order.warning("the report")),
    ] {
        if let (Some(t), Some(text)) = (at, line) {
            timeline.push(TimelineItem { t, text });
        }
    }
    for (t, text) in entries
        .steps("the report")
        .into_iter()
        .chain(entries.implausible_at("the report"))
    {
        timeline.push(TimelineItem { t, text });
    }
    timeline.sort_by_key(|i| i.t);
    if index.truncated_tail() && to >= last {
        // Said where the reading stopped, as check and the other reports say it.
        timeline.push(TimelineItem {
            t: last,
            text: format!(
                "{}: {}; read up to it",
                index.path(),
                dgscope_model::sample::recording::TRUNCATED_TAIL
            ),
        });
    }
    let engine = driver.engine();
    let (databases, dests) = Incident::configuration(engine);
    let impact = baseline.map(|(label, at, base)| {
        let len = at.secs_since(start.unwrap_or(at)).clamp(1.0, 900.0);
        let now = engine.window_deltas(Window::Last(Duration::from_secs_f64(len)), None);
        (
            format!("{label} (at {})", at.clock()),
            impact_table(&base, &now),
        )
    });
    if let Some(model) = what_if {
        let observed = observed_from(&Context::new(engine, minute, None));
        annotate(&mut findings, &observed, model);
    }
    Ok(Incident {
        source: index
            .header()
            .source
            .clone()
            .unwrap_or_else(|| index.path().to_string()),
        from: start,
        to: engine.latest(),
        databases,
        dests,
        timeline,
        commit_path: commit_rows(engine.window_deltas(minute, None).primary.as_ref()),
        before_label: "first minute".into(),
        after_label: "last minute".into(),
        before: before.unwrap_or_default(),
        after: CheckMetrics::from_engine(engine, minute),
        impact,
        findings,
        releases: dgscope_core::pipeline::releases(engine, None),
        decomposition: driver.assessment().decomposition.clone(),
        no_findings: None,
    })
}

/// The report as Markdown.
pub fn render_markdown(i: &Incident) -> String {
    let mut out = String::from("# Data Guard incident report\n\n");
    out.push_str(&format!(
        "- Source: {}\n- Window: {} .. {}\n- Generated by dgscope {}\n\n",
        md_text(&i.source),
        i.from.map_or("–".into(), |t| t.text()),
        i.to.map_or("–".into(), |t| t.text()),
        env!("CARGO_PKG_VERSION")
    ));

    out.push_str("## Configuration\n\n");
    let rows: Vec<Vec<String>> = i
        .databases
        .iter()
        .map(|d| {
            vec![
                d.slot.clone(),
                d.name.clone(),
                d.role.clone(),
                d.open_mode.clone(),
                d.version.clone(),
                d.protection.clone(),
                d.host.clone(),
            ]
        })
        .collect();
    out.push_str(&markdown_table(
        &[
            "slot",
            "database",
            "role",
            "open mode",
            "version",
            "protection mode",
            "host",
        ],
        &rows,
    ));
    if !i.dests.is_empty() {
        out.push('\n');
        let rows: Vec<Vec<String>> = i
            .dests
            .iter()
            .map(|d| {
                vec![
                    format!("LOG_ARCHIVE_DEST_{}", d.id),
                    d.name.as_deref().unwrap_or("–").to_string(),
                    format!(
                        "{} {}",
                        d.mode,
                        if d.affirm { "AFFIRM" } else { "NOAFFIRM" }
                    ),
                    d.compression.as_deref().unwrap_or("–").to_string(),
                    d.status.to_string(),
                    d.gap.as_deref().unwrap_or("–").to_string(),
                    d.error
                        .as_deref()
                        .filter(|e| !e.is_empty())
                        .unwrap_or("–")
                        .to_string(),
                ]
            })
            .collect();
        out.push_str(&markdown_table(
            &[
                "destination",
                "target",
                "transport",
                "compression",
                "status",
                "gap",
                "error",
            ],
            &rows,
        ));
    }

    out.push_str("\n## Timeline\n\n");
    if i.timeline.is_empty() {
        out.push_str("No finding was raised and no mark was set.\n");
    }
    for item in &i.timeline {
        out.push_str(&format!("- `{}` {}\n", item.t.text(), md_text(&item.text)));
    }

    let commit = super::text::commit_path(&i.commit_path);
    if !commit.is_empty() {
        out.push_str(&format!(
            "\n## Commit path (primary, {})\n\n",
            i.after_label
        ));
        out.push_str(&super::text::markdown(&commit));
    }

    if let Some(c) = &i.decomposition.commit {
        out.push_str(&format!(
            "\n## Where commit time goes (primary, {})\n\n",
            i.after_label
        ));
        out.push_str(&markdown_table(
            &["part", "ms", "share"],
            &super::decomposition::commit_rows(c),
        ));
    }
    let lags: Vec<String> =
        i.decomposition
            .lag
            .iter()
            .flat_map(|(slot, l)| {
                use dgscope_core::causes::{ApplyPart, TransportPart};
                let t = l.transport.as_ref().map(|s| {
                    super::decomposition::lag_line("transport lag", s, TransportPart::as_str)
                });
                let a = l
                    .apply
                    .as_ref()
                    .map(|s| super::decomposition::lag_line("apply lag", s, ApplyPart::as_str));
                [t, a]
                    .into_iter()
                    .flatten()
                    .map(move |x| format!("- {}: {}", md_text(slot), md_text(&x)))
            })
            .collect();
    if !lags.is_empty() {
        out.push_str("\n### Why each lag is what it is\n\n");
        out.push_str(&lags.join("\n"));
        out.push('\n');
    }

    out.push_str(&format!(
        "\n## Key metrics: {} vs {}\n\n",
        i.before_label, i.after_label
    ));
    let m = |label: &str, unit: &str, a: Option<f64>, b: Option<f64>| {
        let change = match (a, b) {
            (Some(a), Some(b)) if a != 0.0 => Some((b - a) / a * 100.0),
            _ => None,
        };
        vec![
            label.to_string(),
            unit.to_string(),
            cell(a, 2),
            cell(b, 2),
            pct_cell(change),
        ]
    };
    let (a, b) = (&i.before, &i.after);
    let rows = vec![
        m("TPS", "1/s", a.tps, b.tps),
        m("redo rate", "MB/s", a.redo_rate_mb_s, b.redo_rate_mb_s),
        m(
            "log file sync avg",
            "ms",
            a.log_file_sync_ms,
            b.log_file_sync_ms,
        ),
        m(
            "log file parallel write avg",
            "ms",
            a.log_file_parallel_write_ms,
            b.log_file_parallel_write_ms,
        ),
        m(
            "SYNC Remote Write avg",
            "ms",
            a.sync_remote_write_ms,
            b.sync_remote_write_ms,
        ),
        m(
            "RFS random i/o avg",
            "ms",
            a.rfs_random_io_ms,
            b.rfs_random_io_ms,
        ),
        m("transport lag", "s", a.transport_lag_s, b.transport_lag_s),
        m("apply lag", "s", a.apply_lag_s, b.apply_lag_s),
    ];
    out.push_str(&markdown_table(
        &["metric", "unit", "first", "last", "change"],
        &rows,
    ));

    if let Some((label, rows)) = &i.impact {
        out.push_str(&format!("\n## Impact vs baseline: {}\n\n", md_text(label)));
        let cells: Vec<Vec<String>> = rows
            .iter()
            .map(|r| {
                vec![
                    r.metric.label().to_string(),
                    r.metric.unit().to_string(),
                    cell(r.baseline, 2),
                    cell(r.compare, 2),
                    pct_cell(r.change_pct),
                ]
            })
            .collect();
        out.push_str(&markdown_table(
            &["metric", "unit", "baseline", "now", "change"],
            &cells,
        ));
    }

    out.push_str("\n## Findings\n\n");
    if i.findings.is_empty() {
        out.push_str(
            &i.no_findings
                .as_deref()
                .map_or_else(|| super::text::NO_FINDINGS.to_string(), md_text),
        );
        out.push('\n');
    }
    // One section per finding, each the text `y` copies from its drill-down.
    for f in &i.findings {
        out.push_str(&super::text::markdown(&super::text::finding(
            f,
            &i.releases,
        )));
        out.push('\n');
    }
    // The last line of defence: no control character survives anywhere (SQL blocks too).
    dgscope_model::sanitize::output(&out)
}
