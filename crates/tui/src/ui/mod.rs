//! The screen: `draw(frame, &App)` is a pure function of the app's state. Layout and one file
//! per pane and overlay; the theme decides every colour.

pub(crate) mod board;
pub(crate) mod causes;
pub(crate) mod chart;
pub(crate) mod commit;
pub(crate) mod drill;
pub(crate) mod fault_menu;
pub(crate) mod find;
/// Quantities are written one way everywhere: the screen uses the shared formatters.
pub use dgscope_model::display as fmt;
pub(crate) mod header;
pub(crate) mod help;
pub(crate) mod impact;
pub(crate) mod lag;
pub(crate) mod layout;
pub(crate) mod mark_input;
pub(crate) mod members;
pub(crate) mod standby_io;
pub mod theme;
pub(crate) mod throughput;
pub(crate) mod topology;
pub(crate) mod waits;
pub(crate) mod wrap;
pub(crate) mod zoom;

use crate::app::{Overlay, Pane, Screen};
use dgscope_core::metrics::WindowDeltas;
use dgscope_model::sample::Slot;
use dgscope_model::source::ConnState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::border;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;
use theme::{Role, Theme};

pub use board::{draw as board_draw, text as board_text, Board};
pub use causes::evidence_text;
pub use layout::{pane_at, MIN_HEIGHT, MIN_WIDTH};
pub use members::name as member_name;

/// The app as the screen draws it: its themes are the screen's [`Theme`]s.
pub type App = crate::app::App<Theme>;

/// How much a pane shows: stacked narrow layout, the two-column layout, or zoomed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    Compact,
    Normal,
    Full,
}

/// What every pane needs, computed once per frame.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub theme: &'a Theme,
    pub ascii: bool,
    pub d: std::sync::Arc<WindowDeltas>,
    /// Drawing for `y` (text to paste): charts are left out.
    pub plain: bool,
}

impl<'a> Ctx<'a> {
    pub fn new(app: &'a App) -> Self {
        Ctx {
            app,
            theme: app.theme(),
            ascii: app.cfg.ascii,
            d: app.deltas(),
            plain: false,
        }
    }

