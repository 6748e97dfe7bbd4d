//! The configuration view (`c`): every member of the Data Guard configuration in one table,
//! as DGMGRL `show configuration` and `show configuration lag` give it: the primary's
//! protection mode and level, the broker and fast-start failover, then one row per standby
//! (role, transport mode and state, apply state, transport lag, apply lag net of any delay,
//! apply finish time, switchover status). Everything comes from the assessment's overview,
//! taken at the same instant as the findings. Also the one-line lag summary of every member
//! the lag pane shows with two or more standbys, and what keeps the causes pane from calling
//! the configuration healthy.

use super::theme::Role;
use super::{fmt, Ctx};
use dgscope_core::causes::{ApplyState, MemberState, Overview, TransportState};
use dgscope_model::timestamp::Timestamp;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

/// The instant the overview describes: its newest member's.
pub(crate) fn as_of(o: &Overview) -> Option<Timestamp> {
    o.primary
        .iter()
        .filter_map(|p| p.as_of)
        .chain(o.standbys.iter().filter_map(|m| m.as_of))
        .max()
}

/// A member's name: its DB_UNIQUE_NAME, or its slot before the first good sample.
pub fn name(m: &MemberState) -> String {
    m.name.clone().unwrap_or_else(|| m.slot.clone())
}

/// The apply lag net of a deliberate delay (`DelayMins`): what apply is really behind.
pub(crate) fn net_apply_lag(m: &MemberState) -> Option<f64> {
    m.apply_lag_s
        .map(|a| (a - m.delay_s.unwrap_or(0.0)).max(0.0))
}

fn stale_word(m: &MemberState) -> String {
    match m.as_of {
        Some(t) => format!("STALE as of {}", t.clock()),
        None => "STALE, never read".into(),
    }
}

/// What keeps a standby from being called healthy: stale, not shipping, apply not running.
/// Empty when it ships and applies (a far sync ships only).
pub(crate) fn concerns(m: &MemberState) -> Vec<String> {
    if m.stale {
        return vec![stale_word(m)];
    }
    let mut out = Vec::new();
    if !m.transport.ships() {
        out.push(format!("transport {}", m.transport.label()));
    }
    match &m.apply {
        ApplyState::Running | ApplyState::NotApplicable => {}
        ApplyState::Off(_) => out.push("apply off".into()),
        other => out.push(format!("apply {}", other.label())),
    }
    out
}

/// Every reason, member by member, the configuration cannot be called healthy from the
/// overview alone ("prod_c STALE as of 05:01:02"); empty when every member ships and applies.
pub(crate) fn unhealthy(o: &Overview) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(p) = &o.primary {
        let pname = p.name.clone().unwrap_or_else(|| "primary".into());
        if p.stale {
            out.push(format!(
                "{pname} STALE{}",
                p.as_of
                    .map(|t| format!(" as of {}", t.clock()))
                    .unwrap_or_default()
            ));
        }
        if let Some(f) = p.fsfo.as_ref().filter(|f| f.enabled()) {
            if !f.ready() {
                out.push(format!("fast-start failover {}", f.status.trim()));
            }
            if f.observer_present == Some(false) {
                out.push("fast-start failover observer absent".into());
            }
        }
    }
    for m in &o.standbys {
        let c = concerns(m);
        if !c.is_empty() {
            out.push(format!("{} {}", name(m), c.join(", ")));
        }
    }
    out
}

/// DGMGRL's words for the protection mode.
fn protection(p: &str) -> String {
    match p.trim() {
        "MAXIMUM AVAILABILITY" => "MaxAvailability".into(),
        "MAXIMUM PERFORMANCE" => "MaxPerformance".into(),
        "MAXIMUM PROTECTION" => "MaxProtection".into(),
        other => other.to_string(),
    }
}

fn lag_style(cx: &Ctx, v: Option<f64>) -> Style {
    super::lag_style(cx, v, cx.theme.text())
}

