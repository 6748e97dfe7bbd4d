//! Command dispatch: the edge of the program, where library errors become one line and an exit
//! code.

pub mod bugreport;
pub mod check;
mod config;
mod demo;
mod fleet;
mod grants;
pub mod limits;
pub mod live;
mod man;
pub mod pairs;
pub mod profile;
mod progress;
mod record;
pub mod record_live;
pub mod recording;
mod replay;
mod report;
mod screen;
pub mod serve;
pub mod settings;
mod twin;
pub mod watch;

use crate::cli::{Cli, Command};
pub use man::{actions_table, man_page};
use std::process::ExitCode;

/// Exit code for bad user input (flags, files, windows): the house rule.
pub const EXIT_BAD_INPUT: u8 = 2;

/// An error that reaches the user as one line and an exit code.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub code: u8,
}

/// The screen's errors at the edge: bad input exits 2, the rest 1.
impl From<crate::tui::TuiError> for Failure {
    fn from(e: crate::tui::TuiError) -> Self {
        Failure {
            code: if e.is_bad_input() { EXIT_BAD_INPUT } else { 1 },
            message: e.to_string(),
        }
    }
}

impl Failure {
    pub fn bad_input(e: impl std::fmt::Display) -> Self {
        Failure {
            message: e.to_string(),
            code: EXIT_BAD_INPUT,
        }
    }
}

/// The command line as clap sees it: the derive definitions, plus a `DGSCOPE_*` environment
/// variable for every flag that has none of its own (`--fail-on` ← `DGSCOPE_FAIL_ON`).
pub fn cli_command() -> clap::Command {
    use clap::CommandFactory;
    with_env_fallbacks(Cli::command())
}

fn with_env_fallbacks(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        let name = match a.get_long() {
            // No variable for --force: a variable left set must never permit overwriting.
            Some(long)
                if a.get_env().is_none() && !matches!(long, "help" | "version" | "force") =>
            {
                format!("DGSCOPE_{}", long.to_ascii_uppercase().replace('-', "_"))
            }
            _ => return a,
        };
        a.env(name)
    })
    .mut_subcommands(with_env_fallbacks)
}

pub fn main() -> ExitCode {
    use clap::FromArgMatches;
    let parsed = cli_command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return clap_failure(e),
    };
    match run(cli) {
        Ok(code) => code,
        Err(f) => {
            eprint!("{}", failure_text(&f.message));
            ExitCode::from(f.code)
        }
    }
}

/// A failure as the user reads it on stderr: the first line after `dgscope: `, any further
/// lines (the Instant Client guide is a list of steps) as lines of their own. Messages quote
/// file contents and database errors, so every line is made safe on its own: no escape
/// sequence reaches the terminal, and a control character shows as its picture. The builders
/// of multi-line messages put untrusted text on one line (`sanitize::field`) so it cannot add
/// lines of its own.
pub fn failure_text(message: &str) -> String {
    let mut out = String::new();
    for (i, line) in message.trim_end().lines().enumerate() {
        if i == 0 {
            out.push_str("dgscope: ");
        }
        out.push_str(&crate::sanitize::field(line.trim_end()));
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("dgscope: failed\n");
    }
    out
}

/// Help and version print as clap formats them; a usage error becomes one line (what is wrong
/// and where to look), exit code 2.
fn clap_failure(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            return match print_help(&e) {
                Ok(()) => ExitCode::SUCCESS,
                Err(f) => {
                    eprint!("{}", failure_text(&f.message));
                    ExitCode::from(f.code)
                }
            };
        }
        // `dgscope report` alone: show what it takes, but it did nothing, so not success.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            if let Err(f) = print_help(&e) {
                eprint!("{}", failure_text(&f.message));
            }
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        _ => {}
    }
    let message = one_line_usage_error(&e.render().to_string());
    eprintln!("dgscope: {}", crate::sanitize::field(&message));
    // `check` speaks Nagios: anything that stops it from judging is UNKNOWN (3), with its
    // one status line (or JSON document) on stdout.
    let args: Vec<String> = std::env::args().collect();
    let is_check = args.get(1).map(String::as_str) == Some("check");
    if is_check {
        let json = args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json")
            || args.iter().any(|a| a == "--format=json");
        check::print_unknown(json, &message);
    }
    ExitCode::from(if is_check {
        check::EXIT_UNKNOWN
    } else {
        EXIT_BAD_INPUT
    })
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

