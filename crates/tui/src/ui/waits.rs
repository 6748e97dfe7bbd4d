//! "What is waiting now" (`s`): every monitored database's in-flight, non-idle waits as its
//! newest sample read them from `V$SESSION` — per event the sessions waiting, the longest
//! wait so far and the program of the session that blocks it (`LGWR`, `ARC1` …). The
//! primary comes first, then each standby. A database whose newest sample failed is STALE:
//! its last summary is not shown as now. Paused, each database's summary at the paused
//! instant, when its samples are still kept.

use super::theme::Role;
use super::{fmt, Ctx};
use dgscope_core::causes::rules::waits_now::on_commit_path;
use dgscope_core::metrics::SlotSeries;
use dgscope_model::sample::{Sample, Slot, WaitNow};
use dgscope_model::timestamp::Timestamp;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;
use std::sync::Arc;

/// A commit-path wait in flight this long is the hang `primary-hung` looks for.
const LONG_S: f64 = 10.0;

/// What one database's summary is at the instant shown.
enum State<'a> {
    /// Its sample at that instant, with its waits (`None`: the part was not read).
    Read(&'a Arc<Sample>),
    /// Its newest sample failed: the last good one is not now.
    Stale(Option<Timestamp>),
    /// No sample yet, or none kept for the paused instant.
    Nothing(&'static str),
}

fn state<'a>(s: &'a SlotSeries, paused: Option<Timestamp>) -> State<'a> {
    match paused {
        None => match s.current() {
            Some(x) => State::Read(x),
            None if s.last_good().is_some() => State::Stale(s.last_good().map(|x| x.t)),
            None => State::Nothing("not read yet"),
        },
        Some(t) => {
            let failed = s
                .points()
                .iter()
                .rev()
                .find(|p| p.t <= t)
                .is_some_and(|p| p.failed);
            let good = s.raw_samples().rev().find(|x| x.t <= t);
            match good {
                Some(_) if failed => State::Stale(good.map(|x| x.t)),
                Some(x) => State::Read(x),
                None => State::Nothing("not kept for the paused instant"),
            }
        }
    }
}

/// The slots in the screen's order: the primary, then every standby.
fn slots<'a>(cx: &Ctx<'a>) -> Vec<&'a Slot> {
    let e = cx.app.engine();
    e.primary_slot()
        .into_iter()
        .chain(e.standby_slots())
        .collect()
}

fn name(s: &SlotSeries, slot: &Slot) -> String {
    s.last_good()
        .and_then(|x| x.db.as_ref())
        .and_then(|d| d.name.as_deref())
        .map_or_else(|| slot.to_string(), str::to_string)
}

/// The longest wait: milliseconds below a second, else as every duration reads.
pub(crate) fn longest(s: f64) -> String {
    if s < 1.0 {
        format!("{} ms", fmt::ms(s * 1000.0))
    } else {
        fmt::dur(s)
    }
}

fn wait_style(cx: &Ctx, w: &WaitNow) -> Style {
    let t = cx.theme;
    if on_commit_path(&w.event) && w.longest_s >= LONG_S {
        t.style(Role::Crit)
    } else if w.longest_s >= 1.0 {
        t.style(Role::Warn)
    } else {
        t.text()
    }
}

