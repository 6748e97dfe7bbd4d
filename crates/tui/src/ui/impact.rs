//! The impact view (`i`): the baseline window against the same window now, the seed 000
//! table, with the same numbers as `dgscope report impact`.

use super::theme::Role;
use super::{centered, fmt, overlay_block, Ctx};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

pub(crate) fn lines(cx: &Ctx) -> Vec<Line<'static>> {
    let app = cx.app;
    let t = cx.theme;
    let Some(rows) = app.engine().impact(app.window) else {
        let key = app.cfg.keymap.label(crate::app::Action::SetBaseline);
        return vec![
            Line::styled("No baseline yet.", t.style(Role::Title)),
            Line::styled(
                format!("Press {key} when things look normal (or before a change), then come back here."),
                t.text(),
            ),
        ];
    };
    let base_at = app
        .engine()
        .baseline()
        .map(|b| b.clock())
        .unwrap_or_default();
    let mut out = vec![
        Line::styled(
            format!(
                "baseline set {base_at}  vs  now {}   (window {})",
                app.clock().clock(),
                app.window
            ),
            t.muted(),
        ),
        Line::raw(""),
        Line::styled(
            format!(
                "{:<30}{:>6}{:>11}{:>11}{:>11}",
                "metric", "unit", "baseline", "now", "change"
            ),
            t.muted(),
        ),
    ];
    for r in rows {
        let change = r
            .change_pct
            .map_or_else(|| fmt::NONE.to_string(), fmt::pct_change);
        let worse = r.change_pct.is_some_and(|c| c.abs() >= 20.0);
        out.push(Line::from(vec![
            Span::styled(format!("{:<30}", r.metric.label()), t.text()),
            Span::styled(format!("{:>6}", r.metric.unit()), t.muted()),
            Span::styled(
                format!(
                    "{:>11}{:>11}",
                    fmt::opt_auto(r.baseline),
                    fmt::opt_auto(r.compare)
                ),
                t.text(),
            ),
            Span::styled(
                format!("{change:>11}"),
                if worse { t.style(Role::Warn) } else { t.text() },
            ),
        ]));
    }
    out
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx) {
    let l = lines(cx);
    let r = centered(area, 74, l.len() as u16 + 2);
    let inner = overlay_block(frame, r, cx, "Impact: baseline vs now (Esc closes)");
    frame.render_widget(Paragraph::new(l), inner);
}
