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
            print(&r.render(a.format))?;
        }
        ReportCommand::Impact(a) => {
            let r = impact_of(&a)?;
            warn(&r.warnings);
            print(&r.render(a.format))?;
        }
        ReportCommand::Histogram(a) => {
            let slot = Slot::from(a.slot.as_str());
            let r = histogram::histogram(&a.file, &a.event, &slot, a.window.as_deref())
                .map_err(Failure::bad_input)?;
            warn(&r.warnings);
            print(&r.render(a.format))?;
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

/// `report impact` of two windows of a recording, or of two reports when --baseline names a
/// file (a window spec never names one: `0s..15m` is not a path that exists).
fn impact_of(a: &crate::cli::ImpactArgs) -> Result<impact::ImpactReport, Failure> {
    let baseline = std::path::Path::new(&a.baseline);
    if baseline.is_file() {
        if a.compare.is_some() {
            return Err(Failure::bad_input(format!(
                "report impact: --baseline names a report ({}), so the report after the change \
                 is FILE and --compare has nothing to name; drop --compare",
                a.baseline
            )));
        }
        return impact::impact_of_reports(baseline, &a.file).map_err(Failure::bad_input);
    }
    if !a.baseline.contains("..") {
        return Err(Failure::bad_input(format!(
            "report impact: --baseline {}: no such report, and not a window A..B (e.g. 0s..15m)",
            a.baseline
        )));
    }
    let Some(compare) = a.compare.as_deref() else {
        return Err(Failure::bad_input(format!(
            "report impact: --compare A..B is missing (the window of {} to set against the \
             baseline {}); or give --baseline the report taken before the change",
            a.file.display(),
            a.baseline
        )));
    };
    impact::impact(&a.file, &a.baseline, compare).map_err(Failure::bad_input)
}
