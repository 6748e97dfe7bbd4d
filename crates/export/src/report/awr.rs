//! `dgscope report awr FILE`: an AWR report read as a window of two samples and judged by
//! the one pipeline (the check's driver): identity, window, the commit path table, the
//! histograms and the findings, in text, JSON (`dgscope.report.awr/2`) or Markdown.

use super::format::{cell, round, text_table, Format};
pub use dgscope_awr::cite;
use dgscope_awr::AwrReport;
use dgscope_core::causes::{Finding, Thresholds};
use dgscope_core::metrics::{Delta, WindowDeltas};
use dgscope_core::pipeline::{CheckResult, Checked};
use dgscope_model::sample::names::{event, stat};
use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::Sample;
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::MIB;
use dgscope_oracle::verify;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::path::Path;
use std::time::Duration;

/// The `schema` of `report awr --format json`.
pub const SCHEMA: &str = "dgscope.report.awr/2";

/// 11g's SYNC transport events: named as such, never taken for 12c's `SYNC Remote Write`.
const LNS_EVENTS: [&str; 2] = ["LNS wait on SENDREQ", "LGWR-LNS wait on channel"];

#[derive(Debug, thiserror::Error)]
pub enum AwrReportError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: dgscope_awr::AwrError,
    },
    #[error("{path}: the report has no usable snapshot times or elapsed time")]
    NoWindow { path: String },
}

impl AwrReportError {
    /// The file was recognised as a report, which then could not be judged (no window, a
    /// layout not read yet). Otherwise (not a report, too large, unreadable) a caller that
    /// tried it as one of several formats says its own format's message.
    pub fn is_a_report(&self) -> bool {
        matches!(
            self,
            AwrReportError::NoWindow { .. }
                | AwrReportError::Read {
                    source: dgscope_awr::AwrError::Unsupported(_)
                        | dgscope_awr::AwrError::BadCompare(_),
                    ..
                }
        )
    }
}

/// What to say of a file read first as a recording (`recording`: its error on the first
/// line), then as a report (`report`): a report that could not be judged says why; a file
/// that is neither says both.
pub fn neither(
    recording: &dgscope_model::sample::recording::RecordingError,
    report: &AwrReportError,
) -> String {
    // The recording's message as a sentence, the report's after it.
    let mut recording = recording.to_string();
    if !recording.ends_with(['.', '?']) {
        recording.push('.');
    }
    match report {
        r if r.is_a_report() => r.to_string(),
        AwrReportError::Read {
            source: dgscope_awr::AwrError::NotAReport(why),
            ..
        } => format!("{recording} Nor an AWR or Statspack report: {why}"),
        // Too large or a broken gzip: what stopped it being read as a report too.
        AwrReportError::Read {
            source:
                source @ (dgscope_awr::AwrError::TooLarge { .. } | dgscope_awr::AwrError::Gzip { .. }),
            ..
        } => format!("{recording} As an AWR or Statspack report: {source}"),
        _ => recording,
    }
}

/// The commit path figures over the report's window (`null` when unknown).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AwrMetrics {
    pub tps: Option<f64>,
    pub user_commits_s: Option<f64>,
    pub redo_rate_mb_s: Option<f64>,
    pub log_file_sync_ms: Option<f64>,
    pub log_file_parallel_write_ms: Option<f64>,
    pub sync_remote_write_ms: Option<f64>,
    pub log_switches_h: Option<f64>,
    pub host_cpu_busy_pct: Option<f64>,
    pub redo_write_kb: Option<f64>,
    pub redo_writes_s: Option<f64>,
}