/// The view's lines at `width` columns.
pub(crate) fn lines(cx: &Ctx, width: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    let e = cx.app.engine();
    let wide = width >= 110;
    let (n_w, l_w) = (9usize, 9usize);
    let b_w = if wide { 34 } else { 12 };
    // Event names run to about 45 characters (`log file switch (private strand flush …)`).
    let ev_w = width.saturating_sub(2 + n_w + l_w + 2 + b_w).clamp(12, 48);
    let mut out = Vec::new();
    let all = slots(cx);
    if all.is_empty() {
        out.push(Line::styled("no database read yet", t.muted()));
    }
    for slot in all {
        let Some(s) = e.slot(slot) else { continue };
        let role = if slot.is_standby() {
            "standby"
        } else {
            "primary"
        };
        let mut head = vec![
            Span::styled(name(s, slot), t.style(Role::Title)),
            Span::styled(format!("  {role}"), t.muted()),
        ];
        match state(s, cx.app.paused_at) {
            State::Nothing(why) => {
                head.push(Span::styled(format!("  {why}"), t.muted()));
                out.push(Line::from(head));
            }
            State::Stale(at) => {
                let at = at.map_or_else(|| "never read".into(), |t| format!("as of {}", t.clock()));
                head.push(Span::styled(
                    format!("  STALE {at}: its last waits are not shown as now"),
                    t.style(Role::Warn),
                ));
                out.push(Line::from(head));
            }
            State::Read(x) => {
                head.push(Span::styled(format!("  as of {}", x.t.clock()), t.muted()));
                match x.waits_now.as_deref() {
                    None => {
                        head.push(Span::styled("  V$SESSION not read", t.muted()));
                        out.push(Line::from(head));
                    }
                    Some([]) => {
                        head.push(Span::styled("  nothing waiting (non-idle)", t.text()));
                        out.push(Line::from(head));
                    }
                    Some(ws) => {
                        out.push(Line::from(head));
                        out.push(Line::styled(
                            format!(
                                "  {}{}{}  {}",
                                fmt::fit("event", ev_w),
                                fmt::rfit("sessions", n_w),
                                fmt::rfit("longest", l_w),
                                "blocker"
                            ),
                            t.muted(),
                        ));
                        for w in ws {
                            let blocker = if wide {
                                w.blocker.as_deref().map(str::to_string)
                            } else {
                                w.blocker_short().map(str::to_string)
                            };
                            let st = wait_style(cx, w);
                            out.push(Line::from(vec![
                                Span::raw("  "),
                                Span::styled(fmt::fit(&w.event, ev_w), t.text()),
                                Span::styled(fmt::rfit(&w.sessions.to_string(), n_w), t.text()),
                                Span::styled(fmt::rfit(&longest(w.longest_s), l_w), st),
                                Span::raw("  "),
                                Span::styled(
                                    fmt::fit(blocker.as_deref().unwrap_or(fmt::NONE), b_w),
                                    t.text(),
                                ),
                            ]));
                        }
                    }
                }
            }
        }
    }
    out.push(Line::raw(""));
    out.push(Line::styled(
        "In-flight waits only (STATE = 'WAITING'), idle ones left out, background processes kept; the longest first, at most 8 events a database.",
        t.muted(),
    ));
    out
}

fn title(cx: &Ctx) -> String {
    match cx.app.paused_at {
        Some(t) => format!("Waiting now  at {} (the paused instant)", t.clock()),
        None => "Waiting now".into(),
    }
}

fn block(cx: &Ctx, width: u16) -> Block<'static> {
    cx.view_block(title(cx), width)
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx) {
    let b = block(cx, area.width);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    let lines = lines(cx, inner.width as usize);
    let max = (lines.len() as u16).saturating_sub(inner.height);
    let top = cx.app.scroll.min(max);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .scroll((top, 0)),
        inner,
    );
}

/// How far the view scrolls in `area`.
pub(crate) fn scroll_max(cx: &Ctx, area: Rect) -> u16 {
    let inner = block(cx, area.width).inner(area);
    let n: usize = lines(cx, inner.width as usize)
        .iter()
        .map(|l| l.width().max(1).div_ceil(inner.width.max(1) as usize))
        .sum();
    (n as u16).saturating_sub(inner.height)
}

/// The view as text for `y`: its title, then every line with the full blocker program.
pub(crate) fn text(cx: &Ctx) -> String {
    let mut all = vec![Line::raw(title(cx))];
    all.extend(lines(cx, 200));
    super::lines_text(&all)
}