    /// The pane's frame: number and title in the top border (cut with `…` to the pane's
    /// `width`), focus in the border's style.
    pub fn block(&self, pane: Pane, extra: &str, detail: Detail, width: u16) -> Block<'static> {
        let focused = self.app.focus == pane;
        let t = self.theme;
        let mut title = vec![
            Span::styled(format!("{} ", pane.number()), t.border(focused)),
            Span::styled(format!("{} ", pane.title()), t.style(Role::Title)),
        ];
        if !extra.is_empty() {
            title.push(Span::styled(format!("{extra} "), t.muted()));
        }
        let (borders, room) = if detail == Detail::Compact {
            (Borders::TOP, width)
        } else {
            (Borders::ALL, width.saturating_sub(2))
        };
        Block::default()
            .borders(borders)
            .border_set(self.border_set())
            .border_style(t.border(focused))
            .title(fit_title(title, room))
    }

    /// The frame of a full-screen view (configuration, waiting now): focused, `title` in
    /// the top border, cut with `…` to the view's `width`.
    pub fn view_block(&self, title: String, width: u16) -> Block<'static> {
        Block::default()
            .borders(Borders::ALL)
            .border_set(self.border_set())
            .border_style(self.theme.border(true))
            .title(fit_title(
                vec![Span::styled(
                    format!("{title} "),
                    self.theme.style(Role::Title),
                )],
                width.saturating_sub(2),
            ))
    }

    pub fn border_set(&self) -> border::Set<'static> {
        if self.ascii {
            ASCII_BORDER
        } else {
            border::PLAIN
        }
    }

    /// The database name of a slot (`prod_b`), or the slot itself before the first sample.
    pub fn slot_name(&self, slot: Option<&Slot>) -> String {
        let Some(slot) = slot else {
            return "none".into();
        };
        self.app
            .engine()
            .slot(slot)
            .and_then(|s| s.last_good())
            .and_then(|s| s.db.as_ref())
            .and_then(|d| d.name.as_deref().map(String::from))
            .unwrap_or_else(|| slot.to_string())
    }

    /// The stale rule for a slot at the instant shown: `None` when its figures describe that
    /// instant, otherwise the age of the last good ones (`Some(None)`: none ever read). Live
    /// it is [`dgscope_core::metrics::Engine::freshness`] aged on the source's clock; paused, the
    /// point under the cursor decides.
    pub fn staleness(&self, slot: Option<&Slot>) -> Option<Option<f64>> {
        let app = self.app;
        let series = app.engine().slot(slot?)?;
        if let Some(at) = app.paused_at {
            let p = series.points().iter().rev().find(|p| p.t <= at)?;
            if !p.failed {
                return None;
            }
            let good = series
                .points()
                .iter()
                .rev()
                .find(|q| q.t <= at && !q.failed);
            return Some(good.map(|g| at.secs_since(g.t)));
        }
        match app.engine().freshness(slot?) {
            dgscope_core::metrics::Freshness::Stale { last_good, .. } => {
                Some(last_good.map(|t| app.data_now().secs_since(t)))
            }
            _ => {
                // Live, a database that stops answering sends nothing at all: the wall
                // clock ages its last sample.
                let last = series.last_good()?;
                let age = app.data_now().secs_since(last.t);
                let limit = (app.cfg.interval.as_secs_f64() * 3.0).max(5.0);
                (age > limit).then_some(Some(age))
            }
        }
    }

    /// "STALE: last good data 2m00s old", "reconnecting in 7 s (attempt 3)", "connecting ⠹":
    /// what the panes of a slot say about its data, and whether the values should be dimmed.
    pub fn slot_state(&self, slot: Option<&Slot>) -> (String, bool) {
        let app = self.app;
        let Some(slot) = slot else {
            return (String::new(), false);
        };
        let series = app.engine().slot(slot);
        let has_data = series.and_then(|s| s.last_good()).is_some();
        let stale = self.staleness(Some(slot));
        let age_txt = |age: Option<f64>| match age {
            Some(a) => format!("STALE, data {} old", fmt::age(a)),
            None => "STALE, no good sample yet".to_string(),
        };
        match app.conn.get(slot) {
            Some(ConnState::Connecting) if !has_data => {
                return (format!("connecting {}", self.spinner()), true)
            }
            Some(ConnState::Reconnecting {
                next_try, attempt, ..
            }) if app.paused_at.is_none() => {
                let wait = (next_try.secs_since(app.now)).max(0.0);
                let age = series
                    .and_then(|s| s.last_good())
                    .map(|s| {
                        format!(
                            "STALE, data {} old, ",
                            fmt::age(app.data_now().secs_since(s.t))
                        )
                    })
                    .unwrap_or_default();
                return (
                    format!(
                        "{age}reconnecting in {} (attempt {attempt})",
                        fmt::age(wait)
                    ),
                    true,
                );
            }
            _ => {}
        }
        match stale {
            Some(age) => (age_txt(age), true),
            None => (String::new(), false),
        }
    }

    fn spinner(&self) -> char {
        const BRAILLE: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        const ASCII: [char; 4] = ['|', '/', '-', '\\'];
        let tick = (self.app.now.ms / 100).unsigned_abs() as usize;
        if self.ascii {
            ASCII[tick % ASCII.len()]
        } else {
            BRAILLE[tick % BRAILLE.len()]
        }
    }

    /// Parts of the newest good samples that came back denied or filtered, by database:
    /// `("prod_a", "iostat", "missing privilege: V$IOSTAT_FILE shows only CDB$ROOT's …")`.
    /// The source names the privilege and the GRANT that gives it; the screen says it.
    pub fn part_problems(&self) -> Vec<(String, String, String)> {
        let e = self.app.engine();
        let mut out = Vec::new();
        for (slot, series) in e.slots() {
            let Some(s) = series.last_good() else {
                continue;
            };
            for pe in &s.errors {
                // A grant that is missing, or rows a privilege filters out (CDB), as opposed
                // to a view this release does not have.
                let privilege = matches!(
                    pe.code.as_str(),
                    "ORA-00942" | "ORA-01031" | "ORA-01039" | "CONTAINER_DATA"
                ) || pe.message.contains("GRANT");
                let what = if privilege {
                    "missing privilege"
                } else {
                    "not read"
                };
                let text = if pe.message.contains(pe.code.as_str()) {
                    format!("{what}: {}", pe.message)
                } else {
                    format!("{what} ({}): {}", pe.code, pe.message)
                };
                out.push((self.slot_name(Some(slot)), pe.part.clone(), text));
            }
        }
        out
    }

    /// Histogram bars scaled by log(count) instead of share (`l`).
    pub fn log_scale(&self) -> bool {
        self.app.log_scale
    }

    /// The text style, dimmed for stale data.
    pub fn value_style(&self, stale: bool) -> Style {
        if stale {
            self.theme.muted()
        } else {
            self.theme.text()
        }
    }
}

