//! Pane 1, Commit path (primary): `log file sync` vs `log file parallel write` vs `SYNC Remote
//! Write` over the window; their histograms side by side; the commit's parts (the core's
//! decomposition) as one stacked bar.

use super::chart::{self, Series};
use super::theme::Role;
use super::{fmt, Ctx, Detail};
use crate::app::Pane;
use dgscope_core::causes::{CommitDecomposition, CommitPart};
use dgscope_core::metrics::{Delta, Histogram, Percentile};
use dgscope_model::sample::names::event;
use dgscope_model::units::{bound_ms, Micros};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// The three waits of the commit path, with the names a DBA reads on the screen.
/// The histogram is borrowed from the window's deltas: a pathological source's 100,000
/// buckets are not copied per frame.
pub(crate) struct Wait<'a> {
    pub label: &'static str,
    pub role: Role,
    pub avg: Option<f64>,
    pub hist: Option<&'a Histogram>,
    pub per_s: Option<f64>,
}

pub(crate) fn waits(d: Option<&Delta>) -> [Wait<'_>; 3] {
    let get = |names: &[&str]| {
        let e = d.and_then(|d| {
            names
                .iter()
                .find_map(|n| d.event(n).filter(|e| e.waits > 0))
        });
        let per_s = d.and_then(|d| names.iter().find_map(|n| d.event_per_sec(n)));
        (
            e.and_then(|e| e.avg()).map(|m| m.0),
            e.map(|e| &e.hist),
            per_s,
        )
    };
    let mk = |label, role, names: &[&str]| {
        let (avg, hist, per_s) = get(names);
        Wait {
            label,
            role,
            avg,
            hist,
            per_s,
        }
    };
    [
        mk("log file sync", Role::SeriesLfs, &[event::LOG_FILE_SYNC]),
        mk(
            "lfpw (local)",
            Role::SeriesLfpw,
            &[event::LOG_FILE_PARALLEL_WRITE],
        ),
        mk(
            "SYNC remote",
            Role::SeriesRemote,
            // 11.2's LNS wait is a SYNC remote write only with a SYNC destination.
            if d.is_some_and(|d| d.sync_dest) {
                &[event::SYNC_REMOTE_WRITE, event::LNS_WAIT_ON_SENDREQ]
            } else {
                &[event::SYNC_REMOTE_WRITE]
            },
        ),
    ]
}

/// A percentile as the table shows it: "≤8", or ">2098s" in Oracle's open-ended last
/// bucket (only a lower bound is known there).
fn pct(p: Option<Percentile>, ascii: bool) -> String {
    match p {
        Some(p) if p.is_open() => fmt::bound_above(p.ms(), ascii),
        p => fmt::bound(p.map(|p| p.ms()), ascii),
    }
}

