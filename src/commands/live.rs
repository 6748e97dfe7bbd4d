//! Shared setup of the live Oracle commands (`watch`, `record` from databases): validate
//! flags and connect strings, get passwords, load the client library, start the collector.
//! Everything that can fail because of the user's input fails here, before any screen.

use super::{Failure, EXIT_BAD_INPUT};
use crate::cli::oracle::{ConnArgs, StandbyAs};
use crate::sample::Slot;
use crate::source::oracle::clock::Clock;
use crate::source::oracle::collector::{spawn_collector_with_clock, CollectorConfig, TargetConfig};
use crate::source::oracle::connect::{self, ConnSpec, Privilege};
use crate::source::oracle::driver::{Driver, LoginSpec};
use crate::source::oracle::errors::{client_library_help, ErrCode, OraError};
use crate::source::oracle::{CollectorHandle, Secret};
use crate::source::SourceEvent;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Exit code when dgscope cannot do its job for reasons outside the input (no client
/// library): the house's UNKNOWN.
pub const EXIT_UNKNOWN: u8 = 3;

/// A running collector and the channel it feeds: what the TUI (or the recorder) consumes.
pub struct LiveSource {
    pub rx: mpsc::Receiver<SourceEvent>,
    pub collector: CollectorHandle,
    /// For the recording header's `source` (no passwords).
    pub describe: String,
    pub interval: Duration,
    /// In display order: primary first.
    pub slots: Vec<Slot>,
}

/// The validated flags, before any secret is read.
#[derive(Debug, Clone)]
pub struct Plan {
    pub targets: Vec<(Slot, ConnSpec, Privilege)>,
    pub interval: Duration,
    pub call_timeout: Duration,
    pub connect_timeout: Duration,
    pub client_dir: Option<std::path::PathBuf>,
    pub password_env: Option<String>,
}

/// Where passwords come from: the environment and the terminal. A seam for tests.
pub trait Passwords {
    fn env(&self, var: &str) -> Option<String>;
    fn stdin_is_tty(&self) -> bool;
    fn prompt(&self, text: &str) -> std::io::Result<String>;
}

/// The real environment and terminal.
pub struct Terminal;

impl Passwords for Terminal {
    fn env(&self, var: &str) -> Option<String> {
        std::env::var(var).ok()
    }
    fn stdin_is_tty(&self) -> bool {
        use std::io::IsTerminal;
        std::io::stdin().is_terminal()
    }
    fn prompt(&self, text: &str) -> std::io::Result<String> {
        rpassword::prompt_password(text)
    }
}

fn bad(msg: impl Into<String>) -> Failure {
    Failure {
        message: msg.into(),
        code: EXIT_BAD_INPUT,
    }
}

/// Checks flags and connect strings. No I/O, no secrets.
pub fn plan(a: &ConnArgs) -> Result<Plan, Failure> {
    if a.primary.is_none() && a.standby.is_empty() {
        return Err(bad(
            "no database given: add --primary USER@//HOST:PORT/SERVICE and/or --standby …; see --help",
        ));
    }
    let mut targets = Vec::new();
    if let Some(p) = &a.primary {
        let spec = connect::parse("--primary", &p.0).map_err(|e| bad(e.0))?;
        targets.push((Slot::primary(), spec, Privilege::Normal));
    }
    let privilege = match a.standby_as() {
        StandbyAs::Sysdg => Privilege::Sysdg,
        StandbyAs::Sysdba => Privilege::Sysdba,
        StandbyAs::Normal => Privilege::Normal,
    };
    let mut specs = Vec::new();
    for s in &a.standby {
        specs.push(connect::parse("--standby", &s.0).map_err(|e| bad(e.0))?);
    }
    let single = specs.len() == 1;
    let mut used: BTreeMap<String, u32> = BTreeMap::new();
    for spec in specs {
        let slot = if single {
            Slot::standby()
        } else {
            let n = used.entry(spec.name.clone()).or_insert(0);
            *n += 1;
            let name = if *n == 1 {
                spec.name.clone()
            } else {
                format!("{}-{}", spec.name, n)
            };
            Slot::named_standby(&name)
        };
        targets.push((slot, spec, privilege));
    }
    let within = |flag: &str, d: Duration, min: Duration, max: Duration| {
        if d < min || d > max {
            Err(bad(format!(
                "{flag} {} is out of range: use {} to {}",
                humantime::format_duration(d),
                humantime::format_duration(min),
                humantime::format_duration(max)
            )))
        } else {
            Ok(())
        }
    };
    within(
        "--interval",
        a.interval(),
        Duration::from_millis(100),
        Duration::from_secs(3600),
    )?;
    within(
        "--call-timeout",
        a.call_timeout,
        Duration::from_secs(1),
        Duration::from_secs(600),
    )?;
    within(
        "--connect-timeout",
        a.connect_timeout,
        Duration::from_secs(1),
        Duration::from_secs(600),
    )?;
    if let Some(var) = &a.password_env {
        if var.is_empty() || var.contains('=') || var.contains('\0') {
            return Err(bad(format!(
                "--password-env takes the NAME of an environment variable (e.g. DGSCOPE_PW), got {:?}",
                if var.len() > 40 { "a long value" } else { var.as_str() }
            )));
        }
    }
    Ok(Plan {
        targets,
        interval: a.interval(),
        call_timeout: a.call_timeout,
        connect_timeout: a.connect_timeout,
        client_dir: a.oracle_client_dir.clone(),
        password_env: a.password_env.clone(),
    })
}

/// Users that need a password (external authentication needs none).
fn users(plan: &Plan) -> Vec<String> {
    let mut u: Vec<String> = plan
        .targets
        .iter()
        .filter_map(|(_, s, _)| s.user.clone())
        .collect();
    u.sort();
    u.dedup();
    u
}

/// Fails early when no password can be had, before loading the client library.
pub fn check_password_source(plan: &Plan, pw: &dyn Passwords) -> Result<(), Failure> {
    if users(plan).is_empty() {
        return Ok(());
    }
    match &plan.password_env {
        Some(var) => match pw.env(var) {
            Some(v) if !v.is_empty() => Ok(()),
            _ => Err(bad(format!(
                "--password-env {var}: the variable is not set or empty; export it, or leave \
                 out --password-env to be prompted"
            ))),
        },
        None if pw.stdin_is_tty() => Ok(()),
        None => Err(bad(
            "no password: stdin is not a terminal, so dgscope cannot prompt; use \
             --password-env VAR or a wallet (/@alias)",
        )),
    }
}

/// One password per user name: from the variable, else prompted once per user.
pub fn read_passwords(
    plan: &Plan,
    pw: &dyn Passwords,
) -> Result<BTreeMap<String, Secret>, Failure> {
    let mut out = BTreeMap::new();
    for user in users(plan) {
        let secret = match &plan.password_env {
            Some(var) => Secret::new(pw.env(var).unwrap_or_default()),
            None => {
                let text = pw
                    .prompt(&format!("Password for {user}: "))
                    .map_err(|e| bad(format!("cannot read the password from the terminal: {e}")))?;
                Secret::new(text)
            }
        };
        if secret.is_empty() {
            return Err(bad(format!("empty password for {user}")));
        }
        out.insert(user, secret);
    }
    Ok(out)
}

/// The DPI-1047 explanation (exit 3) or another load failure.
pub fn client_failure(e: &OraError, dir: Option<&Path>) -> Failure {
    tracing::warn!(
        code = %e.code,
        class = "no_client_library",
        dir = dir.map_or_else(|| "-".to_string(), |d| d.display().to_string()),
        "cannot load the Oracle Client library: {}",
        e.message.lines().next().unwrap_or("")
    );
    let message = if e.code == ErrCode::Dpi(1047) {
        client_library_help(e, dir)
    } else {
        format!(
            "cannot initialise the Oracle Client library: {}",
            e.message.lines().next().unwrap_or("")
        )
    };
    Failure {
        message,
        code: EXIT_UNKNOWN,
    }
}

pub fn collector_config(plan: &Plan, passwords: &BTreeMap<String, Secret>) -> CollectorConfig {
    let targets = plan
        .targets
        .iter()
        .map(|(slot, spec, privilege)| TargetConfig {
            slot: slot.clone(),
            login: LoginSpec {
                conn: spec.clone(),
                privilege: *privilege,
                password: spec.user.as_ref().and_then(|u| passwords.get(u).cloned()),
                call_timeout: plan.call_timeout,
            },
        })
        .collect();
    let mut c = CollectorConfig::new(targets, plan.interval);
    c.connect_timeout = plan.connect_timeout;
    c
}

/// The sequence with every outside dependency injected: validate → check a password can be
/// had → load the client library (fail fast, DPI-1047) → read/prompt passwords → spawn.
pub fn start_with(
    args: &ConnArgs,
    pw: &dyn Passwords,
    init: impl FnOnce(Option<&Path>) -> Result<(), OraError>,
    driver: Arc<dyn Driver>,
    clock: Arc<dyn Clock>,
) -> Result<LiveSource, Failure> {
    start_gated(args, pw, init, driver, clock, &|| Ok(()))
}

/// As [`start_with`], with `gate` run after the client library loaded and before any
/// password is asked for: the screen refuses a non-terminal there, so nobody types a
/// password only to be turned away.
pub fn start_gated(
    args: &ConnArgs,
    pw: &dyn Passwords,
    init: impl FnOnce(Option<&Path>) -> Result<(), OraError>,
    driver: Arc<dyn Driver>,
    clock: Arc<dyn Clock>,
    gate: &dyn Fn() -> Result<(), Failure>,
) -> Result<LiveSource, Failure> {
    let plan = plan(args)?;
    check_password_source(&plan, pw)?;
    init(plan.client_dir.as_deref()).map_err(|e| client_failure(&e, plan.client_dir.as_deref()))?;
    gate()?;
    let passwords = read_passwords(&plan, pw)?;
    let config = collector_config(&plan, &passwords);
    drop(passwords);
    let describe = config.describe();
    let slots = config.targets.iter().map(|t| t.slot.clone()).collect();
    let (tx, rx) = mpsc::channel(1024);
    let collector = spawn_collector_with_clock(config, driver, clock, tx);
    Ok(LiveSource {
        rx,
        collector,
        describe,
        interval: plan.interval,
        slots,
    })
}
