//! Command-line arguments of the live Oracle commands (`watch`, `record` from databases,
//! `grants`). Kept apart from `cli/mod.rs` so the twin and report flags merge without conflict.

use crate::source::oracle::connect::holds_password;
use clap::{Args, ValueEnum};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A `--primary`/`--standby` value as typed. Never rejected by clap (clap would repeat the
/// value, password included, in its error); checked by `connect::parse`. Its `Debug`
/// redacts a value that holds a password.
#[derive(Clone, PartialEq, Eq)]
pub struct RawConn(pub String);

impl fmt::Debug for RawConn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if holds_password(&self.0) {
            f.write_str("RawConn(<redacted: contains a password>)")
        } else {
            write!(f, "RawConn({:?})", self.0)
        }
    }
}

fn raw_conn(s: &str) -> Result<RawConn, String> {
    Ok(RawConn(s.to_string()))
}

fn duration(s: &str) -> Result<Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("{e} (examples: 1s, 500ms, 2m)"))
}

/// How standbys are logged in to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StandbyAs {
    /// AS SYSDG (12c+): least privilege that works on a MOUNTED standby
    Sysdg,
    /// AS SYSDBA (needed on 11.2, which has no SYSDG)
    Sysdba,
    /// Normal login: enough for an open (Active Data Guard) standby
    Normal,
}

/// Which databases and how to reach them.
#[derive(Debug, Clone, Args)]
pub struct ConnArgs {
    /// Primary: USER@//HOST:PORT/SERVICE, USER@TNS_ALIAS or /@ALIAS (wallet). Never
    /// USER/PASSWORD@…
    #[arg(long, value_name = "CONN", value_parser = raw_conn)]
    pub primary: Option<RawConn>,
    /// Standby, same forms; repeat for several. NAME=CONN names its slot (standby:NAME)
    #[arg(long, value_name = "[NAME=]CONN", value_parser = raw_conn)]
    pub standby: Vec<RawConn>,
    /// Login for standbys: a MOUNTED standby accepts only administrative connections
    /// [default: sysdg]
    // No clap default: an explicit flag must be told apart from none (a profile's value
    // fills only what the command line left unset). Read it through `standby_as()`.
    #[arg(long, value_enum)]
    pub standby_as: Option<StandbyAs>,
    /// Read the password from this environment variable (else: prompt, or wallet)
    #[arg(long, value_name = "VAR")]
    pub password_env: Option<String>,
    /// Directory of Oracle Instant Client (else LD_LIBRARY_PATH / system paths)
    #[arg(long, value_name = "DIR", env = "DGSCOPE_ORACLE_CLIENT_DIR")]
    pub oracle_client_dir: Option<PathBuf>,
    /// Time between samples (all databases are sampled at the same instants) [default: 1s]
    // No clap default, as for --standby-as; read it through `interval()`.
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub interval: Option<Duration>,
    /// Limit on every database round trip
    #[arg(long, value_name = "DURATION", default_value = "10s", value_parser = duration)]
    pub call_timeout: Duration,
    /// Limit on establishing a connection
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = duration)]
    pub connect_timeout: Duration,
}

/// The interval when neither the command line, a profile nor the config file sets one.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(1);

impl ConnArgs {
    /// The sampling interval, the built-in default when nothing set it.
    pub fn interval(&self) -> Duration {
        self.interval.unwrap_or(DEFAULT_INTERVAL)
    }
    /// The standby login, SYSDG when nothing set it.
    pub fn standby_as(&self) -> StandbyAs {
        self.standby_as.unwrap_or(StandbyAs::Sysdg)
    }
}

#[derive(Debug, Clone, Args)]
#[command(after_help = "Examples:\n  \
  DGSCOPE_PW=… dgscope watch --primary mon@//dbhost1:1521/prod_a --standby mon@//dbhost2:1521/prod_b --password-env DGSCOPE_PW\n  \
  dgscope watch --primary /@prod_a --standby /@prod_b          (wallet)\n  \
  dgscope watch prod                                             (a config profile)\n  \
  dgscope watch prod_a prod_b      /  dgscope watch --all-profiles  (the fleet board)\n\n\
See docs/ORACLE.md for Instant Client, grants, wallets and SYSDG.")]
pub struct WatchArgs {
    /// Profiles from the config file (primary, standbys, privilege, interval, theme): one
    /// opens its triage screen, several the fleet board
    #[arg(value_name = "PROFILE")]
    pub profiles: Vec<String>,
    /// The fleet board over every profile of the config file (live and twin profiles alike)
    #[arg(long)]
    pub all_profiles: bool,
    #[command(flatten)]
    pub conn: ConnArgs,
    /// Also write every sample to this recording (.jsonl)
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub ui: super::UiArgs,
}

impl WatchArgs {
    /// The one profile of a single pair's screen (`None` with none, several or
    /// `--all-profiles`: see [`WatchArgs::board`]).
    pub fn profile(&self) -> Option<&str> {
        match self.profiles.as_slice() {
            [one] if !self.all_profiles => Some(one),
            _ => None,
        }
    }

    /// Whether the fleet board opens: several profiles, or `--all-profiles`.
    pub fn board(&self) -> bool {
        self.all_profiles || self.profiles.len() > 1
    }
}

#[derive(Debug, Clone, Args)]
pub struct GrantsArgs {
    /// A config profile: the monitoring user is its primary's user name
    pub profile: Option<String>,
    /// Name of the monitoring user (C##NAME for a CDB common user) [default: the profile's
    /// user, else DGSCOPE]
    #[arg(long, value_name = "NAME")]
    pub user: Option<String>,
    /// The Oracle release the script is for (11.2, 12.1, 12.2, 19c …): picks SYSDG (12c+)
    /// or SYSDBA (11.2) and only the views that release's SQL reads; without it both
    /// privilege variants are shown
    #[arg(long, value_name = "VERSION")]
    pub release: Option<String>,
    /// The database is a CDB (12.1+): a common user, CONTAINER=ALL grants and
    /// CONTAINER_DATA=ALL so the V$ views show every container's rows
    #[arg(long)]
    pub cdb: bool,
}
