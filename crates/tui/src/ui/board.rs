//! The fleet board: one line per pair, worst first, read from each pair's [`Row`]. It draws
//! what the rows hold and nothing else, so a frame over 200 pairs costs formatting, not
//! judging (the rows are re-read only when their pair's samples arrive).

use super::fmt;
use super::theme::{Role, Theme};
use crate::app::{Fleet, Row};
use dgscope_core::causes::{Severity, Status};
use dgscope_model::timestamp::Timestamp;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

/// The board as the screen draws it.
pub type Board = Fleet<Theme>;

/// From this width on, the board shows every column.
const WIDE: u16 = 120;

/// A column: heading, width (0: takes what is left) and right alignment.
struct Col {
    head: &'static str,
    w: usize,
    right: bool,
}

const fn col(head: &'static str, w: usize, right: bool) -> Col {
    Col { head, w, right }
}

fn columns(wide: bool) -> Vec<Col> {
    if wide {
        vec![
            col("STATUS", 7, false),
            col("PAIR", 16, false),
            col("PRIMARY → STANDBYS", 24, false),
            col("TOP FINDING", 0, false),
            col("EXPLAINS", 17, true),
            col("DB TIME", 7, true),
            col("COMMIT ms", 9, true),
            col("TRANSPORT", 9, true),
            col("APPLY", 9, true),
            col("AGE", 6, true),
            col("LAG (worst)", crate::app::SPARK_POINTS - 8, false),
        ]
    } else {
        vec![
            col("STATUS", 7, false),
            col("PAIR", 12, false),
            col("TOP FINDING", 0, false),
            col("SHARE", 7, true),
            col("COMMIT", 6, true),
            col("LAG", 7, true),
            col("AGE", 5, true),
            col("", 6, false),
        ]
    }
}

/// Widths with the flexible column given the rest of `width` (at least 8).
fn widths(cols: &[Col], width: u16) -> Vec<usize> {
    let fixed: usize = cols.iter().map(|c| c.w).sum::<usize>() + cols.len() - 1;
    let flex = (width as usize).saturating_sub(fixed).max(8);
    cols.iter()
        .map(|c| if c.w == 0 { flex } else { c.w })
        .collect()
}

/// `--ascii`: the arrows, dots and bars of the board's text in plain ASCII.
fn plain(s: String, ascii: bool) -> String {
    if ascii {
        s.replace('→', "->").replace('·', "|").replace('▏', "_")
    } else {
        s
    }
}

fn cell(s: &str, w: usize, right: bool) -> String {
    if right {
        fmt::rfit(&fmt::fit(s, w), w)
    } else {
        fmt::fit(s, w)
    }
}

fn status_style(t: &Theme, r: &Row) -> Style {
    match r.status {
        Status::Crit => t.style(Role::Crit),
        Status::Warn => t.style(Role::Warn),
        Status::Ok => t.style(Role::Ok),
        Status::Unknown if r.error.is_some() => t.style(Role::Warn),
        Status::Unknown => t.muted(),
    }
}

/// The figures of a pair that stopped answering are its last good ones: dimmed, with their
/// age in the AGE column, never shown as now.
fn stale(age: Option<f64>, interval_s: f64) -> bool {
    age.is_some_and(|a| a > (3.0 * interval_s).max(5.0))
}

/// What the top-finding column says.
fn top_text(r: &Row) -> String {
    if let Some(e) = &r.error {
        return format!("unreachable: {e}");
    }
    match &r.top {
        Some(f) => f.title.clone(),
        None if r.as_of.is_none() => "connecting".to_string(),
        None if r.warming_up => "warming up".to_string(),
        None => "no finding".to_string(),
    }
}

/// The share column: the top finding's share of its symptom, written as the causes pane
/// writes it (the narrow board keeps the number only).
fn share_text(r: &Row, wide: bool) -> String {
    match &r.top {
        Some(f) if r.error.is_none() => {
            let tag = super::causes::impact_tag(f);
            if wide {
                tag.trim_end().to_string()
            } else {
                f.impact.share.map_or_else(
                    || fmt::NONE.to_string(),
                    |s| fmt::evidence_value(s * 100.0, "%"),
                )
            }
        }
        _ => String::new(),
    }
}

/// The share of DB time the top finding explains, where DB time is read: what "worst
/// first" weighs findings of different symptoms by.
fn db_time_text(r: &Row) -> String {
    match r.top.as_ref().and_then(|f| f.impact.db_time_share) {
        Some(s) if r.error.is_none() => fmt::evidence_value(s * 100.0, "%"),
        _ => String::new(),
    }
}

