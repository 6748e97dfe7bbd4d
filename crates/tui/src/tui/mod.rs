//! The triage screen's event loop, shared by `demo`, `replay` and `watch`: they differ only in
//! the source behind the channel. The loop `select!`s over terminal events, source events, a
//! tick and signals; it redraws only when something changed and never waits on a source.

pub(crate) mod error;
pub(crate) mod incident;
pub(crate) mod osc52;
pub(crate) mod terminal;
mod typed_paste;

use crate::app::{self, AppConfig, Assessor, Effect, Keymap, Mode, Pace, Screen};
use crate::ui::{self, theme::Theme, App};
use crossterm::event::{Event, EventStream, KeyEventKind, MouseButton, MouseEventKind};
use dgscope_core::metrics::Window;
use dgscope_core::pipeline::Recorder;
use dgscope_core::pipeline::{Driver, DriverConfig};
use dgscope_model::sample::recording::Header;
use dgscope_model::sample::Mark;
use dgscope_model::source::{ConnState, Control, SourceEvent};
use dgscope_model::timestamp::Timestamp;
pub use error::TuiError;
use futures_util::{FutureExt, StreamExt};
pub use incident::{markdown as incident_markdown, write_report as write_incident_report};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::Terminal;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tokio::sync::mpsc;

/// How a command sets up the screen.
#[derive(Debug, Clone)]
pub struct TuiOptions {
    pub mode: Mode,
    /// The source's description (recording header `source`, incident report).
    pub source: String,
    pub interval: Duration,
    pub pace: Pace,
    /// Scenario names for the fault menu (demo only; empty elsewhere).
    pub scenarios: Vec<String>,
    /// `--theme NAME` (default: dark).
    pub theme: Option<String>,
    /// `--no-color` (the `NO_COLOR` environment variable is read here too).
    pub no_color: bool,
    pub ascii: bool,
    pub keymap: Keymap,
    /// Where `r` recordings and `e` reports are written.
    pub out_dir: PathBuf,
    /// Whether the assessor is a real causes engine (see `AppConfig::causes_available`).
    pub causes_available: bool,
    /// Points of history kept per database (the config file's `history`).
    pub history: usize,
    /// The causes' thresholds (the config file's `[thresholds]`). Until the session has
    /// `raise_after_s` of data the causes pane says "warming up".
    pub thresholds: dgscope_core::causes::Thresholds,
    /// Capture the mouse (click to focus, wheel to scroll); `--no-mouse` or the config's
    /// `mouse = false` leave it to the terminal, for selecting text.
    pub mouse: bool,
    /// `r` writes `.jsonl.zst` (config `record_compress`).
    pub record_zstd: bool,
    /// `Some(len)`: the source is one observation of a window `len` long (an AWR or
    /// Statspack report, two samples): judged and shown over all of it.
    pub one_window: Option<Duration>,
    /// How evidence names where a figure came from (a report's source names its sections
    /// instead of the views); `None`: the view's name.
    pub cite: Option<fn(&str) -> String>,
}

impl TuiOptions {
    pub fn new(mode: Mode, source: String, interval: Duration) -> Self {
        TuiOptions {
            mode,
            source,
            interval,
            pace: app::default_pace(mode, interval),
            scenarios: Vec::new(),
            theme: None,
            no_color: false,
            ascii: false,
            keymap: Keymap::default(),
            out_dir: PathBuf::from("."),
            causes_available: true,
            history: dgscope_core::metrics::EngineConfig::default().history_len,
            thresholds: dgscope_core::causes::Thresholds::default(),
            mouse: true,
            record_zstd: false,
            one_window: None,
            cite: None,
        }
    }
}

