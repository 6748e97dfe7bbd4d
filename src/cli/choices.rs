//! The command line's names for choices the library crates own as plain enums: clap stays
//! in the binary, and each choice maps onto its crate's own type.

use clap::ValueEnum;

/// `--format` of the reports (`report …`, `recording …`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Markdown,
}

impl From<ReportFormat> for crate::report::Format {
    fn from(f: ReportFormat) -> Self {
        match f {
            ReportFormat::Text => crate::report::Format::Text,
            ReportFormat::Json => crate::report::Format::Json,
            ReportFormat::Markdown => crate::report::Format::Markdown,
        }
    }
}

/// `check --fail-on`: which status makes `check` exit non-zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    Warn,
    Crit,
}

impl From<FailOnArg> for crate::report::check::FailOn {
    fn from(f: FailOnArg) -> Self {
        match f {
            FailOnArg::Warn => crate::report::check::FailOn::Warn,
            FailOnArg::Crit => crate::report::check::FailOn::Crit,
        }
    }
}
