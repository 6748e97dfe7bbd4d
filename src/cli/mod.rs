//! Command-line definitions (clap derive). Every flag can also come from a `DGSCOPE_*`
//! environment variable where that makes sense. Every clap type lives under `cli/`: the live
//! Oracle commands' flags in [`oracle`], `serve`'s in [`serve`], `recording`'s in
//! [`recording`]; the commands that run them are in `commands/`.

pub mod choices;
pub mod oracle;
pub mod recording;
pub mod serve;
pub mod values;

use choices::{FailOnArg, ReportFormat as Format};
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
Start with `dgscope demo` (no database needed), `dgscope watch --primary … --standby …` \
(live), or `dgscope check` for cron and monitoring. Recordings (JSON Lines, format version 2, \
optionally zstd-compressed) feed `replay` and `report`."
)]
pub struct Cli {
    /// Config file (default: the platform config directory's dgscope/config.toml)
    #[arg(long, global = true, env = "DGSCOPE_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Append a log to FILE: connects, the probe and its SQL variant, every ORA-/DPI- code,
    /// reconnects, recordings (never a password). Also config `log_file`
    #[arg(long, global = true, env = "DGSCOPE_LOG", value_name = "FILE")]
    pub log_file: Option<PathBuf>,
    /// How much the log holds [default: info]
    #[arg(long, global = true, value_enum, value_name = "LEVEL")]
    pub log_level: Option<crate::log::LogLevel>,
    /// Time zone of times in text: the screen's clock and timelines, `check` text and reports:
    /// utc, local or an IANA name (Europe/Berlin). JSON and recordings stay UTC [default: utc]
    #[arg(long, global = true, value_name = "ZONE")]
    pub tz: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Reports from a recording: impact table (baseline vs compare), latency histograms and
    /// the incident report
    #[command(subcommand)]
    #[command(display_order = 6)]
    Report(ReportCommand),
    /// Sample for a while, print suggested causes, exit 0 OK / 1 WARN / 2 CRIT / 3 UNKNOWN
    /// (Nagios convention; for cron and monitoring)
    #[command(
        after_help = "Examples:\n  dgscope check --twin slow-srl --duration 5m\n  \
DGSCOPE_PW=… dgscope check --primary mon@//dbhost1/prod_a --standby mon@//dbhost2/prod_b --password-env DGSCOPE_PW\n  \
dgscope check --replay incident.jsonl --format json\n  \
dgscope check --replay incident.jsonl --duration 5m --fail-on crit\n\n\
Exit codes: 0 OK, 1 WARN, 2 CRIT, 3 UNKNOWN (also bad flags or an unreadable recording)."
    )]
    #[command(display_order = 4)]
    Check(CheckArgs),
    /// The config file: where it is, a commented template, validation
    #[command(subcommand)]
    #[command(display_order = 10)]
    Config(ConfigCommand),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish)
    #[command(
        after_help = "Example:\n  dgscope completions bash > ~/.local/share/bash-completion/completions/dgscope"
    )]
    #[command(display_order = 11)]
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) to standard output
    #[command(after_help = "Example:\n  dgscope man > ~/.local/share/man/man1/dgscope.1")]
    #[command(display_order = 12)]
    Man,
    /// Record samples to a file (JSON Lines, format version 2; `.zst` compresses) from a source,
    /// headless
    #[command(
        after_help = "Examples:\n  dgscope record --twin slow-srl --seed 7 --duration 10m -o slow-srl.jsonl\n  \
DGSCOPE_PW=… dgscope record --primary mon@//dbhost1/prod_a --standby mon@//dbhost2/prod_b \
--password-env DGSCOPE_PW --duration 30m -o incident.jsonl\n\n\
Twin runs are in virtual time (as fast as the CPU allows) and reproducible: the same scenario, \
seed and duration give a byte-identical file. `dgscope twin list` shows the scenarios."
    )]
    #[command(display_order = 5)]
    Record(RecordArgs),
    /// Existing recordings: compact them (slow parts once a minute, optionally .zst), or
    /// show what they hold
    #[command(subcommand)]
    #[command(display_order = 7)]
    Recording(recording::RecordingCommand),
    /// The digital twin: a simulated primary + standby pair
    #[command(subcommand)]
    #[command(display_order = 8)]
    Twin(TwinCommand),
    /// Live triage of a primary and its standbys (Oracle Instant Client needed)
    #[command(display_order = 1)]
    Watch(oracle::WatchArgs),
    /// Print the SQL for a least-privilege monitoring user
    #[command(display_order = 7)]
    Grants(oracle::GrantsArgs),
    /// The triage screen on the built-in digital twin: no database needed (f: fault menu)
    #[command(
        after_help = "Examples:\n  dgscope demo\n  dgscope demo --scenario slow-srl --speed 4\n  \
dgscope demo practice          (a config profile with scenario = \"…\")\n\n\
Keys: ? help, f fault menu (switch the scenario live), Tab focus, Enter drill in, q quit.\n\
`dgscope twin list` shows the scenarios."
    )]
    #[command(display_order = 2)]
    Demo(DemoArgs),
    /// Play a recording on the triage screen: pause, scrub, speed, baseline, drill-downs; or
    /// open an AWR or Statspack report there as one window
    #[command(
        after_help = "Keys: ? help, p pause, ←/→ scrub, +/- speed, b baseline, i impact, q quit.\n\n\
Examples:\n  dgscope replay incident.jsonl --speed 4\n  dgscope replay awrrpt_1_812_813.html"
    )]
    #[command(display_order = 3)]
    Replay(ReplayArgs),
    /// List the built-in colour themes (for --theme)
    #[command(display_order = 9)]
    Themes,
    /// Serve every pair's metrics, findings and wait histograms to Prometheus (GET /metrics)
    #[command(
        after_help = "Examples:\n  dgscope serve --twin slow-srl --twin healthy-sync --web.listen-address 127.0.0.1:9731\n  \
DGSCOPE_PW=… dgscope serve prod_a prod_b --password-env DGSCOPE_PW\n  \
dgscope serve --all-profiles\n\n\
Default address 127.0.0.1:9731 (this host only; --web.listen-address :9731 for every \
interface, with --web.config.file for TLS and basic auth); metrics at /metrics, a pair list \
at /. docs/METRICS.md lists every metric; contrib/ holds alert rules and a Grafana dashboard."
    )]
    #[command(display_order = 5)]
    Serve(serve::ServeArgs),
    /// Print what a bug report needs: version, platform, config (passwords redacted), the
    /// log's last lines and each profile's probe
    #[command(
        after_help = "Example:\n  dgscope bugreport --log-file ~/dgscope.log -o bugreport.txt\n\n\
Read it before you send it: it names hosts, services and users (never a password)."
    )]
    #[command(display_order = 13)]
    Bugreport(BugreportArgs),
}