/// The log's file and level: `--log-file`/`DGSCOPE_LOG` and `--log-level`/`DGSCOPE_LOG_LEVEL`,
/// else the config file's `log_file`/`log_level`.
fn log_settings_from(cli: &Cli, config: &crate::config::Config) -> crate::log::LogSettings {
    use clap::ValueEnum;
    let config = config.clone();
    crate::log::LogSettings {
        file: cli.log_file.clone().or(config.log_file),
        level: cli.log_level.or_else(|| {
            config
                .log_level
                .and_then(|l| crate::log::LogLevel::from_str(&l, true).ok())
        }),
    }
}

/// The subcommand's name, for the log (never argv: it may hold what a user mistyped).
fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Report(_) => "report",
        Command::Check(_) => "check",
        Command::Config(_) => "config",
        Command::Completions { .. } => "completions",
        Command::Man => "man",
        Command::Record(_) => "record",
        Command::Twin(_) => "twin",
        Command::Watch(_) => "watch",
        Command::Grants(_) => "grants",
        Command::Demo(_) => "demo",
        Command::Replay(_) => "replay",
        Command::Themes => "themes",
        Command::Serve(_) => "serve",
        Command::Bugreport(_) => "bugreport",
        Command::Recording(_) => "recording",
    }
}

pub fn run(cli: Cli) -> Result<ExitCode, Failure> {
    let config = load_config(cli.config.as_deref()).unwrap_or_default();
    let log = log_settings_from(&cli, &config);
    let name = command_name(&cli.command);
    let bad = |message: String| Failure {
        message,
        code: if name == "check" {
            check::EXIT_UNKNOWN
        } else {
            EXIT_BAD_INPUT
        },
    };
    // --tz / DGSCOPE_TZ, else the profile's tz, else the config's, else UTC.
    let profile_tz = profile_of(&cli.command)
        .and_then(|p| config.profile(p))
        .and_then(|p| p.tz.as_deref());
    if let Some(zone) = cli.tz.as_deref().or(profile_tz).or(config.tz.as_deref()) {
        crate::timestamp::set_display_zone(crate::timestamp::parse_zone(zone).map_err(bad)?);
    }
    crate::log::init(&log).map_err(|e| bad(e.to_string()))?;
    let config_path = crate::config::config_path(cli.config.as_deref());
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        command = name,
        config = config_path
            .as_ref()
            .map_or_else(|| "none".to_string(), |p| p.display().to_string()),
        config_exists = config_path.as_ref().is_some_and(|p| p.is_file()),
        "dgscope started"
    );
    let result = dispatch(cli, &log);
    match &result {
        Ok(code) => tracing::info!(command = name, "finished: {code:?}"),
        Err(f) => tracing::warn!(command = name, code = f.code, "failed: {}", f.message),
    }
    result
}

/// The one profile a command runs, when it names one: its settings (`tz`) apply to the run.
fn profile_of(c: &Command) -> Option<&str> {
    match c {
        Command::Check(a) => a.profile.as_deref(),
        Command::Record(a) => a.profile.as_deref(),
        Command::Watch(a) => a.profile(),
        Command::Demo(a) => a.profile.as_deref(),
        _ => None,
    }
}

