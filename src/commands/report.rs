use super::{print_untrusted as print, Failure};
use crate::cli::ReportCommand;
use crate::output;
use crate::report::{awr, histogram, impact, incident};
use crate::sample::Slot;
use std::process::ExitCode;

/// Input problems that did not stop a report: one `warning:` line each on stderr (the JSON
/// carries them too), as `check` does.
fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("dgscope: warning: {}", crate::sanitize::field(w));
    }
}

pub fn run(cmd: ReportCommand) -> Result<ExitCode, Failure> {
    match cmd {
        ReportCommand::Awr(a) => {
            let r = awr::awr(&a.file).map_err(Failure::bad_input)?;
            warn(&r.report.warnings);
            print(&r.render(a.format.into()))?;
        }
        ReportCommand::Impact(a) => {
            let r = impact_of(&a)?;
            warn(&r.warnings);
            print(&r.render(a.format.into()))?;
        }
        ReportCommand::Histogram(a) => {
            let slot = Slot::from(a.slot.as_str());
            let r = histogram::histogram(&a.file, &a.event, &slot, a.window.as_deref())
                .map_err(Failure::bad_input)?;
            warn(&r.warnings);
            print(&r.render(a.format.into()))?;
        }
        ReportCommand::Incident(a) => {
            // Refuse a bad target before the work: the recording itself, or an existing file
            // without --force, is never replaced.
            let target = a.output.as_deref().filter(|p| !output::is_stdout(p));
            if let Some(path) = target {
                output::check_target(path, &[(&a.file, "recording")], a.force)
                    .map_err(Failure::bad_input)?;
            }
            let i = incident::from_recording(
                &a.file,
                a.window.as_deref(),
                Some(&crate::pipeline::TwinWhatIf::default()),
            )
            .map_err(Failure::bad_input)?;
            let md = incident::render_markdown(&i);
            match target {
                Some(path) => {
                    output::write_file(path, md.as_bytes(), a.force).map_err(Failure::bad_input)?;
                    eprintln!("dgscope: incident report written to {}", path.display());
                }
                None => print(&md)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `report impact` of two windows of a recording, of two reports when --baseline names a
/// file (a window spec never names one: `0s..15m` is not a path that exists), or of the two
/// periods of one Compare Periods report.
fn impact_of(a: &crate::cli::ImpactArgs) -> Result<impact::ImpactReport, Failure> {
    let Some(baseline) = a.baseline.as_deref() else {
        if a.compare.is_some() {
            return Err(Failure::bad_input(format!(
                "report impact: --compare {} without --baseline: give both windows of {} \
                 (e.g. --baseline 0s..15m --compare 20m..35m)",
                a.compare.as_deref().unwrap_or_default(),
                a.file.display()
            )));
        }
        return match impact::compare_periods(&a.file) {
            Some(r) => r.map_err(Failure::bad_input),
            None => Err(Failure::bad_input(format!(
                "report impact: --baseline is missing: for {}, name the windows (--baseline \
                 0s..15m --compare 20m..35m of a recording) or the report before the change \
                 (--baseline BEFORE.html); only an AWR Compare Periods report holds both alone",
                a.file.display()
            ))),
        };
    };
    let baseline_path = std::path::Path::new(baseline);
    if baseline_path.is_file() {
        if a.compare.is_some() {
            return Err(Failure::bad_input(format!(
                "report impact: --baseline names a report ({}), so the report after the change \
                 is FILE and --compare has nothing to name; drop --compare",
                baseline
            )));
        }
        return impact::impact_of_reports(baseline_path, &a.file).map_err(Failure::bad_input);
    }
    if !baseline.contains("..") {
        return Err(Failure::bad_input(format!(
            "report impact: --baseline {baseline}: no such report, and not a window A..B (e.g. 0s..15m)"
        )));
    }
    let Some(compare) = a.compare.as_deref() else {
        return Err(Failure::bad_input(format!(
            "report impact: --compare A..B is missing (the window of {} to set against the \
             baseline {}); or give --baseline the report taken before the change",
            a.file.display(),
            baseline
        )));
    };
    impact::impact(&a.file, baseline, compare).map_err(Failure::bad_input)
}