/// Runs the screen on its own tokio runtime with a source task: what `demo`, `replay` and
/// `watch` call. `source` gets the event sender and the control receiver and runs until the
/// source ends or the screen quits (then it is aborted).
///
/// ```text
/// tui::launch(opts, assessor, |tx, ctl| replay::play(source, tx, ctl, speed))
/// ```
pub fn launch<F, Fut>(opts: TuiOptions, assessor: Assessor, source: F) -> Result<ExitCode, TuiError>
where
    F: FnOnce(mpsc::Sender<SourceEvent>, mpsc::Receiver<Control>) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    require_tty()?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(TuiError::Runtime)?;
    rt.block_on(async move {
        let (tx, rx) = mpsc::channel(1024);
        let (ctl_tx, ctl_rx) = mpsc::channel(16);
        let task = tokio::spawn(source(tx, ctl_rx));
        let r = run(opts, rx, Some(ctl_tx), assessor).await;
        task.abort();
        r
    })
}

/// The screen needs a terminal; scripts get pointed at the headless commands. Exit code 2.
pub fn require_tty() -> Result<(), TuiError> {
    if std::io::stdout().is_terminal() {
        Ok(())
    } else {
        Err(TuiError::NoTerminal)
    }
}

/// The themes `t` cycles through, starting with the chosen one: mono only under `NO_COLOR`
/// or `--no-color`; 256 colours unless `COLORTERM` announces truecolor; where `COLORFGBG`
/// tells the terminal's background, only the themes readable on it after the first.
pub fn themes(
    name: Option<&str>,
    no_color: bool,
    no_color_env: bool,
    colorterm: Option<&str>,
    colorfgbg: Option<&str>,
) -> Result<Vec<Theme>, TuiError> {
    let truecolor = ui::theme::truecolor_from_env(colorterm);
    if no_color || no_color_env {
        return Ok(vec![Theme::builtin("mono", false)?]);
    }
    let user = match user_theme_dir() {
        Some(dir) => ui::theme::load_user_themes(&dir, truecolor)?,
        None => Vec::new(),
    };
    let mut all = ui::theme::merge(Theme::all_builtin(truecolor), user);
    let name = name.unwrap_or("dark");
    let i = all
        .iter()
        .position(|t| t.name == name)
        .ok_or_else(|| TuiError::UnknownTheme {
            name: name.to_string(),
            user_dir: user_theme_dir().map_or_else(|| "none".into(), |d| d.display().to_string()),
        })?;
    all.rotate_left(i);
    if let Some(bg) = ui::theme::Background::from_colorfgbg(colorfgbg) {
        // The chosen theme stays (the user asked for it); `t` skips the unreadable others.
        let mut all = all.into_iter();
        let first = all.next();
        return Ok(first
            .into_iter()
            .chain(all.filter(|t| t.suits(bg)))
            .collect());
    }
    Ok(all)
}

/// `<config dir>/dgscope/themes` (e.g. `~/.config/dgscope/themes` on Linux).
pub fn user_theme_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "dgscope").map(|d| d.config_dir().join("themes"))
}

/// Builds the app for a session (also what the snapshot tests and benches use).
pub fn build_app(opts: &TuiOptions, themes: Vec<Theme>, assessor: Assessor) -> App {
    let config = match opts.one_window {
        Some(span) => DriverConfig::for_one_window(span, opts.thresholds.clone()),
        None => DriverConfig::for_screen(opts.thresholds.clone(), opts.history),
    };
    let cfg = AppConfig {
        mode: opts.mode,
        source: opts.source.clone(),
        interval: opts.interval,
        pace: opts.pace,
        scenarios: opts.scenarios.clone(),
        ascii: opts.ascii,
        keymap: opts.keymap.clone(),
        themes,
        causes_available: opts.causes_available,
        raise_after_s: config.thresholds.raise_after_s,
        one_window: opts.one_window,
        cite: opts.cite.unwrap_or(|s| s.to_string()),
    };
    let mut app = App::new(cfg, Driver::new(config), assessor);
    app.window = match opts.one_window {
        // A report's panes show its whole window, the snapshot interval.
        Some(_) => Window::SinceStartup,
        None => Window::Last(Duration::from_secs(60)),
    };
    app.now = Timestamp::now();
    app
}

/// Runs the screen until the user quits, a signal arrives or stdin closes. `control` carries
/// source-specific keys (pause, speed, faults) to the source when it has one.
/// Fault injection for the reliability tests: debug builds panic on the screen's loop after
/// this many source events, to prove the terminal and recordings survive a panic. Release
/// builds ignore it.
fn debug_panic_after() -> Option<u64> {
    if !cfg!(debug_assertions) {
        return None;
    }
    std::env::var("DGSCOPE_DEBUG_PANIC_AFTER")
        .ok()
        .and_then(|v| v.parse().ok())
}

