//! `e`: the incident report as Markdown, from what the screen knows now.

use crate::ui::App;
use dgscope_core::metrics::Window;
use dgscope_export::report::check::CheckMetrics;
use dgscope_export::report::incident::{commit_rows, render_markdown, Incident};
use std::io;
use std::path::{Path, PathBuf};

/// Writes the report into `dir` and returns its path.
pub fn write_report(app: &App, dir: &Path) -> io::Result<PathBuf> {
    // Unique (milliseconds and a counter) and never overwriting: see `output`.
    let stamp = dgscope_model::output::file_stamp(app.clock());
    dgscope_model::output::write_unique(
        dir,
        "dgscope-incident",
        &stamp,
        "md",
        markdown(app).as_bytes(),
    )
}

/// What the screen knows now, as the same report `dgscope report incident` writes: the
/// configuration, marks and raised findings on a timeline, the commit path over the current
/// window, the session so far against that window, the impact table when a baseline exists,
/// and every finding with its evidence, SQL and advice.
pub(crate) fn incident(app: &App) -> Incident {
    let e = app.engine();
    let (databases, dests) = Incident::configuration(e);
    // The whole session as the driver kept it (raised, cleared, marks), as `report
    // incident` reads it; a finding still raised reads as the causes pane shows it (with the
    // drill-down's what-if figures), so `y` and the report agree.
    let (timeline, mut findings) = Incident::history(app.session());
    for now in &app.assessment.findings {
        match findings
            .iter_mut()
            .find(|f| f.id == now.id && f.standby == now.standby)
        {
            Some(f) => *f = now.clone(),
            None => findings.push(now.clone()),
        }
    }
    dgscope_core::causes::rank(&mut findings);
    let from = e
        .slots()
        .filter_map(|(_, s)| s.points().iter().next().map(|p| p.t))
        .min();
    let impact = e.baseline().and_then(|b| {
        e.impact(app.window)
            .map(|rows| (format!("baseline set at {}", b.clock()), rows))
    });
    Incident {
        source: format!("{} ({})", app.cfg.source, app.cfg.mode.label()),
        from,
        to: Some(app.clock()),
        databases,
        dests,
        timeline,
        commit_path: commit_rows(app.deltas().primary.as_ref()),
        before_label: "session so far".into(),
        after_label: format!("last {}", app.window),
        before: CheckMetrics::from_engine(e, Window::SinceStartup),
        after: CheckMetrics::from_engine(e, app.window),
        impact,
        findings,
        releases: dgscope_export::report::check::releases(e, app.standby()),
        decomposition: app.assessment.decomposition.clone(),
        // The causes pane's words, never "healthy" before a finding could have been raised.
        no_findings: (app.warming_up() && app.session().findings().next().is_none()).then(|| {
            format!(
                "Not judged: the session had {} of data and a finding needs {} (warming up).",
                dgscope_model::display::age(app.data_span_s()),
                dgscope_model::display::age(app.cfg.raise_after_s)
            )
        }),
    }
}

pub fn markdown(app: &App) -> String {
    render_markdown(&incident(app))
}
