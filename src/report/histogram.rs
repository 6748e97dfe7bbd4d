//! `dgscope report histogram`: one event's latency histogram over a window, with percentiles
//! as bucket bounds and the shares below 1, 2, 4, 8 and 16 ms.

use super::format::{round, text_table, Format};
use super::scan::{scan, ReportError};
use crate::metrics::{EventDelta, WindowSpec};
use crate::sample::Slot;
use crate::timestamp::Timestamp;
use crate::units::{bound_label, bound_ms};
use serde_json::json;
use std::path::Path;

/// The `schema` of `report histogram --format json` (docs/schema/report-histogram.json).
pub const SCHEMA: &str = "dgscope.report.histogram/1";

pub const SHARE_BOUNDS_MS: [u32; 5] = [1, 2, 4, 8, 16];

pub struct HistogramReport {
    pub event: String,
    pub slot: Slot,
    pub from: Timestamp,
    pub to: Timestamp,
    pub delta: EventDelta,
    /// Input problems that did not stop the report (see [`super::scan::Scan::warnings`]).
    pub warnings: Vec<String>,
}

pub fn histogram(
    path: &Path,
    event: &str,
    slot: &Slot,
    window: Option<&str>,
) -> Result<HistogramReport, ReportError> {
    let (text, spec) = match window {
        Some(w) => (w.to_string(), WindowSpec::parse(w)?),
        None => ("whole recording".to_string(), WindowSpec::whole()),
    };
    let s = scan(path, &[(text, spec)])?;
    s.require(slot)?;
    let w = &s.windows[0];
    let d = w
        .delta(slot)
        .expect("require() checked the window has a delta");
    let Some(delta) = d.events.get(event).filter(|e| e.waits > 0).cloned() else {
        let mut available: Vec<&str> = d
            .events
            .iter()
            .filter(|(_, e)| e.waits > 0)
            .map(|(k, _)| k.as_str())
            .collect();
        available.sort();
        return Err(ReportError::UnknownEvent {
            path: s.path.clone(),
            event: event.to_string(),
            slot: slot.to_string(),
            available: if available.is_empty() {
                "none".into()
            } else {
                available.join(", ")
            },
        });
    };
    Ok(HistogramReport {
        event: event.to_string(),
        slot: slot.clone(),
        from: w.from,
        to: w.to,
        delta,
        warnings: s.warnings.clone(),
    })
}

impl HistogramReport {
    pub fn avg_ms(&self) -> Option<f64> {
        self.delta.avg().map(|m| m.0)
    }

    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => self.json(),
            Format::Text | Format::Markdown => self.text(format),
        }
    }

    fn text(&self, format: Format) -> String {
        let h = &self.delta.hist;
        let mut out = format!(
            "{} on {}  {} .. {}\n{} waits, avg {} ms\n\n",
            self.event,
            self.slot,
            self.from,
            self.to,
            h.total(),
            self.avg_ms().map_or("–".into(), |v| format!("{v:.2}"))
        );
        let rows: Vec<Vec<String>> = h
            .rows()
            .iter()
            .map(|r| {
                vec![
                    format!("< {}", bound_label(r.upper)),
                    r.count.to_string(),
                    format!("{:.1} %", r.share_pct),
                    format!("{:.1} %", r.cum_pct),
                ]
            })
            .collect();
        let header = ["bucket", "waits", "share", "cumulative"];
        if format == Format::Markdown {
            out.push_str(&super::format::markdown_table(&header, &rows));
        } else {
            out.push_str(&text_table(&header, &rows));
        }
        out.push('\n');
        let p = |q: f64| {
            h.percentile_ms(q)
                .map_or("–".into(), |v| format!("≤ {}", trim(v)))
        };
        out.push_str(&format!(
            "p50 {} ms   p90 {} ms   p99 {} ms   p99.9 {} ms\n",
            p(0.5),
            p(0.9),
            p(0.99),
            p(0.999)
        ));
        let shares: Vec<String> = SHARE_BOUNDS_MS
            .iter()
            .map(|&ms| {
                format!(
                    "{:.1} % < {ms} ms",
                    h.share_below_ms(f64::from(ms)).unwrap_or(0.0) * 100.0
                )
            })
            .collect();
        out.push_str(&shares.join("   "));
        out.push('\n');
        out
    }

    fn json(&self) -> String {
        let h = &self.delta.hist;
        let buckets: Vec<_> = h
            .rows()
            .iter()
            .map(|r| {
                json!({
                    "le_us": r.upper.0,
                    "count": r.count,
                    "share_pct": round(r.share_pct, 3),
                    "cum_pct": round(r.cum_pct, 3),
                })
            })
            .collect();
        let mut below = serde_json::Map::new();
        for ms in SHARE_BOUNDS_MS {
            below.insert(
                ms.to_string(),
                json!(h.share_below_ms(f64::from(ms)).map(|s| round(s * 100.0, 3))),
            );
        }
        let v = json!({
            "schema": SCHEMA,
            "event": self.event,
            "slot": self.slot.as_str(),
            "from": self.from,
            "to": self.to,
            "total": h.total(),
            "buckets": buckets,
            "avg_ms": self.avg_ms().map(|v| round(v, 4)),
            "p50_le_ms": h.percentile(0.5).map(bound_ms),
            "p90_le_ms": h.percentile(0.9).map(bound_ms),
            "p99_le_ms": h.percentile(0.99).map(bound_ms),
            "p999_le_ms": h.percentile(0.999).map(bound_ms),
            "below_ms_pct": below,
            "warnings": self.warnings,
        });
        let mut s = serde_json::to_string_pretty(&v).expect("json values serialize");
        s.push('\n');
        s
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
