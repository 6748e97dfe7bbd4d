//! Pane 4, Standby I/O (iostat-style): per file type r/s, w/s, rMB/s, wMB/s, r_await,
//! w_await on the standby, with a marker where the standby is slower than the primary, and
//! the standby's RFS write latency next to the primary's local log write latency.

use super::theme::Role;
use super::{fmt, Ctx, Detail};
use crate::app::Pane;
use dgscope_core::metrics::{Delta, IoRates};
use dgscope_model::sample::names::filetype;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Worse than the primary: 20 % slack so the marker does not flicker on noise.
pub(crate) fn worse(standby: Option<f64>, primary: Option<f64>) -> bool {
    matches!((standby, primary), (Some(s), Some(p)) if s > p * 1.2 && s - p >= 0.05)
}

/// File types in the order a DBA looks at them, then any others.
fn types(d: &Delta) -> Vec<String> {
    let known = [
        filetype::LOG_FILE,
        filetype::DATA_FILE,
        filetype::ARCHIVE_LOG,
        filetype::CONTROL_FILE,
    ];
    let mut out: Vec<String> = known
        .iter()
        .filter(|k| d.iostat.contains_key(**k))
        .map(|k| k.to_string())
        .collect();
    for k in d.iostat.keys() {
        if !known.contains(&k.as_str()) {
            out.push(k.to_string());
        }
    }
    out
}

fn header(cx: &Ctx) -> Line<'static> {
    Line::styled(
        format!(
            "{:<14}{:>7}{:>7}{:>7}{:>7}{:>8}  {:>8}",
            "type", "r/s", "w/s", "rMB/s", "wMB/s", "r_await", "w_await"
        ),
        cx.theme.muted(),
    )
}

fn row(
    cx: &Ctx,
    ft: &str,
    io: &IoRates,
    other: Option<&IoRates>,
    style: Style,
    mark: bool,
) -> Line<'static> {
    let t = cx.theme;
    let up = if cx.ascii { "^" } else { "▲" };
    let aw = |v: Option<dgscope_model::units::Millis>| fmt::opt(v.map(|m| m.0), 2);
    let rw = mark
        && worse(
            io.r_await.map(|m| m.0),
            other.and_then(|o| o.r_await).map(|m| m.0),
        );
    let ww = mark
        && worse(
            io.w_await.map(|m| m.0),
            other.and_then(|o| o.w_await).map(|m| m.0),
        );
    let warn = t.style(Role::Warn);
    Line::from(vec![
        Span::styled(fmt::fit(ft, 14), t.muted()),
        Span::styled(
            format!(
                "{:>7}{:>7}{:>7}{:>7}",
                fmt::num(io.r_s, 0),
                fmt::num(io.w_s, 0),
                fmt::num(io.r_mb_s, 1),
                fmt::num(io.w_mb_s, 1)
            ),
            style,
        ),
        Span::styled(
            format!("{:>8}", aw(io.r_await)),
            if rw { warn } else { style },
        ),
        Span::styled(if rw { format!(" {up}") } else { "  ".into() }, warn),
        Span::styled(
            format!("{:>8}", aw(io.w_await)),
            if ww { warn } else { style },
        ),
        Span::styled(if ww { format!(" {up}") } else { "  ".into() }, warn),
    ])
}

fn table(
    cx: &Ctx,
    d: &Delta,
    other: Option<&Delta>,
    style: Style,
    limit: usize,
) -> Vec<Line<'static>> {
    let mut out = vec![];
    for ft in types(d).into_iter().take(limit) {
        if let Some(io) = d.io(&ft) {
            let o = other.and_then(|o| o.io(&ft));
            out.push(row(cx, &ft, &io, o.as_ref(), style, other.is_some()));
        }
    }
    out
}

/// RFS write latency on the standby vs the primary's own Log File write latency (seed 000).
fn rfs_line(cx: &Ctx, style: Style) -> Line<'static> {
    let t = cx.theme;
    let rfs = cx.d.standby.as_ref().and_then(|d| d.rfs_avg()).map(|m| m.0);
    let plog =
        cx.d.primary
            .as_ref()
            .and_then(|d| d.io(filetype::LOG_FILE))
            .and_then(|io| io.w_await)
            .map(|m| m.0);
    let plfpw =
        cx.d.primary
            .as_ref()
            .and_then(|d| d.event_avg(dgscope_model::sample::names::event::LOG_FILE_PARALLEL_WRITE))
            .map(|m| m.0);
    let primary = plog.or(plfpw);
    let bad = worse(rfs, primary);
    let up = if cx.ascii { " ^" } else { " ▲" };
    Line::from(vec![
        Span::styled("RFS random i/o ", t.muted()),
        Span::styled(
            format!("{} ms", fmt::opt(rfs, 2)),
            if bad { t.style(Role::Warn) } else { style },
        ),
        Span::styled(if bad { up } else { "  " }, t.style(Role::Warn)),
        Span::styled(
            if plog.is_some() {
                "   primary Log File write "
            } else {
                "   primary lfpw "
            },
            t.muted(),
        ),
        Span::styled(format!("{} ms", fmt::opt(primary, 2)), style),
    ])
}

