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
    let rt = screen_runtime()?;
    rt.block_on(async move {
        let (tx, rx) = mpsc::channel(1024);
        let (ctl_tx, ctl_rx) = mpsc::channel(16);
        let task = tokio::spawn(source(tx, ctl_rx));
        let r = run(opts, rx, Some(ctl_tx), assessor).await;
        task.abort();
        r
    })
}

/// The screen's runtime (after the terminal check): two workers, the loop and the sources.
fn screen_runtime() -> Result<tokio::runtime::Runtime, TuiError> {
    require_tty()?;
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(TuiError::Runtime)
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
        pair: None,
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
    events: mpsc::Receiver<SourceEvent>,
    control: Option<mpsc::Sender<Control>>,
    assessor: Assessor,
) -> Result<ExitCode, TuiError> {
    let feed = PairFeed {
        name: opts.source.clone(),
        opts,
        events,
        control,
        assessor,
    };
    run_pairs(vec![feed], None).await
}

/// One pair as the screen runs it: its options, its source's events, the channel back to
/// its source and its assessor (one Driver each, in its [`App`]).
pub struct PairFeed {
    /// The board's name for it (a profile's name, `twin-slow-srl`).
    pub name: String,
    pub opts: TuiOptions,
    pub events: mpsc::Receiver<SourceEvent>,
    pub control: Option<mpsc::Sender<Control>>,
    pub assessor: Assessor,
}

/// What the loop keeps of a pair beside its app: the `r` recording and its source's control.
struct Seat {
    opts: TuiOptions,
    recorder: Option<Recorder>,
    control: Option<mpsc::Sender<Control>>,
}

/// A pair's events tagged with its index; `None` once, when its source is done.
fn tagged(
    i: usize,
    rx: mpsc::Receiver<SourceEvent>,
) -> futures_util::stream::BoxStream<'static, (usize, Option<SourceEvent>)> {
    futures_util::stream::unfold(Some(rx), move |st| async move {
        let mut rx = st?;
        match rx.recv().await {
            Some(ev) => Some(((i, Some(ev)), Some(rx))),
            None => Some(((i, None), None)),
        }
    })
    .boxed()
}

/// As [`launch`], for several pairs: `board` names the fleet board's header (`Some`), which
/// opens first and `Enter` leaves for a pair's screen; `None` runs one pair's screen.
pub fn launch_pairs(
    feeds: Vec<PairFeed>,
    board: Option<String>,
    sources: Vec<std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>>,
) -> Result<ExitCode, TuiError> {
    let rt = screen_runtime()?;
    rt.block_on(async move {
        let tasks: Vec<_> = sources.into_iter().map(tokio::spawn).collect();
        let r = run_pairs(feeds, board).await;
        for t in tasks {
            t.abort();
        }
        r
    })
}