/// Box drawing with `+ - |` for legacy fonts (`--ascii`).
pub const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    draw_in(frame, area, app, app.screen, app.overlay.as_ref());
}

/// Draws `screen` (and an overlay) into `area`: `draw` uses the app's own; copying a pane as
/// text draws a zoomed view off-screen.
pub fn draw_in(
    frame: &mut Frame,
    area: Rect,
    app: &App,
    screen: Screen,
    overlay: Option<&Overlay>,
) {
    let cx = Ctx::new(app);
    frame.render_widget(Block::default().style(cx.theme.base()), area);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, &cx);
        return;
    }
    let l = layout::with_standbys(area, screen, app.engine().standby_slots().len());
    header::render(frame, l.header, &cx, l.wide);
    match screen {
        Screen::Main => {
            let detail = if l.wide {
                Detail::Normal
            } else {
                Detail::Compact
            };
            for (pane, r) in &l.panes {
                render_pane(frame, *r, &cx, *pane, detail);
            }
        }
        Screen::Zoom(p) => {
            if let Some((_, r)) = l.panes.first() {
                zoom::render(frame, *r, &cx, p);
            }
        }
        Screen::Cause(i) => {
            if let Some((_, r)) = l.panes.first() {
                drill::render(frame, *r, &cx, i);
            }
        }
        Screen::Members => {
            if let Some((_, r)) = l.panes.first() {
                members::render(frame, *r, &cx);
            }
        }
        Screen::Waits => {
            if let Some((_, r)) = l.panes.first() {
                waits::render(frame, *r, &cx);
            }
        }
    }
    footer(frame, l.footer, &cx, screen);
    match overlay {
        Some(Overlay::Help) => help::render(frame, area, &cx),
        Some(Overlay::Impact) => impact::render(frame, area, &cx),
        Some(Overlay::FaultMenu { selected }) => fault_menu::render(frame, area, &cx, *selected),
        Some(Overlay::MarkInput { text }) => mark_input::render(frame, area, &cx, text),
        None => {}
    }
}

pub fn render_pane(frame: &mut Frame, area: Rect, cx: &Ctx, pane: Pane, detail: Detail) {
    match pane {
        Pane::Commit => commit::render(frame, area, cx, detail),
        Pane::Throughput => throughput::render(frame, area, cx, detail),
        Pane::Lag => lag::render(frame, area, cx, detail),
        Pane::StandbyIo => standby_io::render(frame, area, cx, detail),
        Pane::Causes => causes::render(frame, area, cx, detail),
    }
}

fn too_small(frame: &mut Frame, area: Rect, cx: &Ctx) {
    let msg = format!(
        "terminal too small (need {MIN_WIDTH}×{MIN_HEIGHT}, have {}×{})",
        area.width, area.height
    );
    let msg = if cx.ascii {
        msg.replace('×', "x")
    } else {
        msg
    };
    let y = area.y + area.height / 2;
    let r = Rect::new(
        area.x,
        y.min(area.bottom().saturating_sub(1)),
        area.width,
        1,
    );
    frame.render_widget(
        Paragraph::new(msg)
            .style(cx.theme.text())
            .wrap(ratatui::widgets::Wrap { trim: true }),
        Rect::new(r.x, r.y, r.width, (area.bottom() - r.y).max(1)),
    );
}

