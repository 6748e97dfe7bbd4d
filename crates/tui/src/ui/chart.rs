//! Time-series charts over the history: lag, commit latency. The y axis starts at zero and its
//! label has a fixed width, so the plot does not shift as values change.

use super::theme::Role;
use super::{fmt, Ctx};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget};

pub(crate) struct Series {
    pub name: &'static str,
    pub role: Role,
    /// (seconds relative to the end, value); x ≤ 0.
    pub points: Vec<(f64, f64)>,
}

/// Formats a y value in the chart's unit.
fn ylabel(v: f64, unit: &str) -> String {
    let s = if v == 0.0 {
        format!("0 {unit}")
    } else if unit == "s" {
        fmt::lag(v)
    } else {
        format!("{} {unit}", fmt::auto(v))
    };
    fmt::rfit(&s, 8)
}

/// Draws a legend line and the chart below it. `span` is the history shown, in seconds.
pub(crate) fn render(
    buf: &mut Buffer,
    area: Rect,
    cx: &Ctx,
    series: &[Series],
    unit: &str,
    span: f64,
) {
    if area.height < 2 || area.width < 12 || cx.plain {
        return;
    }
    let t = cx.theme;
    let max = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let ymax = nice_ceiling(max);
    let mut legend = vec![];
    for (i, s) in series.iter().enumerate() {
        let mark = if cx.ascii { ascii_marker(i) } else { '━' };
        legend.push(Span::styled(
            format!("{mark} {}  ", s.name),
            t.style(s.role),
        ));
    }
    legend.push(Span::styled(
        format!("max {}  over {}", ylabel(max, unit).trim(), fmt::age(span)),
        t.muted(),
    ));
    Paragraph::new(Line::from(legend)).render(Rect::new(area.x, area.y, area.width, 1), buf);
    let plot = Rect::new(area.x, area.y + 1, area.width, area.height - 1);
    // Two braille dots per cell: more points than that cost time and show nothing more.
    let thinned: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|s| downsample(&s.points, plot.width as usize * 2))
        .collect();
    let datasets: Vec<Dataset> = series
        .iter()
        .zip(&thinned)
        .enumerate()
        .map(|(i, (s, pts))| {
            Dataset::default()
                .marker(if cx.ascii {
                    Marker::Custom(ascii_marker(i))
                } else {
                    Marker::Braille
                })
                .graph_type(GraphType::Line)
                .style(t.style(s.role))
                .data(pts)
        })
        .collect();
    let mut x_axis = Axis::default()
        .bounds([-span.max(1.0), 0.0])
        .style(t.muted());
    let mut y_axis = Axis::default().bounds([0.0, ymax]).style(t.muted());
    if !cx.ascii && plot.height >= 4 {
        x_axis = x_axis.labels(vec![
            Span::raw(format!("-{}", fmt::age(span))),
            Span::raw("now"),
        ]);
        y_axis = y_axis.labels(vec![
            Span::raw(ylabel(0.0, unit)),
            Span::raw(ylabel(ymax, unit)),
        ]);
    }
    let chart = Chart::new(datasets)
        .x_axis(x_axis)
        .y_axis(y_axis)
        .legend_position(None)
        .style(t.base());
    chart.render(plot, buf);
}

/// At most `n` points: the largest of each run, so a one-sample spike is never smoothed
/// away (the spike is what a DBA is looking for).
pub(crate) fn downsample(points: &[(f64, f64)], n: usize) -> Vec<(f64, f64)> {
    if n == 0 || points.len() <= n {
        return points.to_vec();
    }
    let per = points.len().div_ceil(n);
    points
        .chunks(per)
        .filter_map(|c| c.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1)))
        .collect()
}

fn ascii_marker(i: usize) -> char {
    ['*', '+', 'o', 'x'][i % 4]
}

/// A round upper bound (1, 2, 5 × 10^n) so the axis does not creep with every sample.
pub(crate) fn nice_ceiling(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let exp = v.log10().floor();
    let base = 10f64.powf(exp);
    for m in [1.0, 2.0, 5.0, 10.0] {
        if v <= m * base * 1.000_001 {
            return m * base;
        }
    }
    10.0 * base
}

#[cfg(test)]
mod tests {
    use super::nice_ceiling;

    #[test]
    fn downsampling_keeps_spikes_and_bounds_the_count() {
        let mut pts: Vec<(f64, f64)> = (0..3600).map(|i| (i as f64, 1.0)).collect();
        pts[1234].1 = 64.0;
        let d = super::downsample(&pts, 300);
        assert!(d.len() <= 300);
        assert!(d.iter().any(|p| p.1 == 64.0 && p.0 == 1234.0));
        assert_eq!(super::downsample(&pts[..10], 300).len(), 10);
    }

    #[test]
    fn ceilings_are_round() {
        assert_eq!(nice_ceiling(0.0), 1.0);
        assert_eq!(nice_ceiling(1.3), 2.0);
        assert_eq!(nice_ceiling(4.6), 5.0);
        assert_eq!(nice_ceiling(7.0), 10.0);
        assert_eq!(nice_ceiling(20.0), 20.0);
        assert!((nice_ceiling(0.34) - 0.5).abs() < 1e-12);
    }
}
