//! A cause's drill-down: evidence (metric, value, threshold, source view), the relevant
//! chart, what it means, the SQL to check it, what to do and what-if figures.

use super::theme::Role;
use super::{badge, fmt, Ctx};
use crate::causes::Finding;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

/// Causes about lag and transport show the lag chart; the others the commit latencies.
fn is_lag_cause(id: &str) -> bool {
    [
        "transport-bandwidth",
        "apply-bound",
        "lag-stale",
        "dest-error",
        "standby-down",
    ]
    .contains(&id)
}

fn evidence_lines(cx: &Ctx, f: &Finding, width: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    if width < 110 {
        // Narrow: each item on two lines, the number first.
        let mut out = vec![Line::styled("evidence", t.muted())];
        for e in &f.evidence {
            out.push(Line::from(vec![
                Span::styled(format!("{} ", e.metric), t.text()),
                Span::styled(
                    format!("{} {}", value(e.value), e.unit)
                        .trim_end()
                        .to_string(),
                    t.style(Role::Title),
                ),
            ]));
            let th = e
                .threshold
                .as_ref()
                .map(|th| format!("threshold {th} · "))
                .unwrap_or_default();
            out.push(Line::styled(format!("    {th}{}", e.source), t.muted()));
        }
        return out;
    }
    let mw = f
        .evidence
        .iter()
        .map(|e| e.metric.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 40);
    let tw = f
        .evidence
        .iter()
        .filter_map(|e| e.threshold.as_ref().map(|t| t.chars().count()))
        .max()
        .unwrap_or(9)
        .clamp(9, 40);
    let mut out = vec![Line::styled(
        format!(
            "{}  {:>14}  {}  source",
            fmt::fit("metric", mw),
            "value",
            fmt::fit("threshold", tw)
        ),
        t.muted(),
    )];
    for e in &f.evidence {
        out.push(Line::from(vec![
            Span::styled(fmt::fit(&e.metric, mw), t.text()),
            Span::styled(
                format!(
                    "  {:>14}",
                    format!("{} {}", value(e.value), e.unit).trim_end()
                ),
                t.style(Role::Title),
            ),
            Span::styled(
                format!(
                    "  {}",
                    fmt::fit(e.threshold.as_deref().unwrap_or(fmt::NONE), tw)
                ),
                t.text(),
            ),
            Span::styled(format!("  {}", e.source), t.muted()),
        ]));
    }
    out
}

fn value(v: f64) -> String {
    fmt::count_or_auto(v)
}

/// The text below the chart (what it means, SQL, advice, what-if), also used for `y`.
pub fn body_lines(cx: &Ctx, f: &Finding) -> Vec<Line<'static>> {
    let t = cx.theme;
    let h = |s: &str| Line::styled(s.to_string(), t.style(Role::Title));
    let mut out = vec![h("What it means")];
    out.push(Line::styled(f.meaning.clone(), t.text()));
    out.push(Line::raw(""));
    out.push(h("What to check (SQL, SELECT only; y copies this view)"));
    if f.verify.is_empty() {
        out.push(Line::styled(fmt::NONE, t.muted()));
    }
    // Spelled for the releases of the newest samples, so the DBA sees the numbers shown here.
    let e = &cx.app.engine;
    let newest = |slot: Option<&crate::sample::Slot>| {
        slot.and_then(|s| e.slot(s))
            .and_then(|s| s.last_good())
            .map(|s| s.as_ref())
    };
    let releases = crate::source::oracle::verify::Releases::from_samples(
        newest(e.primary_slot()),
        newest(cx.app.standby()),
    );
    for sql in crate::source::oracle::verify::texts(&f.verify, &releases) {
        for l in sql.lines() {
            out.push(Line::styled(format!("  {l}"), t.style(Role::SeriesLfpw)));
        }
        out.push(Line::raw(""));
    }
    out.push(h("What to do"));
    let bullet = if cx.ascii { "-" } else { "•" };
    for a in &f.advice {
        out.push(Line::styled(format!("{bullet} {a}"), t.text()));
    }
    if !f.what_if.is_empty() {
        out.push(Line::raw(""));
        out.push(h("What-if (twin, on the live figures)"));
        let arrow = if cx.ascii { "->" } else { "→" };
        for w in &f.what_if {
            out.push(Line::from(vec![
                Span::styled(format!("{} ", w.change), t.text()),
                Span::styled(format!("{arrow} {}", w.outcome), t.style(Role::Ok)),
            ]));
        }
    }
    out
}

pub fn render(frame: &mut Frame, area: Rect, cx: &Ctx, idx: usize) {
    let t = cx.theme;
    let Some(f) = cx.app.assessment.findings.get(idx) else {
        frame.render_widget(
            Paragraph::new("this cause has cleared; Esc goes back").style(t.muted()),
            area,
        );
        return;
    };
    let (b, bs) = badge(cx, f.severity);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_set(cx.border_set())
        .border_style(t.border(true))
        .title(Line::from(vec![
            Span::styled(format!(" {b} "), bs),
            Span::styled(format!(" {} ", f.id), t.style(Role::Title)),
            Span::styled(format!("since {} ", f.since.clock()), t.muted()),
        ]));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = inner.width.max(1) as usize;
    let title_h = f.title.chars().count().div_ceil(w).max(1);
    let mut top = vec![
        Line::styled(f.title.clone(), t.style(Role::Title)),
        Line::raw(""),
    ];
    top.extend(evidence_lines(cx, f, w));
    let top_h = ((top.len() + title_h - 1) as u16).min(inner.height);
    frame.render_widget(
        Paragraph::new(top).wrap(Wrap { trim: false }),
        Rect::new(inner.x, inner.y, inner.width, top_h),
    );
    let rest = inner.height.saturating_sub(top_h + 1);
    let chart_h = if rest >= 20 {
        10
    } else if rest >= 12 {
        6
    } else {
        0
    };
    let cy = inner.y + top_h + 1;
    if chart_h > 0 {
        let r = Rect::new(inner.x, cy, inner.width, chart_h);
        if is_lag_cause(f.id) {
            super::lag::lag_chart(frame, r, cx, true);
        } else {
            super::commit::latency_chart(frame, r, cx);
        }
    }
    let by = cy + chart_h + u16::from(chart_h > 0);
    let body = Rect::new(inner.x, by, inner.width, inner.bottom().saturating_sub(by));
    frame.render_widget(
        Paragraph::new(body_lines(cx, f))
            .wrap(Wrap { trim: false })
            .scroll((cx.app.scroll, 0)),
        body,
    );
}