pub async fn run(
    opts: TuiOptions,
    mut events: mpsc::Receiver<SourceEvent>,
    control: Option<mpsc::Sender<Control>>,
    assessor: Assessor,
) -> Result<ExitCode, TuiError> {
    require_tty()?;
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let colorterm = std::env::var("COLORTERM").ok();
    let colorfgbg = std::env::var("COLORFGBG").ok();
    let themes = themes(
        opts.theme.as_deref(),
        opts.no_color,
        no_color_env,
        colorterm.as_deref(),
        colorfgbg.as_deref(),
    )?;
    let mut app = build_app(&opts, themes, assessor);
    let io_fail = TuiError::Terminal;
    use tokio::signal::unix::{signal, SignalKind};
    let mut sigterm = signal(SignalKind::terminate()).map_err(io_fail)?;
    let mut sighup = signal(SignalKind::hangup()).map_err(io_fail)?;
    let mut sigint = signal(SignalKind::interrupt()).map_err(io_fail)?;
    // Job control: an external SIGTSTP suspends as Ctrl-Z does (the terminal handed back
    // first); SIGCONT, whoever sends it, takes the terminal again and repaints everything.
    let mut sigtstp = signal(SignalKind::from_raw(libc::SIGTSTP)).map_err(io_fail)?;
    let mut sigcont = signal(SignalKind::from_raw(libc::SIGCONT)).map_err(io_fail)?;

    let mut recorder: Option<Recorder> = None;
    let mut source_open = true;
    // The first frame opens on what the source has ready (the demo's pre-rolled minute, a
    // replay's first samples): until the source pauses, at most FIRST_FRAME_WAIT. A live
    // source still connecting costs that wait once, then the screen shows its state.
    let until = tokio::time::Instant::now() + FIRST_FRAME_WAIT;
    let mut got = false;
    loop {
        let pause = if got {
            FIRST_FRAME_PAUSE
        } else {
            FIRST_FRAME_WAIT
        };
        let deadline = until.min(tokio::time::Instant::now() + pause);
        match tokio::time::timeout_at(deadline, events.recv()).await {
            // The source says it sent what it had ready: paint now.
            Ok(Some(SourceEvent::CaughtUp)) if got => break,
            Ok(Some(ev)) => {
                handle_source(&mut app, &mut recorder, ev);
                got = true;
            }
            Ok(None) => {
                source_open = false;
                app.ended = true;
                break;
            }
            Err(_) => break,
        }
    }
    if got {
        app.refresh();
    }
    let mut guard = terminal::TerminalGuard::enter(opts.mouse).map_err(io_fail)?;
    let mut input = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut dirty = true;
    let mut last_second = 0i64;
    let mut burst = Burst::default();
    // Input read but not yet handled: the rest of a batch after a key with an effect.
    let mut pending: std::collections::VecDeque<Event> = std::collections::VecDeque::new();
    let mut exit = ExitCode::SUCCESS;
    let mut keep_frame = false;
    let panic_after = debug_panic_after();
    let mut seen = 0u64;

    'main: loop {
        if dirty {
            app.now = Timestamp::now();
            guard
                .terminal
                .draw(|f| ui::draw(f, &app))
                .map_err(io_fail)?;
            dirty = false;
        }
        // Input left from the last batch is handled before anything else is awaited.
        if pending.is_empty() {
            tokio::select! {
                ev = input.next() => {
                    // Take what else is ready too (a burst of keys, a paste typed as keys by a
                    // terminal without bracketed paste) before one redraw: input never queues
                    // behind frames. Keys read together that look like text are a paste.
                    let mut batch = Vec::new();
                    let mut next = ev;
                    loop {
                        match next {
                            Some(Ok(e)) => batch.push(e),
                            // stdin closed or unreadable: nobody is at the keyboard any more.
                            Some(Err(_)) | None => break 'main,
                        }
                        if batch.len() >= 4096 {
                            break;
                        }
                        match input.next().now_or_never() {
                            Some(e) => next = e,
                            None => break,
                        }
                    }
                    let note_open = matches!(app.overlay, Some(app::Overlay::MarkInput { .. }));
                    pending.extend(match typed_paste::typed_paste(&batch) {
                        Some(text) => typed_paste::as_paste(batch, text, note_open),
                        None => batch,
                    });
                }
                ev = events.recv(), if source_open => match ev {
                    Some(ev) => {
                        seen += 1;
                        if panic_after.is_some_and(|n| seen > n) {
                            panic!("forced by DGSCOPE_DEBUG_PANIC_AFTER (fault-injection test)");
                        }
                        handle_source(&mut app, &mut recorder, ev);
                        // Take what else is queued so a burst costs one redraw.
                        for _ in 0..4096 {
                            match events.try_recv() {
                                Ok(ev) => handle_source(&mut app, &mut recorder, ev),
                                Err(_) => break,
                            }
                        }
                        app.refresh();
                        dirty = true;
                    }
                    None => {
                        source_open = false;
                        app.ended = true;
                        dirty = true;
                    }
                },
                _ = tick.tick() => {
                    let now = Timestamp::now();
                    let second = now.ms / 1000;
                    let waiting = app.conn.values().any(|c| !matches!(c, ConnState::Connected));
                    // Live clocks, ages and countdowns change by the second; spinners faster.
                    if waiting || (app.cfg.mode != Mode::Replay && second != last_second) {
                        dirty = true;
                    }
                    last_second = second;
                }
                _ = sigterm.recv() => { exit = ExitCode::from(143); break 'main; }
                _ = sighup.recv() => { exit = ExitCode::from(129); break 'main; }
                _ = sigint.recv() => { exit = ExitCode::from(130); break 'main; }
                _ = sigtstp.recv() => {
                    guard.suspend().map_err(io_fail)?;
                    dirty = true;
                }
                _ = sigcont.recv() => {
                    guard.resume().map_err(io_fail)?;
                    dirty = true;
                }
            }
        }
        // An action with an effect is carried out before the next key is read.
        while let Some(e) = pending.pop_front() {
            if burst.passes(&e) && on_input(&mut app, &mut guard, e).map_err(io_fail)? {
                dirty = true;
            }
            if !app.effects.is_empty() {
                break;
            }
        }
        for effect in app.take_effects() {
            match effect {
                Effect::Quit { keep_frame: k } => {
                    keep_frame = k;
                    break 'main;
                }
                Effect::Control(c) => {
                    if let Some(tx) = &control {
                        // A full or closed channel must never block the screen.
                        let _ = tx.try_send(c);
                    }
                }
                Effect::ToggleRecording => toggle_recording(&mut app, &mut recorder, &opts),
                Effect::AddMark(text) => {
                    // Stamped on the source's clock (the latest sample), never the wall
                    // clock: a note must sit among the samples it describes.
                    let m = Mark {
                        t: app.source_now(),
                        text,
                    };
                    // Through the recorder like any event: a failed write stops the
                    // recording and says so, never silently.
                    handle_source(&mut app, &mut recorder, SourceEvent::Mark(m));
                }
                Effect::WriteReport => {
                    app.status = Some(match incident::write_report(&app, &opts.out_dir) {
                        Ok(p) => format!("report written: {}", p.display()),
                        Err(e) => {
                            format!("cannot write the report in {}: {e}", opts.out_dir.display())
                        }
                    });
                }
                Effect::Copy => {
                    let text = copy_text(&app);
                    let mut out = std::io::stdout();
                    let _ = out.write_all(osc52::sequence(&text).as_bytes());
                    let _ = out.flush();
                    app.status = Some(copy_status(&text));
                }
            }
            dirty = true;
        }
    }
    let size = guard.terminal.size().ok();
    drop(guard);
    if keep_frame {
        if let Some(s) = size {
            print!("{}", screen_text(&app, s.width, s.height, app.screen));
        }
    }
    Ok(exit)
}

/// The most the first frame waits for the source's first samples (a loaded machine may
/// take this long to pre-roll the demo's minute; a live source still connecting costs it
/// once).
const FIRST_FRAME_WAIT: Duration = Duration::from_millis(500);
/// A pause in the source's events that ends the first frame's wait: a pre-roll sends
/// without pauses (a tick every few ms), a paced source then pauses a whole interval.
const FIRST_FRAME_PAUSE: Duration = Duration::from_millis(50);

/// The rest of an escape sequence after an Esc, taken for what it is: `ESC ESC O Q` (Esc,
/// then F2 in one read) reaches us as Esc and the letters `O Q`, and `Q` would quit keeping
/// the frame; `ESC ESC [ B` would clear the baseline. Within [`ESC_TAIL`] of an Esc (a
/// sequence's bytes arrive together, a person's next key much later), `O` and one more
/// character, or `[` up to its final character, are dropped.
struct Burst {
    /// Where in an escape sequence the last key left us, and when.
    tail: (EscTail, std::time::Instant),
}

impl Default for Burst {
    fn default() -> Self {
        Burst {
            tail: (EscTail::None, std::time::Instant::now()),
        }
    }
}

/// An escape sequence's bytes arrive together; a person's next key comes much later.
const ESC_TAIL: std::time::Duration = std::time::Duration::from_millis(3);

#[derive(Default, PartialEq)]
enum EscTail {
    #[default]
    None,
    /// An Esc was the last event.
    AfterEsc,
    /// `ESC O`: one more character ends it.
    Ss3,
    /// `ESC [`: parameters, then a final character in `@`..`~`.
    Csi,
}

impl Burst {
    /// Whether `e` is a key of its own (true) or part of something else (false).
    fn passes(&mut self, e: &Event) -> bool {
        use crossterm::event::{KeyCode, KeyModifiers};
        let Event::Key(k) = e else {
            self.tail.0 = EscTail::None;
            return true;
        };
        if k.kind == KeyEventKind::Release {
            return true;
        }
        let now = std::time::Instant::now();
        let ch = match k.code {
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => Some(c),
            _ => None,
        };
        let (t, at) = std::mem::replace(&mut self.tail, (EscTail::None, now));
        let tail = if now.duration_since(at) <= ESC_TAIL {
            t
        } else {
            EscTail::None
        };
        let mut tail_to = |t: EscTail| self.tail = (t, now);
        match (tail, ch) {
            (EscTail::AfterEsc, Some('O')) => {
                tail_to(EscTail::Ss3);
                return false;
            }
            (EscTail::AfterEsc, Some('[')) => {
                tail_to(EscTail::Csi);
                return false;
            }
            (EscTail::Ss3, Some(_)) => return false,
            (EscTail::Csi, Some(c)) => {
                if !('@'..='~').contains(&c) || c == '[' || c.is_ascii_digit() || c == ';' {
                    tail_to(EscTail::Csi);
                }
                return false;
            }
            _ => {}
        }
        if k.code == KeyCode::Esc {
            tail_to(EscTail::AfterEsc);
        }
        true
    }
}

/// The footer line when Ctrl-Z cannot suspend: nothing could continue the process.
pub const NO_JOB_CONTROL: &str =
    "Ctrl-Z: not suspended, no job-control shell here to resume it (q quits)";

fn is_suspend_key(k: &crossterm::event::KeyEvent) -> bool {
    k.code == crossterm::event::KeyCode::Char('z')
        && k.modifiers
            .contains(crossterm::event::KeyModifiers::CONTROL)
}

/// One terminal event: keys, mouse, resize and paste. Returns whether the screen changed.
fn on_input(
    app: &mut App,
    guard: &mut terminal::TerminalGuard,
    ev: Event,
) -> std::io::Result<bool> {
    let size = guard.terminal.size()?;
    let area = Rect::new(0, 0, size.width, size.height);
    let action = match ev {
        // Ctrl-Z (raw mode delivers it as a key), unless the config binds it to an action.
        Event::Key(k)
            if k.kind != KeyEventKind::Release
                && is_suspend_key(&k)
                && app::action_for_key(app, &k).is_none() =>
        {
            if !guard.suspend()? {
                app.status = Some(NO_JOB_CONTROL.to_string());
            }
            return Ok(true);
        }
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            app.set_scroll_max(ui::scroll_max(area, app));
            app.search_rows = ui::search_rows(area, app);
            app::action_for_key(app, &k)
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                ui::pane_at(area, app, m.column, m.row).map(|p| app::Action::Focus(p.number()))
            }
            MouseEventKind::ScrollDown => {
                app.set_scroll_max(ui::scroll_max(area, app));
                Some(app::Action::Down)
            }
            MouseEventKind::ScrollUp => Some(app::Action::Up),
            _ => None,
        },
        Event::Resize(w, h) => {
            guard.terminal.autoresize()?;
            app.set_scroll_max(ui::scroll_max(Rect::new(0, 0, w, h), app));
            return Ok(true);
        }
        // Bracketed paste: text for the note box, nothing else (a pasted "q" must not quit).
        Event::Paste(text) => {
            app::paste(app, &text);
            return Ok(true);
        }
        _ => None,
    };
    match action {
        Some(a) => {
            app::update(app, a);
            Ok(true)
        }
        None => Ok(false),
    }
}

