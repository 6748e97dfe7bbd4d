//! A zoomed pane: drawn off-screen at the height its text needs, then scrolled as a whole
//! like a drill-down, with where you are (`12/48`) in the bottom border.

use super::{find, fmt, render_pane, Ctx, Detail};
use crate::app::Pane;
use crate::ui::theme::Role;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::{Frame, Terminal};

/// The tallest a zoomed pane is measured at (rows): no pane's text is longer (the commit
/// pane's, the longest, stays under 120: histogram bars capped at 40 rows, its bucket table
/// at 64).
const ZOOM_TALL: u16 = 160;

/// One off-screen buffer, as wide as the view and tall enough for any zoomed pane, that
/// every draw of a frame reuses: measuring a pane's height takes a few draws, and each pays
/// for the pane's widgets only (no terminal, diff or copy per draw).
pub(crate) struct OffScreen {
    term: Terminal<TestBackend>,
    w: u16,
    tall: u16,
}

thread_local! {
    /// The last frame's off-screen buffer, kept for the next at the same size: a zoomed
    /// pane redraws every second and on every key, and its buffers are the size of 160 rows
    /// of the screen (only memory is kept, never what was drawn).
    static KEPT: std::cell::RefCell<Option<OffScreen>> = const { std::cell::RefCell::new(None) };
}

impl OffScreen {
    /// `f` with an off-screen buffer for a view `w` wide and `h` high: the one the last
    /// call used when it has that size.
    pub(crate) fn with<R>(w: u16, h: u16, f: impl FnOnce(&mut OffScreen) -> R) -> R {
        let (w, tall) = (w.max(1), ZOOM_TALL.max(h).max(1));
        let mut off = KEPT
            .with(|k| k.borrow_mut().take())
            .filter(|o| (o.w, o.tall) == (w, tall))
            .unwrap_or_else(|| {
                let Ok(term) = Terminal::new(TestBackend::new(w, tall));
                OffScreen { term, w, tall }
            });
        let r = f(&mut off);
        KEPT.with(|k| *k.borrow_mut() = Some(off));
        r
    }

    /// The pane drawn `h` rows high at the buffer's top (`plain`: without charts, to measure
    /// its text). Rows below `h` hold whatever an earlier draw left: read only the top `h`.
    pub(crate) fn draw(&mut self, cx: &Ctx, pane: Pane, h: u16, plain: bool) -> &mut Buffer {
        let h = h.clamp(1, self.tall);
        let cells = usize::from(self.w) * usize::from(h);
        for c in &mut self.term.current_buffer_mut().content[..cells] {
            c.reset();
        }
        let cx = Ctx {
            app: cx.app,
            theme: cx.theme,
            ascii: cx.ascii,
            d: cx.d.clone(),
            plain,
        };
        let mut frame = self.term.get_frame();
        render_pane(
            &mut frame,
            Rect::new(0, 0, self.w, h),
            &cx,
            pane,
            Detail::Full,
        );
        self.term.current_buffer_mut()
    }

    /// The text rows inside the border of the pane drawn `h` rows high that are not blank,
    /// top to bottom, each with its row.
    fn text_rows(&mut self, cx: &Ctx, pane: Pane, h: u16) -> Vec<(u16, String)> {
        let w = self.w;
        let buf = self.draw(cx, pane, h, true);
        (1..h.saturating_sub(1))
            .map(|y| {
                let mut s = String::new();
                for x in 1..w.saturating_sub(1) {
                    s.push_str(buf[(x, y)].symbol());
                }
                (y, s.trim_end().to_string())
            })
            .filter(|(_, s)| !s.is_empty())
            .collect()
    }

