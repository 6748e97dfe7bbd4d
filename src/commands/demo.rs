//! `dgscope demo`: the triage screen on the built-in digital twin, paced to the wall clock.
//! `f` opens the fault menu, which switches the twin's scenario live.

use super::{screen, Failure};
use crate::app::{Mode, Pace};
use crate::cli::DemoArgs;
use crate::source::twin::{spawn_paced_after, Scenario, Twin};
use crate::source::PullSource;
use crate::timestamp::Timestamp;
use crate::tui::{self, TuiOptions};
use std::path::Path;
use std::process::ExitCode;

pub const MAX_SPEED: f64 = 64.0;

/// Simulated time run before the first frame: the default one-minute window, whole.
const PREROLL: std::time::Duration = std::time::Duration::from_secs(61);

pub fn run(a: DemoArgs, config_flag: Option<&Path>) -> Result<ExitCode, Failure> {
    if !(a.speed.is_finite() && (0.25..=MAX_SPEED).contains(&a.speed)) {
        return Err(Failure::bad_input(format!(
            "--speed {}: must be between 0.25 and {MAX_SPEED} (1 = real time)",
            a.speed
        )));
    }
    let config = screen::config(config_flag)?;
    if let Some(n) = a.fleet {
        return super::fleet::demo(&a, n, &config);
    }
    let profile = match &a.profile {
        Some(name) => Some(config.require_profile(name).map_err(Failure::bad_input)?),
        None => None,
    };
    let name = a
        .scenario
        .clone()
        .or_else(|| profile.and_then(|p| p.scenario.clone()))
        .unwrap_or_else(|| Scenario::HealthySync.name().to_string());
    let scenario: Scenario = name.parse().map_err(Failure::bad_input)?;
    tui::require_tty()?;
    // The twin is a simulation: it pre-rolls the default window's minute (and a second so
    // the window is whole) before the first frame, so the screen opens on figures and
    // judged causes instead of a minute of warming up. The header says "simulated".
    let interval = crate::source::twin::INTERVAL;
    let preroll = (PREROLL.as_millis() / interval.as_millis()) as u64;
    let start = Timestamp::from_millis(Timestamp::now().ms - PREROLL.as_millis() as i64);
    let twin = Twin::starting_at(scenario, a.seed, start);
    let opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
    let mut opts = screen::options(
        opts,
        &a.ui,
        &config,
        profile.and_then(|p| p.theme.as_deref()),
    )?;
    opts.pace = Pace::Speed(a.speed);
    opts.scenarios = Scenario::names().into_iter().map(String::from).collect();
    let assessor = screen::assessor();
    let speed = a.speed;
    let r = tui::launch(opts, assessor, move |tx, ctl| async move {
        let (twin_tx, twin_rx) = tokio::sync::mpsc::unbounded_channel();
        if spawn_paced_after(twin, preroll, speed, tx, twin_rx).is_err() {
            return;
        }
        super::pairs::forward_to_twin(ctl, twin_tx).await;
    });
    Ok(r?)
}
