use super::{print, Failure};
use crate::cli::ReportCommand;
use crate::report::{histogram, impact, incident};
use crate::sample::Slot;
use std::process::ExitCode;

pub fn run(cmd: ReportCommand) -> Result<ExitCode, Failure> {
    match cmd {
        ReportCommand::Impact(a) => {
            let r = impact::impact(&a.file, &a.baseline, &a.compare).map_err(Failure::bad_input)?;
            print(&r.render(a.format))?;
        }
        ReportCommand::Histogram(a) => {
            let slot = Slot(a.slot.clone());
            let r = histogram::histogram(&a.file, &a.event, &slot, a.window.as_deref())
                .map_err(Failure::bad_input)?;
            print(&r.render(a.format))?;
        }
        ReportCommand::Incident(a) => {
            let i = incident::from_recording(
                &a.file,
                a.window.as_deref(),
                Some(&crate::source::twin::whatif::TwinWhatIf::default()),
            )
            .map_err(Failure::bad_input)?;
            let md = incident::render_markdown(&i);
            match &a.output {
                Some(path) => {
                    std::fs::write(path, md).map_err(|e| {
                        Failure::bad_input(format!(
                            "{}: cannot write the report: {e}",
                            path.display()
                        ))
                    })?;
                    eprintln!("dgscope: incident report written to {}", path.display());
                }
                None => print(&md)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