/// One pair's line.
fn row_line(b: &Board, i: usize, wide: bool, ws: &[usize], t: &Theme) -> Line<'static> {
    let p = &b.pairs[i];
    let r = &p.row;
    let app = &p.app;
    let ascii = app.cfg.ascii;
    let age = r.as_of.map(|at| app.data_now().secs_since(at));
    let old = stale(age, app.cfg.interval.as_secs_f64());
    let value = if old { t.muted() } else { t.text() };
    let top_style = match &r.top {
        _ if r.error.is_some() => t.style(Role::Warn),
        Some(f) if f.severity == Severity::Crit => t.style(Role::Crit),
        Some(f) if f.severity == Severity::Warn => t.style(Role::Warn),
        _ => t.muted(),
    };
    let lag = |v: Option<f64>| fmt::opt_lag(v);
    let age_txt = age.map_or_else(|| fmt::NONE.to_string(), fmt::age);
    let cols = columns(wide);
    let texts: Vec<(String, Style)> = if wide {
        vec![
            (r.status.to_string(), status_style(t, r)),
            (p.name.clone(), t.text()),
            (plain(r.members.clone(), ascii), value),
            (top_text(r), top_style),
            (share_text(r, true), value),
            (db_time_text(r), value),
            (fmt::opt_ms(r.commit_ms), value),
            (lag(r.transport_lag_s), value),
            (lag(r.apply_lag_s), value),
            (age_txt, if old { t.style(Role::Warn) } else { t.muted() }),
            (
                fmt::sparkline(&r.spark, ws[10], ascii),
                t.style(Role::SeriesTransport),
            ),
        ]
    } else {
        vec![
            (r.status.to_string(), status_style(t, r)),
            (p.name.clone(), t.text()),
            (top_text(r), top_style),
            (share_text(r, false), value),
            (fmt::opt_ms(r.commit_ms), value),
            (lag(r.worst_lag_s()), value),
            (age_txt, if old { t.style(Role::Warn) } else { t.muted() }),
            (
                fmt::sparkline(&r.spark, ws[7], ascii),
                t.style(Role::SeriesTransport),
            ),
        ]
    };
    let mut spans = Vec::with_capacity(texts.len() * 2);
    for (k, ((s, style), c)) in texts.into_iter().zip(&cols).enumerate() {
        if k > 0 {
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled(cell(&s, ws[k], c.right), style));
    }
    Line::from(spans)
}

fn header_line(b: &Board, now: Timestamp, width: u16) -> String {
    let [crit, warn, unknown, ok] = b.counts();
    let mut s = if width >= WIDE {
        format!(
            " dgscope fleet · {} · {} pairs: {crit} CRIT, {warn} WARN, {unknown} UNKNOWN, {ok} OK · sorted {}",
            b.label,
            b.pairs.len(),
            b.sort.label()
        )
    } else {
        format!(
            " dgscope fleet · {} pairs: {crit} CRIT {warn} WARN {unknown} UNKN {ok} OK · {}",
            b.pairs.len(),
            b.sort.label()
        )
    };
    if !b.filter.is_empty() || b.filtering {
        s.push_str(&format!(
            " · filter /{} ({} shown)",
            b.filter,
            b.order.len()
        ));
    }
    let clock = format!("{} ", now.clock());
    let room = (width as usize).saturating_sub(clock.chars().count() + 1);
    let s = fmt::fit(&s, room);
    format!("{s} {clock}")
}

fn footer_line(b: &Board, width: u16) -> String {
    if b.filtering {
        return format!(" filter: /{}▏  Enter keeps it · Esc clears it", b.filter);
    }
    let Some(app) = b.pairs.first().map(|p| &p.app) else {
        return String::new();
    };
    let k = |a| app.cfg.keymap.label(a);
    use crate::app::Action;
    if width < WIDE {
        return format!(
            " {}/{} select · {} open · {} back · / filter · s sort · {} help · {} quit",
            k(Action::Down),
            k(Action::Up),
            k(Action::Enter),
            k(Action::Back),
            k(Action::Help),
            k(Action::Quit)
        );
    }
    format!(
        " {}/{} select · {} open the pair's screen ({} back here) · / filter · s sort · {} help · {} quit",
        k(Action::Down),
        k(Action::Up),
        k(Action::Enter),
        k(Action::Back),
        k(Action::Help),
        k(Action::Quit)
    )
}