fn handle_source(app: &mut App, recorder: &mut Option<Recorder>, ev: SourceEvent) {
    if let Some(w) = recorder.as_mut() {
        if let Err(e) = w.on_event(&ev) {
            app.status = Some(format!("recording stopped: {e}"));
            app.recording = None;
            *recorder = None;
        }
    }
    app.ingest(ev);
}

fn toggle_recording(app: &mut App, recorder: &mut Option<Recorder>, opts: &TuiOptions) {
    if recorder.take().is_some() {
        let path = app.recording.take().unwrap_or_default();
        app.status = Some(format!("recording saved: {path}"));
        return;
    }
    // The recording's start is the source's time, like every sample in it.
    let now = app.source_now();
    let header = Header::new(now, opts.interval.as_millis() as u64, &opts.source);
    // A unique name created new (never truncating, never through a symlink): see `output`.
    let stamp = dgscope_model::output::file_stamp(now);
    let ext = if opts.record_zstd {
        "jsonl.zst"
    } else {
        "jsonl"
    };
    let created = dgscope_model::output::create_unique(&opts.out_dir, "dgscope", &stamp, ext);
    let path = match &created {
        Ok((p, _)) => p.clone(),
        Err(_) => opts.out_dir.join(format!("dgscope-{stamp}.{ext}")),
    };
    match created.and_then(|(_, f)| Recorder::new(Box::new(f), &header, opts.record_zstd)) {
        Ok(w) => {
            *recorder = Some(w);
            app.recording = Some(path.display().to_string());
            app.status = Some(format!("recording to {}", path.display()));
        }
        Err(e) => app.status = Some(format!("cannot record to {}: {e}", path.display())),
    }
}

