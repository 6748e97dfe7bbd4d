use super::{print, Failure};
use crate::cli::TwinCommand;
use crate::source::twin::Scenario;
use std::process::ExitCode;

pub fn run(cmd: TwinCommand) -> Result<ExitCode, Failure> {
    match cmd {
        TwinCommand::List => print(&scenario_list())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// One scenario per line: the name, padded, then its description.
pub fn scenario_list() -> String {
    let width = Scenario::names().iter().map(|n| n.len()).max().unwrap_or(0);
    Scenario::ALL
        .iter()
        .map(|s| format!("{:width$}  {}\n", s.name(), s.description()))
        .collect()
}
