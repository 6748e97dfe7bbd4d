//! `dgscope watch`: the triage screen on live databases. Flags (or a config profile) name the
//! databases; the collector samples them on its own threads and the screen never waits.

use super::live::{self, LiveSource, Passwords, Terminal};
use super::record_live::Recorder;
use super::{screen, Failure};
use crate::app::Mode;
use crate::cli::oracle::{ConnArgs, RawConn, WatchArgs};
use crate::config::{Config, Profile};
use crate::sample::Mark;
use crate::source::oracle::clock::SystemClock;
use crate::source::oracle::{init_client, OracleDriver, Secret};
use crate::source::SourceEvent;
use crate::timestamp::Timestamp;
use crate::tui::{self, TuiOptions};
use std::path::Path;
use std::process::ExitCode;
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

/// The profile's databases and settings under whatever the command line gave (the command
/// line wins: see `settings`).
pub fn apply_profile(
    args: &mut WatchArgs,
    name: &str,
    config: &Config,
) -> Result<Profile, Failure> {
    apply_profile_conn(&mut args.conn, name, config)
}

/// As [`apply_profile`], on the connection flags of any live command.
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

/// Validates the flags (and that `--record FILE` can be created), loads the client library
/// (DPI-1047 → exit 3 with the install help), refuses a non-terminal, then asks for the
/// passwords and starts the collector.
pub fn prepare(
    args: &WatchArgs,
    passwords: &dyn Passwords,
    gate: &dyn Fn() -> Result<(), Failure>,
) -> Result<LiveSource, Failure> {
    let file = match &args.record {
        Some(path) => Some((Recorder::open(path)?, path)),
        None => None,
    };
    let started = live::start_gated(
        &args.conn,
        passwords,
        init_client,
        Arc::new(OracleDriver),
        Arc::new(SystemClock),
        gate,
    );
    let mut src = match started {
        Ok(s) => s,
        Err(f) => {
            if let Some((file, path)) = file {
                drop(file);
                let _ = std::fs::remove_file(path);
            }
            return Err(f);
        }
    };
    if let Some((file, path)) = file {
        src.recording = Some(Recorder::start(file, path, &src)?);
    }
    Ok(src)
}

pub fn run(mut args: WatchArgs, config_flag: Option<&Path>) -> Result<ExitCode, Failure> {
    let config = screen::config(config_flag)?;
    if args.board() {
        return super::fleet::watch(&args, &config);
    }
    let profile = match args.profile().map(String::from) {
        Some(name) => Some(apply_profile(&mut args, &name, &config)?),
        None => {
            super::settings::fill_conn(&mut args.conn, None, &config)?;
            None
        }
    };
    let theme = super::settings::theme(
        args.ui.theme.as_deref(),
        profile.as_ref().and_then(|p| p.theme.as_deref()),
        &config,
    );
    tracing::info!(
        profile = args.profile().unwrap_or("-"),
        interval = %humantime::format_duration(args.conn.interval()),
        standby_as = ?args.conn.standby_as(),
        theme = theme.map_or("default", |t| t.0),
        theme_from = theme.map_or("default", |t| t.1),
        "watch settings"
    );
    if args.conn.primary.is_none() && args.conn.standby.is_empty() {
        return Err(Failure::bad_input(
            "watch needs databases: --primary CONN [--standby CONN …], or a profile name from the config file",
        ));
    }
    let passwords = WithProfile {
        inner: &Terminal,
        password: profile.as_ref().and_then(|p| p.password.as_ref()),
    };
    let src = prepare(&args, &passwords, &|| Ok(tui::require_tty()?))?;
    let opts = TuiOptions::new(Mode::Live, src.describe.clone(), src.interval);
    let opts = screen::options(
        opts,
        &args.ui,
        &config,
        profile.as_ref().and_then(|p| p.theme.as_deref()),
    )?;
    let assessor = screen::assessor();
    let LiveSource {
        mut rx,
        collector,
        mut recording,
        ..
    } = src;
    let result = tui::launch(opts, assessor, move |tx, mut ctl| async move {
        loop {
            tokio::select! {
                ev = rx.recv() => {
                    let Some(ev) = ev else { break };
                    // A recording that cannot be written (disk full) stops, and says so on the
                    // timeline: the screen owns the terminal, nothing may print there.
                    if let Some(Err(f)) = recording.as_mut().map(|r| r.on_event(&ev)) {
                        recording = None;
                        let note = Mark { t: Timestamp::now(), text: format!("recording stopped: {}", f.message) };
                        let _ = tx.send(SourceEvent::Mark(note)).await;
                    }
                    let end = matches!(ev, SourceEvent::End);
                    if tx.send(ev).await.is_err() || end {
                        break;
                    }
                }
                // Live databases have no speed or pause; the screen pauses its own display.
                c = ctl.recv() => if c.is_none() { break },
            }
        }
    });
    collector.stop();
    if let Some(path) = &args.record {
        tracing::info!(path = %path.display(), "recording stopped (watch ended)");
    }
    Ok(result?)
}
