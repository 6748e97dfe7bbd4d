//! What `/` finds on screen: the rows of a drawn document that hold the query, marked in
//! place (reversed; the match `n`/`N` moved to in the warning colour), and the counter the
//! border shows. Shared by the drill-down and the zoomed panes, which both draw their whole
//! document off-screen and copy the rows in view.

use super::theme::Role;
use super::Ctx;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

/// The rows of `area` in `buf` holding `query` (case ignored), each with the columns (from
/// `area.x`) it spans; rows counted from `area.y`.
pub(crate) fn match_rows(buf: &Buffer, area: Rect, query: &str) -> Vec<(u16, Vec<(usize, usize)>)> {
    if query.is_empty() {
        return Vec::new();
    }
    (0..area.height)
        .filter_map(|dy| {
            // One char per cell: a wide char's trailing cell is blank, kept so columns line up.
            let row: String = (area.x..area.right())
                .map(|x| buf[(x, area.y + dy)].symbol().chars().next().unwrap_or(' '))
                .collect();
            let spans = crate::app::match_spans(&row, query);
            (!spans.is_empty()).then_some((dy, spans))
        })
        .collect()
}

/// Marks the search's matches in `area` of `buf` (a document drawn off-screen).
pub(crate) fn mark(buf: &mut Buffer, area: Rect, cx: &Ctx) {
    let Some(s) = cx.app.search.as_ref().filter(|s| !s.query.is_empty()) else {
        return;
    };
    let current = (!s.editing)
        .then(|| cx.app.search_rows.get(s.current).copied())
        .flatten();
    for (dy, spans) in match_rows(buf, area, &s.query) {
        for (a, b) in spans {
            for x in a..b {
                let cell = &mut buf[(area.x + x as u16, area.y + dy)];
                let style = if Some(dy) == current {
                    cx.theme
                        .style(Role::Warn)
                        .add_modifier(Modifier::REVERSED | Modifier::BOLD)
                } else {
                    cell.style().add_modifier(Modifier::REVERSED)
                };
                cell.set_style(style);
            }
        }
    }
}

/// The border's counter for a search made: ` /rfs 2/6 `, or ` /rfs no match `.
pub(crate) fn counter(cx: &Ctx) -> Option<String> {
    let s = cx.app.search.as_ref().filter(|s| !s.editing)?;
    let n = cx.app.search_rows.len();
    let at = if n == 0 {
        "no match".to_string()
    } else {
        format!("{}/{n}", (s.current + 1).min(n))
    };
    Some(format!(
        " /{} {at} ",
        super::fmt::fit(&s.query, 30).trim_end()
    ))
}