/// Fields joined by two spaces, wrapped to `width` columns between fields.
fn flow(fields: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Line<'static>> {
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut cur: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    for f in fields {
        let w: usize = f.iter().map(|s| s.width()).sum();
        if !cur.is_empty() && used + 2 + w > width {
            out.push(Line::from(std::mem::take(&mut cur)));
            used = 0;
        }
        if !cur.is_empty() {
            cur.push(Span::raw("  "));
            used += 2;
        }
        cur.extend(f);
        used += w;
    }
    if !cur.is_empty() {
        out.push(Line::from(cur));
    }
    out
}

fn primary_lines(cx: &Ctx, o: &Overview, width: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    let Some(p) = &o.primary else {
        return vec![Line::styled("primary: not read yet", t.muted())];
    };
    let field = |k: &str, v: String, s: Style| {
        vec![Span::styled(format!("{k} "), t.muted()), Span::styled(v, s)]
    };
    let text = if p.stale { t.muted() } else { t.text() };
    let mut fields = vec![vec![
        Span::styled(
            p.name.clone().unwrap_or_else(|| "primary".into()),
            t.style(Role::Title),
        ),
        Span::styled(" primary", t.muted()),
    ]];
    if p.stale {
        fields.push(vec![Span::styled(
            format!(
                "STALE{}",
                p.as_of
                    .map(|a| format!(" as of {}", a.clock()))
                    .unwrap_or_default()
            ),
            t.style(Role::Warn),
        )]);
    }
    if let Some(mode) = &p.protection_mode {
        let mut f = field("protection", protection(mode), text);
        if let Some(level) = p
            .protection_level
            .as_deref()
            .filter(|l| l.trim() != mode.trim())
        {
            f.push(Span::styled(
                format!(", level {}", protection(level)),
                t.style(Role::Warn),
            ));
        }
        fields.push(f);
    }
    if let Some(f) = &p.fsfo {
        if f.enabled() {
            let ok = f.ready();
            let mut v = field(
                "fast-start failover",
                f.status.trim().to_string(),
                if ok { text } else { t.style(Role::Warn) },
            );
            if let Some(target) = &f.target {
                v.push(Span::styled(format!(" to {target}"), text));
            }
            fields.push(v);
            if let Some(th) = f.threshold_s {
                fields.push(field("threshold", fmt::lag(th as f64), text));
            }
            if let Some(l) = f.lag_limit_s {
                fields.push(field("lag limit", fmt::lag(l as f64), text));
            }
            match (f.observer_present, &f.observer_host) {
                (Some(false), _) => {
                    fields.push(field("observer", "ABSENT".into(), t.style(Role::Crit)))
                }
                (_, Some(h)) => fields.push(field("observer", h.clone(), text)),
                (Some(true), None) => fields.push(field("observer", "present".into(), text)),
                (None, None) => {}
            }
        } else {
            fields.push(field("fast-start failover", "disabled".into(), t.muted()));
        }
    }
    if let Some(s) = &p.switchover_status {
        fields.push(field("switchover", s.clone(), text));
    }
    if let Some(b) = &p.broker {
        fields.push(field("broker", b.clone(), text));
    }
    if let Some(f) = &p.force_logging {
        fields.push(field("force logging", f.clone(), text));
    }
    if let Some(f) = &p.flashback_on {
        fields.push(field("flashback", f.clone(), text));
    }
    flow(fields, width)
}

/// One column of the members table: dropped, lowest priority (highest number) first, when
/// the table is wider than the view.
struct Col {
    head: &'static str,
    /// The heading once the table is too wide for the long ones.
    short: &'static str,
    prio: u8,
    right: bool,
    cells: Vec<(String, Style)>,
}

impl Col {
    fn width(&self) -> usize {
        self.cells
            .iter()
            .map(|(c, _)| c.chars().count())
            .chain(std::iter::once(self.head.chars().count()))
            .max()
            .unwrap_or(0)
    }
}

fn role_short(role: &str) -> String {
    match role.trim() {
        "PHYSICAL STANDBY" => "physical".into(),
        "LOGICAL STANDBY" => "logical".into(),
        "SNAPSHOT STANDBY" => "snapshot".into(),
        "FAR SYNC" => "far sync".into(),
        other => other.to_ascii_lowercase(),
    }
}