#[derive(Debug, Args)]
pub struct BugreportArgs {
    /// Write the report here (default: standard output). An existing file is refused unless
    /// --force
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace an existing output file
    #[arg(long, requires = "output")]
    pub force: bool,
    /// How many of the log's last lines to include
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub log_lines: usize,
    /// Do not connect to the profiles' databases (no probe section)
    #[arg(long)]
    pub no_probe: bool,
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print where dgscope looks for its config file
    Path,
    /// Write a commented template to the config path (refuses to overwrite without --force)
    Init {
        /// Replace an existing file
        #[arg(long)]
        force: bool,
    },
    /// Validate the config file; errors are reported as FILE:LINE:COL
    Check,
    /// List the screen's actions: the name [bindings] takes, the keys (the config's bindings
    /// applied) and what each does
    Actions,
    /// Print the config's profile names, one a line (what the shell completes after `watch`,
    /// `record`, `check`, `serve`…)
    Profiles,
    /// Print Prometheus file_sd targets for `serve --shard K/N` exporters: one target group per
    /// shard, labelled dgscope_shard="K/N"
    #[command(
        after_help = "Example:\n  dgscope config sd --shards 2 --listen mon1:9731 --listen mon2:9731 > /etc/prometheus/dgscope.json\n\n\
The Nth --listen is the exporter started with `dgscope serve --all-profiles --shard N/SHARDS`. \
docs/FLEET.md explains sharding and high availability."
    )]
    Sd {
        /// How many shards the fleet is split into
        #[arg(long, value_name = "N")]
        shards: u32,
        /// Each shard's exporter address, HOST:PORT, in shard order (one per shard)
        #[arg(long = "listen", value_name = "HOST:PORT", required = true)]
        listen: Vec<String>,
    },
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// A config profile: its databases (or its twin scenario) and settings
    #[arg(conflicts_with_all = ["twin", "replay"])]
    pub profile: Option<String>,
    /// Judge the digital twin running this scenario (see `dgscope twin list`)
    #[arg(
        long,
        value_name = "SCENARIO",
        conflicts_with_all = ["replay", "primary"],
        value_parser = values::scenarios(),
        hide_possible_values = true
    )]
    pub twin: Option<String>,
    /// Seed of the twin's random numbers
    #[arg(long, default_value_t = 1, requires = "twin")]
    pub seed: u64,
    /// Judge a recording instead of live databases: replayed from its start, the worst moment
    /// of the whole recording counts (see --at-end). An AWR or Statspack report is judged as
    /// one window, as `report awr` judges it
    #[arg(long, value_name = "FILE", conflicts_with = "primary")]
    pub replay: Option<PathBuf>,
    /// With --replay: judge only the state at the end of the recording (the last hour's
    /// window), not the worst moment of the whole recording
    #[arg(long, requires = "replay")]
    pub at_end: bool,
    /// How long to sample (virtual time for the twin and replay); the causes window is as long.
    /// Default: 7s live (to fit check_nrpe's 10 s; a finding must then hold through the run
    /// rather than its usual 15 s), 60s for the twin, the whole recording for --replay
    #[arg(long, value_parser = humantime::parse_duration)]
    pub duration: Option<std::time::Duration>,
    /// Output format
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Lowest status that makes the exit code non-zero (crit: WARN exits 0) [default: warn]
    // No clap default: a profile's or the config's fail_on fills it only when unset.
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// Also write the run's metrics to DIR/dgscope_<pair>.prom for node_exporter's textfile
    /// collector (atomically: a temporary file renamed into place)
    #[arg(long, value_name = "DIR")]
    pub textfile: Option<PathBuf>,
    /// WARN when a figure is outside RANGE (the monitoring plugins' syntax: 60, 10:, ~:5,
    /// 10:20, @10:20). A bare RANGE is both lags (seconds); or FIGURE=RANGE[,…] with FIGURE
    /// transport_lag, apply_lag (s, net of DELAY, each standby), log_file_sync,
    /// log_file_parallel_write, sync_remote_write (ms). Also the performance data's warn. Adds
    /// to the findings, never hides one
    #[arg(short = 'w', long = "warning", value_name = "RANGE", value_hint = clap::ValueHint::Other)]
    pub warning: Option<crate::report::Ranges>,
    /// CRIT when a figure is outside RANGE: as --warning, for the performance data's crit
    #[arg(short = 'c', long = "critical", value_name = "RANGE", value_hint = clap::ValueHint::Other)]
    pub critical: Option<crate::report::Ranges>,
    /// Give up after this long with UNKNOWN and one status line, as plugins do under
    /// check_nrpe's timeout: seconds (10) or a duration (10s, 1m)
    #[arg(
        short = 't',
        long = "timeout",
        value_name = "SECONDS",
        value_parser = parse_timeout,
        value_hint = clap::ValueHint::Other
    )]
    pub timeout: Option<std::time::Duration>,
    /// Live databases to judge (instead of --twin or --replay)
    #[command(flatten)]
    pub conn: oracle::ConnArgs,
}