fn dispatch(cli: Cli, log: &crate::log::LogSettings) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Bugreport(a) => bugreport::run(a, cli.config.as_deref(), log),
        Command::Report(r) => report::run(r),
        Command::Check(c) => check::run(c, cli.config.as_deref()),
        Command::Config(c) => config::run(c, cli.config.as_deref()),
        Command::Completions { shell } => {
            print(&completions(shell))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => {
            print(&man_page())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Record(a) => record::run(a, cli.config.as_deref()),
        Command::Twin(t) => twin::run(t),
        Command::Recording(r) => recording::run(r),
        Command::Watch(a) => watch::run(a, cli.config.as_deref()),
        Command::Grants(a) => grants::run(a, cli.config.as_deref()),
        Command::Demo(d) => demo::run(d, cli.config.as_deref()),
        Command::Replay(r) => replay::run(r, cli.config.as_deref()),
        Command::Serve(a) => serve::run(a, cli.config.as_deref()),
        Command::Themes => {
            print(&replay::themes_list()?)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The config file named by `--config`/`DGSCOPE_CONFIG` (which must exist) or found in the
/// platform directory (which may not).
pub(crate) fn load_config(
    flag: Option<&std::path::Path>,
) -> Result<crate::config::Config, crate::config::ConfigError> {
    match crate::config::config_path(flag) {
        Some(path) => crate::config::Config::load(&path, flag.is_some()),
        None => Ok(crate::config::Config::default()),
    }
}

/// The completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> String {
    let mut cmd = cli_command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "dgscope", &mut out);
    let script = String::from_utf8_lossy(&out).into_owned();
    match shell {
        clap_complete::Shell::Bash => bash_profiles(bash_values_with_spaces(script)),
        clap_complete::Shell::Fish => fish_profiles(script),
        _ => script,
    }
}

/// The subcommands whose first argument is a config profile.
fn takes_a_profile() -> Vec<String> {
    cli_command()
        .get_subcommands()
        .filter(|c| {
            c.get_positionals()
                .next()
                .is_some_and(|a| matches!(a.get_id().as_str(), "profile" | "profiles"))
        })
        .map(|c| c.get_name().to_string())
        .collect()
}

/// Profiles come from the user's config, which no static script knows: where a subcommand
/// takes one first, the bash script asks `dgscope config profiles` at each Tab.
fn bash_profiles(mut script: String) -> String {
    let plain = "COMPREPLY=( $(compgen -W \"${opts}\" -- \"${cur}\") )";
    let with = "COMPREPLY=( $(compgen -W \"${opts} $(dgscope config profiles 2>/dev/null)\" -- \"${cur}\") )";
    for name in takes_a_profile() {
        let block = format!("        dgscope__subcmd__{name})\n");
        let Some(at) = script.find(&block) else {
            continue;
        };
        if let Some(i) = script[at..].find(plain).map(|i| at + i) {
            script.replace_range(i..i + plain.len(), with);
        }
    }
    script
}

/// As [`bash_profiles`], for fish.
fn fish_profiles(mut script: String) -> String {
    for name in takes_a_profile() {
        script.push_str(&format!(
            "complete -c dgscope -n \"__fish_dgscope_using_subcommand {name}\" -f -a \"(dgscope config profiles 2>/dev/null)\" -d 'config profile'\n"
        ));
    }
    script
}

/// clap's bash script lists a flag's values as `compgen -W "a b c"`, which splits a value
/// with spaces (`log file sync`) into words. Such a list becomes one value a line, offered
/// quoted (`log\ file\ sync`), so Tab completes the whole name.
fn bash_values_with_spaces(script: String) -> String {
    let events = dgscope_oracle::sql::histogram_events();
    let flat: Vec<&str> = events.iter().map(|(n, _)| *n).collect();
    let clap_line = format!(
        "COMPREPLY=($(compgen -W \"{}\" -- \"${{cur}}\"))",
        flat.join(" ")
    );
    let quoted: Vec<String> = flat.iter().map(|n| format!("'{n}'")).collect();
    let ours = format!(
        "local IFS=$'\\n'; COMPREPLY=($(compgen -W \"$(printf '%s\\n' {})\" -- \"${{cur//\\\\/}}\" | sed 's/[ ()]/\\\\&/g'))",
        quoted.join(" ")
    );
    script.replace(&clap_line, &ours)
}

/// Writes text built from recordings or databases to stdout, every control character but
/// newline and tab made visible ([`crate::sanitize::output`]).
pub(crate) fn print_untrusted(s: &str) -> Result<(), Failure> {
    print(&crate::sanitize::output(s))
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a message. For text
/// dgscope composed itself (help, completions, the themes preview with its colours).
pub(crate) fn print(s: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    output_result(out.write_all(s.as_bytes()).and_then(|_| out.flush()))
}

/// Help and version as clap styles them, flushed, so a full disk is said rather than lost
/// in the buffer at exit.
fn print_help(e: &clap::Error) -> Result<(), Failure> {
    use std::io::Write;
    output_result(e.print().and_then(|_| std::io::stdout().flush()))
}

/// A write to stdout that failed: exit 2 like any output that cannot be written (a report's
/// `-o` on a full disk), `check` maps it to UNKNOWN (3) itself.
fn output_result(r: std::io::Result<()>) -> Result<(), Failure> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure {
            message: format!("cannot write output: {e}; check the disk or the pipe it goes to"),
            code: EXIT_BAD_INPUT,
        }),
    }
}
