//! Pane 5, Suggested causes: ranked findings with a severity badge, what each explains of its
//! symptom, the title and one line of evidence; says plainly when there is nothing to suggest or not enough data yet.

use super::theme::Role;
use super::{badge, fmt, Ctx, Detail};
use crate::app::{Pane, WARMUP_SAMPLES};
use dgscope_core::causes::{Evidence, Finding, Severity, Symptom};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// One line of evidence; `cite` names the figure's source (the view, or a report's section).
pub fn evidence_text(e: &Evidence, cite: fn(&str) -> String) -> String {
    let mut s = if e.has_value() {
        format!("{} {}", e.metric, fmt::evidence_value(e.value, &e.unit))
    } else {
        e.metric.clone()
    };
    if let Some(th) = &e.threshold {
        s.push_str(&format!(" ({th})"));
    }
    s.push_str(&format!(" — {}", cite(&e.source)));
    s
}

/// What a finding explains, in a fixed width before its title: its share of its symptom
/// ("72% commit", "100% apply"), "risk" for a risk, "–" where the share is not known.
pub(crate) fn impact_tag(f: &Finding) -> String {
    let i = &f.impact;
    let sym = match i.symptom {
        Symptom::Commit => "commit",
        Symptom::TransportLag => "transport",
        Symptom::ApplyLag => "apply",
        Symptom::DbTime => "DB time",
        Symptom::RedoStall => "stalls",
        Symptom::Risk => return format!("{:>7} {:<9}", "", "risk"),
    };
    // Written as every share is (the drill-down's, the reports'): one format.
    let share = i.share.map_or_else(
        || fmt::NONE.to_string(),
        |s| dgscope_model::display::evidence_value(s * 100.0, "%"),
    );
    format!("{share:>7} {sym:<9}")
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, detail: Detail) {
    let app = cx.app;
    let t = cx.theme;
    let findings = &app.assessment.findings;
    let extra = if app.paused_at.is_some() {
        "(as of the paused instant)".to_string()
    } else {
        String::new()
    };
    let block = cx.block(Pane::Causes, &extra, detail, area.width);
    let mut inner = block.inner(area);
    frame.render_widget(block, area);
    // What could not be read comes first, naming the privilege: a finding (or "healthy")
    // only speaks for the views that answered.
    let problems = cx.part_problems();
    if !problems.is_empty() && inner.height > 0 {
        let lines: Vec<Line<'static>> = problems
            .iter()
            .map(|(db, part, text)| {
                Line::from(vec![
                    Span::styled(format!("{db} {part}: "), t.style(Role::Warn)),
                    Span::styled(text.clone(), t.text()),
                ])
            })
            .collect();
        let width = inner.width as usize;
        let mut lines = super::wrap::wrap(lines, width);
        let room = if findings.is_empty() {
            inner.height.saturating_sub(1)
        } else {
            inner.height / 2
        }
        .max(1) as usize;
        if lines.len() > room {
            let all = lines.len();
            lines.truncate(room.saturating_sub(1).max(1));
            if room > 1 {
                lines.push(Line::styled(
                    format!("  … {} more lines (y copies all of it)", all - lines.len()),
                    t.muted(),
                ));
            }
        }
        let n = lines.len() as u16;
        frame.render_widget(Paragraph::new(lines), Rect { height: n, ..inner });
        inner = Rect {
            y: inner.y + n,
            height: inner.height - n,
            ..inner
        };
    }
    if findings.is_empty() {
        let msg = if !app.cfg.causes_available {
            "suggested causes are not available in this build; read the panes above".to_string()
        } else if app.warming_up() {
            format!(
                "warming up ({} of data): a finding needs {} of data and {WARMUP_SAMPLES} samples; not yet judged, not healthy",
                fmt::age(app.data_span_s()),
                fmt::age(app.cfg.raise_after_s),
            )
        } else if !problems.is_empty() {
            "No cause above INFO in what could be read; the parts above are not judged".to_string()
        } else {
            healthy_line(cx)
        };
        frame.render_widget(
            Paragraph::new(msg)
                .style(t.muted())
                .wrap(ratatui::widgets::Wrap { trim: true }),
            inner,
        );
        return;
    }
    let rows_needed: usize = if detail == Detail::Full {
        findings.iter().map(|f| 1 + f.evidence.len()).sum()
    } else {
        findings.len() * 2
    };
    // Room for a line of evidence under each finding (any layout): use it.
    let two_lines = inner.height as usize >= rows_needed;
    let per = if two_lines { 2 } else { 1 };
    let visible = (inner.height as usize / per).max(1);
    let first = app.selected.saturating_sub(visible - 1);
    let mut lines = vec![];
    let marker = if cx.ascii { ">" } else { "▶" };
    for (i, f) in findings.iter().enumerate().skip(first).take(visible) {
        let selected = i == app.selected;
        let (b, bs) = badge(cx, f.severity);
        let row_style = if selected && app.focus == Pane::Causes {
            t.selection()
        } else {
            t.text()
        };
        let mut spans = vec![
            Span::styled(if selected { marker } else { " " }, row_style),
            Span::styled(" ", row_style),
            Span::styled(b, bs),
            Span::styled(" ", row_style),
            Span::styled(impact_tag(f), t.muted()),
            Span::styled(" ", row_style),
            Span::styled(f.title.clone(), row_style),
        ];
        if f.severity == Severity::Info && !two_lines {
            spans[6] = Span::styled(f.title.clone(), t.muted());
        }
        lines.push(Line::from(spans));
        if two_lines {
            // One line of evidence on the main screen, all of it when zoomed.
            let n = if detail == Detail::Full {
                usize::MAX
            } else {
                1
            };
            for e in f.evidence.iter().take(n) {
                lines.push(Line::from(vec![
                    Span::raw("        "),
                    Span::styled(evidence_text(e, app.cfg.cite), t.muted()),
                ]));
            }
        }
    }
    if findings.len() > first + visible {
        lines.pop();
        lines.push(Line::styled(
            format!("  … {} more (j/k)", findings.len() - first - visible + 1),
            t.style(Role::Muted),
        ));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// What the causes pane says when nothing was raised: healthy only when every member of the
/// overview ships and applies and none is stale; otherwise who is not, and where to look.
fn healthy_line(cx: &Ctx) -> String {
    let o = &cx.app.assessment.overview;
    let bad = super::members::unhealthy(o);
    if !bad.is_empty() {
        let key = cx.app.cfg.keymap.label(crate::app::Action::Configuration);
        let look = if key.is_empty() {
            String::new()
        } else {
            format!(" ({key}: configuration)")
        };
        return format!(
            "No cause above INFO, but not every member looks healthy: {}{look}",
            bad.join("; ")
        );
    }
    match o.standbys.len() {
        0 if o.primary.is_some() => {
            "No cause above INFO — the primary looks healthy; no standby is monitored".into()
        }
        n if n > 1 => {
            format!("No cause above INFO — the primary and all {n} standbys look healthy")
        }
        _ => "No cause above INFO — primary and standby look healthy".into(),
    }
}