fn transport_style(cx: &Ctx, s: &TransportState) -> Style {
    let t = cx.theme;
    match s {
        TransportState::Shipping => t.text(),
        TransportState::NotShipping(_) => t.style(Role::Warn),
        TransportState::Unknown => t.muted(),
        _ => t.style(Role::Crit),
    }
}

fn apply_style(cx: &Ctx, s: &ApplyState) -> Style {
    let t = cx.theme;
    match s {
        ApplyState::Running => t.text(),
        ApplyState::WaitingForGap | ApplyState::Stopped(_) => t.style(Role::Crit),
        _ => t.muted(),
    }
}

fn table(cx: &Ctx, o: &Overview, width: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    let ms = &o.standbys;
    let dim = |m: &MemberState, s: Style| if m.stale { t.muted() } else { s };
    let col = |head: &'static str, prio, right, f: &dyn Fn(&MemberState) -> (String, Style)| Col {
        head,
        short: match head {
            "transport lag" => "tr lag",
            "apply finish" => "finish",
            "switchover" => "switch",
            h => h,
        },
        prio,
        right,
        cells: ms.iter().map(f).collect(),
    };
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| fmt::NONE.into());
    let mut cols = vec![
        col("member", 0, false, &|m| {
            (name(m), dim(m, t.style(Role::Title)))
        }),
        col("role", 5, false, &|m| {
            (
                m.role.as_deref().map_or(fmt::NONE.into(), role_short),
                dim(m, t.text()),
            )
        }),
        col("mode", 4, false, &|m| {
            (opt(&m.transport_mode), dim(m, t.text()))
        }),
        col("dest", 7, true, &|m| {
            (
                m.dest_id.map_or(fmt::NONE.into(), |d| d.to_string()),
                dim(m, t.text()),
            )
        }),
        col("transport", 2, false, &|m| {
            (
                m.transport.label().to_string(),
                dim(m, transport_style(cx, &m.transport)),
            )
        }),
        col("apply", 2, false, &|m| {
            if m.stale {
                (stale_word(m), t.style(Role::Warn))
            } else {
                (m.apply.label().to_string(), apply_style(cx, &m.apply))
            }
        }),
        col("transport lag", 1, true, &|m| {
            (
                fmt::opt_lag(m.transport_lag_s),
                dim(m, lag_style(cx, m.transport_lag_s)),
            )
        }),
        col("apply lag", 1, true, &|m| {
            if m.apply == ApplyState::NotApplicable {
                return ("n/a".into(), t.muted());
            }
            let net = net_apply_lag(m);
            (fmt::opt_lag(net), dim(m, lag_style(cx, net)))
        }),
        col("delay", 6, true, &|m| {
            (
                m.delay_s
                    .filter(|d| *d > 0.0)
                    .map_or(String::new(), fmt::lag),
                dim(m, t.text()),
            )
        }),
        col("apply finish", 3, true, &|m| {
            if m.apply == ApplyState::NotApplicable {
                return ("n/a".into(), t.muted());
            }
            (fmt::opt_lag(m.apply_finish_s), dim(m, t.text()))
        }),
        col("switchover", 8, false, &|m| {
            (opt(&m.switchover_status), dim(m, t.text()))
        }),
    ];
    // No member is delayed: no delay column.
    cols.retain(|c| c.head != "delay" || c.cells.iter().any(|(v, _)| !v.is_empty()));
    const GAP: usize = 2;
    let total = |cols: &[Col]| {
        cols.iter().map(Col::width).sum::<usize>() + GAP * cols.len().saturating_sub(1)
    };
    if total(&cols) > width {
        for c in cols.iter_mut() {
            c.head = c.short;
        }
    }
    while total(&cols) > width && cols.len() > 1 {
        let worst = cols.iter().map(|c| c.prio).max().unwrap_or(0);
        if worst == 0 {
            break;
        }
        cols.retain(|c| c.prio != worst);
    }
    let cell = |s: &str, w: usize, right: bool| {
        if right {
            fmt::rfit(s, w)
        } else {
            fmt::fit(s, w)
        }
    };
    let widths: Vec<usize> = cols.iter().map(Col::width).collect();
    let mut head = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        if i > 0 {
            head.push(Span::raw(" ".repeat(GAP)));
        }
        head.push(Span::styled(cell(c.head, widths[i], c.right), t.muted()));
    }
    let mut out = vec![Line::from(head)];
    for r in 0..ms.len() {
        let mut spans = Vec::new();
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                spans.push(Span::raw(" ".repeat(GAP)));
            }
            let (v, s) = &c.cells[r];
            spans.push(Span::styled(cell(v, widths[i], c.right), *s));
        }
        out.push(Line::from(spans));
    }
    out
}

