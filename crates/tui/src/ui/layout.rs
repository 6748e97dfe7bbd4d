//! Where the header, panes and footer go: two columns from 120×32, stacked below, one full
//! view when zoomed. Mouse clicks use the same computation, so a click lands on what is drawn.

use super::App;
use crate::app::{Pane, Screen};
use ratatui::layout::Rect;

pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;
pub(crate) const WIDE_WIDTH: u16 = 120;
pub(crate) const WIDE_HEIGHT: u16 = 32;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Areas {
    pub header: Rect,
    pub footer: Rect,
    pub panes: Vec<(Pane, Rect)>,
    pub wide: bool,
}

fn rows(area: Rect, y: u16, h: u16) -> Rect {
    Rect::new(area.x, y, area.width, h)
}

pub(crate) fn main(area: Rect, screen: Screen) -> Areas {
    with_standbys(area, screen, 1)
}

/// The areas for a configuration with `standbys` monitored standbys: with two or more, the
/// stacked lag pane takes one more line (its per-member summary) from the causes.
pub(crate) fn with_standbys(area: Rect, screen: Screen, standbys: usize) -> Areas {
    let wide = area.width >= WIDE_WIDTH && area.height >= WIDE_HEIGHT;
    let header = rows(area, area.y, 1);
    let footer = rows(area, area.bottom() - 1, 1);
    let body = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(2),
    );
    if screen != Screen::Main {
        return Areas {
            header,
            footer,
            panes: vec![(Pane::Commit, body)],
            wide,
        };
    }
    let panes = if wide {
        two_columns(body)
    } else {
        stacked(body, standbys > 1)
    };
    Areas {
        header,
        footer,
        panes,
        wide,
    }
}

fn two_columns(body: Rect) -> Vec<(Pane, Rect)> {
    let causes_h = (body.height * 22 / 100).clamp(6, 14);
    let top_h = body.height - causes_h;
    let left_w = body.width / 2;
    let right_w = body.width - left_w;
    let thr_h = 8.min(top_h / 2);
    let io_h = 9.min(top_h / 2);
    let (x, y) = (body.x, body.y);
    vec![
        (Pane::Commit, Rect::new(x, y, left_w, top_h - thr_h)),
        (
            Pane::Throughput,
            Rect::new(x, y + top_h - thr_h, left_w, thr_h),
        ),
        (Pane::Lag, Rect::new(x + left_w, y, right_w, top_h - io_h)),
        (
            Pane::StandbyIo,
            Rect::new(x + left_w, y + top_h - io_h, right_w, io_h),
        ),
        (Pane::Causes, Rect::new(x, y + top_h, body.width, causes_h)),
    ]
}

/// Stacked panes with a title line each and no side borders; shorter terminals get fewer
/// lines per pane, the causes keep what is left. `several` standbys: the lag pane has one
/// more line, the one-line summary of every member's lag.
fn stacked(body: Rect, several: bool) -> Vec<(Pane, Rect)> {
    let mut heights: [u16; 4] = if body.height >= 22 {
        // A taller terminal uses its height: the commit path gets room for its latency
        // chart first, then the lag pane for its chart, the causes what is left.
        let extra = body.height - 22;
        let commit = if extra >= 6 { extra.min(10) } else { 0 };
        let lag = if extra - commit >= 6 {
            (extra - commit).min(8)
        } else {
            0
        };
        [6 + commit, 3, 4 + lag, 3]
    } else if body.height >= 18 {
        [5, 3, 3, 3]
    } else {
        [4, 2, 3, 2]
    };
    if several && body.height >= 18 {
        // From the causes (the commit pane's chart would vanish a row shorter).
        heights[2] += 1;
    }
    let mut y = body.y;
    let mut out = Vec::with_capacity(5);
    for (pane, h) in [Pane::Commit, Pane::Throughput, Pane::Lag, Pane::StandbyIo]
        .into_iter()
        .zip(heights)
    {
        let h = h.min(body.bottom().saturating_sub(y));
        out.push((pane, Rect::new(body.x, y, body.width, h)));
        y += h;
    }
    out.push((
        Pane::Causes,
        Rect::new(body.x, y, body.width, body.bottom().saturating_sub(y)),
    ));
    out
}

/// The pane under a mouse click on the main screen.
pub fn pane_at(area: Rect, app: &App, col: u16, row: u16) -> Option<Pane> {
    if app.screen != Screen::Main || area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    with_standbys(area, app.screen, app.engine().standby_slots().len())
        .panes
        .into_iter()
        .find(|(_, r)| r.contains(ratatui::layout::Position::new(col, row)))
        .map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_layout_tiles_the_body_without_overlap() {
        for (w, h) in [(120, 32), (160, 48), (200, 60)] {
            let a = main(Rect::new(0, 0, w, h), Screen::Main);
            assert!(a.wide);
            let cells: u32 = a.panes.iter().map(|(_, r)| r.area()).sum();
            assert_eq!(cells, w as u32 * (h as u32 - 2), "{w}x{h}");
            for (i, (_, r)) in a.panes.iter().enumerate() {
                for (_, s) in &a.panes[i + 1..] {
                    assert!(!r.intersects(*s), "{r:?} {s:?}");
                }
            }
        }
    }

    #[test]
    fn stacked_layout_fits_down_to_the_minimum() {
        for (w, h, n) in [
            (80, 24, 1),
            (60, 16, 1),
            (100, 30, 1),
            (119, 40, 1),
            (119, 31, 1),
            (80, 24, 2),
            (60, 16, 3),
            (60, 20, 2),
            (100, 30, 2),
        ] {
            let a = with_standbys(Rect::new(0, 0, w, h), Screen::Main, n);
            assert!(!a.wide);
            let last = a.panes.last().unwrap().1;
            assert!(last.bottom() < h, "{w}x{h}: {last:?}");
            assert!(last.height >= 2, "{w}x{h}: causes keep room");
            // Several standbys: one row goes to the per-member lag line.
            let keep = if n > 1 { 5 } else { 6 };
            assert!(last.height >= keep || h < 30, "{w}x{h}: causes keep room");
            let cells: u32 = a.panes.iter().map(|(_, r)| r.area()).sum();
            assert_eq!(
                cells,
                w as u32 * (h as u32 - 2),
                "{w}x{h}: the whole height"
            );
        }
    }
}
