//! `dgscope watch`: the triage screen on live databases. Flags (or a config profile) name the
//! databases; the collector samples them on its own threads and the screen never waits.

use super::live::{self, LiveSource, Passwords, Terminal};
use super::record_live::Recorder;
use super::{screen, Failure};
use crate::app::Mode;
use crate::cli::oracle::WatchArgs;
use crate::config::{Config, Profile};
use crate::sample::Mark;
use crate::source::oracle::clock::SystemClock;
use crate::source::oracle::{init_client, OracleDriver};
use crate::source::SourceEvent;
use crate::timestamp::Timestamp;
use crate::tui::{self, TuiOptions};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// The profile's databases and settings under whatever the command line gave (the command
/// line wins: see `settings`).
pub fn apply_profile(
    args: &mut WatchArgs,
    name: &str,
    config: &Config,
) -> Result<Profile, Failure> {
    super::profile::apply_profile_conn(&mut args.conn, name, config)
}

/// Validates the flags (and that `--record FILE` can be created), loads the client library
/// (DPI-1047 → exit 3 with the install help), refuses a non-terminal, then asks for the
/// passwords and starts the collector; with `--record FILE`, the recorder every event goes
/// to as well.
pub fn prepare(
    args: &WatchArgs,
    passwords: &dyn Passwords,
    gate: &dyn Fn() -> Result<(), Failure>,
) -> Result<(LiveSource, Option<Recorder>), Failure> {
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
    let src = match started {
        Ok(s) => s,
        Err(f) => {
            if let Some((file, path)) = file {
                drop(file);
                let _ = std::fs::remove_file(path);
            }
            return Err(f);
        }
    };
    let recording = match file {
        Some((file, path)) => Some(Recorder::start(file, path, &src)?),
        None => None,
    };
    Ok((src, recording))
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
    let passwords = super::profile::WithProfile {
        inner: &Terminal,
        password: profile.as_ref().and_then(|p| p.password.as_ref()),
    };
    let (src, mut recording) = prepare(&args, &passwords, &|| Ok(tui::require_tty()?))?;
    let opts = TuiOptions::new(Mode::Live, src.describe.clone(), src.interval);
    let opts = screen::options(
        opts,
        &args.ui,
        &config,
        profile.as_ref().and_then(|p| p.theme.as_deref()),
    )?;
    let assessor = screen::assessor();
    let LiveSource {
        mut rx, collector, ..
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