/// What the table's words do not say: why a member does not ship or apply, since when it is
/// stale, its delay.
fn notes(cx: &Ctx, o: &Overview) -> Vec<Line<'static>> {
    let t = cx.theme;
    let mut out = Vec::new();
    for m in &o.standbys {
        let n = name(m);
        let mut say = |s: String, style: Style| {
            out.push(Line::from(vec![
                Span::styled(format!("{n}: "), t.style(Role::Title)),
                Span::styled(s, style),
            ]))
        };
        if m.stale {
            say(
                format!(
                    "stale: no good sample since {}; its lags and apply state are unknown, not shown as now",
                    m.as_of
                        .map(|t| t.clock())
                        .unwrap_or_else(|| "the start".into())
                ),
                t.style(Role::Warn),
            );
        }
        match &m.transport {
            TransportState::Gap(g) => say(format!("transport gap: {g}"), t.style(Role::Crit)),
            TransportState::Error { message, retry_at } => say(
                format!(
                    "destination {} in error: {message}{}",
                    m.dest_id.map(|d| d.to_string()).unwrap_or_default(),
                    retry_at
                        .map(|r| format!("; retry at {}", r.clock()))
                        .unwrap_or_default()
                ),
                t.style(Role::Crit),
            ),
            TransportState::NotShipping(s) => say(
                format!("destination {s}: nothing ships"),
                t.style(Role::Warn),
            ),
            TransportState::StandbyDown => say(
                "the standby does not answer: nothing ships".into(),
                t.style(Role::Crit),
            ),
            _ => {}
        }
        if !m.stale {
            match &m.apply {
                ApplyState::Stopped(r) => say(format!("apply stopped: {r}"), t.style(Role::Crit)),
                ApplyState::Off(o) => say(format!("apply off: {}", o.describe()), t.muted()),
                ApplyState::WaitingForGap => say(
                    "apply waits for an archive gap to be resolved".into(),
                    t.style(Role::Crit),
                ),
                _ => {}
            }
        }
        if let Some(d) = m.delay_s.filter(|d| *d > 0.0) {
            say(
                format!(
                    "apply delayed by {} on purpose (DelayMins); the apply lag shown is net of it",
                    fmt::lag(d)
                ),
                t.muted(),
            );
        }
    }
    out
}

/// The view's lines at `width` columns.
pub(crate) fn lines(cx: &Ctx, width: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    let o = &cx.app.assessment.overview;
    let mut out = primary_lines(cx, o, width);
    out.push(Line::raw(""));
    if o.standbys.is_empty() {
        out.push(Line::styled("no standby monitored", t.muted()));
        return out;
    }
    out.extend(table(cx, o, width));
    let n = notes(cx, o);
    if !n.is_empty() {
        out.push(Line::raw(""));
        out.extend(super::wrap::wrap(n, width));
    }
    out.push(Line::raw(""));
    out.extend(super::wrap::wrap(
        vec![Line::styled(
            "apply lag is net of any delay; apply finish is Oracle's estimate of the time to apply what has arrived (V$DATAGUARD_STATS): what a failover would wait",
            t.muted(),
        )],
        width,
    ));
    out
}