/// Key hints from the live keymap, and the last action's status on the right.
fn footer(frame: &mut Frame, area: Rect, cx: &Ctx, screen: Screen) {
    use crate::app::Action as A;
    let km = &cx.app.cfg.keymap;
    let hints: Vec<(A, &str)> = match screen {
        Screen::Main if cx.app.paused_at.is_some() => vec![
            (A::TogglePause, "resume"),
            (A::ScrubBack, "back"),
            (A::ScrubForward, "fwd"),
            (A::Live, "live"),
            (A::Help, "help"),
            (A::Quit, "quit"),
        ],
        Screen::Main => vec![
            (A::Help, "help"),
            (A::Quit, "quit"),
            (A::FocusNext, "focus"),
            (A::Enter, "drill"),
            (A::SetBaseline, "baseline"),
            (A::CycleWindow, "window"),
            (A::TogglePause, "pause"),
            (A::Impact, "impact"),
            (A::Configuration, "config"),
            (A::ToggleRecording, "record"),
            (A::Copy, "copy"),
        ],
        Screen::Members | Screen::Waits => vec![
            (A::Back, "back"),
            (A::Down, "scroll"),
            (A::Copy, "copy"),
            (A::Help, "help"),
            (A::Quit, "quit"),
        ],
        Screen::Zoom(_) | Screen::Cause(_) => vec![
            (A::Back, "back"),
            (A::Down, "scroll"),
            (A::Copy, "copy"),
            (A::Help, "help"),
            (A::Quit, "quit"),
        ],
    };
    let t = cx.theme;
    let mut spans = vec![Span::raw(" ")];
    let mut used = 1usize;
    // Whole hints only: a cut-off "r" helps nobody.
    let room = area.width as usize
        - cx.app
            .status
            .as_ref()
            .map_or(0, |s| (s.chars().count() + 2).min(area.width as usize / 2));
    for (a, what) in hints {
        let k = km.label(a);
        if k.is_empty() {
            continue;
        }
        let k = if k == "Enter" && !cx.ascii {
            "⏎".to_string()
        } else {
            k
        };
        let len = k.chars().count() + what.chars().count() + 3;
        if used + len > room {
            break;
        }
        used += len;
        spans.push(Span::styled(k, t.style(Role::Title)));
        spans.push(Span::styled(format!(" {what}  "), t.muted()));
    }
    // Typing a search: the footer is its input line, as in less.
    if let Some(s) = cx.app.search.as_ref().filter(|s| s.editing) {
        let cursor = if cx.ascii { "_" } else { "▏" };
        let hint = " Enter find · Esc cancel";
        let room = (area.width as usize).saturating_sub(hint.chars().count() + 3);
        let n = s.query.chars().count();
        let shown: String = s.query.chars().skip(n.saturating_sub(room)).collect();
        spans = vec![
            Span::styled(format!(" /{shown}"), t.text()),
            Span::styled(cursor, t.style(Role::BorderFocused)),
            Span::styled(hint, t.muted()),
        ];
    }
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(Line::from(spans)).style(t.base()), area);
    if let Some(status) = &cx.app.status {
        let w = (status.chars().count() as u16 + 2).min(area.width / 2);
        let r = Rect::new(area.right() - w, area.y, w, 1);
        frame.render_widget(Clear, r);
        frame.render_widget(
            Paragraph::new(fmt::fit(status, w as usize - 1)).style(t.style(Role::Warn)),
            r,
        );
    }
}

