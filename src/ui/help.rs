//! The help overlay, generated from the live keymap (rebound keys show as rebound).

use super::theme::Role;
use super::{centered, fmt, overlay_block, Ctx};
use crate::app::Action;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// (keys, what they do) for every bindable action, in the help's order.
pub fn entries(cx: &Ctx) -> Vec<(String, &'static str)> {
    let km = &cx.app.cfg.keymap;
    Action::BINDABLE
        .iter()
        .filter(|a| **a != Action::FaultMenu || !cx.app.cfg.scenarios.is_empty())
        .map(|a| {
            let keys: Vec<String> = km.keys_for(*a).iter().map(|k| k.to_string()).collect();
            (keys.join(" "), a.describe())
        })
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

pub fn render(frame: &mut Frame, area: Rect, cx: &Ctx) {
    let e = entries(cx);
    let t = cx.theme;
    let r = centered(
        area,
        area.width.saturating_sub(4).min(120),
        area.height.saturating_sub(2),
    );
    let inner = overlay_block(frame, r, cx, "keys (Esc closes)");
    let rows = (inner.height as usize).max(1);
    let cols = e.len().div_ceil(rows).max(1);
    let col_w = (inner.width as usize / cols).max(10);
    let key_w = 14.min(col_w / 3);
    for (c, chunk) in e.chunks(rows).enumerate() {
        let lines: Vec<Line> = chunk
            .iter()
            .map(|(k, d)| {
                Line::from(vec![
                    Span::styled(fmt::fit(k, key_w), t.style(Role::Title)),
                    Span::styled(
                        fmt::fit(&format!(" {d}"), col_w.saturating_sub(key_w + 1)),
                        t.text(),
                    ),
                ])
            })
            .collect();
        let x = inner.x + (c * col_w) as u16;
        if x >= inner.right() {
            break;
        }
        let w = (col_w as u16).min(inner.right() - x);
        frame.render_widget(
            Paragraph::new(lines),
            Rect::new(x, inner.y, w, inner.height),
        );
    }
}
