//! Command dispatch: the edge of the program, where library errors become one line and an exit
//! code.

mod replay;
mod report;

use crate::cli::{Cli, Command};
use clap::Parser;
use std::process::ExitCode;

/// Exit code for bad user input (flags, files, windows): the house rule.
pub const EXIT_BAD_INPUT: u8 = 2;

/// An error that reaches the user as one line and an exit code.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    pub fn bad_input(e: impl std::fmt::Display) -> Self {
        Failure {
            message: e.to_string(),
            code: EXIT_BAD_INPUT,
        }
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_failure(e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(f) => {
            eprintln!("dgscope: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

/// Help and version print as clap formats them; a usage error becomes one line (what is wrong
/// and where to look), exit code 2.
fn clap_failure(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // `dgscope report` alone: show what it takes, but it did nothing, so not success.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        _ => {}
    }
    eprintln!("dgscope: {}", one_line_usage_error(&e.render().to_string()));
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Folds clap's multi-line message into one line, keeping the facts and the hint.
pub fn one_line_usage_error(rendered: &str) -> String {
    let mut facts: Vec<&str> = Vec::new();
    let mut tips: Vec<&str> = Vec::new();
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage:") {
            break;
        }
        if let Some(tip) = line.strip_prefix("tip:") {
            tips.push(tip.trim());
        } else if !line.is_empty() && !line.starts_with("For more information") {
            facts.push(line.trim_start_matches("error:").trim());
        }
    }
    let mut msg = facts.join(" ").trim_end_matches(':').to_string();
    for tip in tips {
        msg.push_str(&format!("; {tip}"));
    }
    msg.push_str("; see --help");
    msg
}

pub fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Report(r) => report::run(r),
        Command::Replay(r) => replay::run(r),
        Command::Themes => {
            print(&replay::themes_list()?)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a message.
pub(crate) fn print(s: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure {
            message: format!("cannot write output: {e}"),
            code: 1,
        }),
    }
}
