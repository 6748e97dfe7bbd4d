//! `update(&mut App, Action)`: the pure state machine. No clock, no I/O: what needs either is
//! queued as an [`Effect`] for the event loop.

use super::action::Action;
use super::control::{Control, Pace};
use super::state::{App, Effect, Mode, Overlay, Pane, Screen, ThemeName};
use dgscope_core::metrics::Window;

pub fn update<T: ThemeName>(app: &mut App<T>, action: Action) {
    // A status line describes the last action only.
    if !matches!(action, Action::Char(_) | Action::DeleteChar) {
        app.status = None;
    }
    if super::search::handle(app, action) {
        return;
    }
    if let Some(overlay) = app.overlay.clone() {
        if handle_overlay(app, overlay, action) {
            return;
        }
    }
    match action {
        Action::Quit => app.effects.push(Effect::Quit { keep_frame: false }),
        Action::QuitKeepFrame => app.effects.push(Effect::Quit { keep_frame: true }),
        Action::Help => app.overlay = Some(Overlay::Help),
        Action::Impact => app.overlay = Some(Overlay::Impact),
        Action::FocusNext => set_focus(app, app.focus.next()),
        Action::FocusPrev => set_focus(app, app.focus.prev()),
        Action::Focus(n) => {
            if let Some(p) = Pane::from_number(n) {
                set_focus(app, p)
            }
        }
        Action::Down => move_selection(app, 1),
        Action::Up => move_selection(app, -1),
        Action::Top => move_selection(app, i64::MIN / 2),
        Action::Bottom => move_selection(app, i64::MAX / 2),
        Action::Enter => {
            if app.screen == Screen::Main {
                app.scroll = 0;
                app.screen = if app.focus == Pane::Causes && !app.assessment.findings.is_empty() {
                    Screen::Cause(app.selected)
                } else {
                    Screen::Zoom(app.focus)
                };
            }
        }
        Action::Back => {
            app.screen = Screen::Main;
            app.scroll = 0;
        }
        Action::CycleWindow if app.cfg.one_window.is_some() => {
            // Two snapshots: no shorter window inside the report has data.
            app.status = Some("a report is one window: its snapshots, begin to end".into());
        }
        Action::CycleWindow => {
            app.window = app.window.next();
            // "since baseline" means nothing without one: skip it.
            if app.window == Window::SinceBaseline && app.engine().baseline().is_none() {
                app.window = app.window.next();
            }
        }
        Action::ToggleScale => app.log_scale = !app.log_scale,
        Action::SetBaseline => {
            let standby = app.standby().cloned();
            app.baseline_deltas = Some(app.engine().window_deltas(app.window, standby.as_ref()));
            app.baseline_switches_h = app.switches_per_hour(None);
            app.set_baseline();
            let at = app
                .engine()
                .baseline()
                .map(|t| t.clock())
                .unwrap_or_default();
            app.status = Some(format!("baseline set at {at} (window {})", app.window));
        }
        Action::ClearBaseline => {
            app.clear_baseline();
            app.baseline_deltas = None;
            app.baseline_switches_h = None;
            if app.window == Window::SinceBaseline {
                app.window = app.window.next();
            }
            app.status = Some("baseline cleared".into());
        }
        Action::TogglePause => {
            if app.paused_at.is_some() {
                resume(app);
            } else {
                app.paused_at = app.timeline().last().copied().or(app.engine().latest());
                if app.paused_at.is_some() {
                    app.effects.push(Effect::Control(Control::Pause(true)));
                }
            }
        }
        Action::ScrubBack => scrub(app, -1),
        Action::ScrubForward => scrub(app, 1),
        Action::ScrubBack10 => scrub(app, -10),
        Action::ScrubForward10 => scrub(app, 10),
        Action::Live => {
            if app.paused_at.is_some() {
                resume(app)
            }
        }
        Action::Faster | Action::Slower => {
            let next = if action == Action::Faster {
                app.pace.faster()
            } else {
                app.pace.slower()
            };
            if let Some(c) = next.control() {
                app.pace = next;
                app.effects.push(Effect::Control(c));
            } else {
                app.status = Some("this source's pace is fixed".into());
            }
        }
        Action::ToggleRecording => app.effects.push(Effect::ToggleRecording),
        Action::Mark => {
            app.overlay = Some(Overlay::MarkInput {
                text: String::new(),
            })
        }
        Action::Copy => app.effects.push(Effect::Copy),
        Action::Report => app.effects.push(Effect::WriteReport),
        Action::CycleTheme => {
            let n = app.cfg.themes.len().max(1);
            app.theme_idx = (app.theme_idx + 1) % n;
            app.status = Some(format!("theme {}", app.theme().name()));
        }
        Action::FaultMenu => {
            if app.cfg.scenarios.is_empty() {
                app.status = Some("the fault menu is for the demo (twin) only".into());
            } else {
                app.overlay = Some(Overlay::FaultMenu { selected: 0 });
            }
        }
        Action::PrevStandby | Action::NextStandby => {
            let n = app.engine().standby_slots().len();
            if n == 0 {
                app.status = Some("no standby to choose: none is monitored".into());
            } else if n == 1 {
                app.status = Some(
                    "only one standby: [ and ] choose among several (watch --standby A --standby B)"
                        .into(),
                );
            } else {
                let i = app.standby_idx.min(n - 1);
                app.standby_idx = if action == Action::NextStandby {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                };
                app.status = app.standby().map(|s| {
                    let name = app
                        .engine()
                        .slot(s)
                        .and_then(|x| x.last_good())
                        .and_then(|x| x.db.as_ref())
                        .and_then(|d| d.name.as_deref().map(String::from))
                        .unwrap_or_else(|| s.to_string());
                    format!("standby panes show {name} ({} of {n})", app.standby_idx + 1)
                });
            }
        }
        Action::CycleInstance => {
            let ids = app.primary_instances();
            if ids.is_empty() {
                app.commit_inst = None;
                app.status =
                    Some("single instance: the commit path has no instances to switch".into());
            } else {
                let next = match app
                    .commit_inst
                    .and_then(|c| ids.iter().position(|i| i.0 == c))
                {
                    None => Some(0),
                    Some(k) if k + 1 < ids.len() => Some(k + 1),
                    Some(_) => None,
                };
                app.commit_inst = next.map(|k| ids[k].0);
                app.status = Some(match next {
                    Some(k) => format!(
                        "commit path: {}",
                        dgscope_model::display::instance_label(ids[k].0, ids[k].1.as_deref())
                    ),
                    None => "commit path: all instances".into(),
                });
            }
        }
        Action::Configuration => {
            app.scroll = 0;
            app.screen = if app.screen == Screen::Members {
                Screen::Main
            } else {
                Screen::Members
            };
        }
        Action::WaitsNow => {
            app.scroll = 0;
            app.screen = if app.screen == Screen::Waits {
                Screen::Main
            } else {
                Screen::Waits
            };
        }
        // Taken by the search when one is open (see `search::handle`).
        Action::Search | Action::SearchNext | Action::SearchPrev => {}
        Action::Char(_) | Action::DeleteChar => {}
    }
}

