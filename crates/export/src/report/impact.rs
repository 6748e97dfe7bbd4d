//! `dgscope report impact`: seed 000's "baseline vs compare" table, from two windows of a
//! recording or from two AWR/Statspack reports (before and after a change), each window
//! judged by the same metrics engine.

use super::awr::{awr, awr_of, AwrReportError};
use super::format::{cell, markdown_table, pct_cell, round, text_table, Format};
use super::scan::{scan, ReportError, ScannedWindow};
use dgscope_core::causes::{CommitDecomposition, CommitPart, Thresholds};
use dgscope_core::metrics::{impact_table, ImpactRow, WindowDeltas, WindowSpec};
use dgscope_model::sample::Slot;
use dgscope_model::timestamp::Timestamp;
use serde_json::json;
use std::path::Path;

/// The `schema` of `report impact --format json` (docs/schema/report-impact.json).
pub const SCHEMA: &str = "dgscope.report.impact/2";

/// One side of the table: what the user named (a window spec or a report's file) and the
/// time it covers.
pub struct Side {
    pub text: String,
    pub from: Timestamp,
    pub to: Timestamp,
}

impl From<&ScannedWindow> for Side {
    fn from(w: &ScannedWindow) -> Self {
        Side {
            text: w.text.clone(),
            from: w.from,
            to: w.to,
        }
    }
}

pub struct ImpactReport {
    pub baseline: Side,
    pub compare: Side,
    pub rows: Vec<ImpactRow>,
    /// Each window's commit decomposition, the same computation as `check`'s.
    pub commit: [Option<CommitDecomposition>; 2],
    /// Input problems that did not stop the report (see [`super::scan::Scan::warnings`]).
    pub warnings: Vec<String>,
}

pub fn impact(path: &Path, baseline: &str, compare: &str) -> Result<ImpactReport, ReportError> {
    let specs = vec![
        (baseline.to_string(), WindowSpec::parse(baseline)?),
        (compare.to_string(), WindowSpec::parse(compare)?),
    ];
    let s = scan(path, &specs)?;
    s.require(&Slot::primary())?;
    let warnings = s.warnings;
    let mut windows = s.windows.into_iter();
    let (baseline, compare) = match (windows.next(), windows.next()) {
        (Some(b), Some(c)) => (b, c),
        _ => unreachable!("scan returns one window per spec"),
    };
    let (b, c) = (baseline.deltas(), compare.deltas());
    Ok(ImpactReport {
        baseline: Side::from(&baseline),
        compare: Side::from(&compare),
        rows: impact_table(&b, &c),
        commit: commits(&b, &c),
        warnings,
    })
}

/// The table from two reports: `before` (the baseline) and `after`, each window's figures as
/// `report awr` computes them. A report has no standby side: the standby's rows stay empty.
pub fn impact_of_reports(before: &Path, after: &Path) -> Result<ImpactReport, AwrReportError> {
    let (baseline, b, mut warnings) = side(awr(before)?)?;
    let (compare, c, more) = side(awr(after)?)?;
    warnings.extend(more);
    Ok(ImpactReport {
        baseline,
        compare,
        rows: impact_table(&b, &c),
        commit: commits(&b, &c),
        warnings,
    })
}

/// Both windows' commit decompositions.
fn commits(b: &WindowDeltas, c: &WindowDeltas) -> [Option<CommitDecomposition>; 2] {
    let th = Thresholds::default();
    [
        CommitDecomposition::of_window(b, &th),
        CommitDecomposition::of_window(c, &th),
    ]
}

/// One part of the commit in both windows and its change, ms.
pub struct PartChange {
    pub part: CommitPart,
    pub baseline: Option<f64>,
    pub compare: Option<f64>,
}

impl PartChange {
    pub fn change_ms(&self) -> Option<f64> {
        Some(self.compare? - self.baseline?)
    }
}

/// Whether `path` is an AWR Compare Periods report (then `report impact FILE` needs no
/// `--baseline`): its two periods, else `None` (a recording, another report, unreadable).
pub fn compare_periods(path: &Path) -> Option<Result<ImpactReport, AwrReportError>> {
    let file = path.display().to_string();
    let periods = match dgscope_awr::read_periods_file(path) {
        Ok(dgscope_awr::Periods::Two(p)) => p,
        // A recording or another report: the caller says what --baseline it needs.
        Ok(dgscope_awr::Periods::One(_)) | Err(dgscope_awr::AwrError::NotAReport(_)) => {
            return None
        }
        // Unreadable, too large, a text or global Compare Periods report, one cut short.
        Err(source) => return Some(Err(AwrReportError::Read { path: file, source })),
    };
    let [first, second] = *periods;
    // What both periods lack is said once, of the file; what one lacks, of that period.
    let (w1, w2) = (first.warnings.clone(), second.warnings.clone());
    let mut warnings: Vec<String> = w1
        .iter()
        .map(|w| match w2.contains(w) {
            true => format!("{file}: {w}"),
            false => format!("{file} (1st period): {w}"),
        })
        .collect();
    warnings.extend(
        w2.iter()
            .filter(|w| !w1.contains(w))
            .map(|w| format!("{file} (2nd period): {w}")),
    );
    let one = |n: &str, r| awr_of(format!("{file} ({n} period)"), r).and_then(side);
    Some((|| {
        let (baseline, b, _) = one("1st", first)?;
        let (compare, c, _) = one("2nd", second)?;
        Ok(ImpactReport {
            baseline,
            compare,
            rows: impact_table(&b, &c),
            commit: commits(&b, &c),
            warnings,
        })
    })())
}