/// Runs the screen over every pair until the user quits, a signal arrives or stdin closes.
pub async fn run_pairs(feeds: Vec<PairFeed>, board: Option<String>) -> Result<ExitCode, TuiError> {
    require_tty()?;
    let Some(first) = feeds.first() else {
        return Ok(ExitCode::SUCCESS);
    };
    let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let colorterm = std::env::var("COLORTERM").ok();
    let colorfgbg = std::env::var("COLORFGBG").ok();
    let themes = themes(
        first.opts.theme.as_deref(),
        first.opts.no_color,
        no_color_env,
        colorterm.as_deref(),
        colorfgbg.as_deref(),
    )?;
    let mouse = first.opts.mouse;
    let mut apps = Vec::with_capacity(feeds.len());
    let mut seats = Vec::with_capacity(feeds.len());
    let mut streams = Vec::with_capacity(feeds.len());
    let several = board.is_some();
    for (i, f) in feeds.into_iter().enumerate() {
        let mut app = build_app(&f.opts, themes.clone(), f.assessor);
        if several {
            app.cfg.pair = Some(f.name.clone());
        }
        apps.push((f.name, app));
        streams.push(tagged(i, f.events));
        seats.push(Seat {
            opts: f.opts,
            recorder: None,
            control: f.control,
        });
    }
    let mut fleet = match board {
        Some(label) => app::Fleet::board(apps, label),
        None => {
            let (name, app) = apps.pop().expect("one pair");
            app::Fleet::single(name, app)
        }
    };
    let mut events = futures_util::stream::select_all(streams);
    let io_fail = TuiError::Terminal;
    use tokio::signal::unix::{signal, SignalKind};
    let mut sigterm = signal(SignalKind::terminate()).map_err(io_fail)?;
    let mut sighup = signal(SignalKind::hangup()).map_err(io_fail)?;
    let mut sigint = signal(SignalKind::interrupt()).map_err(io_fail)?;
    // Job control: an external SIGTSTP suspends as Ctrl-Z does (the terminal handed back
    // first); SIGCONT, whoever sends it, takes the terminal again and repaints everything.
    let mut sigtstp = signal(SignalKind::from_raw(libc::SIGTSTP)).map_err(io_fail)?;
    let mut sigcont = signal(SignalKind::from_raw(libc::SIGCONT)).map_err(io_fail)?;

    let mut source_open = true;
    // Pairs with new events since their last refresh.
    let mut touched: Vec<bool> = vec![false; fleet.pairs.len()];
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
        match tokio::time::timeout_at(deadline, events.next()).await {
            // The source says it sent what it had ready: paint now.
            Ok(Some((_, Some(SourceEvent::CaughtUp)))) if got => break,
            Ok(Some((i, ev))) => {
                on_source(&mut fleet, &mut seats, &mut touched, i, ev);
                got = true;
            }
            Ok(None) => {
                source_open = false;
                break;
            }
            Err(_) => break,
        }
    }
    refresh_touched(&mut fleet, &mut touched);
    let mut guard = terminal::TerminalGuard::enter(mouse).map_err(io_fail)?;
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
    let replay = fleet
        .pairs
        .first()
        .is_some_and(|p| p.app.cfg.mode == Mode::Replay);

    'main: loop {
        if dirty {
            let now = Timestamp::now();
            for p in &mut fleet.pairs {
                p.app.now = now;
            }
            if fleet.open.is_none() {
                let h = guard.terminal.size().map_err(io_fail)?.height;
                fleet.scroll_into_view(ui::board::visible_rows(h));
            }
            guard
                .terminal
                .draw(|f| match fleet.current() {
                    Some(app) => ui::draw(f, app),
                    None => {
                        let area = f.area();
                        ui::board::draw(f, area, &fleet, now)
                    }
                })
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
                    let note_open = fleet
                        .current()
                        .is_some_and(|a| matches!(a.overlay, Some(app::Overlay::MarkInput { .. })));
                    pending.extend(match typed_paste::typed_paste(&batch) {
                        Some(text) if fleet.open.is_some() => typed_paste::as_paste(batch, text, note_open),
                        _ => batch,
                    });
                }
                ev = events.next(), if source_open => match ev {
                    Some((i, ev)) => {
                        seen += 1;
                        if panic_after.is_some_and(|n| seen > n) {
                            panic!("forced by DGSCOPE_DEBUG_PANIC_AFTER (fault-injection test)");
                        }
                        on_source(&mut fleet, &mut seats, &mut touched, i, ev);
                        // Take what else is queued so a burst costs one redraw.
                        for _ in 0..4096 {
                            match events.next().now_or_never() {
                                Some(Some((i, ev))) => on_source(&mut fleet, &mut seats, &mut touched, i, ev),
                                Some(None) => {
                                    source_open = false;
                                    break;
                                }
                                None => break,
                            }
                        }
                        refresh_touched(&mut fleet, &mut touched);
                        dirty = true;
                    }
                    None => {
                        source_open = false;
                        dirty = true;
                    }
                },
                _ = tick.tick() => {
                    let now = Timestamp::now();
                    let second = now.ms / 1000;
                    let waiting = match fleet.current() {
                        Some(a) => a.conn.values().any(|c| !matches!(c, ConnState::Connected)),
                        None => false,
                    };
                    // Live clocks, ages and countdowns change by the second; spinners faster.
                    if waiting || (!replay && second != last_second) {
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
            if !burst.passes(&e) {
                continue;
            }
            let Some(i) = fleet.open else {
                match on_board_input(&mut fleet, &mut guard, e).map_err(io_fail)? {
                    app::BoardOutcome::None => {}
                    app::BoardOutcome::Changed => dirty = true,
                    app::BoardOutcome::Quit { keep_frame: k } => {
                        keep_frame = k;
                        break 'main;
                    }
                }
                continue;
            };
            // Esc on a pair's main screen goes back to the board, live again.
            if let Event::Key(k) = &e {
                let back = k.kind != KeyEventKind::Release
                    && fleet.goes_back(app::action_for_key(&fleet.pairs[i].app, k));
                if back {
                    let a = &mut fleet.pairs[i].app;
                    app::update(a, app::Action::Live);
                    a.refresh();
                    fleet.refresh_row(i);
                    fleet.reorder();
                    fleet.close();
                    dirty = true;
                    continue;
                }
            }
            let app = &mut fleet.pairs[i].app;
            if on_input(app, &mut guard, e).map_err(io_fail)? {
                dirty = true;
            }
            if !app.effects.is_empty() {
                break;
            }
        }
        let Some(i) = fleet.open else { continue };
        let seat = &mut seats[i];
        let app = &mut fleet.pairs[i].app;
        for effect in app.take_effects() {
            match effect {
                Effect::Quit { keep_frame: k } => {
                    keep_frame = k;
                    break 'main;
                }
                Effect::Control(c) => {
                    if let Some(tx) = &seat.control {
                        // A full or closed channel must never block the screen.
                        let _ = tx.try_send(c);
                    }
                }
                Effect::ToggleRecording => toggle_recording(app, &mut seat.recorder, &seat.opts),
                Effect::AddMark(text) => {
                    // Stamped on the source's clock (the latest sample), never the wall
                    // clock: a note must sit among the samples it describes.
                    let m = Mark {
                        t: app.source_now(),
                        text,
                    };
                    // Through the recorder like any event: a failed write stops the
                    // recording and says so, never silently.
                    handle_source(app, &mut seat.recorder, SourceEvent::Mark(m));
                }
                Effect::WriteReport => {
                    let out_dir = &seat.opts.out_dir;
                    app.status = Some(match incident::write_report(app, out_dir) {
                        Ok(p) => format!("report written: {}", p.display()),
                        Err(e) => {
                            format!("cannot write the report in {}: {e}", out_dir.display())
                        }
                    });
                }
                Effect::Copy => {
                    let text = copy_text(app);
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
            match fleet.current() {
                Some(app) => print!("{}", screen_text(app, s.width, s.height, app.screen)),
                None => print!(
                    "{}",
                    ui::board::text(&fleet, s.width, s.height, Timestamp::now())
                ),
            }
        }
    }
    Ok(exit)
}

/// One event of pair `i` (`None`: its source is done).
fn on_source(
    fleet: &mut app::Fleet<Theme>,
    seats: &mut [Seat],
    touched: &mut [bool],
    i: usize,
    ev: Option<SourceEvent>,
) {
    let (Some(p), Some(seat)) = (fleet.pairs.get_mut(i), seats.get_mut(i)) else {
        return;
    };
    match ev {
        Some(ev) => handle_source(&mut p.app, &mut seat.recorder, ev),
        None => p.app.ended = true,
    }
    touched[i] = true;
}

/// Judges the pairs that got samples, and re-reads their rows.
fn refresh_touched(fleet: &mut app::Fleet<Theme>, touched: &mut [bool]) {
    let mut any = false;
    for (i, t) in touched.iter_mut().enumerate() {
        if std::mem::take(t) {
            fleet.pairs[i].app.refresh();
            fleet.refresh_row(i);
            any = true;
        }
    }
    if any && fleet.board {
        fleet.reorder();
    }
}

/// A terminal event on the board: keys through the first pair's keymap (every pair has the
/// config's), a click selects a row (a second opens it), the wheel moves the cursor.
fn on_board_input(
    fleet: &mut app::Fleet<Theme>,
    guard: &mut terminal::TerminalGuard,
    ev: Event,
) -> std::io::Result<app::BoardOutcome> {
    use crossterm::event::{KeyCode, KeyModifiers};
    let keymap = match fleet.pairs.first() {
        Some(p) => p.app.cfg.keymap.clone(),
        None => return Ok(app::BoardOutcome::None),
    };
    Ok(match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            if is_suspend_key(&k) && keymap.action(app::KeyChord::from_event(&k)).is_none() {
                guard.suspend()?;
                return Ok(app::BoardOutcome::Changed);
            }
            let ch = match k.code {
                KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => Some(c),
                _ => None,
            };
            let action = match k.code {
                // While typing a filter, the editing keys are what they say.
                KeyCode::Backspace if fleet.filtering => Some(app::Action::DeleteChar),
                KeyCode::Enter if fleet.filtering => Some(app::Action::Enter),
                KeyCode::Esc if fleet.filtering => Some(app::Action::Back),
                _ => keymap.action(app::KeyChord::from_event(&k)),
            };
            // Ctrl-C quits even while typing a filter.
            let ctrl_c =
                k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
            if ctrl_c {
                return Ok(app::BoardOutcome::Quit { keep_frame: false });
            }
            fleet.on_board_key(action, ch)
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => match ui::board::row_at(m.row) {
                Some(r) if fleet.click_row(r) => app::BoardOutcome::Changed,
                _ => app::BoardOutcome::None,
            },
            MouseEventKind::ScrollDown => fleet.on_board_key(Some(app::Action::Down), None),
            MouseEventKind::ScrollUp => fleet.on_board_key(Some(app::Action::Up), None),
            _ => app::BoardOutcome::None,
        },
        Event::Resize(..) => {
            guard.terminal.autoresize()?;
            app::BoardOutcome::Changed
        }
        Event::Paste(text) if fleet.filtering => {
            for c in text.chars().filter(|c| !c.is_control()).take(64) {
                fleet.on_board_key(None, Some(c));
            }
            app::BoardOutcome::Changed
        }
        _ => app::BoardOutcome::None,
    })
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