    /// How tall the zoomed pane must be for none of its text to be cut: `h` when it fits in
    /// the view (charts then take the room left, as always), else the smallest height that
    /// shows every text row a very tall view would (charts are left out of the measure: they
    /// fill whatever room they get).
    pub(crate) fn height(&mut self, cx: &Ctx, pane: Pane, h: u16) -> u16 {
        let tall = self.tall;
        let all = self.text_rows(cx, pane, tall);
        let last = all.last().map_or(0, |r| r.0);
        let all: Vec<String> = all.into_iter().map(|r| r.1).collect();
        let mut fits = |hh: u16| {
            let rows = self.text_rows(cx, pane, hh);
            rows.len() == all.len() && rows.iter().zip(&all).all(|(a, b)| a.1 == *b)
        };
        // A view with fewer rows than the text is cut without drawing it.
        if all.len() as u16 <= h.saturating_sub(2) && fits(h) {
            return h;
        }
        // Showing more rows never hides one: the smallest fitting height is in (lo, hi].
        // Two guesses narrow it before any bisection. The tall draw's last text row and the
        // border usually are it (blank separators kept, charts left out), which one draw a
        // row shorter confirms; and fewer rows than the text has never show it all.
        let (mut lo, mut hi) = (h, tall);
        let spanned = last.saturating_add(2).clamp(lo + 1, hi);
        if fits(spanned) {
            hi = spanned;
            if hi - 1 == lo || !fits(hi - 1) {
                return hi;
            }
            hi -= 1;
        } else {
            lo = spanned;
        }
        let least = (all.len() as u16).saturating_add(2).clamp(lo + 1, hi);
        if least < hi {
            if fits(least) {
                return least;
            }
            lo = least;
        }
        bisect(lo, hi, fits)
    }
}

/// The smallest height in `(lo, hi]` that `fits` (which holds at `hi` and, above the
/// smallest, everywhere).
fn bisect(mut lo: u16, mut hi: u16, mut fits: impl FnMut(u16) -> bool) -> u16 {
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// The zoomed pane at `area`: as it is when its text fits, else drawn at the height its
/// text needs and the rows in view copied out, stopping at its end.
pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, pane: Pane) {
    OffScreen::with(area.width, area.height, |off| {
        render_with(off, frame, area, cx, pane)
    });
}

fn render_with(off: &mut OffScreen, frame: &mut Frame, area: Rect, cx: &Ctx, pane: Pane) {
    let full_h = off.height(cx, pane, area.height);
    let searching = cx.app.search.is_some();
    render_pane(frame, area, cx, pane, Detail::Full);
    if full_h <= area.height && !searching {
        return;
    }
    // The border and title at the real size (above), then the document's rows inside it.
    let full_h = full_h.max(area.height);
    let doc = off.draw(cx, pane, full_h, false);
    let inside = Rect::new(1, 1, area.width.saturating_sub(2), full_h.saturating_sub(2));
    find::mark(doc, inside, cx);
    let view = area.height.saturating_sub(2) as usize;
    let total = full_h.saturating_sub(2) as usize;
    let top = (cx.app.scroll as usize).min(total.saturating_sub(view));
    let shown_to = (top + view).min(total);
    let out = frame.buffer_mut();
    for (row, y) in (top..shown_to).enumerate() {
        for x in 1..area.width.saturating_sub(1) {
            out[(area.x + x, area.y + 1 + row as u16)] = doc[(x, 1 + y as u16)].clone();
        }
    }
    if let Some(label) = super::scroll_position(shown_to, total, view, cx.ascii) {
        let lw = label.chars().count() as u16;
        if area.width > lw + 2 {
            out.set_string(
                area.right() - 1 - lw,
                area.bottom() - 1,
                label,
                cx.theme.muted(),
            );
        }
    }
    if let Some(label) = find::counter(cx) {
        let room = area.width.saturating_sub(2) as usize / 2;
        let label = if label.chars().count() > room {
            fmt::fit(&label, room)
        } else {
            label
        };
        out.set_string(
            area.x + 1,
            area.bottom() - 1,
            label,
            cx.theme.style(Role::Title),
        );
    }
}
