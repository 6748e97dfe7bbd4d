//! A cause's drill-down: evidence (metric, value, threshold, source view), the relevant
//! chart, what it means, the SQL to check it, what to do and what-if figures.

use super::theme::Role;
use super::{badge, fmt, Ctx};
use dgscope_core::causes::Finding;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};
use ratatui::Frame;

/// Causes about lag and transport show the lag chart; the others the commit latencies (as
/// the rule's record says).
fn is_lag_cause(id: &str) -> bool {
    dgscope_core::causes::rules::spec(id)
        .is_some_and(|r| r.chart == dgscope_core::causes::rules::Chart::Lag)
}

/// The evidence source, with the age of the read when it comes from a part read once a
/// minute ("V$STANDBY_LOG, read 42 s ago"): between reads the figure is the latest read, not
/// one of now. The oldest read among the primary and the standby shown counts.
fn source_with_age(cx: &Ctx, source: &str) -> String {
    let app = cx.app;
    // The screen's clock (the scrub cursor when paused). A read newer than the instant shown
    // says nothing of that instant's age: no annotation then.
    let now = app.clock();
    let age = dgscope_model::sample::slow::part_of_source(source).and_then(|part| {
        let reads: Vec<_> = [app.engine().primary_slot(), app.standby()]
            .into_iter()
            .flatten()
            .filter_map(|slot| app.engine().slot(slot)?.slow_read_at(part))
            .collect();
        if reads.iter().any(|t| *t > now) {
            return None;
        }
        reads.iter().map(|t| now.secs_since(*t)).reduce(f64::max)
    });
    let source = (app.cfg.cite)(source);
    match age {
        Some(a) if a >= 1.0 => format!("{source}, read {} ago", dgscope_model::display::age(a)),
        _ => source,
    }
}

fn evidence_lines(cx: &Ctx, f: &Finding, width: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    if width < 110 {
        // Narrow: each item on two lines, the number first.
        let mut out = vec![Line::styled("evidence", t.muted())];
        for e in &f.evidence {
            out.push(Line::from(vec![
                Span::styled(format!("{} ", e.metric), t.text()),
                Span::styled(fmt::evidence_value(e.value, &e.unit), t.style(Role::Title)),
            ]));
            let th = e
                .threshold
                .as_ref()
                .map(|th| format!("threshold {th} · "))
                .unwrap_or_default();
            out.push(Line::styled(
                format!("    {th}{}", source_with_age(cx, &e.source)),
                t.muted(),
            ));
        }
        return out;
    }
    // Cells use the free width before cutting: metric and threshold columns are as wide as
    // their longest entry unless the whole row would not fit, then the threshold gives way
    // first, then the metric (the source column is last and wraps).
    let longest =
        |it: &mut dyn Iterator<Item = usize>, min: usize| it.max().unwrap_or(min).max(min);
    let mut mw = longest(&mut f.evidence.iter().map(|e| e.metric.chars().count()), 6);
    let mut tw = longest(
        &mut f
            .evidence
            .iter()
            .filter_map(|e| e.threshold.as_ref().map(|t| t.chars().count())),
        9,
    );
    let sources: Vec<String> = f
        .evidence
        .iter()
        .map(|e| source_with_age(cx, &e.source))
        .collect();
    let sw = longest(&mut sources.iter().map(|s| s.chars().count()), 6);
    let fixed = 14 + 2 + 2 + 2;
    let over = (mw + tw + sw + fixed).saturating_sub(width);
    let cut_t = over.min(tw.saturating_sub(20));
    tw -= cut_t;
    mw -= (over - cut_t).min(mw.saturating_sub(24));
    let mut out = vec![Line::styled(
        format!(
            "{}  {:>14}  {}  source",
            fmt::fit("metric", mw),
            "value",
            fmt::fit("threshold", tw)
        ),
        t.muted(),
    )];
    for (e, source) in f.evidence.iter().zip(sources) {
        out.push(Line::from(vec![
            Span::styled(fmt::fit(&e.metric, mw), t.text()),
            Span::styled(
                format!("  {:>14}", fmt::evidence_value(e.value, &e.unit)),
                t.style(Role::Title),
            ),
            Span::styled(
                format!(
                    "  {}",
                    fmt::fit(e.threshold.as_deref().unwrap_or(fmt::NONE), tw)
                ),
                t.text(),
            ),
            Span::styled(format!("  {source}"), t.muted()),
        ]));
    }
    out
}

