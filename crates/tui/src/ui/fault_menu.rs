//! The fault menu (`f`, demo only): the twin's scenarios; Enter injects the selected one.

use super::{centered, overlay_block, Ctx};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::Frame;

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, selected: usize) {
    let app = cx.app;
    let t = cx.theme;
    let n = app.cfg.scenarios.len() as u16;
    let w = app
        .cfg
        .scenarios
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(10) as u16
        + 12;
    let r = centered(area, w.max(40), n + 4);
    let inner = overlay_block(frame, r, cx, "inject a fault (Enter, Esc closes)");
    let active = app.active_scenario.as_deref();
    let dot = if cx.ascii { "*" } else { "●" };
    let lines: Vec<Line> = app
        .cfg
        .scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mark = if Some(s.as_str()) == active { dot } else { " " };
            let txt = format!(" {mark} {s}");
            if i == selected {
                Line::styled(txt, t.selection())
            } else {
                Line::styled(txt, t.text())
            }
        })
        .collect();
    let first = selected.saturating_sub(inner.height.saturating_sub(1) as usize);
    frame.render_widget(Paragraph::new(lines).scroll((first as u16, 0)), inner);
}