/// What `y` copies: the drill-down or the configuration being read, or the focused pane
/// zoomed.
pub fn copy_screen(app: &App) -> Screen {
    match app.screen {
        Screen::Main => Screen::Zoom(app.focus),
        s => s,
    }
}

/// The text `y` puts on the clipboard, as plain text (no borders, no padding, no chart,
/// lines as long as they are, trailing blanks trimmed). Where the incident report (`e`,
/// `dgscope report incident`) has a section for what is shown, it is that section's text
/// from the same builder: a drill-down is its finding (whole, not the visible part), the
/// causes pane every finding, the commit pane the commit-path table. The other panes, which
/// the report sums up in its key-metrics table, copy everything their zoomed view has.
pub fn copy_text(app: &App) -> String {
    use dgscope_export::report::text;
    let releases = || dgscope_export::report::check::releases(app.engine(), app.standby());
    let pane = match copy_screen(app) {
        Screen::Cause(i) => {
            return ui::drill::text(&ui::Ctx::new(app), i)
                .unwrap_or_else(|| "this cause has cleared\n".to_string())
        }
        Screen::Members => return ui::members::text(&ui::Ctx::new(app)),
        Screen::Waits => return ui::waits::text(&ui::Ctx::new(app)),
        Screen::Zoom(p) => p,
        Screen::Main => app.focus,
    };
    match pane {
        // With no finding the pane's own words (warming up, not available) are the truth.
        app::Pane::Causes if !app.assessment.findings.is_empty() => {
            let mut blocks = Vec::new();
            let problems = ui::Ctx::new(app).part_problems();
            if !problems.is_empty() {
                blocks.push(text::Block::Heading("Not read".into()));
                blocks.push(text::Block::Bullets(
                    problems
                        .iter()
                        .map(|(db, part, t)| format!("{db} {part}: {t}"))
                        .collect(),
                ));
            }
            blocks.push(text::Block::Heading("Findings".into()));
            blocks.extend(text::findings(&app.assessment.findings, &releases()));
            text::plain(&blocks)
        }
        app::Pane::Commit => {
            let rows = dgscope_export::report::incident::commit_rows(app.deltas().primary.as_ref());
            let mut blocks = vec![text::Block::Heading(format!(
                "Commit path (primary, last {})",
                app.window
            ))];
            let table = text::commit_path(&rows);
            if table.is_empty() {
                blocks.push(text::Block::Para(
                    "no commit-path waits in this window".into(),
                ));
            }
            blocks.extend(table);
            text::plain(&blocks)
        }
        p => ui::pane_text(app, p),
    }
}

