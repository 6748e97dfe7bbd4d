//! `dgscope recording`'s subcommands (run by `commands::recording`).

use clap::Subcommand;
use std::path::PathBuf;

#[derive(Debug, Subcommand)]
pub enum RecordingCommand {
    /// Rewrite a recording with its slow parts (logs, switches, parameters, recovery area,
    /// configuration) only where they changed or a minute passed; `-o X.jsonl.zst` also
    /// compresses it. Every command reads the result to the same figures and findings.
    #[command(
        after_help = "Examples:\n  dgscope recording compact night.jsonl -o night.jsonl.zst\n  \
dgscope recording compact night.jsonl.zst -o night-plain.jsonl"
    )]
    Compact {
        /// The recording to read (plain or .zst)
        input: PathBuf,
        /// The new file (.zst: compressed); an existing file is refused
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
    },
    /// What a recording holds: form, span, slots, samples, interval, marks, size per part
    #[command(after_help = "Example:\n  dgscope recording info night.jsonl.zst")]
    Info {
        /// The recording (plain or .zst)
        file: PathBuf,
    },
}
