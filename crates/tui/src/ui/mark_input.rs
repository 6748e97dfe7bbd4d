//! The note box (`m`): one line of text that goes on the timeline and into the recording.

use super::{centered, overlay_block, Ctx};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, text: &str) {
    let t = cx.theme;
    let r = centered(area, 70, 5);
    let inner = overlay_block(
        frame,
        r,
        cx,
        "note for the timeline (Enter saves, Esc cancels)",
    );
    let w = inner.width.saturating_sub(3) as usize;
    let n = text.chars().count();
    // Show the end of a long note: that is where the typing happens.
    let shown: String = text.chars().skip(n.saturating_sub(w)).collect();
    let cursor = if cx.ascii { "_" } else { "▏" };
    let lines = vec![
        Line::from(vec![
            Span::styled("> ", t.muted()),
            Span::styled(shown, t.text()),
            Span::styled(cursor, t.style(super::theme::Role::BorderFocused)),
        ]),
        Line::styled(format!("at {}", cx.app.clock().clock()), t.muted()),
    ];
    frame.render_widget(Paragraph::new(lines), inner);
}