/// One report's side of the table: its name and window, its deltas, its warnings.
fn side(
    r: super::awr::AwrOutput,
) -> Result<(Side, dgscope_core::metrics::WindowDeltas, Vec<String>), AwrReportError> {
    {
        // The window's times as its two samples carry them (awr() has checked they exist).
        let Some([begin, end]) = r.report.samples() else {
            return Err(AwrReportError::NoWindow { path: r.file });
        };
        let side = Side {
            text: r.file.clone(),
            from: begin.t,
            to: end.t,
        };
        let warnings = r
            .report
            .warnings
            .iter()
            .map(|w| format!("{}: {w}", r.file))
            .collect();
        Ok((side, r.deltas, warnings))
    }
}

impl ImpactReport {
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => self.json(),
            Format::Text => self.text(),
            Format::Markdown => self.markdown(),
        }
    }

    fn cells(&self) -> Vec<Vec<String>> {
        self.rows
            .iter()
            .map(|r| {
                let decimals = if r.metric.unit() == "ms" { 2 } else { 1 };
                vec![
                    r.metric.label().to_string(),
                    r.metric.unit().to_string(),
                    cell(r.baseline, decimals),
                    cell(r.compare, decimals),
                    pct_cell(r.change_pct),
                ]
            })
            .collect()
    }

    /// Every part either window has, in the order a commit meets them; a part a window
    /// does not have is 0 there when that window has a decomposition at all.
    pub fn parts(&self) -> Vec<PartChange> {
        let [b, c] = &self.commit;
        CommitPart::ALL
            .iter()
            .filter(|p| b.iter().chain(c).any(|d| d.has(**p)))
            .map(|&part| PartChange {
                part,
                baseline: b.as_ref().map(|d| d.part(part)),
                compare: c.as_ref().map(|d| d.part(part)),
            })
            .collect()
    }

    /// The part that grew most between the windows, and by how much (ms), when any grew.
    pub fn grew(&self) -> Option<(CommitPart, f64)> {
        self.parts()
            .iter()
            .filter_map(|p| Some((p.part, p.change_ms()?)))
            .filter(|p| p.1 > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The commit's parts as table rows, and the line saying which grew most.
    fn part_cells(&self) -> (Vec<Vec<String>>, Option<String>) {
        let rows = self
            .parts()
            .iter()
            .map(|p| {
                vec![
                    p.part.as_str().to_string(),
                    "ms".into(),
                    cell(p.baseline, 2),
                    cell(p.compare, 2),
                    p.change_ms().map_or("–".into(), |x| format!("{x:+.2} ms")),
                ]
            })
            .collect();
        let total = match &self.commit {
            [Some(b), Some(c)] => Some(c.amount - b.amount),
            _ => None,
        };
        let line = self.grew().map(|(p, ms)| {
            format!(
                "grew most: {} {:+.2} ms{}",
                p.as_str(),
                ms,
                total.map_or(String::new(), |t| format!(" (log file sync {t:+.2} ms)"))
            )
        });
        (rows, line)
    }

    fn title(&self) -> String {
        format!(
            "Impact: baseline {} ({} .. {}) vs compare {} ({} .. {})",
            self.baseline.text,
            self.baseline.from,
            self.baseline.to,
            self.compare.text,
            self.compare.from,
            self.compare.to
        )
    }

    fn text(&self) -> String {
        let mut out = self.title();
        out.push_str("\n\n");
        out.push_str(&text_table(
            &["metric", "unit", "baseline", "compare", "change"],
            &self.cells(),
        ));
        let (rows, grew) = self.part_cells();
        if !rows.is_empty() {
            out.push_str("\nWhere commit time goes (log file sync, split)\n");
            out.push_str(&text_table(
                &["part", "unit", "baseline", "compare", "change"],
                &rows,
            ));
        }
        if let Some(g) = grew {
            out.push_str(&g);
            out.push('\n');
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.title());
        out.push_str(&markdown_table(
            &["metric", "unit", "baseline", "compare", "change"],
            &self.cells(),
        ));
        let (rows, grew) = self.part_cells();
        if !rows.is_empty() {
            out.push_str("\n#### Where commit time goes (log file sync, split)\n\n");
            out.push_str(&markdown_table(
                &["part", "unit", "baseline", "compare", "change"],
                &rows,
            ));
        }
        if let Some(g) = grew {
            out.push_str(&format!("\n{g}\n"));
        }
        out
    }

    fn json(&self) -> String {
        let rows: Vec<_> = self
            .rows
            .iter()
            .map(|r| {
                json!({
                    "metric": r.metric.id(),
                    "unit": r.metric.unit(),
                    "baseline": r.baseline.map(|v| round(v, 4)),
                    "compare": r.compare.map(|v| round(v, 4)),
                    "change_pct": r.change_pct.map(|v| round(v, 2)),
                })
            })
            .collect();
        let v = json!({
            "schema": SCHEMA,
            "baseline": {"from": self.baseline.from, "to": self.baseline.to},
            "compare": {"from": self.compare.from, "to": self.compare.to},
            "rows": rows,
            "commit": {
                "baseline": self.commit[0].as_ref().map(super::decomposition::commit_json),
                "compare": self.commit[1].as_ref().map(super::decomposition::commit_json),
                "parts": self.parts().iter().map(|p| json!({
                    "name": p.part.as_str(),
                    "baseline": p.baseline.map(|v| round(v, 4)),
                    "compare": p.compare.map(|v| round(v, 4)),
                    "change_ms": p.change_ms().map(|v| round(v, 4)),
                })).collect::<Vec<_>>(),
                "grew": self.grew().map(|g| g.0.as_str()),
            },
            "warnings": self.warnings,
        });
        let mut s = serde_json::to_string_pretty(&v).expect("json values serialize");
        s.push('\n');
        s
    }
}
