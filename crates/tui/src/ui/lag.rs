//! Pane 3, Lag (standby): transport and apply lag now and over the history, apply rate vs
//! redo rate (headroom), how old the lag figure is, MRP, the destination, and the apply-lag
//! histogram when Active Data Guard provides one.

use super::chart::{self, Series};
use super::header::dest_for;
use super::theme::Role;
use super::{fmt, Ctx, Detail};
use crate::app::Pane;
use dgscope_core::causes::ApplyState;
use dgscope_core::metrics::Point;
use dgscope_model::sample::Sample;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use std::sync::Arc;

use super::lag_style;

/// The standby's point at the instant shown (its newest when live).
fn point_at<'a>(cx: &'a Ctx) -> Option<&'a Point> {
    let app = cx.app;
    let s = app.engine().slot(app.standby()?)?;
    // The last good point at or before the instant shown: stale figures are shown dimmed
    // with their age, never replaced by a failed sample's blanks or zeros.
    let at = app.paused_at;
    s.points()
        .iter()
        .rev()
        .find(|p| !p.failed && at.is_none_or(|t| p.t <= t))
}

fn last_good<'a>(
    cx: &'a Ctx,
    slot: Option<&dgscope_model::sample::Slot>,
) -> Option<&'a Arc<Sample>> {
    cx.app.engine().slot(slot?)?.last_good()
}

fn now_line(
    cx: &Ctx,
    p: Option<&Point>,
    sb: Option<&Sample>,
    style: Style,
    stale: Option<Option<f64>>,
) -> Line<'static> {
    let t = cx.theme;
    let (tl, al) = (
        p.and_then(|p| p.transport_lag_s),
        p.and_then(|p| p.apply_lag_s),
    );
    // How old the lag figure is: Oracle computes V$DATAGUARD_STATS once per second or so.
    let age = sb.and_then(|s| {
        let computed = s.dg.as_ref()?.computed?;
        Some(s.t.secs_since(computed))
    });
    // Stale (the standby's newest sample failed): the last good figures, dimmed, with
    // their real age on the source's clock; never a colour that says "now".
    let fig = |v: Option<f64>| {
        if stale.is_some() {
            style
        } else {
            lag_style(cx, v, style)
        }
    };
    let mut spans = vec![
        Span::styled("transport ", t.style(Role::SeriesTransport)),
        Span::styled(fmt::rfit(&fmt::opt_lag(tl), 7), fig(tl)),
        Span::styled("   apply ", t.style(Role::SeriesApply)),
        Span::styled(fmt::rfit(&fmt::opt_lag(al), 7), fig(al)),
    ];
    match stale {
        Some(Some(a)) => spans.push(Span::styled(
            format!("   STALE, {} ago", fmt::age(a)),
            t.style(Role::Warn),
        )),
        Some(None) => spans.push(Span::styled("   STALE, never read", t.style(Role::Warn))),
        None => {
            spans.push(Span::styled("   figure age ", t.muted()));
            spans.push(Span::styled(
                age.map_or_else(|| fmt::NONE.into(), fmt::age),
                style,
            ));
        }
    }
    Line::from(spans)
}

