//! `dgscope replay FILE [--speed N]`: a recording played on the triage screen.

use super::Failure;
use crate::app::{Mode, Pace};
use crate::cli::ReplayArgs;
use crate::source::replay::{self, ReplaySource, MAX_SPEED};
use crate::source::PullSource;
use crate::source::StartAt;
use crate::tui::{self, TuiOptions};
use std::process::ExitCode;

pub fn run(a: ReplayArgs, config_flag: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    if !(a.speed.is_finite() && (0.25..=MAX_SPEED).contains(&a.speed)) {
        return Err(Failure::bad_input(format!(
            "--speed {}: must be between 0.25 and {MAX_SPEED} (1 = as recorded)",
            a.speed
        )));
    }
    let from = a.from.as_deref().map(start_at).transpose()?;
    let config = super::screen::config(config_flag)?;
    tui::require_tty()?;
    let opened = match from {
        None => ReplaySource::open(&a.file),
        Some(at) => ReplaySource::open_from(&a.file, at, LOADED_BEFORE).map(|(s, _)| s),
    };
    let source = match opened {
        Ok(source) => source,
        // Not a recording from its first line: an AWR or Statspack report opens as one
        // window. A file that is neither keeps the recording's message; a report that cannot
        // be shown says why.
        Err(e) if e.not_a_recording() => {
            return match crate::report::awr::source(&a.file) {
                Ok(_) if a.from.is_some() => Err(Failure::bad_input(format!(
                    "{}: --from is for recordings: a report is one window, shown whole; drop --from",
                    a.file.display()
                ))),
                Ok(report) => self::report(&a, &config, report),
                Err(r) => Err(Failure::bad_input(crate::report::awr::neither(&e, &r))),
            };
        }
        Err(e) => return Err(Failure::bad_input(e)),
    };
    let opts = TuiOptions::new(Mode::Replay, source.describe(), source.interval());
    let mut opts = super::screen::options(opts, &a.ui, &config, None)?;
    opts.pace = Pace::Speed(a.speed);
    let assessor = super::screen::assessor();
    let speed = a.speed;
    let damage = source.damage();
    let r = tui::launch(opts, assessor, move |tx, ctl| {
        replay::play(source, tx, ctl, speed)
    })?;
    // A long recording was read through behind the screen and a line was damaged: the
    // header said so; the whole message and exit 2 now that the terminal is back.
    if let Some(message) = damage.as_ref().and_then(|d| d.get()) {
        return Err(Failure::bad_input(format!(
            "{message} (replay stops before that line)"
        )));
    }
    Ok(r)
}

/// What `replay --from` loads before the start, sent at once: the longest fixed window the
/// screen offers, so any window shows whole on the first frame.
const LOADED_BEFORE: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// `--from WHEN`: `end`, `-2h` (before the end), `1h30m` (after the first sample) or an RFC
/// 3339 time.
fn start_at(when: &str) -> Result<StartAt, Failure> {
    let bad = || {
        Failure::bad_input(format!(
            "--from {when}: neither `end`, a time before the end (-2h), an offset from the first sample (1h30m) nor an RFC 3339 time (2026-11-30T05:00:00Z)"
        ))
    };
    let when = when.trim();
    if when.eq_ignore_ascii_case("end") {
        return Ok(StartAt::BeforeEnd(std::time::Duration::ZERO));
    }
    if let Some(before) = when.strip_prefix('-') {
        return humantime::parse_duration(before.trim())
            .map(StartAt::BeforeEnd)
            .map_err(|_| bad());
    }
    match dgscope_core::metrics::WindowSpec::parse(&format!("{when}..")) {
        Ok(w) => match w.from {
            dgscope_core::metrics::WindowBound::Offset(d) => Ok(StartAt::Offset(d)),
            dgscope_core::metrics::WindowBound::At(t) => Ok(StartAt::At(t)),
            dgscope_core::metrics::WindowBound::Open => Err(bad()),
        },
        Err(_) => Err(bad()),
    }
}