impl AwrMetrics {
    fn rows(&self) -> [(&'static str, &'static str, Option<f64>); 10] {
        [
            ("tps", "transactions/s", self.tps),
            ("user_commits_s", "user commits/s", self.user_commits_s),
            ("redo_rate_mb_s", "redo MB/s", self.redo_rate_mb_s),
            (
                "log_file_sync_ms",
                "log file sync ms (foreground)",
                self.log_file_sync_ms,
            ),
            (
                "log_file_parallel_write_ms",
                "log file parallel write ms",
                self.log_file_parallel_write_ms,
            ),
            (
                "sync_remote_write_ms",
                "SYNC Remote Write ms",
                self.sync_remote_write_ms,
            ),
            ("log_switches_h", "log switches/h", self.log_switches_h),
            (
                "host_cpu_busy_pct",
                "host CPU busy %",
                self.host_cpu_busy_pct,
            ),
            ("redo_write_kb", "redo write KB", self.redo_write_kb),
            ("redo_writes_s", "redo writes/s", self.redo_writes_s),
        ]
    }

    fn from_delta(d: Option<&Delta>, r: &AwrReport) -> Self {
        let Some(d) = d else {
            return AwrMetrics::default();
        };
        // Commits wait in the foreground: background processes' log file sync is not a
        // commit, and an event the foreground tables do not list has no commit figure.
        let lfs = d.event(event::LOG_FILE_SYNC).and_then(|e| {
            let (w, us) = (e.waits_fg?, e.us_fg?);
            (w > 0).then(|| us as f64 / w as f64 / 1000.0)
        });
        AwrMetrics {
            tps: d.tps(),
            user_commits_s: d.commits_per_s(),
            redo_rate_mb_s: d.per_sec(stat::REDO_SIZE).map(|b| b / MIB),
            log_file_sync_ms: lfs,
            log_file_parallel_write_ms: d.event_avg(event::LOG_FILE_PARALLEL_WRITE).map(|m| m.0),
            sync_remote_write_ms: d.sync_remote_avg().map(|m| m.0),
            log_switches_h: r
                .log_switches
                .and_then(|n| (d.secs > 0.0).then(|| n * 3600.0 / d.secs)),
            host_cpu_busy_pct: d.cpu_busy_pct(),
            redo_write_kb: d.redo_write_kb(),
            redo_writes_s: d.redo_writes_per_s(),
        }
    }
}

/// A report read and judged.
#[derive(Debug)]
pub struct AwrOutput {
    pub file: String,
    pub report: AwrReport,
    pub result: CheckResult,
    pub metrics: AwrMetrics,
    /// The window's deltas as the metrics engine computed them (`report impact` of two
    /// reports compares these, as it compares two windows of a recording).
    pub deltas: WindowDeltas,
}

/// Reads `path` and runs its two samples through the check's driver.
pub fn awr(path: &Path) -> Result<AwrOutput, AwrReportError> {
    let file = path.display().to_string();
    let (report, checked) = judged(path, Thresholds::default())?;
    Ok(output(file, report, checked))
}

/// A report already read (one period of a Compare Periods report), run as [`awr`] runs a
/// file; `file` names it in messages.
pub fn awr_of(file: String, report: AwrReport) -> Result<AwrOutput, AwrReportError> {
    let source = source_of(file.clone(), report)?;
    let (report, checked) = judge(source, Thresholds::default());
    Ok(output(file, report, checked))
}

fn output(file: String, report: AwrReport, checked: Checked) -> AwrOutput {
    let deltas = checked
        .driver
        .engine()
        .window_deltas(checked.driver.window(), None);
    let metrics = AwrMetrics::from_delta(deltas.primary.as_ref(), &report);
    AwrOutput {
        file,
        report,
        result: checked.result,
        metrics,
        deltas,
    }
}

/// A report read as a source: its figures, its two samples (the snapshots) and the length
/// of its window. What `judged` and the screen's replay of a report share.
#[derive(Debug)]
pub struct ReportSource {
    pub report: AwrReport,
    pub samples: [Sample; 2],
    pub window: Duration,
}

/// The report at `path` as a source (see [`ReportSource`]).
pub fn source(path: &Path) -> Result<ReportSource, AwrReportError> {
    let file = path.display().to_string();
    let report = dgscope_awr::read_file(path).map_err(|source| AwrReportError::Read {
        path: file.clone(),
        source,
    })?;
    source_of(file, report)
}