fn table(cx: &Ctx, w: &[Wait<'_>; 3], style: Style) -> Vec<Line<'static>> {
    let t = cx.theme;
    let mut out = vec![Line::styled(
        format!(
            "{:<15}{:>8}{:>7}{:>7}{:>7}{:>10}",
            "", "avg ms", "p50", "p90", "p99", "waits/s"
        ),
        t.muted(),
    )];
    for (i, x) in w.iter().enumerate() {
        // A walk of the buckets, once per set of deltas (not per draw).
        let [p50, p90, p99] = *cx
            .app
            .derived(&cx.d, ("percentiles", [i, inst_key(cx)]), || {
                x.hist
                    .map_or([None; 3], |h| h.percentiles([0.5, 0.9, 0.99]))
            });
        out.push(Line::from(vec![
            Span::styled(format!("{:<15}", x.label), t.style(x.role)),
            Span::styled(
                format!(
                    "{:>8}{:>7}{:>7}{:>7}{:>10}",
                    fmt::opt_ms(x.avg),
                    pct(p50, cx.ascii),
                    pct(p90, cx.ascii),
                    pct(p99, cx.ascii),
                    fmt::opt(x.per_s, 0),
                ),
                style,
            ),
        ]));
    }
    out
}

/// The commit's parts over the pane's window, and for the RAC instance `n` picked: the
/// core's decomposition (`CommitDecomposition`), the one computation the causes, `check`,
/// the reports and the exporter read, computed once per set of deltas.
pub(crate) fn decomposition(cx: &Ctx) -> Option<CommitDecomposition> {
    let whole = cx.app.derived(&cx.d, ("commit-decomposition", [0, 0]), || {
        CommitDecomposition::of_window(&cx.d, cx.app.thresholds())
    });
    let whole = whole.as_ref().as_ref()?;
    whole.of_instance(cx.app.commit_inst).cloned()
}

/// How a part is drawn in the stacked bar: its role and its fill (Unicode, ASCII).
fn part_style(p: CommitPart) -> (Role, &'static str, &'static str) {
    match p {
        CommitPart::LocalWrite => (Role::SeriesLfpw, "█", "#"),
        CommitPart::RemoteNetwork | CommitPart::RemoteLeg => (Role::SeriesRemote, "▓", "="),
        CommitPart::RemoteRfs => (Role::SeriesRemote, "▒", "%"),
        CommitPart::RacBroadcast => (Role::Muted, "▒", "+"),
        CommitPart::Tail => (Role::Warn, "▚", "!"),
        CommitPart::AdaptivePolling | CommitPart::CpuScheduling | CommitPart::Unexplained => {
            (Role::SeriesLfs, "░", ".")
        }
    }
}

fn parts_lines(cx: &Ctx, width: usize, style: Style) -> Vec<Line<'static>> {
    let t = cx.theme;
    let Some(c) = decomposition(cx) else {
        return vec![Line::styled(
            "commit parts: no log file sync waits in the window",
            t.muted(),
        )];
    };
    // The parts that hold something (the local write always), in the order a commit meets
    // them; each named as the bar draws it.
    let shown: Vec<_> = c
        .components
        .iter()
        .filter(|p| p.part == CommitPart::LocalWrite || p.amount >= 0.005)
        .collect();
    let mut spans = vec![Span::styled("commit parts  ", t.muted())];
    for (i, p) in shown.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" | ", t.muted()));
        }
        let (role, fill, ascii) = part_style(p.part);
        spans.push(Span::styled(
            format!(
                "{} {} {}",
                if cx.ascii { ascii } else { fill },
                p.part.label(),
                fmt::ms(p.amount)
            ),
            t.style(role),
        ));
    }
    spans.push(Span::styled(" ms", style));
    let text = Line::from(spans);
    let bar_w = width.saturating_sub(2);
    if c.amount <= 0.0 || bar_w < 10 {
        return vec![text];
    }
    // Each part's cells, rounded so they fill the bar exactly: the rounding goes to the
    // largest part.
    let mut cells: Vec<usize> = shown
        .iter()
        .map(|p| ((p.amount / c.amount) * bar_w as f64).round() as usize)
        .collect();
    let used: usize = cells.iter().sum();
    if let Some(k) = (0..shown.len()).max_by(|a, b| shown[*a].amount.total_cmp(&shown[*b].amount)) {
        cells[k] = (cells[k] + bar_w).saturating_sub(used);
    }
    let bar = Line::from(
        shown
            .iter()
            .zip(cells)
            .map(|(p, n)| {
                let (role, fill, ascii) = part_style(p.part);
                Span::styled(
                    (if cx.ascii { ascii } else { fill }).repeat(n),
                    t.style(role),
                )
            })
            .collect::<Vec<_>>(),
    );
    vec![text, bar]
}

/// One row of merged histograms: the bucket's upper bound in ms and each histogram's count.
type Row = (f64, Vec<u64>);

/// Several histograms' buckets merged in order of their bound in ms (micro and milli views
/// agree): each step gives the next bound and each histogram's count at it. The buckets are
/// read where they are; only a histogram whose ms bounds are out of order is copied.
struct Merge<'a> {
    lists: Vec<std::borrow::Cow<'a, [(Micros, u64)]>>,
    at: Vec<usize>,
    hits: Vec<(usize, u64)>,
}

