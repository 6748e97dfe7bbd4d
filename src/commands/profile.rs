//! Config profiles for the live commands: a profile's databases and settings filled into a
//! command's connection flags, and its own password offered to the password reader. What
//! `watch`, `record`, `check`, `serve`, the fleet board and `bugreport` share, so none of them
//! reaches into another.

use super::live::{self, LiveSource, Passwords, Terminal};
use super::Failure;
use crate::cli::oracle::{ConnArgs, RawConn};
use crate::config::{Config, Profile};
use crate::source::oracle::clock::SystemClock;
use crate::source::oracle::{OracleDriver, Secret};
use std::sync::Arc;

/// The name under which a profile's own password is offered to the password reader.
const PROFILE_PASSWORD: &str = "dgscope profile password";

/// The terminal's passwords, plus a profile's `password` (from a mode-0600 config file).
pub(crate) struct WithProfile<'a> {
    pub inner: &'a dyn Passwords,
    pub password: Option<&'a Secret>,
}

impl Passwords for WithProfile<'_> {
    fn env(&self, var: &str) -> Option<String> {
        match (var, self.password) {
            (PROFILE_PASSWORD, Some(p)) => Some(p.expose().to_string()),
            _ => self.inner.env(var),
        }
    }
    fn stdin_is_tty(&self) -> bool {
        self.inner.stdin_is_tty()
    }
    fn prompt(&self, text: &str) -> std::io::Result<String> {
        self.inner.prompt(text)
    }
}

/// A profile's databases and settings filled into a live command's connection flags, under
/// whatever the command line gave (the command line wins: see `settings`).
pub fn apply_profile_conn(
    c: &mut ConnArgs,
    name: &str,
    config: &Config,
) -> Result<Profile, Failure> {
    let p = config
        .require_profile(name)
        .map_err(Failure::bad_input)?
        .clone();
    if p.scenario.is_some() && p.primary.is_none() {
        return Err(Failure::bad_input(format!(
            "profile {name:?} is a twin scenario; run it with `dgscope demo {name}`"
        )));
    }
    if c.primary.is_none() {
        c.primary = p.primary.clone().map(RawConn);
    }
    if c.standby.is_empty() {
        c.standby = p.standby.iter().cloned().map(RawConn).collect();
    }
    super::settings::fill_conn(c, Some(&p), config)?;
    if c.password_env.is_none() {
        c.password_env = p.password_env.clone();
        if p.password.is_some() {
            c.password_env = Some(PROFILE_PASSWORD.to_string());
        }
    }
    if c.oracle_client_dir.is_none() {
        c.oracle_client_dir = p.oracle_client_dir.clone();
    }
    Ok(p)
}

/// What a profile names for a headless command (`check`, `record`): a twin scenario or
/// databases (filled into `conn` as `watch PROFILE` does).
pub enum ProfileSource {
    Twin(String),
    Databases,
}

/// Applies profile `name` to a headless command's connection flags.
pub fn headless_profile(
    conn: &mut ConnArgs,
    name: &str,
    config: &Config,
    command: &str,
) -> Result<(Profile, ProfileSource), Failure> {
    let p = config
        .require_profile(name)
        .map_err(Failure::bad_input)?
        .clone();
    if p.primary.is_none() {
        // validate() guarantees a profile without primary has a scenario.
        let scenario = p.scenario.clone().unwrap_or_default();
        super::settings::fill_conn(conn, Some(&p), config)?;
        return Ok((p, ProfileSource::Twin(scenario)));
    }
    let p = apply_profile_conn(conn, name, config)
        .map_err(|f| Failure::bad_input(format!("{command} {name}: {}", f.message)))?;
    Ok((p, ProfileSource::Databases))
}

/// Everything, with the real driver, client library and terminal; `profile_password` is a
/// profile's own `password` (see [`apply_profile_conn`]).
pub fn start_live(
    args: &ConnArgs,
    profile_password: Option<&Secret>,
) -> Result<LiveSource, Failure> {
    live::start_with(
        args,
        &WithProfile {
            inner: &Terminal,
            password: profile_password,
        },
        crate::source::oracle::init_client,
        Arc::new(OracleDriver),
        Arc::new(SystemClock),
    )
}