/// Rows of pairs the board shows at this height (header, headings and footer take three).
pub(crate) fn visible_rows(height: u16) -> usize {
    height.saturating_sub(3) as usize
}

/// Which pair's row is at screen line `y`, counted from the first row shown.
pub(crate) fn row_at(y: u16) -> Option<usize> {
    (y >= 2).then(|| (y - 2) as usize)
}

/// Draws the board (and its help) into `area`.
pub fn draw(frame: &mut Frame, area: Rect, b: &Board, now: Timestamp) {
    let Some(first) = b.pairs.first() else {
        return;
    };
    let t = first.app.theme();
    frame.render_widget(Block::default().style(t.base()), area);
    if area.height < 4 || area.width < 40 {
        frame.render_widget(
            Paragraph::new("terminal too small for the board").style(t.text()),
            area,
        );
        return;
    }
    let ascii = first.app.cfg.ascii;
    let wide = area.width >= WIDE;
    let cols = columns(wide);
    let ws = widths(&cols, area.width);
    let buf = frame.buffer_mut();
    let put = |buf: &mut Buffer, y: u16, line: Line| {
        let r = Rect::new(area.x, area.y + y, area.width, 1);
        ratatui::widgets::Widget::render(Paragraph::new(line), r, buf);
    };
    put(
        buf,
        0,
        Line::styled(plain(header_line(b, now, area.width), ascii), t.header()),
    );
    let heads: Vec<Span> = cols
        .iter()
        .enumerate()
        .flat_map(|(k, c)| {
            let sep = (k > 0).then(|| Span::raw(" "));
            sep.into_iter().chain([Span::styled(
                plain(cell(c.head, ws[k], c.right), ascii),
                t.style(Role::Title),
            )])
        })
        .collect();
    put(buf, 1, Line::from(heads));
    let rows = visible_rows(area.height);
    if b.order.is_empty() {
        let msg = if b.filter.is_empty() {
            " no pairs".to_string()
        } else {
            format!(
                " no pair's name holds {:?} (Esc clears the filter)",
                b.filter
            )
        };
        put(buf, 2, Line::styled(msg, t.muted()));
    }
    for (k, &i) in b.order.iter().skip(b.top).take(rows).enumerate() {
        let mut line = row_line(b, i, wide, &ws, t);
        if i == b.cursor {
            line = line.patch_style(t.selection());
        }
        put(buf, 2 + k as u16, line);
    }
    put(
        buf,
        area.height - 1,
        Line::styled(plain(footer_line(b, area.width), ascii), t.muted()),
    );
    if b.help {
        help(frame, area, t);
    }
}

/// The board's keys.
fn help(frame: &mut Frame, area: Rect, t: &Theme) {
    let lines = [
        "j/k ↑/↓   select a pair",
        "g/G       first / last pair",
        "Enter     open its triage screen",
        "Esc       (on its screen) back to the board",
        "/         filter by name (Enter keeps, Esc clears)",
        "s         sort: worst first, name, commit, lag, age",
        "q         quit",
        "",
        "Worst first: CRIT, unreachable, WARN, OK, warming up;",
        "then by the share of DB time the top finding explains",
        "(of its symptom where DB time is not read).",
    ];
    let w = (lines.iter().map(|l| l.chars().count()).max().unwrap_or(20) + 4) as u16;
    let h = lines.len() as u16 + 2;
    let r = Rect::new(
        area.x + area.width.saturating_sub(w) / 2,
        area.y + area.height.saturating_sub(h) / 2,
        w.min(area.width),
        h.min(area.height),
    );
    frame.render_widget(ratatui::widgets::Clear, r);
    let block = Block::default()
        .borders(ratatui::widgets::Borders::ALL)
        .border_style(t.border(true))
        .title(Span::styled(
            " fleet keys (any key closes) ",
            t.style(Role::Title),
        ))
        .style(t.base());
    let text: Vec<Line> = lines
        .iter()
        .map(|l| Line::styled(format!(" {l}"), t.text()))
        .collect();
    frame.render_widget(Paragraph::new(text).block(block), r);
}

/// The board as plain text (`Q` keeps the last frame; the snapshot tests read it).
pub fn text(b: &Board, width: u16, height: u16, now: Timestamp) -> String {
    let Ok(mut term) = ratatui::Terminal::new(ratatui::backend::TestBackend::new(
        width.max(1),
        height.max(1),
    ));
    let _ = term.draw(|f| {
        let area = f.area();
        draw(f, area, b, now)
    });
    super::buffer_text(term.backend().buffer())
}