/// A centred box of at most `w`×`h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A border's title cut to `room` columns with `…` as its last: ratatui cuts a title that
/// does not fit without a sign, and a cut name or figure then reads as whole.
pub fn fit_title(spans: Vec<Span<'static>>, room: u16) -> Line<'static> {
    let room = room as usize;
    let width = |s: &Span| s.content.chars().count();
    if spans.iter().map(width).sum::<usize>() <= room {
        return Line::from(spans);
    }
    let mut left = room.saturating_sub(1);
    let mut out = Vec::new();
    for s in spans {
        if left == 0 {
            break;
        }
        let n = width(&s);
        if n <= left {
            left -= n;
            out.push(s);
        } else {
            let cut: String = s.content.chars().take(left).collect();
            out.push(Span::styled(cut, s.style));
            left = 0;
        }
    }
    if room > 0 {
        let style = out.last().map(|s| s.style).unwrap_or_default();
        out.push(Span::styled("…", style));
    }
    Line::from(out)
}

/// A bordered overlay box, cleared underneath.
pub fn overlay_block(frame: &mut Frame, r: Rect, cx: &Ctx, title: &str) -> Rect {
    frame.render_widget(Clear, r);
    let b = Block::default()
        .borders(Borders::ALL)
        .border_set(cx.border_set())
        .border_style(cx.theme.border(true))
        .style(cx.theme.base())
        .title(fit_title(
            vec![Span::styled(
                format!(" {title} "),
                cx.theme.style(Role::Title),
            )],
            r.width.saturating_sub(2),
        ));
    let inner = b.inner(r);
    frame.render_widget(b, r);
    inner
}

/// The text of a buffer, one line per row, trailing spaces trimmed (copy, Q, snapshots).
pub fn buffer_text(buf: &Buffer) -> String {
    let a = buf.area;
    let mut out = String::new();
    for y in a.y..a.bottom() {
        let mut line = String::new();
        for x in a.x..a.right() {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Styled lines as plain text: the characters only, trailing blanks trimmed on every line
/// and blank lines at the end dropped; one `\n` after each line.
pub fn lines_text(lines: &[Line]) -> String {
    let mut rows: Vec<String> = lines
        .iter()
        .map(|l| {
            let s: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            s.trim_end().to_string()
        })
        .collect();
    while rows.last().is_some_and(|r| r.is_empty()) {
        rows.pop();
    }
    let mut out = rows.join("\n");
    out.push('\n');
    out
}

/// A pane as plain text for `y`: everything its zoomed view has, drawn wide enough that no
/// line is cut, without borders, padding or charts; its title first.
pub fn pane_text(app: &App, pane: Pane) -> String {
    use ratatui::backend::TestBackend;
    let (w, h) = (220u16, 600u16);
    let Ok(mut term) = ratatui::Terminal::new(TestBackend::new(w, h));
    let _ = term.draw(|f| {
        let mut cx = Ctx::new(app);
        cx.plain = true;
        render_pane(f, Rect::new(0, 0, w, h), &cx, pane, Detail::Full);
    });
    let buf = term.backend().buffer();
    let row = |y: u16, x0: u16, x1: u16| -> String {
        let mut s = String::new();
        for x in x0..x1 {
            s.push_str(buf[(x, y)].symbol());
        }
        s.trim_end().to_string()
    };
    let edge = |c: char| matches!(c, '┌' | '─' | '┐' | '+' | '-' | ' ');
    let title = row(0, 0, w);
    let mut lines = vec![title.trim_matches(edge).to_string()];
    let mut blank = false;
    for y in 1..h - 1 {
        let l = row(y, 1, w - 1);
        if l.is_empty() {
            // One blank line between parts, however many rows a left-out chart took.
            if !blank {
                lines.push(l);
            }
            blank = true;
        } else {
            lines.push(l);
            blank = false;
        }
    }
    let lines: Vec<Line> = lines.into_iter().map(Line::raw).collect();
    lines_text(&lines)
}

/// The rows of the drill-down at `area` holding the search's query (empty elsewhere): the
/// event loop hands them to the app, where `n` and `N` move the view to them.
pub fn search_rows(area: Rect, app: &App) -> Vec<u16> {
    let Some(s) = app.search.as_ref() else {
        return Vec::new();
    };
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return Vec::new();
    }
    let cx = Ctx::new(app);
    let l = layout::main(area, app.screen);
    let Some((_, r)) = l.panes.first() else {
        return Vec::new();
    };
    match app.screen {
        Screen::Cause(i) => drill::search_rows(&cx, *r, i),
        Screen::Zoom(p) => zoom::OffScreen::with(r.width, r.height, |off| {
            let full_h = off.height(&cx, p, r.height).max(r.height);
            let doc = off.draw(&cx, p, full_h, false);
            let inside = Rect::new(1, 1, r.width.saturating_sub(2), full_h.saturating_sub(2));
            find::match_rows(doc, inside, &s.query)
                .into_iter()
                .map(|(y, _)| y)
                .collect()
        }),
        _ => Vec::new(),
    }
}

/// How far the screen's scrollable view (drill-down, zoomed pane) can scroll at `area`:
/// the event loop clamps the scroll offset with it, so scrolling stops at the end.
pub fn scroll_max(area: Rect, app: &App) -> u16 {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return 0;
    }
    let cx = Ctx::new(app);
    let l = layout::main(area, app.screen);
    let Some((_, r)) = l.panes.first() else {
        return 0;
    };
    match app.screen {
        Screen::Cause(i) => drill::scroll_max(&cx, *r, i),
        Screen::Members => members::scroll_max(&cx, *r),
        Screen::Waits => waits::scroll_max(&cx, *r),
        Screen::Zoom(p) => {
            let h = zoom::OffScreen::with(r.width, r.height, |off| off.height(&cx, p, r.height));
            h.saturating_sub(r.height)
        }
        Screen::Main => 0,
    }
}

/// Where a scrolled view is, for its bottom border: the last row shown of all rows and
/// whether more follows (" 12/48 ↓ ", " 48/48 end "); `None` when everything fits.
pub(crate) fn scroll_position(
    shown_to: usize,
    total: usize,
    view: usize,
    ascii: bool,
) -> Option<String> {
    let more = match (shown_to < total, ascii) {
        (true, true) => " v",
        (true, false) => " ↓",
        (false, _) => " end",
    };
    (total > view).then(|| format!(" {shown_to}/{total}{more} "))
}

/// Lag thresholds for colour: MAA wants transport lag under 10 s; five minutes is an incident.
pub(crate) fn lag_style(cx: &Ctx, v: Option<f64>, base: Style) -> Style {
    match v {
        Some(v) if v >= 300.0 => cx.theme.style(Role::Crit),
        Some(v) if v >= 10.0 => cx.theme.style(Role::Warn),
        _ => base,
    }
}

/// Severity badge text and style.
pub fn badge(cx: &Ctx, sev: dgscope_core::causes::Severity) -> (String, Style) {
    use dgscope_core::causes::Severity;
    let role = match sev {
        Severity::Crit => Role::Crit,
        Severity::Warn => Role::Warn,
        Severity::Info => Role::Ok,
    };
    let style = cx.theme.style(role);
    (format!("{:<4}", sev.as_str()), style)
}

#[cfg(test)]
mod tests {
    use super::fit_title;
    use ratatui::style::Style;
    use ratatui::text::Span;

    fn text(l: &ratatui::text::Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_title_that_fits_is_left_whole_and_a_cut_one_ends_in_an_ellipsis() {
        let spans = || {
            vec![
                Span::styled("3 ", Style::new().blue()),
                Span::styled("causes ", Style::new().bold()),
                Span::styled("(far sync prod_f) ", Style::new().dim()),
            ]
        };
        assert_eq!(text(&fit_title(spans(), 27)), "3 causes (far sync prod_f) ");
        let cut = fit_title(spans(), 20);
        assert_eq!(text(&cut), "3 causes (far sync …");
        assert_eq!(text(&cut).chars().count(), 20);
        // The ellipsis takes the style of the text it ends.
        assert_eq!(cut.spans.last().unwrap().style, Style::new().dim());
        assert_eq!(text(&fit_title(spans(), 1)), "…");
        assert_eq!(text(&fit_title(spans(), 0)), "");
    }
}