/// Apply rate vs redo rate, only where the rate means something (the chosen standby's apply
/// state from the overview): not while apply waits for a gap, is stopped or off, nor when
/// the Active Apply Rate reads 0 (unknown under Multi-Instance Redo Apply, not zero).
fn rate_line(cx: &Ctx, p: Option<&Point>, style: Style) -> Line<'static> {
    let t = cx.theme;
    let app = cx.app;
    let redo = cx.d.primary.as_ref().and_then(|d| d.redo_mb_s());
    let redo_spans = |lead: &str| {
        vec![
            Span::styled(format!("{lead}redo "), t.muted()),
            Span::styled(format!("{} MB/s", fmt::opt(redo, 1)), style),
        ]
    };
    let chosen = app.standby().map(|s| s.to_string());
    let state = app
        .assessment
        .overview
        .standbys
        .iter()
        .find(|m| Some(&m.slot) == chosen.as_ref())
        .map(|m| &m.apply);
    let why = match state {
        Some(ApplyState::WaitingForGap) => Some("apply waits for a gap"),
        Some(ApplyState::Stopped(_)) => Some("apply stopped"),
        Some(ApplyState::Off(_)) => Some("apply off"),
        Some(ApplyState::NotApplicable) => Some("far sync: no apply"),
        _ => None,
    };
    // A stale standby's last rate against the primary's redo now would mix two instants.
    let stale = cx.staleness(app.standby()).is_some();
    let why = why.or(stale.then_some("standby stale"));
    if let Some(why) = why {
        let mut spans = vec![Span::styled(
            format!("{why}: no apply rate"),
            t.style(Role::Warn),
        )];
        spans.extend(redo_spans("  "));
        return Line::from(spans);
    }
    // Active Apply Rate 0: unknown (MIRA, or apply just started), never "no headroom".
    let apply = p.and_then(|p| p.apply_mb_s).filter(|a| *a > 0.0);
    let Some(apply) = apply else {
        let mut spans = vec![Span::styled("apply rate unknown", t.muted())];
        spans.extend(redo_spans("  "));
        return Line::from(spans);
    };
    let headroom = redo.filter(|r| *r > 0.0).map(|r| apply / r);
    let hs = match headroom {
        Some(h) if h < 1.0 => t.style(Role::Crit),
        Some(h) if h < 1.2 => t.style(Role::Warn),
        _ => style,
    };
    let x = if cx.ascii { "x" } else { "×" };
    let mut spans = vec![
        Span::styled("apply ", t.muted()),
        Span::styled(format!("{} MB/s", fmt::num(apply, 1)), style),
    ];
    spans.extend(redo_spans(" vs "));
    spans.push(Span::styled("  headroom ", t.muted()));
    // A rate measured while applying, not a capacity: one decimal is all it says.
    spans.push(Span::styled(
        headroom.map_or_else(|| fmt::NONE.into(), |h| format!("{h:.1}{x}")),
        hs,
    ));
    Line::from(spans)
}

fn state_line(cx: &Ctx, sb: Option<&Sample>, style: Style) -> Line<'static> {
    let t = cx.theme;
    let app = cx.app;
    let mut spans = vec![];
    let mrp = sb.and_then(|s| s.processes.iter().find(|p| p.name.starts_with("MRP")));
    match mrp {
        Some(m) => {
            let mut txt = format!("{} {}", m.name, m.action.as_deref().unwrap_or("?"));
            if let (Some(th), Some(seq)) = (m.thread, m.sequence) {
                txt.push_str(&format!(" thread {th} seq {seq}"));
            }
            spans.push(Span::styled(txt, style));
        }
        None if sb.is_some() => spans.push(Span::styled("MRP not running", t.style(Role::Warn))),
        None => spans.push(Span::styled(format!("MRP {}", fmt::NONE), t.muted())),
    }
    let primary = last_good(cx, app.primary()).map(|a| &**a);
    let sname = sb.and_then(|s| s.db.as_ref()).and_then(|d| d.name.clone());
    if let Some(d) = dest_for(primary, sname.as_deref()) {
        let gap = d.gap.clone().unwrap_or_else(|| fmt::NONE.into());
        let bad = d.has_gap()
            || d.error.as_deref().is_some_and(|e| !e.is_empty())
            || d.status != dgscope_model::sample::DestStatus::Valid;
        let mut txt = format!("dest {} {} {gap}", d.id, d.status);
        if let Some(e) = d.error.as_deref().filter(|e| !e.is_empty()) {
            txt.push_str(&format!(" {e}"));
        }
        spans.push(Span::styled("   ", style));
        spans.push(Span::styled(
            txt,
            if bad { t.style(Role::Crit) } else { style },
        ));
    }
    Line::from(spans)
}

/// The standby's own apply-lag histogram (Active Data Guard only): share per lag bucket.
fn lag_hist_lines(cx: &Ctx, sb: Option<&Sample>, full: bool) -> Vec<Line<'static>> {
    let t = cx.theme;
    let Some(rows) = sb.and_then(|s| s.lag_hist.as_ref()) else {
        return vec![];
    };
    let apply: Vec<_> = rows.iter().filter(|r| r.name == "apply lag").collect();
    let total: u64 = apply.iter().map(|r| r.count).sum();
    if total == 0 {
        return vec![];
    }
    if !full {
        let mut spans = vec![Span::styled("apply lag hist ", t.muted())];
        for r in apply.iter().take(5) {
            spans.push(Span::styled(
                format!(
                    "{} s {:.0} %  ",
                    r.lag_s,
                    r.count as f64 * 100.0 / total as f64
                ),
                t.text(),
            ));
        }
        return vec![Line::from(spans)];
    }
    let mut out = vec![Line::styled(
        "apply lag histogram (V$STANDBY_EVENT_HISTOGRAM, since startup)",
        t.muted(),
    )];
    for r in apply {
        out.push(Line::styled(
            format!(
                "  {:>6} s {:>12} {:>6.1} %",
                r.lag_s,
                fmt::num(r.count as f64, 0),
                r.count as f64 * 100.0 / total as f64
            ),
            t.text(),
        ));
    }
    out
}

