//! Pane 2, Throughput (primary): TPS, redo MB/s, redo writes/s, KB per write, log switches per
//! hour, CPU busy %, each with a sparkline and the change vs the baseline.

use super::theme::Role;
use super::App;
use super::{fmt, Ctx, Detail};
use crate::app::Pane;
use dgscope_core::metrics::{Delta, Point};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

pub(crate) struct Metric {
    pub label: &'static str,
    pub unit: &'static str,
    pub now: Option<f64>,
    pub base: Option<f64>,
    pub spark: Option<fn(&Point) -> Option<f64>>,
    pub dec: usize,
}

pub(crate) fn metrics(app: &App, d: Option<&Delta>) -> Vec<Metric> {
    let b = app
        .baseline_deltas
        .as_ref()
        .and_then(|b| b.primary.as_ref());
    let m = |label, unit, f: fn(&Delta) -> Option<f64>, spark, dec| Metric {
        label,
        unit,
        now: d.and_then(f),
        base: b.and_then(f),
        spark: Some(spark),
        dec,
    };
    vec![
        m("TPS", "/s", Delta::tps, |p: &Point| p.tps, 0),
        m("redo", "MB/s", Delta::redo_mb_s, |p: &Point| p.redo_mb_s, 1),
        m(
            "writes",
            "/s",
            Delta::redo_writes_per_s,
            |p: &Point| p.redo_writes_s,
            0,
        ),
        m(
            "KB/write",
            "KB",
            Delta::redo_write_kb,
            |p: &Point| p.redo_write_kb,
            1,
        ),
        Metric {
            // All threads together (V$LOG_HISTORY of every thread): the screen says so, as
            // evidence "per hour on thread N" is per thread.
            label: "switches",
            unit: "/h total",
            now: app.switches_per_hour(app.paused_at),
            base: app.baseline_switches_h,
            spark: None,
            dec: 0,
        },
        m("CPU", "%", Delta::cpu_busy_pct, |p: &Point| p.cpu_pct, 0),
    ]
}

fn spark(cx: &Ctx, f: fn(&Point) -> Option<f64>, width: usize) -> String {
    let app = cx.app;
    let Some(s) = app.primary().and_then(|s| app.engine().slot(s)) else {
        return " ".repeat(width);
    };
    let end = app.paused_at;
    let vals: Vec<Option<f64>> = s
        .points()
        .iter()
        .filter(|p| end.is_none_or(|e| p.t <= e))
        .map(f)
        .collect();
    fmt::sparkline(&vals, width, cx.ascii)
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, detail: Detail) {
    let app = cx.app;
    let (state, stale) = cx.slot_state(app.primary());
    let extra = if state.is_empty() {
        "(primary)".to_string()
    } else {
        format!("(primary)  {state}")
    };
    let block = cx.block(Pane::Throughput, &extra, detail, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let t = cx.theme;
    let style = cx.value_style(stale);
    let ms = metrics(app, cx.d.primary.as_ref());
    let has_base = app.baseline_deltas.is_some();
    let lines: Vec<Line> = if detail == Detail::Compact {
        let v = |i: usize| fmt::opt(ms[i].now, ms[i].dec);
        let tps_change = fmt::change(ms[0].base, ms[0].now)
            .map(|c| format!(" ({c})"))
            .unwrap_or_default();
        vec![
            Line::from(vec![
                Span::styled("TPS ", t.muted()),
                Span::styled(format!("{}/s{tps_change} ", v(0)), style),
                Span::styled(spark(cx, |p| p.tps, 12), t.style(Role::SeriesLfs)),
                Span::styled("  redo ", t.muted()),
                Span::styled(format!("{} MB/s", v(1)), style),
                Span::styled("  writes ", t.muted()),
                Span::styled(format!("{}/s", v(2)), style),
                Span::styled("  ", t.muted()),
                Span::styled(format!("{} KB/write", v(3)), style),
            ]),
            Line::from(vec![
                Span::styled("switches ", t.muted()),
                Span::styled(format!("{}/h (all threads)", v(4)), style),
                Span::styled("  CPU ", t.muted()),
                Span::styled(format!("{} %", v(5)), style),
            ]),
        ]
    } else {
        let spark_w = (inner.width as usize)
            .saturating_sub(9 + 14 + 20)
            .clamp(8, 80);
        ms.iter()
            .map(|m| {
                let value = format!("{} {}", fmt::opt(m.now, m.dec), m.unit);
                let change = match fmt::change(m.base, m.now) {
                    Some(c) => format!("{c} vs base"),
                    None if has_base => format!("{} vs base", fmt::NONE),
                    None => String::new(),
                };
                // Text to paste (`y`) has no sparklines: the figures and the change only.
                if cx.plain {
                    return Line::from(vec![
                        Span::styled(format!("{:<9}", m.label), t.muted()),
                        Span::styled(format!("{:>12}  ", value), style),
                        Span::styled(change, t.style(Role::Baseline)),
                    ]);
                }
                let sp = m
                    .spark
                    .map(|f| spark(cx, f, spark_w))
                    .unwrap_or_else(|| " ".repeat(spark_w));
                Line::from(vec![
                    Span::styled(format!("{:<9}", m.label), t.muted()),
                    Span::styled(format!("{:>12}  ", value), style),
                    Span::styled(sp, t.style(Role::SeriesLfpw)),
                    Span::styled(format!("  {change:>18}"), t.style(Role::Baseline)),
                ])
            })
            .collect()
    };
    let n = lines.len() as u16;
    frame.render_widget(Paragraph::new(lines), inner);
    if detail == Detail::Full && inner.height >= n + 12 {
        // Zoomed: TPS and redo rate over the whole history.
        let h = (inner.height - n - 1) / 2;
        let top = Rect::new(inner.x, inner.y + n + 1, inner.width, h);
        let bottom = Rect::new(inner.x, top.bottom(), inner.width, h);
        history_chart(frame, top, cx, "TPS", "/s", |p| p.tps, Role::SeriesLfs);
        history_chart(
            frame,
            bottom,
            cx,
            "redo MB/s",
            "MB/s",
            |p| p.redo_mb_s,
            Role::SeriesLfpw,
        );
    }
}

fn history_chart(
    frame: &mut Frame,
    area: Rect,
    cx: &Ctx,
    name: &'static str,
    unit: &str,
    f: fn(&Point) -> Option<f64>,
    role: Role,
) {
    let app = cx.app;
    let Some(s) = app.primary().and_then(|s| app.engine().slot(s)) else {
        return;
    };
    let Some(end) = app.paused_at.or(s.points().last().map(|p| p.t)) else {
        return;
    };
    let pts: Vec<(f64, f64)> = s
        .points()
        .iter()
        .filter(|p| p.t <= end)
        .filter_map(|p| f(p).map(|v| (p.t.secs_since(end), v)))
        .collect();
    let span = pts.first().map(|p| -p.0).unwrap_or(0.0);
    let series = [super::chart::Series {
        name,
        role,
        points: pts,
    }];
    super::chart::render(frame.buffer_mut(), area, cx, &series, unit, span);
}