fn source_of(file: String, report: AwrReport) -> Result<ReportSource, AwrReportError> {
    match (report.samples(), report.window.secs()) {
        (Some(samples), Some(secs)) => Ok(ReportSource {
            report,
            samples,
            window: Duration::from_secs_f64(secs),
        }),
        _ => Err(AwrReportError::NoWindow { path: file }),
    }
}

/// The report at `path` read and judged by `run_check` under `thresholds` (what `report awr`
/// and `check --replay REPORT` share): its two samples, the window their span.
pub fn judged(path: &Path, thresholds: Thresholds) -> Result<(AwrReport, Checked), AwrReportError> {
    Ok(judge(source(path)?, thresholds))
}

fn judge(source: ReportSource, thresholds: Thresholds) -> (AwrReport, Checked) {
    let ReportSource {
        report,
        samples,
        window,
    } = source;
    let entries = samples
        .into_iter()
        .map(|s| Ok::<_, Infallible>(Entry::Sample(Box::new(s))));
    // The window is the snapshot interval, judged as the screen judges a report
    // (`DriverConfig::for_one_window`): a run of known length reaches back to its first
    // sample (the begin snapshot), and what the report shows held over all of it.
    let duration = window + Duration::from_secs(1);
    let thresholds = thresholds.for_one_window();
    let checked = match dgscope_core::pipeline::run_check(entries, Some(duration), thresholds, None)
    {
        Ok(c) => c,
        Err(never) => match never {},
    };
    (report, checked)
}

fn time(ms: Option<i64>) -> Value {
    ms.map_or(Value::Null, |m| json!(Timestamp::from_millis(m)))
}