impl CheckArgs {
    /// `-w` and `-c` together.
    pub fn limits(&self) -> crate::report::Limits {
        crate::report::Limits {
            warn: self.warning.clone().unwrap_or_default(),
            crit: self.critical.clone().unwrap_or_default(),
        }
    }
}

/// `-t`: whole seconds as the plugins take them, or a duration.
fn parse_timeout(s: &str) -> Result<std::time::Duration, String> {
    let d = match s.trim().parse::<u64>() {
        Ok(secs) => std::time::Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(s.trim()).map_err(|e| e.to_string())?,
    };
    if d.is_zero() {
        return Err("must be above 0".into());
    }
    Ok(d)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Json,
    /// The `serve` metrics for this run (OpenMetrics 1.0.0 text)
    #[value(name = "openmetrics")]
    OpenMetrics,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// A config profile: its databases (or its twin scenario) and settings
    #[arg(conflicts_with = "twin")]
    pub profile: Option<String>,
    /// Record the digital twin running this scenario (see `dgscope twin list`)
    #[arg(
        long,
        value_name = "SCENARIO",
        conflicts_with = "primary",
        value_parser = values::scenarios(),
        hide_possible_values = true
    )]
    pub twin: Option<String>,
    /// Seed of the twin's random numbers (same seed, same recording)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How much to record (virtual time for the twin), e.g. 90s, 10m, 1h [default: 10m]
    #[arg(long)]
    pub duration: Option<String>,
    /// Output recording file (.jsonl), `-` for standard output. An existing file is refused
    /// unless --force
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Replace an existing output file (it is replaced only once the new one is complete)
    #[arg(long)]
    pub force: bool,
    /// Live databases to record instead of the twin (and the sampling interval for both)
    #[command(flatten)]
    pub conn: oracle::ConnArgs,
}