/// One line for the stacked layout: the standby's log and data file write latencies.
fn compact_line(cx: &Ctx, sd: &Delta, pd: Option<&Delta>, style: Style) -> Line<'static> {
    let t = cx.theme;
    let up = if cx.ascii { " ^" } else { " ▲" };
    let mut spans = vec![];
    for (ft, label) in [
        (filetype::LOG_FILE, "Log File"),
        (filetype::DATA_FILE, "Data File"),
    ] {
        let Some(io) = sd.io(ft) else { continue };
        let p = pd
            .and_then(|p| p.io(ft))
            .and_then(|x| x.w_await)
            .map(|m| m.0);
        let w = io.w_await.map(|m| m.0);
        let bad = worse(w, p);
        spans.push(Span::styled(format!("{label} "), t.muted()));
        if ft == filetype::LOG_FILE {
            spans.push(Span::styled(
                format!(
                    "w {}/s {} MB/s ",
                    fmt::num(io.w_s, 0),
                    fmt::num(io.w_mb_s, 1)
                ),
                style,
            ));
        }
        spans.push(Span::styled("w_await ", t.muted()));
        spans.push(Span::styled(
            format!("{} ms", fmt::opt(w, 2)),
            if bad { t.style(Role::Warn) } else { style },
        ));
        spans.push(Span::styled(
            if bad { up } else { "  " },
            t.style(Role::Warn),
        ));
        spans.push(Span::raw("   "));
    }
    Line::from(spans)
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, detail: Detail) {
    let app = cx.app;
    let slot = app.standby();
    let (state, stale) = cx.slot_state(slot);
    let mut extra = format!("(iostat, standby {})", cx.slot_name(slot));
    if !state.is_empty() {
        extra.push_str(&format!("  {state}"));
    }
    let block = cx.block(Pane::StandbyIo, &extra, detail, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let style = cx.value_style(stale);
    let t = cx.theme;
    let Some(sd) = cx.d.standby.as_ref() else {
        frame.render_widget(
            Paragraph::new(match app.cfg.one_window {
                Some(_) => "a report has no standby side: standby I/O unknown",
                None => "no standby data in the window yet",
            })
            .style(t.muted()),
            inner,
        );
        return;
    };
    let pd = cx.d.primary.as_ref();
    let lines = match detail {
        Detail::Compact => vec![rfs_line(cx, style), compact_line(cx, sd, pd, style)],
        Detail::Normal => {
            let rows = (inner.height as usize).saturating_sub(2);
            let mut l = vec![header(cx)];
            l.extend(table(cx, sd, pd, style, rows));
            l.push(rfs_line(cx, style));
            l
        }
        Detail::Full => {
            let mut l = vec![
                Line::styled(
                    format!(
                        "standby {}  (V$IOSTAT_FILE, window {})",
                        cx.slot_name(slot),
                        app.window
                    ),
                    t.style(Role::Title),
                ),
                header(cx),
            ];
            l.extend(table(cx, sd, pd, style, 32));
            l.push(rfs_line(cx, style));
            l.push(Line::raw(""));
            if let Some(pd) = pd {
                l.push(Line::styled("primary", t.style(Role::Title)));
                l.push(header(cx));
                l.extend(table(cx, pd, None, style, 32));
            }
            l.push(Line::raw(""));
            let up = if cx.ascii { "^" } else { "▲" };
            // Wrapped to the pane: the legend is read, not cut at 80 columns.
            l.extend(super::wrap::wrap(
                vec![Line::styled(
                    format!("{up} the standby's latency is over 1.2x the primary's for the same file type; awaits in ms"),
                    t.muted(),
                )],
                inner.width as usize,
            ));
            l
        }
    };
    // Zoomed, the screen scrolls the pane as a whole (see `ui::render_zoom`).
    frame.render_widget(Paragraph::new(lines), inner);
}
