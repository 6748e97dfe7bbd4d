use super::{print, Failure};
use crate::cli::ReportCommand;
use crate::report::{histogram, impact};
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
    }
    Ok(ExitCode::SUCCESS)
}