fn set_focus<T>(app: &mut App<T>, p: Pane) {
    app.focus = p;
}

fn resume<T>(app: &mut App<T>) {
    app.paused_at = None;
    app.effects.push(Effect::Control(Control::Pause(false)));
    app.refresh();
}

/// Moves the scrub cursor by `n` samples along the primary's timeline; pauses first if live.
fn scrub<T>(app: &mut App<T>, n: i64) {
    let tl = app.timeline();
    if tl.is_empty() {
        return;
    }
    let cur = match app.paused_at {
        Some(t) => tl.iter().rposition(|x| *x <= t).unwrap_or(0),
        None => {
            if n > 0 {
                return; // already live: nothing ahead
            }
            app.effects.push(Effect::Control(Control::Pause(true)));
            tl.len() - 1
        }
    };
    let to = (cur as i64 + n).clamp(0, tl.len() as i64 - 1) as usize;
    app.paused_at = Some(tl[to]);
}

fn move_selection<T>(app: &mut App<T>, by: i64) {
    match app.screen {
        Screen::Main if app.focus == Pane::Causes => {
            let n = app.assessment.findings.len() as i64;
            if n > 0 {
                app.selected = (app.selected as i64 + by).clamp(0, n - 1) as usize;
            }
        }
        Screen::Main => {}
        Screen::Zoom(_) | Screen::Cause(_) | Screen::Members | Screen::Waits => {
            let max = app.scroll_max.min(10_000) as i64;
            app.scroll = (app.scroll as i64 + by).clamp(0, max) as u16;
        }
    }
}

