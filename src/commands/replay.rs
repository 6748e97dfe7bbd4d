//! `dgscope replay FILE [--speed N]`: a recording played on the triage screen.

use super::Failure;
use crate::app::{Mode, Pace};
use crate::causes::Assessment;
use crate::cli::ReplayArgs;
use crate::source::replay::{self, ReplaySource, MAX_SPEED};
use crate::source::PullSource;
use crate::tui::{self, TuiOptions};
use std::process::ExitCode;
use tokio::sync::mpsc;

pub fn run(a: ReplayArgs) -> Result<ExitCode, Failure> {
    if !(a.speed.is_finite() && (0.25..=MAX_SPEED).contains(&a.speed)) {
        return Err(Failure::bad_input(format!(
            "--speed {}: must be between 0.25 and {MAX_SPEED} (1 = as recorded)",
            a.speed
        )));
    }
    tui::require_tty()?;
    let source = ReplaySource::open(&a.file).map_err(Failure::bad_input)?;
    let mut opts = TuiOptions::new(Mode::Replay, source.describe(), source.interval());
    opts.pace = Pace::Speed(a.speed);
    opts.theme = a.ui.theme.clone();
    opts.no_color = a.ui.no_color;
    opts.ascii = a.ui.ascii;
    // Until the causes engine lands, replay shows no findings (the pane says so).
    let assessor = Box::new(|_: &crate::metrics::Engine| Assessment::default());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure {
            message: format!("cannot start the runtime: {e}"),
            code: 1,
        })?;
    rt.block_on(async move {
        let (tx, rx) = mpsc::channel(1024);
        let (ctl_tx, ctl_rx) = mpsc::channel(16);
        let player = tokio::spawn(replay::play(source, tx, ctl_rx, a.speed));
        let r = tui::run(opts, rx, Some(ctl_tx), assessor).await;
        player.abort();
        r
    })
}