pub(crate) fn lag_chart(buf: &mut ratatui::buffer::Buffer, area: Rect, cx: &Ctx, full: bool) {
    let app = cx.app;
    let Some(s) = app.standby().and_then(|s| app.engine().slot(s)) else {
        return;
    };
    let end = app.paused_at.or(s.points().last().map(|p| p.t));
    let Some(end) = end else { return };
    // Normal view: the last ten minutes (or what fits); zoomed: the whole history.
    let span_limit = if full { f64::MAX } else { 600.0 };
    let pts: Vec<&Point> = s
        .points()
        .iter()
        .filter(|p| p.t <= end && end.secs_since(p.t) <= span_limit)
        .collect();
    let span = pts.first().map(|p| end.secs_since(p.t)).unwrap_or(0.0);
    let series = |name, role, f: fn(&Point) -> Option<f64>| Series {
        name,
        role,
        points: pts
            .iter()
            .filter_map(|p| f(p).map(|v| (p.t.secs_since(end), v)))
            .collect(),
    };
    let s = [
        series("transport lag", Role::SeriesTransport, |p| {
            p.transport_lag_s
        }),
        series("apply lag", Role::SeriesApply, |p| p.apply_lag_s),
    ];
    chart::render(buf, area, cx, &s, "s", span);
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, detail: Detail) {
    let app = cx.app;
    let slot = app.standby();
    let (state, stale) = cx.slot_state(slot);
    let mut extra = format!("(standby {})", cx.slot_name(slot));
    if !state.is_empty() {
        extra.push_str(&format!("  {state}"));
    }
    let block = cx.block(Pane::Lag, &extra, detail, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if slot.is_none() {
        let mut lines = vec![Line::styled(
            match app.cfg.one_window {
                Some(_) => "a report has no standby side: transport and apply lag unknown",
                None => "no standby connected",
            },
            cx.theme.muted(),
        )];
        if app.cfg.one_window.is_some() {
            // What the report lacked or disagreed on, where the eye goes for what is missing.
            lines.extend(
                app.marks()
                    .map(|m| Line::styled(m.text.clone(), cx.theme.text())),
            );
        }
        frame.render_widget(
            Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }),
            inner,
        );
        return;
    }
    let style = cx.value_style(stale);
    let p = point_at(cx);
    let sb = last_good(cx, slot).map(|a| &**a);
    let mut top = vec![now_line(cx, p, sb, style, cx.staleness(slot))];
    // Two or more standbys: every member's lag on one line, under the chosen one's.
    top.extend(super::members::summary(cx, inner.width as usize));
    let mut bottom = vec![rate_line(cx, p, style), state_line(cx, sb, style)];
    bottom.extend(lag_hist_lines(cx, sb, detail == Detail::Full));
    if detail == Detail::Full {
        bottom.push(Line::raw(""));
        // Placed by their time, whatever order they arrived in.
        let mut marks: Vec<_> = app.marks().collect();
        marks.sort_by_key(|m| m.t);
        if !marks.is_empty() {
            bottom.push(Line::styled("notes on the timeline", cx.theme.muted()));
            for m in marks.iter().rev().take(8) {
                bottom.push(Line::styled(
                    format!("  {}  {}", m.t.clock(), m.text),
                    cx.theme.text(),
                ));
            }
        }
    }
    if detail == Detail::Compact {
        let mut lines = top;
        lines.extend(bottom);
        let used = lines.len() as u16;
        frame.render_widget(Paragraph::new(lines), inner);
        // A taller stacked layout: the lag chart below the figures.
        if inner.height >= used + 5 {
            let r = Rect::new(inner.x, inner.y + used, inner.width, inner.height - used);
            lag_chart(frame.buffer_mut(), r, cx, false);
        }
        return;
    }
    let chart_h = inner
        .height
        .saturating_sub((top.len() + bottom.len()) as u16);
    let (x, w) = (inner.x, inner.width);
    let top_h = (top.len() as u16).min(inner.height);
    frame.render_widget(Paragraph::new(top), Rect::new(x, inner.y, w, top_h));
    if chart_h >= 3 {
        lag_chart(
            frame.buffer_mut(),
            Rect::new(x, inner.y + top_h, w, chart_h),
            cx,
            detail == Detail::Full,
        );
    }
    let by = inner.y + top_h + chart_h;
    let bh = inner.bottom().saturating_sub(by);
    frame.render_widget(Paragraph::new(bottom), Rect::new(x, by, w, bh));
}
