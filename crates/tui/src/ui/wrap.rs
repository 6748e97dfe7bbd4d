//! Wrapping styled text to a width: the drill-down, the configuration view and the standby
//! I/O pane all wrap their notes this way, so each knows its own height exactly.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Wraps styled lines to `width` columns at spaces (a word longer than the width is cut),
/// keeping every character's style, so the drill-down knows its own height exactly.
pub(crate) fn wrap(lines: Vec<Line<'static>>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        if line.width() <= width {
            out.push(line);
            continue;
        }
        let base = line.style;
        let cells: Vec<(char, Style)> = line
            .spans
            .iter()
            .flat_map(|sp| {
                let st = base.patch(sp.style);
                sp.content.chars().map(move |c| (c, st))
            })
            .collect();
        let mut rest: &[(char, Style)] = &cells;
        while !rest.is_empty() {
            if rest.len() <= width {
                out.push(runs(rest));
                break;
            }
            let cut = rest[..=width]
                .iter()
                .rposition(|(c, _)| *c == ' ')
                .filter(|&i| i > 0)
                .unwrap_or(width);
            out.push(runs(&rest[..cut]));
            rest = &rest[cut..];
            // The space the line broke at is not carried to the next row.
            if rest.first().is_some_and(|(c, _)| *c == ' ') {
                rest = &rest[1..];
            }
        }
    }
    out
}

fn runs(cells: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut cur = String::new();
    let mut style = cells.first().map(|c| c.1).unwrap_or_default();
    for (c, st) in cells {
        if *st != style && !cur.is_empty() {
            spans.push(Span::styled(std::mem::take(&mut cur), style));
        }
        style = *st;
        cur.push(*c);
    }
    if !cur.is_empty() {
        spans.push(Span::styled(cur, style));
    }
    Line::from(spans)
}