/// What the finding explains and the arithmetic behind it: the sentence of its impact, the
/// parts of its symptom it is a part of (the assessment's decomposition), its kind and the
/// cause it follows.
fn impact_lines(cx: &Ctx, f: &Finding) -> Vec<Line<'static>> {
    let t = cx.theme;
    let kind = match (f.kind, f.caused_by) {
        (dgscope_core::causes::FindingKind::Symptom, Some(c)) => format!("a symptom of {c}"),
        (k, Some(c)) => format!("{}, explained by {c}", k.as_str()),
        (k, None) => k.as_str().to_string(),
    };
    let mut out = vec![Line::from(vec![
        Span::styled("impact  ", t.muted()),
        Span::styled(f.impact.describe(f.kind), t.text()),
        Span::styled(format!(" ({kind})"), t.muted()),
    ])];
    if let Some(a) =
        dgscope_export::report::decomposition::arithmetic(f, &cx.app.assessment.decomposition)
    {
        out.push(Line::from(vec![
            Span::styled("        ", t.muted()),
            Span::styled(a, t.muted()),
        ]));
    }
    out.push(Line::raw(""));
    out
}

/// The text below the chart (what it means, SQL, advice, what-if), also used for `y`.
pub(crate) fn body_lines(cx: &Ctx, f: &Finding) -> Vec<Line<'static>> {
    let t = cx.theme;
    let h = |s: &str| Line::styled(s.to_string(), t.style(Role::Title));
    let mut out = vec![h("What it means")];
    out.push(Line::styled(f.meaning.clone(), t.text()));
    out.push(Line::raw(""));
    out.push(h(
        "What to check (SQL, SELECT only; y copies this drill-down as text)",
    ));
    if f.verify.is_empty() {
        out.push(Line::styled(fmt::NONE, t.muted()));
    }
    // Spelled for the releases of the newest samples, so the DBA sees the numbers shown here.
    let e = cx.app.engine();
    let newest = |slot: Option<&dgscope_model::sample::Slot>| {
        slot.and_then(|s| e.slot(s))
            .and_then(|s| s.last_good())
            .map(|s| s.as_ref())
    };
    let releases = dgscope_oracle::verify::Releases::from_samples(
        newest(e.primary_slot()),
        newest(cx.app.standby()),
    );
    for sql in dgscope_oracle::verify::texts(&f.verify, &releases) {
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

/// The drill-down as one document that scrolls as a whole: title and evidence, the chart,
/// then what it means, the SQL, the advice and the what-if figures, wrapped to `width`.
pub(crate) struct Doc {
    pub head: Vec<Line<'static>>,
    pub chart_h: u16,
    pub body: Vec<Line<'static>>,
}

impl Doc {
    pub(crate) fn new(cx: &Ctx, f: &Finding, width: u16, view_h: u16) -> Doc {
        let w = width.max(1) as usize;
        let mut head = vec![
            Line::styled(f.title.clone(), cx.theme.style(Role::Title)),
            Line::raw(""),
        ];
        head.extend(impact_lines(cx, f));
        head.extend(evidence_lines(cx, f, w));
        head.push(Line::raw(""));
        // A chart as tall as the view allows, never so tall that it hides the text.
        let chart_h = if view_h >= 30 {
            10
        } else if view_h >= 16 {
            6
        } else {
            0
        };
        Doc {
            head: super::wrap::wrap(head, w),
            chart_h,
            body: super::wrap::wrap(body_lines(cx, f), w),
        }
    }

    fn chart_gap(&self) -> usize {
        usize::from(self.chart_h > 0)
    }

    /// Rows in all.
    pub(crate) fn len(&self) -> usize {
        self.head.len() + self.chart_h as usize + self.chart_gap() + self.body.len()
    }
}

/// The inner area a drill-down draws in (inside its border).
pub(crate) fn inner(area: Rect) -> Rect {
    Block::default().borders(Borders::ALL).inner(area)
}

/// How far the drill-down in `area` can scroll: its last row at the bottom, no further.
pub(crate) fn scroll_max(cx: &Ctx, area: Rect, idx: usize) -> u16 {
    let Some(f) = cx.app.assessment.findings.get(idx) else {
        return 0;
    };
    let inner = inner(area);
    let doc = Doc::new(cx, f, inner.width, inner.height);
    doc.len()
        .saturating_sub(inner.height as usize)
        .min(u16::MAX as usize) as u16
}

/// The drill-down as plain text for `y`: the whole of it (not the visible part), no border,
/// no chart, lines unwrapped and trailing blanks trimmed: the finding's section of the
/// incident report (`e`), word for word, SQL spelled for the same releases.
pub(crate) fn text(cx: &Ctx, idx: usize) -> Option<String> {
    let f = cx.app.assessment.findings.get(idx)?;
    let releases = dgscope_export::report::check::releases(cx.app.engine(), cx.app.standby());
    Some(dgscope_export::report::text::plain(
        &dgscope_export::report::text::finding(f, &releases),
    ))
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, idx: usize) {
    let t = cx.theme;
    let Some(f) = cx.app.assessment.findings.get(idx) else {
        frame.render_widget(
            Paragraph::new("this cause has cleared; Esc goes back").style(t.muted()),
            area,
        );
        return;
    };
    let inner = inner(area);
    let doc = Doc::new(cx, f, inner.width, inner.height);
    let total = doc.len().min(u16::MAX as usize);
    let view = inner.height as usize;
    let top = (cx.app.scroll as usize).min(total.saturating_sub(view));
    let shown_to = (top + view).min(total);
    let (b, bs) = badge(cx, f.severity);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_set(cx.border_set())
        .border_style(t.border(true))
        .title(super::fit_title(
            vec![
                Span::styled(format!(" {b} "), bs),
                Span::styled(format!(" {} ", f.id), t.style(Role::Title)),
                Span::styled(format!("since {} ", f.since.clock()), t.muted()),
            ],
            area.width.saturating_sub(2),
        ));
    // Where you are: the last row shown of all rows ("12/48"), and whether more follows.
    if let Some(label) = super::scroll_position(shown_to, total, view, cx.ascii) {
        block = block.title_bottom(Line::from(Span::styled(label, t.muted())).right_aligned());
    }
    if let Some(label) = super::find::counter(cx) {
        block = block.title_bottom(Line::from(Span::styled(label, t.style(Role::Title))));
    }
    frame.render_widget(block, area);
    if total == 0 || inner.width == 0 {
        return;
    }
    let mut buf = document(cx, f, doc, inner.width, total as u16);
    let all = buf.area;
    super::find::mark(&mut buf, all, cx);
    let out = frame.buffer_mut();
    for (row, y) in (top..shown_to).enumerate() {
        for x in 0..inner.width {
            out[(inner.x + x, inner.y + row as u16)] = buf[(x, y as u16)].clone();
        }
    }
}

/// The whole drill-down drawn off-screen, `total` rows of `w` columns: the view copies the
/// rows in sight, the search reads every row.
fn document(cx: &Ctx, f: &Finding, doc: Doc, w: u16, total: u16) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, w, total));
    buf.set_style(buf.area, cx.theme.base());
    let head_h = doc.head.len() as u16;
    let chart_h = doc.chart_h;
    Paragraph::new(doc.head).render(Rect::new(0, 0, w, head_h), &mut buf);
    if chart_h > 0 {
        let r = Rect::new(0, head_h, w, chart_h);
        if is_lag_cause(f.id) {
            super::lag::lag_chart(&mut buf, r, cx, true);
        } else {
            super::commit::latency_chart(&mut buf, r, cx);
        }
    }
    let by = head_h + chart_h + chart_h.min(1);
    let body_h = total.saturating_sub(by);
    Paragraph::new(doc.body).render(Rect::new(0, by, w, body_h), &mut buf);
    buf
}

/// The drill-down rows at `area` holding the search's query: where `n` and `N` move.
pub(crate) fn search_rows(cx: &Ctx, area: Rect, idx: usize) -> Vec<u16> {
    let (Some(f), Some(s)) = (cx.app.assessment.findings.get(idx), cx.app.search.as_ref()) else {
        return Vec::new();
    };
    let inner = inner(area);
    let doc = Doc::new(cx, f, inner.width, inner.height);
    let total = doc.len().min(u16::MAX as usize) as u16;
    if total == 0 || inner.width == 0 {
        return Vec::new();
    }
    let buf = document(cx, f, doc, inner.width, total);
    super::find::match_rows(&buf, buf.area, &s.query)
        .into_iter()
        .map(|(y, _)| y)
        .collect()
}