/// A report on the triage screen: one observation of its snapshot interval, both snapshots
/// sent at once (there is nothing to pace), judged over the whole window as `report awr`
/// judges it. What the reader could not find is said on the timeline.
fn report(
    a: &ReplayArgs,
    config: &crate::config::Config,
    report: crate::report::awr::ReportSource,
) -> Result<ExitCode, Failure> {
    use crate::sample::Mark;
    use crate::source::SourceEvent;
    let describe = format!("awr:{}", a.file.display());
    let mut opts = TuiOptions::new(Mode::Replay, describe, report.window);
    opts.one_window = Some(report.window);
    opts.cite = Some(crate::report::awr::cite);
    // Nothing to pace: `+`/`-` say so.
    opts.pace = Pace::Fixed;
    let opts = super::screen::options(opts, &a.ui, config, None)?;
    let [begin, end] = report.samples;
    let notes: Vec<Mark> = report
        .report
        .warnings
        .iter()
        .map(|w| Mark {
            t: end.t,
            text: format!("report: {w}"),
        })
        .collect();
    let r = tui::launch(
        opts,
        super::screen::assessor(),
        move |tx, _control| async move {
            let events = [begin, end]
                .map(|s| SourceEvent::Sample(Box::new(s)))
                .into_iter()
                .chain(notes.into_iter().map(SourceEvent::Mark))
                .chain([SourceEvent::End]);
            for ev in events {
                if tx.send(ev).await.is_err() {
                    return;
                }
            }
        },
    );
    Ok(r?)
}

/// `dgscope themes`: the built-in themes (the default marked), then the user's own, each with
/// a preview of its colours when stdout is a colour terminal.
pub fn themes_list() -> Result<String, Failure> {
    use std::io::IsTerminal;
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let truecolor =
        crate::ui::theme::truecolor_from_env(std::env::var("COLORTERM").ok().as_deref());
    let mut themes: Vec<(crate::ui::theme::Theme, String)> =
        crate::ui::theme::Theme::all_builtin(truecolor)
            .into_iter()
            .map(|t| {
                let note = match t.name.as_str() {
                    "dark" => "(default)".to_string(),
                    "mono" => "(NO_COLOR, --no-color)".to_string(),
                    _ => String::new(),
                };
                (t, note)
            })
            .collect();
    if let Some(dir) = tui::user_theme_dir() {
        let user =
            crate::ui::theme::load_user_themes(&dir, truecolor).map_err(Failure::bad_input)?;
        for t in user {
            themes.push((t, format!("(user: {})", dir.display())));
        }
    }
    let mut s = String::new();
    for (t, note) in &themes {
        let preview = if colour { swatches(t) } else { String::new() };
        let line = format!("{:<16}{preview}  {note}", t.name);
        s.push_str(line.trim_end());
        s.push('\n');
    }
    Ok(s)
}

/// Coloured blocks for the roles a DBA notices first: severities and the chart series.
fn swatches(t: &crate::ui::theme::Theme) -> String {
    use crate::ui::theme::Role;
    use ratatui::style::Color;
    let sgr = |c: Color| -> Option<String> {
        Some(match c {
            Color::Rgb(r, g, b) => format!("38;2;{r};{g};{b}"),
            Color::Indexed(i) => format!("38;5;{i}"),
            Color::Reset => return None,
            other => {
                let n = match other {
                    Color::Black => 30,
                    Color::Red => 31,
                    Color::Green => 32,
                    Color::Yellow => 33,
                    Color::Blue => 34,
                    Color::Magenta => 35,
                    Color::Cyan => 36,
                    Color::Gray => 37,
                    Color::DarkGray => 90,
                    Color::LightRed => 91,
                    Color::LightGreen => 92,
                    Color::LightYellow => 93,
                    Color::LightBlue => 94,
                    Color::LightMagenta => 95,
                    Color::LightCyan => 96,
                    _ => 97,
                };
                n.to_string()
            }
        })
    };
    let mut out = String::new();
    for role in [
        Role::Ok,
        Role::Warn,
        Role::Crit,
        Role::SeriesLfs,
        Role::SeriesLfpw,
        Role::SeriesRemote,
        Role::SeriesTransport,
        Role::SeriesApply,
    ] {
        match sgr(t.color(role)) {
            Some(code) => out.push_str(&format!("\x1b[{code}m██\x1b[0m")),
            None => out.push_str("██"),
        }
    }
    out
}
