//! The help overlay, generated from the live keymap (rebound keys show as rebound).

use super::theme::Role;
use super::{centered, fmt, overlay_block, Ctx};
use crate::app::Action;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// (keys, what they do) for every bindable action, in the help's order.
pub(crate) fn entries(cx: &Ctx) -> Vec<(String, &'static str)> {
    let km = &cx.app.cfg.keymap;
    let mut e: Vec<(String, &'static str)> = Action::BINDABLE
        .iter()
        .filter(|a| **a != Action::FaultMenu || !cx.app.cfg.scenarios.is_empty())
        .map(|a| {
            let keys: Vec<String> = km.keys_for(*a).iter().map(|k| k.to_string()).collect();
            (keys.join(" "), a.describe())
        })
        .filter(|(k, _)| !k.is_empty())
        .collect();
    // Ctrl-Z is job control, not an action: listed unless the config binds it to one.
    if !e.iter().any(|(k, _)| k.split(' ').any(|c| c == "Ctrl-z")) {
        e.push(("Ctrl-z".into(), "suspend (fg resumes)"));
    }
    e
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx) {
    let mut e = entries(cx);
    let t = cx.theme;
    // `/`: only the keys whose name or description hold the query.
    let search = cx.app.search.as_ref().filter(|s| !s.query.is_empty());
    if let Some(s) = search {
        e.retain(|(k, d)| s.matches(k) || s.matches(d));
    }
    let title = match search {
        Some(s) if e.is_empty() => format!("keys /{}: no match (Esc clears)", s.query),
        Some(s) => format!("keys /{} (Esc clears)", s.query),
        None => "keys (Esc closes)".to_string(),
    };
    let key_w = e
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(8)
        .min(14);
    let desc_w = e.iter().map(|(_, d)| d.chars().count()).max().unwrap_or(20);
    let col_w = key_w + 1 + desc_w + 2;
    // As few columns as the height allows (the box may cover the header and footer), each
    // as wide as its longest line.
    let max_rows = (area.height.saturating_sub(3) as usize).max(1);
    let cols = e.len().div_ceil(max_rows).max(1);
    let rows = e.len().div_ceil(cols).max(1);
    let w = ((cols * col_w).max(title.chars().count() + 2) + 2) as u16;
    let r = centered(area, w, rows as u16 + 2);
    let inner = overlay_block(frame, r, cx, &title);
    let col_w = (inner.width as usize / cols).max(10);
    for (c, chunk) in e.chunks(rows.max(1)).enumerate() {
        let lines: Vec<Line> = chunk
            .iter()
            .map(|(k, d)| {
                Line::from(vec![
                    Span::styled(fmt::fit(k, key_w), t.style(Role::Title)),
                    Span::styled(
                        fmt::fit(&format!(" {d}"), col_w.saturating_sub(key_w)),
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