/// The longest note the note box takes (typed or pasted).
pub const NOTE_MAX_CHARS: usize = 200;

/// A bracketed paste: into the note box (`m`) it is note text, newlines and tabs turned into
/// spaces, other control characters dropped, cut at [`NOTE_MAX_CHARS`]; anywhere else it is
/// ignored (pasted text is never taken as keys).
pub fn paste<T>(app: &mut App<T>, pasted: &str) {
    match &mut app.overlay {
        Some(Overlay::MarkInput { text }) => {
            let room = NOTE_MAX_CHARS.saturating_sub(text.chars().count());
            let clean = pasted
                .chars()
                .filter_map(|c| match c {
                    '\n' | '\r' | '\t' => Some(' '),
                    c if c.is_control() => None,
                    c => Some(c),
                })
                .take(room);
            text.extend(clean);
            let cut = pasted.chars().count() > room;
            app.status = cut.then(|| format!("note cut at {NOTE_MAX_CHARS} characters"));
        }
        _ => app.status = Some("paste ignored: only the note box (m) takes text".into()),
    }
}

/// Keys while an overlay is open. Returns true when the overlay consumed the action.
fn handle_overlay<T>(app: &mut App<T>, overlay: Overlay, action: Action) -> bool {
    match overlay {
        Overlay::MarkInput { mut text } => {
            match action {
                Action::Char(c) => {
                    if text.chars().count() < NOTE_MAX_CHARS {
                        text.push(c);
                    }
                    app.overlay = Some(Overlay::MarkInput { text });
                }
                Action::DeleteChar => {
                    text.pop();
                    app.overlay = Some(Overlay::MarkInput { text });
                }
                Action::Enter => {
                    app.overlay = None;
                    let text = text.trim().to_string();
                    if !text.is_empty() {
                        app.status = Some(format!("note added: {text}"));
                        app.effects.push(Effect::AddMark(text));
                    }
                }
                Action::Back => app.overlay = None,
                _ => {}
            }
            true
        }
        Overlay::FaultMenu { selected } => {
            let n = app.cfg.scenarios.len();
            match action {
                Action::Down => {
                    app.overlay = Some(Overlay::FaultMenu {
                        selected: (selected + 1).min(n.saturating_sub(1)),
                    })
                }
                Action::Up => {
                    app.overlay = Some(Overlay::FaultMenu {
                        selected: selected.saturating_sub(1),
                    })
                }
                Action::Enter => {
                    app.overlay = None;
                    if let Some(name) = app.cfg.scenarios.get(selected).cloned() {
                        app.status = Some(format!("scenario {name} injected"));
                        app.active_scenario = Some(name.clone());
                        app.effects
                            .push(Effect::Control(Control::SetScenario(name)));
                    }
                }
                Action::Back | Action::FaultMenu => app.overlay = None,
                Action::Quit | Action::QuitKeepFrame => return false,
                _ => {}
            }
            true
        }
        Overlay::Help | Overlay::Impact => match action {
            Action::Back | Action::Help | Action::Impact | Action::Enter => {
                let reopen_other = (overlay == Overlay::Help && action == Action::Impact)
                    || (overlay == Overlay::Impact && action == Action::Help);
                app.overlay = None;
                if reopen_other {
                    return false;
                }
                true
            }
            // Everything else acts on the screen below (b, w, p … with the table open).
            _ => false,
        },
    }
}

/// Mode-dependent pace at start: replay and the demo play at a speed, live samples at an
/// interval.
pub fn default_pace(mode: Mode, interval: std::time::Duration) -> Pace {
    match mode {
        Mode::Replay | Mode::Demo => Pace::Speed(1.0),
        Mode::Live => Pace::Interval(interval),
    }
}