/// The size above which many terminals cut or refuse an OSC 52 sequence (xterm, tmux and
/// others commonly stop near 100 kB).
pub const OSC52_LIMIT: usize = 100_000;

/// The footer line after `y`: how much went out, and a warning when the sequence is larger
/// than many terminals accept.
pub fn copy_status(text: &str) -> String {
    let lines = text.lines().count();
    let bytes = text.len();
    let seq = osc52::sequence(text).len();
    let mut s = format!("copied {lines} lines, {bytes} bytes (OSC 52)");
    if seq > OSC52_LIMIT {
        s.push_str(&format!(
            "; warning: {} kB is over the ~100 kB many terminals accept: it may be cut (e writes the full report)",
            seq.div_ceil(1000)
        ));
    }
    s
}

/// Renders a screen off-screen and returns its text (copy, `Q`).
pub fn screen_text(app: &App, width: u16, height: u16, screen: Screen) -> String {
    let Ok(mut t) = Terminal::new(TestBackend::new(width.max(1), height.max(1)));
    let _ = t.draw(|f| {
        let area = f.area();
        ui::draw_in(f, area, app, screen, None)
    });
    ui::buffer_text(t.backend().buffer())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dgscope_core::pipeline::MAX_SLOTS;
    use dgscope_model::sample::{Sample, Slot};

    fn app() -> App {
        let opts = TuiOptions::new(Mode::Replay, "test".into(), Duration::from_secs(1));
        build_app(
            &opts,
            Theme::all_builtin(true),
            Box::new(|d: &mut Driver| {
                d.assess_now();
                d.assessment().clone()
            }),
        )
    }

    /// A recording that claims thousands of standbys costs the screen what it costs `check`:
    /// the driver's slot cap, not one series per claimed slot.
    #[test]
    fn the_screen_keeps_no_more_slots_than_the_driver_allows() {
        let mut a = app();
        for t in 0..3 {
            for i in 0..MAX_SLOTS + 10 {
                let s = Sample::new(
                    Timestamp::from_millis(t * 1000),
                    Slot::named_standby(&format!("sb{i:03}")),
                );
                a.ingest(SourceEvent::Sample(Box::new(s)));
            }
            a.refresh();
        }
        assert_eq!(a.engine().slots().count(), MAX_SLOTS);
    }

    /// The screen keeps what the rules read, like every other consumer of the driver.
    #[test]
    fn the_screen_keeps_the_history_its_thresholds_need() {
        let mut opts = TuiOptions::new(Mode::Replay, "test".into(), Duration::from_secs(1));
        opts.thresholds.state_hold_s = 3600.0;
        let a = build_app(
            &opts,
            Theme::all_builtin(true),
            Box::new(|d: &mut Driver| d.assessment().clone()),
        );
        assert!(a.engine().config().raw_span >= Duration::from_secs(3600));
    }
}
