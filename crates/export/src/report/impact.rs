//! `dgscope report impact`: seed 000's "baseline vs compare" table from a recording.

use super::format::{cell, markdown_table, pct_cell, round, text_table, Format};
use super::scan::{scan, ReportError, ScannedWindow};
use dgscope_core::metrics::{impact_table, ImpactRow, WindowSpec};
use dgscope_model::sample::Slot;
use serde_json::json;
use std::path::Path;

/// The `schema` of `report impact --format json` (docs/schema/report-impact.json).
pub const SCHEMA: &str = "dgscope.report.impact/1";

pub struct ImpactReport {
    pub baseline: ScannedWindow,
    pub compare: ScannedWindow,
    pub rows: Vec<ImpactRow>,
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
    let rows = impact_table(&baseline.deltas(), &compare.deltas());
    Ok(ImpactReport {
        baseline,
        compare,
        rows,
        warnings,
    })
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
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("### {}\n\n", self.title());
        out.push_str(&markdown_table(
            &["metric", "unit", "baseline", "compare", "change"],
            &self.cells(),
        ));
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
            "warnings": self.warnings,
        });
        let mut s = serde_json::to_string_pretty(&v).expect("json values serialize");
        s.push('\n');
        s
    }
}
