//! Command-line definitions (clap derive). Every flag can also come from a `DGSCOPE_*`
//! environment variable where that makes sense.

use crate::report::Format;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "dgscope",
    version,
    about = "Oracle Data Guard lag triage: commit path, transport and apply lag, suggested causes",
    long_about = "dgscope shows where commit time and standby lag go between an Oracle primary \
and its Data Guard standbys: log file sync vs log file parallel write vs SYNC Remote Write, \
transport and apply lag, standby I/O, and suggested causes with their evidence.\n\n\
Reports read recordings (JSON Lines, format version 1) and print text, JSON or Markdown."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Reports from a recording: impact table (baseline vs compare) and latency histograms
    #[command(subcommand)]
    Report(ReportCommand),
    /// Play a recording on the triage screen: pause, scrub, speed, baseline, drill-downs
    #[command(
        after_help = "Keys: ? help, p pause, ←/→ scrub, +/- speed, b baseline, i impact, q quit.\n\n\
Example:\n  dgscope replay incident.jsonl --speed 4"
    )]
    Replay(ReplayArgs),
    /// List the built-in colour themes (for --theme)
    Themes,
}

/// Options of every command that opens the triage screen.
#[derive(Debug, Clone, Args)]
pub struct UiArgs {
    /// Colour theme: dark, light, high-contrast, mono
    #[arg(long, env = "DGSCOPE_THEME")]
    pub theme: Option<String>,
    /// No colours (the mono theme); also when NO_COLOR is set
    #[arg(long)]
    pub no_color: bool,
    /// ASCII only: no braille or box-drawing characters (legacy fonts, PuTTY)
    #[arg(long, env = "DGSCOPE_ASCII")]
    pub ascii: bool,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Recording file (.jsonl) written by `dgscope record`, `watch --record` or the `r` key
    pub file: PathBuf,
    /// Playback speed: 1 = as recorded, 4 = four times faster (0.25 … 64)
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    #[command(flatten)]
    pub ui: UiArgs,
}

#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Baseline window vs compare window: redo rate, log file sync, log file parallel write,
    /// TPS, RFS random i/o, SYNC Remote Write, redo writes and write size, with % change
    #[command(
        after_help = "Windows are A..B: offsets from the first sample (0s, 15m, 980s) or RFC 3339 \
times (2026-11-30T05:00:00Z). Either end may be left open (15m..).\n\n\
Example:\n  dgscope report impact incident.jsonl --baseline 0s..15m --compare 20m..35m"
    )]
    Impact(ImpactArgs),
    /// One wait event's latency histogram over a window: buckets, shares, avg and
    /// p50/p90/p99/p99.9 as bucket bounds
    #[command(
        after_help = "Example:\n  dgscope report histogram incident.jsonl --event 'log file sync' --window 10m..20m"
    )]
    Histogram(HistogramArgs),
}

#[derive(Debug, Args)]
pub struct ImpactArgs {
    /// Recording file (.jsonl) written by `dgscope record`, `watch --record` or by hand
    pub file: PathBuf,
    /// Baseline window A..B (e.g. 0s..15m)
    #[arg(long)]
    pub baseline: String,
    /// Window to compare with the baseline, A..B (e.g. 20m..35m)
    #[arg(long)]
    pub compare: String,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct HistogramArgs {
    /// Recording file (.jsonl)
    pub file: PathBuf,
    /// Wait event, exactly as Oracle spells it (e.g. 'log file sync', 'SYNC Remote Write')
    #[arg(long)]
    pub event: String,
    /// Which connection: primary, standby or standby:<name>
    #[arg(long, default_value = "primary")]
    pub slot: String,
    /// Window A..B (default: the whole recording)
    #[arg(long)]
    pub window: Option<String>,
    /// Output format (text or json; markdown prints a Markdown table)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}