#[derive(Debug, Subcommand)]
pub enum TwinCommand {
    /// List the twin's scenarios, one per line: name, then what it simulates
    List,
}

/// Options of every command that opens the triage screen.
#[derive(Debug, Clone, Args)]
pub struct UiArgs {
    /// Colour theme: dark, light, high-contrast, mono
    #[arg(
        long,
        env = "DGSCOPE_THEME",
        value_parser = values::themes(),
        hide_possible_values = true
    )]
    pub theme: Option<String>,
    /// No colours (the mono theme); also when NO_COLOR is set
    #[arg(long)]
    pub no_color: bool,
    /// ASCII only: no braille or box-drawing characters (legacy fonts, PuTTY)
    #[arg(long, env = "DGSCOPE_ASCII")]
    pub ascii: bool,
    /// Leave the mouse to the terminal (select text with it): no mouse capture
    #[arg(long, env = "DGSCOPE_NO_MOUSE")]
    pub no_mouse: bool,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// A config profile with `scenario = "…"` (and optionally `theme`)
    pub profile: Option<String>,
    /// Twin scenario to start with (default healthy-sync; see `dgscope twin list`)
    #[arg(long, value_parser = values::scenarios(), hide_possible_values = true)]
    pub scenario: Option<String>,
    /// Seed of the twin's random numbers
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Virtual seconds per wall second: 1 = real time, 8 = eight times faster (0.25 … 64)
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// The fleet board over N twin pairs (default 12) drawn from the scenario catalog, each
    /// with its own seed: Enter opens a pair's screen, Esc returns
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "12")]
    pub fleet: Option<usize>,
    #[command(flatten)]
    pub ui: UiArgs,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Recording file (.jsonl) written by `dgscope record`, `watch --record` or the `r` key,
    /// or an AWR/Statspack report (.html, .txt, .gz)
    pub file: PathBuf,
    /// Playback speed: 1 = as recorded, 4 = four times faster (0.25 … 64)
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// Where playback starts: `end` (the last 15 minutes at once), a time before the end
    /// (-2h), an offset from the first sample (1h30m) or an RFC 3339 time; the 15 minutes
    /// before it are loaded at once
    #[arg(long, value_name = "WHEN", allow_hyphen_values = true)]
    pub from: Option<String>,
    #[command(flatten)]
    pub ui: UiArgs,
}