impl<'a> Merge<'a> {
    fn new(hs: &[&'a Histogram]) -> Self {
        let lists: Vec<std::borrow::Cow<'a, [(Micros, u64)]>> = hs
            .iter()
            .map(|h| {
                let b = h.buckets();
                // Bounds in ms follow the µs order except around 1 ms (1023 µs reads 1.023,
                // 1024 µs 1.0): only such a histogram is sorted, in a copy.
                if b.is_sorted_by(|x, y| bound_ms(x.0) <= bound_ms(y.0)) {
                    std::borrow::Cow::Borrowed(b)
                } else {
                    let mut v = b.to_vec();
                    v.sort_by(|x, y| bound_ms(x.0).total_cmp(&bound_ms(y.0)));
                    std::borrow::Cow::Owned(v)
                }
            })
            .collect();
        Merge {
            at: vec![0; lists.len()],
            hits: Vec::with_capacity(lists.len()),
            lists,
        }
    }

    fn next(&mut self) -> Option<(f64, &[(usize, u64)])> {
        let ms = self
            .lists
            .iter()
            .zip(&self.at)
            .filter_map(|(l, &i)| l.get(i).map(|b| bound_ms(b.0)))
            .min_by(f64::total_cmp)?;
        self.hits.clear();
        for (k, l) in self.lists.iter().enumerate() {
            while let Some(&(u, c)) = l.get(self.at[k]) {
                if (bound_ms(u) - ms).abs() >= 1e-9 {
                    break;
                }
                self.hits.push((k, c));
                self.at[k] += 1;
            }
        }
        Some((ms, &self.hits))
    }
}

/// How many distinct bounds the histograms have together.
fn bounds(hs: &[&Histogram]) -> usize {
    let mut m = Merge::new(hs);
    let mut n = 0;
    while m.next().is_some() {
        n += 1;
    }
    n
}

/// The histograms side by side in at most `n` rows, and how many distinct bounds there were.
/// Neighbouring bounds are merged into one row labelled with the upper bound of its last
/// bucket (every wait counted in it is below that bound), so what a pane draws costs its
/// height. Each histogram is in order already: two walks (count, then fill), no sort and no
/// row per bucket, so 100,000 buckets cost a walk.
fn fitted(hs: &[&Histogram], n: usize) -> (Vec<Row>, usize) {
    let n_all = bounds(hs);
    let per = n_all.div_ceil(n.max(1)).max(1);
    let mut out: Vec<Row> = Vec::with_capacity(n_all.min(n.max(1)));
    let mut m = Merge::new(hs);
    let mut i = 0usize;
    while let Some((ms, hits)) = m.next() {
        if i.is_multiple_of(per) {
            out.push((ms, vec![0; hs.len()]));
        }
        if let Some(row) = out.last_mut() {
            row.0 = ms;
            for &(k, c) in hits {
                row.1[k] += c;
            }
        }
        i += 1;
    }
    (out, n_all)
}

/// "<2" (ms), "<512µ" below a millisecond, "<2s" from a second.
fn bucket_label(ms: f64, ascii: bool) -> String {
    if ms >= 1000.0 {
        let s = ms / 1000.0;
        if s >= 10.0 {
            format!("<{:.0}s", s.ceil())
        } else {
            format!("<{:.1}s", (s * 10.0).ceil() / 10.0)
        }
    } else if ms >= 1.0 {
        format!("<{ms:.0}")
    } else {
        format!("<{:.0}{}", ms * 1000.0, if ascii { "u" } else { "µ" })
    }
}

/// `log file sync` ◀ bucket ▶ `log file parallel write`, bars from the centre.
fn mirrored(cx: &Ctx, w: &[Wait<'_>; 3], width: usize, rows: usize) -> Vec<Line<'static>> {
    let t = cx.theme;
    let (Some(lfs), Some(lfpw)) = (w[0].hist, w[1].hist) else {
        return vec![Line::styled(
            "histograms: no waits with buckets in the window",
            t.muted(),
        )];
    };
    let fit = cx
        .app
        .derived(&cx.d, ("mirrored", [rows, inst_key(cx)]), || {
            fitted(&[lfs, lfpw], rows.saturating_sub(1))
        });
    let (rows_fit, n_all) = (&fit.0, fit.1);
    let buckets: Vec<f64> = rows_fit.iter().map(|r| r.0).collect();
    let (tl, tr) = (lfs.total().max(1) as f64, lfpw.total().max(1) as f64);
    let shares: Vec<(f64, f64, u64, u64)> = rows_fit
        .iter()
        .map(|(_, c)| {
            let (cl, cr) = (c[0], c[1]);
            (cl as f64 / tl, cr as f64 / tr, cl, cr)
        })
        .collect();
    let max_share = shares
        .iter()
        .fold(0.0f64, |m, s| m.max(s.0).max(s.1))
        .max(1e-9);
    let max_count = shares
        .iter()
        .map(|s| s.2.max(s.3))
        .max()
        .unwrap_or(1)
        .max(1);
    let bar_w = width.saturating_sub(8 + 2 * 7) / 2;
    let scale = |share: f64, count: u64| -> usize {
        let f = if cx.log_scale() {
            ((1.0 + count as f64).ln() / (1.0 + max_count as f64).ln()).clamp(0.0, 1.0)
        } else {
            share / max_share
        };
        (f * bar_w as f64).round() as usize
    };
    let block = if cx.ascii { "#" } else { "█" };
    let mut out = vec![Line::from(vec![
        Span::styled(
            fmt::rfit("log file sync %", 7 + bar_w),
            t.style(Role::SeriesLfs),
        ),
        Span::styled(fmt::fit(" <ms ", 8), t.muted()),
        Span::styled(
            format!(
                "lfpw %  ({})",
                if cx.log_scale() { "log" } else { "linear" }
            ),
            t.style(Role::SeriesLfpw),
        ),
    ])];
    let shown = buckets.len().min(rows.saturating_sub(1));
    for (b, s) in buckets.iter().zip(&shares).take(shown) {
        let (l, r) = (scale(s.0, s.2), scale(s.1, s.3));
        out.push(Line::from(vec![
            Span::styled(format!("{:>6.1} ", s.0 * 100.0), t.text()),
            Span::styled(
                format!(
                    "{}{}",
                    " ".repeat(bar_w - l.min(bar_w)),
                    block.repeat(l.min(bar_w))
                ),
                t.style(Role::SeriesLfs),
            ),
            Span::styled(format!(" {:^6} ", bucket_label(*b, cx.ascii)), t.muted()),
            Span::styled(
                format!(
                    "{}{}",
                    block.repeat(r.min(bar_w)),
                    " ".repeat(bar_w - r.min(bar_w))
                ),
                t.style(Role::SeriesLfpw),
            ),
            Span::styled(format!(" {:>5.1}", s.1 * 100.0), t.text()),
        ]));
    }
    if buckets.len() < n_all {
        // The header says so instead of a row: the merged rows used the room.
        out[0].spans.push(Span::styled(
            format!("  {} merged", fmt::num(n_all as f64, 0)),
            t.muted(),
        ));
    }
    out
}

/// The most rows the zoomed bucket table draws; more buckets are merged (Oracle has about
/// 30, so only a pathological source reaches this).
const TABLE_ROWS: usize = 64;

/// Every bucket of the three waits with counts, shares and cumulative shares.
fn bucket_table(cx: &Ctx, w: &[Wait<'_>; 3]) -> Vec<Line<'static>> {
    let t = cx.theme;
    let empty = Histogram::default();
    let hs: Vec<&Histogram> = w.iter().map(|x| x.hist.unwrap_or(&empty)).collect();
    let fit = cx
        .app
        .derived(&cx.d, ("table", [TABLE_ROWS, inst_key(cx)]), || {
            fitted(&hs, TABLE_ROWS)
        });
    let (rows, n_all) = (fit.0.clone(), fit.1);
    let mut head = vec![Span::styled(format!("{:<8}", "< ms"), t.muted())];
    for x in w.iter() {
        head.push(Span::styled(
            format!(
                "  {:>11} {:>8} {:>8}",
                format!("{} count", short(x.label)),
                "share",
                "cum"
            ),
            t.style(x.role),
        ));
    }
    let mut out = vec![Line::from(head)];
    if rows.len() < n_all {
        out.push(Line::styled(
            format!("({n_all} buckets merged into {} rows)", rows.len()),
            t.muted(),
        ));
    }
    let totals: Vec<u64> = hs.iter().map(|h| h.total()).collect();
    let mut cum = vec![0u64; hs.len()];
    for (b, counts) in rows {
        let mut spans = vec![Span::styled(
            format!("{:<8}", bucket_label(b, cx.ascii)),
            t.muted(),
        )];
        for (i, x) in w.iter().enumerate() {
            cum[i] += counts[i];
            let cell = if x.hist.is_some() && totals[i] > 0 {
                let total = totals[i] as f64;
                format!(
                    "  {:>11} {:>6.1} % {:>6.1} %",
                    fmt::num(counts[i] as f64, 0),
                    counts[i] as f64 * 100.0 / total,
                    cum[i] as f64 * 100.0 / total
                )
            } else {
                format!("{:>31}", fmt::NONE)
            };
            spans.push(Span::styled(cell, t.text()));
        }
        out.push(Line::from(spans));
    }
    out
}

fn short(label: &str) -> &str {
    match label {
        "log file sync" => "lfs",
        "lfpw (local)" => "lfpw",
        _ => "remote",
    }
}

/// The least height a chart is drawn with (legend, three plot rows, axis and labels).
pub(crate) const CHART_MIN: u16 = 6;

/// Which histograms the waits hold beyond the window's deltas: the RAC instance `n` picked
/// (a key for what is derived from them).
fn inst_key(cx: &Ctx) -> usize {
    cx.app.commit_inst.map_or(0, |i| i as usize + 1)
}

/// Rows the mirrored histogram would use unmerged: its header and one per bucket.
fn hist_rows_needed(cx: &Ctx, w: &[Wait<'_>; 3]) -> usize {
    match (w[0].hist, w[1].hist) {
        (Some(a), Some(b)) => {
            1 + *cx
                .app
                .derived(&cx.d, ("bounds", [2, inst_key(cx)]), || bounds(&[a, b]))
        }
        _ => 1,
    }
}

pub(crate) fn render(frame: &mut Frame, area: Rect, cx: &Ctx, detail: Detail) {
    let app = cx.app;
    let (state, stale) = cx.slot_state(app.primary());
    // `n` picks one RAC instance (its own LGWR); the default is the cluster's sums.
    let inst = app.commit_inst.and_then(|id| {
        let host = app.primary_instances().into_iter().find(|i| i.0 == id)?.1;
        Some((id, host))
    });
    let d = match inst {
        Some((id, _)) => cx.d.primary.as_ref().and_then(|d| d.instances.get(&id)),
        None => cx.d.primary.as_ref(),
    };
    let who = match &inst {
        Some((id, h)) => format!(
            "primary, {}; chart: all",
            dgscope_model::display::instance_label(*id, h.as_deref())
        ),
        None if !app.primary_instances().is_empty() => "primary, all instances".into(),
        None => "primary".into(),
    };
    let mut extra = format!("({who}) window {}", app.window_label());
    if !state.is_empty() {
        extra.push_str(&format!("  {state}"));
    }
    let block = cx.block(Pane::Commit, &extra, detail, area.width);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let style = cx.value_style(stale);
    let w = waits(d);
    let width = inner.width as usize;
    let mut lines = table(cx, &w, style);
    match detail {
        Detail::Compact => {
            lines.extend(parts_lines(cx, width, style).into_iter().take(1));
            // Room left (a taller stacked layout): the latencies over time.
            let used = lines.len() as u16;
            if inner.height >= used + CHART_MIN {
                let r = Rect::new(inner.x, inner.y + used, inner.width, inner.height - used);
                frame.render_widget(Paragraph::new(lines), inner);
                latency_chart(frame.buffer_mut(), r, cx);
                return;
            }
        }
        Detail::Normal => {
            let wf = parts_lines(cx, width, style);
            let fixed = lines.len() + wf.len() + 2;
            let avail = (inner.height as usize).saturating_sub(fixed);
            // The chart keeps its minimum height; the histogram takes what it needs of the
            // rest (its buckets merged to fit), the chart whatever is left over.
            let need = hist_rows_needed(cx, &w);
            let chart_min = CHART_MIN as usize;
            let hist_rows = if avail > 3 + chart_min {
                need.min(avail - chart_min - 1)
            } else {
                avail
            };
            lines.push(Line::raw(""));
            lines.extend(mirrored(cx, &w, width, hist_rows));
            lines.push(Line::raw(""));
            lines.extend(wf);
            let used = lines.len() as u16 + 1;
            if inner.height >= used + CHART_MIN {
                let r = Rect::new(inner.x, inner.y + used, inner.width, inner.height - used);
                frame.render_widget(Paragraph::new(lines), inner);
                latency_chart(frame.buffer_mut(), r, cx);
                return;
            }
        }
        Detail::Full => {
            lines.push(Line::raw(""));
            lines.extend(parts_lines(cx, width.min(100), style));
            lines.push(Line::raw(""));
            lines.extend(mirrored(cx, &w, width.min(100), 40));
            lines.push(Line::raw(""));
            lines.extend(bucket_table(cx, &w));
            lines.push(Line::raw(""));
            let used = lines.len() as u16;
            let chart_h = inner.height.saturating_sub(used).min(16);
            if chart_h >= 5 {
                let text_area = Rect::new(inner.x, inner.y, inner.width, used);
                frame.render_widget(Paragraph::new(lines), text_area);
                let r = Rect::new(inner.x, inner.y + used, inner.width, chart_h);
                latency_chart(frame.buffer_mut(), r, cx);
                return;
            }
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Averages of the three waits per sample over the history, up to the instant shown.
pub(crate) fn latency_chart(buf: &mut ratatui::buffer::Buffer, area: Rect, cx: &Ctx) {
    let app = cx.app;
    let Some(series) = app.primary().and_then(|s| app.engine().slot(s)) else {
        return;
    };
    let end = app.paused_at.or(series.points().last().map(|p| p.t));
    let Some(end) = end else { return };
    let pts: Vec<_> = series.points().iter().filter(|p| p.t <= end).collect();
    let span = pts.first().map(|p| end.secs_since(p.t)).unwrap_or(0.0);
    let mk = |name, role, f: fn(&dgscope_core::metrics::Point) -> Option<f64>| Series {
        name,
        role,
        points: pts
            .iter()
            .filter_map(|p| f(p).map(|v| (p.t.secs_since(end), v)))
            .collect(),
    };
    let s = [
        mk("log file sync", Role::SeriesLfs, |p| p.lfs_ms),
        mk("lfpw", Role::SeriesLfpw, |p| p.lfpw_ms),
        mk("SYNC remote", Role::SeriesRemote, |p| p.remote_ms),
    ];
    chart::render(buf, area, cx, &s, "ms", span);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows as the sort-based merge made them before (every bucket a row, then chunks):
    /// the walk must give the same rows, micro/milli bounds and the 1 ms corner included.
    fn by_sorting(hs: &[&Histogram], n: usize) -> (Vec<Row>, usize) {
        let mut all: Vec<(f64, usize, u64)> = hs
            .iter()
            .enumerate()
            .flat_map(|(i, h)| h.buckets().iter().map(move |(u, c)| (bound_ms(*u), i, *c)))
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut rows: Vec<Row> = Vec::new();
        for (ms, i, c) in all {
            match rows.last_mut() {
                Some(last) if (last.0 - ms).abs() < 1e-9 => last.1[i] += c,
                _ => {
                    let mut counts = vec![0; hs.len()];
                    counts[i] = c;
                    rows.push((ms, counts));
                }
            }
        }
        let n_all = rows.len();
        let per = n_all.div_ceil(n.max(1)).max(1);
        let fit = rows
            .chunks(per)
            .map(|c| {
                let mut counts = vec![0; hs.len()];
                for (_, cs) in c {
                    for (a, b) in counts.iter_mut().zip(cs) {
                        *a += b;
                    }
                }
                (c[c.len() - 1].0, counts)
            })
            .collect();
        (fit, n_all)
    }

    #[test]
    fn the_walk_gives_the_rows_the_sort_gave() {
        use dgscope_model::units::Micros;
        let micro = Histogram::from_buckets(
            (0..40)
                .map(|i| (Micros(1u64 << i.min(40)), i as u64 + 1))
                .collect(),
        );
        let milli = Histogram::from_buckets(
            (1..30)
                .map(|i| (Micros(i * 1000), 7 * i))
                .chain([(Micros(1023), 5)])
                .collect(),
        );
        let many = Histogram::from_buckets((1..5000).map(|i| (Micros(i * 3), i % 17)).collect());
        let empty = Histogram::default();
        for hs in [
            vec![&micro, &milli],
            vec![&micro, &milli, &many],
            vec![&many, &empty, &micro],
            vec![&empty],
        ] {
            for n in [1, 3, 10, 64, 100_000] {
                assert_eq!(fitted(&hs, n), by_sorting(&hs, n), "{n} rows");
            }
        }
    }
}
