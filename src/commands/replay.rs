//! `dgscope replay FILE [--speed N]`: a recording played on the triage screen.

use super::Failure;
use crate::app::{Mode, Pace};
use crate::cli::ReplayArgs;
use crate::source::replay::{self, ReplaySource, MAX_SPEED};
use crate::source::PullSource;
use crate::tui::{self, TuiOptions};
use std::process::ExitCode;

pub fn run(a: ReplayArgs, config_flag: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    if !(a.speed.is_finite() && (0.25..=MAX_SPEED).contains(&a.speed)) {
        return Err(Failure::bad_input(format!(
            "--speed {}: must be between 0.25 and {MAX_SPEED} (1 = as recorded)",
            a.speed
        )));
    }
    let config = super::screen::config(config_flag)?;
    tui::require_tty()?;
    let source = ReplaySource::open(&a.file).map_err(Failure::bad_input)?;
    let opts = TuiOptions::new(Mode::Replay, source.describe(), source.interval());
    let mut opts = super::screen::options(opts, &a.ui, &config, None)?;
    opts.pace = Pace::Speed(a.speed);
    let assessor = super::screen::assessor(&config);
    let speed = a.speed;
    tui::launch(opts, assessor, move |tx, ctl| {
        replay::play(source, tx, ctl, speed)
    })
}

/// `dgscope themes`: the built-in themes (the default marked), then the user's own.
pub fn themes_list() -> Result<String, Failure> {
    let mut s = String::new();
    for (name, _) in crate::ui::theme::BUILTIN {
        let note = match name {
            "dark" => "  (default)",
            "mono" => "  (NO_COLOR, --no-color)",
            _ => "",
        };
        s.push_str(&format!("{name}{note}\n"));
    }
    if let Some(dir) = tui::user_theme_dir() {
        let user = crate::ui::theme::load_user_themes(&dir, false).map_err(Failure::bad_input)?;
        for t in user {
            s.push_str(&format!("{}  (user: {})\n", t.name, dir.display()));
        }
    }
    Ok(s)
}