#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// Baseline vs compare — two windows of a recording, or two AWR/Statspack reports from
    /// before and after a change: redo rate, log file sync, log file parallel write, TPS,
    /// RFS random i/o, SYNC Remote Write, redo writes and write size, with % change
    #[command(
        after_help = "Windows are A..B: offsets from the first sample (0s, 15m, 980s) or RFC 3339 \
times (2026-11-30T05:00:00Z). Either end may be left open (15m..). With two reports, \
--baseline names the report taken before the change and FILE the one after; a report has no \
standby side, so the RFS row stays empty. An AWR Compare Periods report (awrddrpt, HTML) holds \
both periods: give it alone.\n\n\
Examples:\n  dgscope report impact incident.jsonl --baseline 0s..15m --compare 20m..35m\n  \
dgscope report impact --baseline awr_sync_off.html awr_sync_on.html\n  \
dgscope report impact awrdiff_1_812_813_1_912_913.html"
    )]
    Impact(ImpactArgs),
    /// One wait event's latency histogram over a window: buckets, shares, avg and
    /// p50/p90/p99/p99.9 as bucket bounds
    #[command(
        after_help = "Example:\n  dgscope report histogram incident.jsonl --event 'log file sync' --window 10m..20m"
    )]
    Histogram(HistogramArgs),
    /// A Markdown incident report: configuration, timeline of findings and marks, key metrics
    /// before/after, impact vs the baseline mark, each finding's evidence, SQL and advice
    #[command(after_help = "Example:\n  dgscope report incident incident.jsonl -o incident.md")]
    Incident(IncidentArgs),
    /// An AWR report (HTML instance, RAC instance, global or PDB report) or a Statspack
    /// report judged as a window: identity, snapshots, the commit path figures and the
    /// findings with evidence
    #[command(after_help = "Example:\n  dgscope report awr awrrpt_1_812_813.html --format json")]
    Awr(AwrArgs),
}

#[derive(Debug, Args)]
pub struct AwrArgs {
    /// AWR report (.html) as written by awrrpt.sql, awrgrpt.sql or a browser's "save as", an
    /// AWR instance report as text, or a Statspack report (spreport.lst); gzip'd or not
    pub file: PathBuf,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct IncidentArgs {
    /// Recording file (.jsonl)
    pub file: PathBuf,
    /// Window A..B (default: the whole recording)
    #[arg(long)]
    pub window: Option<String>,
    /// Write the report here (default and `-`: standard output). An existing file is refused
    /// unless --force; the recording itself always is
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace an existing output file
    #[arg(long, requires = "output")]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ImpactArgs {
    /// Recording file (.jsonl) written by `dgscope record`, `watch --record` or by hand; or,
    /// when --baseline names a report, the AWR/Statspack report after the change; or an AWR
    /// Compare Periods report (awrddrpt, HTML), which holds both periods
    pub file: PathBuf,
    /// Baseline window A..B (e.g. 0s..15m), or the AWR/Statspack report before the change
    /// (not needed for a Compare Periods report)
    #[arg(long)]
    pub baseline: Option<String>,
    /// Window of the recording to compare with the baseline, A..B (e.g. 20m..35m)
    #[arg(long)]
    pub compare: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct HistogramArgs {
    /// Recording file (.jsonl)
    pub file: PathBuf,
    /// Wait event, exactly as Oracle spells it (e.g. 'log file sync', 'SYNC Remote Write')
    #[arg(long, value_parser = values::events(), hide_possible_values = true)]
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