fn title(cx: &Ctx) -> String {
    let at = as_of(&cx.app.assessment.overview)
        .map(|t| format!("as of {}", t.clock()))
        .unwrap_or_else(|| "not read yet".into());
    if cx.app.paused_at.is_some() {
        format!("Configuration  {at} (the paused instant)")
    } else {
        format!("Configuration  {at}")
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
    frame.render_widget(Paragraph::new(lines).scroll((top, 0)), inner);
}

/// How far the view scrolls in `area`.
pub(crate) fn scroll_max(cx: &Ctx, area: Rect) -> u16 {
    let inner = block(cx, area.width).inner(area);
    (lines(cx, inner.width as usize).len() as u16).saturating_sub(inner.height)
}

/// The view as text for `y`: its title, then every line at a width where nothing is dropped.
pub(crate) fn text(cx: &Ctx) -> String {
    let mut all = vec![Line::raw(title(cx))];
    all.extend(lines(cx, 200));
    super::lines_text(&all)
}

/// The lag pane's one-line summary of every member (two or more standbys): each one's
/// transport and apply lag, the chosen one in brackets, a stale one as stale and a member
/// that does not ship or apply with the word for it. Live it is the overview's; paused, the
/// lags are each member's at the paused instant (the states are the overview's only live).
pub(crate) fn summary(cx: &Ctx, width: usize) -> Option<Line<'static>> {
    let app = cx.app;
    let o = &app.assessment.overview;
    if o.standbys.len() < 2 {
        return None;
    }
    let t = cx.theme;
    let chosen = app.standby().map(|s| s.to_string());
    let mut spans = vec![Span::styled("lags ", t.muted())];
    for m in &o.standbys {
        let n = name(m);
        let n = if chosen.as_deref() == Some(m.slot.as_str()) {
            format!("[{n}]")
        } else {
            n
        };
        spans.push(Span::styled(format!(" {n} "), t.style(Role::Title)));
        let (tl, al, stale) = match app.paused_at {
            None => (
                m.transport_lag_s,
                net_apply_lag(m),
                m.stale.then(|| stale_word(m)),
            ),
            Some(at) => lags_at(cx, m, at),
        };
        if let Some(s) = stale {
            spans.push(Span::styled(s, t.style(Role::Warn)));
        } else if m.apply == ApplyState::NotApplicable {
            // A far sync applies nothing: its transport lag only.
            spans.push(Span::styled(fmt::opt_lag(tl), lag_style(cx, tl)));
            spans.push(Span::styled(" far sync", t.muted()));
        } else {
            spans.push(Span::styled(fmt::opt_lag(tl), lag_style(cx, tl)));
            spans.push(Span::styled("/", t.muted()));
            spans.push(Span::styled(fmt::opt_lag(al), lag_style(cx, al)));
            if app.paused_at.is_none() {
                let c = concerns(m);
                if !c.is_empty() {
                    spans.push(Span::styled(
                        format!(" {}", c.join(", ")),
                        t.style(Role::Crit),
                    ));
                }
            }
        }
        spans.push(Span::raw(" "));
    }
    let key = app.cfg.keymap.label(crate::app::Action::Configuration);
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let hint = if key.is_empty() {
        " (transport/apply)".to_string()
    } else {
        format!(" (transport/apply; {key}: all)")
    };
    if used + hint.chars().count() <= width {
        spans.push(Span::styled(hint, t.muted()));
    }
    Some(Line::from(spans))
}

/// A member's lags at the paused instant: its last good point at or before it, or stale.
fn lags_at(cx: &Ctx, m: &MemberState, at: Timestamp) -> (Option<f64>, Option<f64>, Option<String>) {
    let e = cx.app.engine();
    let Some((slot, series)) = e.slots().find(|(k, _)| k.to_string() == m.slot) else {
        return (None, None, None);
    };
    let point = series.points().iter().rev().find(|p| p.t <= at);
    let good = series
        .points()
        .iter()
        .rev()
        .find(|p| p.t <= at && !p.failed);
    if point.is_some_and(|p| p.failed) || cx.staleness(Some(slot)).is_some() && point.is_none() {
        let word = match good {
            Some(g) => format!("STALE as of {}", g.t.clock()),
            None => "STALE, never read".into(),
        };
        return (None, None, Some(word));
    }
    let net = good
        .and_then(|p| p.apply_lag_s)
        .map(|a| (a - m.delay_s.unwrap_or(0.0)).max(0.0));
    (good.and_then(|p| p.transport_lag_s), net, None)
}