impl AwrOutput {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => self.json(),
            Format::Text => self.text(false),
            Format::Markdown => self.text(true),
        }
    }

    /// Events the commit path table shows: the LGWR and transport events the report has.
    fn path_events(&self) -> Vec<&str> {
        let mut v = vec![
            event::LOG_FILE_SYNC,
            event::LOG_FILE_PARALLEL_WRITE,
            event::SYNC_REMOTE_WRITE,
        ];
        v.extend(LNS_EVENTS);
        v.into_iter()
            .filter(|e| self.report.events.contains_key(*e))
            .collect()
    }

    fn rounded(&self) -> Vec<&str> {
        self.path_events()
            .into_iter()
            .filter(|e| self.report.events.get(*e).is_some_and(|x| x.rounded))
            .collect()
    }

    fn findings(&self) -> &[Finding] {
        &self.result.assessment.findings
    }

    pub fn json(&self) -> String {
        let r = &self.report;
        let id = &r.identity;
        let w = &r.window;
        let m = |v: Option<f64>| v.map(|x| round(x, 6));
        let mut metrics = serde_json::Map::new();
        for (key, _, v) in self.metrics.rows() {
            metrics.insert(key.into(), json!(m(v)));
        }
        let histograms: serde_json::Map<String, Value> = self
            .path_events()
            .into_iter()
            .filter_map(|e| {
                let f = r.events.get(e)?;
                (!f.hist.is_empty()).then(|| {
                    (
                        e.to_string(),
                        json!({"estimated": true, "waits": f.waits, "buckets": f.hist}),
                    )
                })
            })
            .collect();
        let findings: Vec<Value> = self
            .findings()
            .iter()
            .map(|f| {
                json!({
                    "id": f.id,
                    "severity": f.severity,
                    "kind": f.kind,
                    "title": f.title,
                    "impact": super::decomposition::impact_json(&f.impact),
                    "caused_by": f.caused_by,
                    "evidence": f.evidence.iter().map(|e| json!({
                        "metric": e.metric,
                        "value": if e.has_value() { json!(round(e.value, 4)) } else { Value::Null },
                        "unit": e.unit,
                        "threshold": e.threshold,
                        "source": dgscope_awr::cite(&e.source),
                    })).collect::<Vec<_>>(),
                    "advice": f.advice,
                    "check_sql": verify::texts(&f.verify, &self.result.releases),
                })
            })
            .collect();
        let mut warnings = r.warnings.clone();
        warnings.extend(self.result.warnings.iter().cloned());
        let v = json!({
            "schema": SCHEMA,
            "source": format!("awr:{}", self.file),
            "kind": r.kind.as_str(),
            "identity": {
                "db_name": id.db_name,
                "dbid": id.dbid,
                "unique_name": id.unique_name,
                "role": id.role,
                "instance": id.instance,
                "inst_num": id.inst_num,
                "release": id.release,
                "rac": id.rac,
                "cdb": id.cdb,
                "pdb": r.kind == dgscope_awr::Kind::PdbHtml,
                "host": id.host,
                "platform": id.platform,
                "cpus": id.cpus,
                "cores": id.cores,
                "instances": id.instances,
            },
            "window": {
                "begin_snap": w.begin_snap,
                "end_snap": w.end_snap,
                "begin": time(w.begin_ms),
                "end": time(w.end_ms),
                "elapsed_s": w.elapsed_s.map(|x| round(x, 3)),
                "db_time_s": w.db_time_s.map(|x| round(x, 3)),
            },
            "metrics": metrics,
            "rounded": self.rounded(),
            "histograms": histograms,
            "findings": findings,
            "decomposition": super::decomposition::decomposition_json(&self.result.assessment.decomposition),
            "warnings": warnings,
        });
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_else(|_| "{}".into());
        s.push('\n');
        s
    }

    fn text(&self, markdown: bool) -> String {
        let r = &self.report;
        let id = &r.identity;
        let w = &r.window;
        let opt = |s: &Option<String>| s.clone().unwrap_or_else(|| "–".into());
        let yn = |b: Option<bool>| match b {
            Some(true) => "YES",
            Some(false) => "NO",
            None => "–",
        };
        let mut out = String::new();
        let h = |out: &mut String, t: &str| {
            if markdown {
                out.push_str(&format!("\n## {t}\n\n"));
            } else {
                out.push_str(&format!("\n{t}\n"));
            }
        };
        if markdown {
            out.push_str(&format!("# AWR report {}\n", self.file));
        } else {
            out.push_str(&format!("AWR report {} ({})\n", self.file, r.kind.as_str()));
        }
        h(&mut out, "Identity");
        let ident = vec![
            vec!["database".into(), opt(&id.db_name)],
            vec!["DBID".into(), id.dbid.map_or("–".into(), |x| x.to_string())],
            vec![
                "instance".into(),
                match (&id.instance, id.inst_num) {
                    (Some(i), Some(n)) => format!("{i} (#{n})"),
                    (Some(i), None) => i.clone(),
                    (None, Some(n)) => format!("#{n}"),
                    (None, None) => "–".into(),
                },
            ],
            vec!["release".into(), opt(&id.release)],
            vec![
                "RAC / CDB".into(),
                format!("{} / {}", yn(id.rac), yn(id.cdb)),
            ],
            vec!["host".into(), opt(&id.host)],
            vec!["CPUs".into(), id.cpus.map_or("–".into(), |x| x.to_string())],
        ];
        out.push_str(&table(markdown, &["", ""], &ident));
        h(&mut out, "Window");
        let win = vec![
            vec![
                "snapshots".into(),
                format!(
                    "{} – {}",
                    w.begin_snap.map_or("?".into(), |x| x.to_string()),
                    w.end_snap.map_or("?".into(), |x| x.to_string())
                ),
            ],
            vec![
                "times".into(),
                format!(
                    "{} – {}",
                    w.begin_ms
                        .map_or("?".into(), |m| Timestamp::from_millis(m).to_string()),
                    w.end_ms
                        .map_or("?".into(), |m| Timestamp::from_millis(m).to_string())
                ),
            ],
            vec![
                "elapsed (min)".into(),
                cell(w.elapsed_s.map(|s| s / 60.0), 2),
            ],
            vec![
                "DB time (min)".into(),
                cell(w.db_time_s.map(|s| s / 60.0), 2),
            ],
        ];
        out.push_str(&table(markdown, &["", ""], &win));
        h(&mut out, "Commit path");
        let rows: Vec<Vec<String>> = self
            .metrics
            .rows()
            .iter()
            .map(|(_, label, v)| vec![label.to_string(), cell(*v, 3)])
            .collect();
        out.push_str(&table(markdown, &["figure", "value"], &rows));
        let lns: Vec<&str> = LNS_EVENTS
            .into_iter()
            .filter(|e| r.events.contains_key(*e))
            .collect();
        for e in lns {
            if let Some(f) = r.events.get(e) {
                let avg = (f.waits > 0).then(|| f.us as f64 / f.waits as f64 / 1000.0);
                out.push_str(&format!(
                    "11g SYNC transport: {e}: {} waits, avg {} ms\n",
                    f.waits,
                    cell(avg, 3)
                ));
            }
        }
        let rounded = self.rounded();
        if !rounded.is_empty() {
            out.push_str(&format!(
                "rounded to a whole millisecond in the report: {}\n",
                rounded.join(", ")
            ));
        }
        let hists: Vec<(&str, &dgscope_awr::EventFigures)> = self
            .path_events()
            .into_iter()
            .filter_map(|e| r.events.get(e).map(|f| (e, f)))
            .filter(|(_, f)| !f.hist.is_empty())
            .collect();
        if !hists.is_empty() {
            h(
                &mut out,
                "Histograms (estimated from the report's percentages)",
            );
            for (e, f) in hists {
                let total: u64 = f.hist.iter().map(|b| b.1).sum();
                let buckets: Vec<String> = f
                    .hist
                    .iter()
                    .map(|(ub, n)| {
                        let share = *n as f64 * 100.0 / total.max(1) as f64;
                        format!("{} {share:.1} %", bucket_label(*ub))
                    })
                    .collect();
                out.push_str(&format!("{e} ({total} waits): {}\n", buckets.join(", ")));
            }
        }
        if let Some(c) = &self.result.assessment.decomposition.commit {
            h(&mut out, "Where commit time goes");
            out.push_str(&table(
                markdown,
                &["part", "ms", "share"],
                &super::decomposition::commit_rows(c),
            ));
        }
        h(&mut out, "Findings");
        if self.findings().is_empty() {
            out.push_str("none\n");
        }
        for f in self.findings() {
            out.push_str(&format!("{} {}: {}\n", f.severity.as_str(), f.id, f.title));
            out.push_str(&format!("  {}\n", f.impact.describe(f.kind)));
            for e in &f.evidence {
                out.push_str(&format!(
                    "  - {} [{}]\n",
                    super::check::evidence_text(e),
                    dgscope_awr::cite(&e.source)
                ));
            }
        }
        let mut warnings = r.warnings.clone();
        warnings.extend(self.result.warnings.iter().cloned());
        if !warnings.is_empty() {
            h(&mut out, "Warnings");
            for w in warnings {
                out.push_str(&format!("- {w}\n"));
            }
        }
        out
    }
}

/// A bucket as Oracle labels it: `< 512 us`, `< 8 ms` (2^k µs bounds read as ms from 1024
/// µs on, as the report prints them), `≥ 2 s` for the open last bucket.
fn bucket_label(upper_us: u64) -> String {
    if upper_us >= dgscope_core::metrics::OPEN_BOUND_US {
        return "open".into();
    }
    if upper_us < 1000 {
        return format!("< {upper_us} us");
    }
    // 1024-based bounds (µs histograms) and 1000-based ones (ms histograms) alike.
    let ms = if upper_us.is_multiple_of(1024) {
        upper_us / 1024
    } else {
        upper_us / 1000
    };
    format!("< {ms} ms")
}

fn table(markdown: bool, header: &[&str], rows: &[Vec<String>]) -> String {
    if !markdown {
        return text_table(header, rows);
    }
    let mut s = format!(
        "| {} |\n|{}\n",
        header.join(" | "),
        "---|".repeat(header.len())
    );
    for r in rows {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    s
}
