//! `dgscope report histogram`: one event's latency histogram over a window, with percentiles
//! as bucket bounds and the shares below 1, 2, 4, 8 and 16 ms.

use super::format::{round, text_table, Format};
use super::scan::{scan, ReportError};
use dgscope_core::metrics::{EventDelta, Percentile, WindowSpec};
use dgscope_model::sample::Slot;
use dgscope_model::timestamp::Timestamp;
use dgscope_model::units::bound_label;
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
    let mut warnings = s.warnings.clone();
    // Oracle's open-ended last bucket: a percentile there has no upper bound.
    if let Some(p) = delta.hist.percentile(0.999).filter(|p| p.is_open()) {
        warnings.push(format!(
            "waits in the open-ended last bucket: percentiles there are only known to be above {} ms",
            trim(p.ms())
        ));
    }
    Ok(HistogramReport {
        event: event.to_string(),
        slot: slot.clone(),
        from: w.from,
        to: w.to,
        delta,
        warnings,
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
        // In the open-ended last bucket only a lower bound is known: "> X".
        let p = |q: f64| {
            h.percentile(q).map_or("–".into(), |v| {
                format!("{} {}", v.relation(), trim(v.ms()))
            })
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
            // No upper bound in the open-ended last bucket: null, and a warning says so.
            "p50_le_ms": h.percentile(0.5).and_then(Percentile::at_most_ms),
            "p90_le_ms": h.percentile(0.9).and_then(Percentile::at_most_ms),
            "p99_le_ms": h.percentile(0.99).and_then(Percentile::at_most_ms),
            "p999_le_ms": h.percentile(0.999).and_then(Percentile::at_most_ms),
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

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_core::metrics::Histogram;
    use dgscope_core::metrics::OPEN_BOUND_US;
    use dgscope_model::units::Micros;

    /// Review #18: a p99 in Oracle's open-ended last bucket reads "> X" in the text and is
    /// null in the JSON, never the bucket's 2^32 µs bound as if finite.
    #[test]
    fn a_percentile_in_the_open_last_bucket_is_a_lower_bound() {
        let hist = Histogram::from_buckets(vec![
            (Micros(1024), 90),
            (Micros(2048), 5),
            (Micros(OPEN_BOUND_US), 5),
        ]);
        let r = HistogramReport {
            event: "log file sync".into(),
            slot: Slot::primary(),
            from: Timestamp::from_millis(0),
            to: Timestamp::from_millis(60_000),
            delta: EventDelta {
                waits: 100,
                us: 1_000_000,
                hist,
                ..EventDelta::default()
            },
            warnings: Vec::new(),
        };
        let text = r.render(Format::Text);
        assert!(text.contains("p90 ≤ 1 ms"), "{text}");
        assert!(text.contains("p99 > 2097152 ms"), "{text}");
        assert!(!text.contains("4194304"), "{text}");
        let json: serde_json::Value = serde_json::from_str(&r.render(Format::Json)).unwrap();
        assert_eq!(json["p90_le_ms"], serde_json::json!(1.0));
        assert!(json["p99_le_ms"].is_null(), "{json}");
    }
}
