//! The app's state: everything the screen shows, owned in one place. Sources feed it through
//! [`App::ingest`]; keys change it through [`super::update`]; the UI only reads it.

use super::control::{Control, Pace};
use super::keymap::Keymap;
use dgscope_core::causes::Assessment;
use dgscope_core::metrics::{Engine, Window, WindowDeltas};
use dgscope_core::pipeline::Driver;
use dgscope_model::sample::recording::Entry;
use dgscope_model::sample::{LogSwitch, Mark, Slot};
use dgscope_model::source::{Checking, ConnState, SourceEvent};
use dgscope_model::timestamp::Timestamp;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// Asks the driver for the causes after a batch of samples; supplied by the caller (the
/// pipeline's screen assessor, which adds what-if figures).
pub type Assessor = Box<dyn FnMut(&mut Driver) -> Assessment + Send>;

/// Which kind of source feeds the screen: the header says so, and some keys depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Live,
    Demo,
    Replay,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Mode::Live => "LIVE",
            Mode::Demo => "DEMO",
            Mode::Replay => "REPLAY",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pane {
    Commit = 1,
    Throughput = 2,
    Lag = 3,
    StandbyIo = 4,
    Causes = 5,
}

impl Pane {
    pub const ALL: [Pane; 5] = [
        Pane::Commit,
        Pane::Throughput,
        Pane::Lag,
        Pane::StandbyIo,
        Pane::Causes,
    ];

    pub fn from_number(n: u8) -> Option<Pane> {
        Pane::ALL.get((n as usize).checked_sub(1)?).copied()
    }

    pub fn number(self) -> u8 {
        self as u8
    }

    pub fn title(self) -> &'static str {
        match self {
            Pane::Commit => "Commit path",
            Pane::Throughput => "Throughput",
            Pane::Lag => "Lag",
            Pane::StandbyIo => "Standby I/O",
            Pane::Causes => "Suggested causes",
        }
    }

    pub fn next(self) -> Pane {
        Pane::ALL[(self as usize) % 5]
    }

    pub fn prev(self) -> Pane {
        Pane::ALL[(self as usize + 3) % 5]
    }
}

/// The full-screen view under any overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Main,
    /// A pane zoomed to the whole screen with everything it has.
    Zoom(Pane),
    /// A cause's drill-down (index into the findings shown).
    Cause(usize),
    /// The configuration: every member's state in one table (DGMGRL `show configuration`).
    Members,
    /// What is waiting now: every database's in-flight waits (`V$SESSION`).
    Waits,
}

/// A box drawn over the screen; keys go to it first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    Help,
    Impact,
    FaultMenu { selected: usize },
    MarkInput { text: String },
}

/// Asks the event loop to do what the pure state machine cannot (I/O, the terminal, sources).
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Quit {
        keep_frame: bool,
    },
    Control(Control),
    ToggleRecording,
    AddMark(String),
    WriteReport,
    /// Copy the focused pane or drill-down as text (OSC 52).
    Copy,
}

/// What the app needs of a colour theme: its name, for the footer when `t` cycles. The
/// themes themselves (colours, styles) are the screen's: `ui::theme::Theme` implements this
/// and the app holds them as `T`, so the app does not depend on the ui.
pub trait ThemeName {
    fn name(&self) -> &str;
}

/// How the screen is set up: fixed for the session. `T` is the screen's theme type.
#[derive(Debug, Clone)]
pub struct AppConfig<T> {
    pub mode: Mode,
    /// The source's description (recording path, `twin:slow-srl seed=7`, connect names).
    pub source: String,
    pub interval: Duration,
    pub pace: Pace,
    /// Fault scenarios the source accepts (`f` menu); empty outside the demo.
    pub scenarios: Vec<String>,
    pub ascii: bool,
    pub keymap: Keymap,
    /// Themes `t` cycles through (the first is used at start).
    pub themes: Vec<T>,
    /// False while no causes engine is plugged in: the causes pane says so instead of
    /// calling an empty list "healthy".
    pub causes_available: bool,
    /// Seconds a condition must hold to raise a finding: less data than that and no
    /// finding could have been raised yet ("warming up", never "healthy").
    pub raise_after_s: f64,
    /// `Some(len)`: the source is one observation of a window `len` long (an AWR report);
    /// the header says so instead of a pace.
    pub one_window: Option<Duration>,
    /// How evidence names where a figure came from (see `TuiOptions::cite`).
    pub cite: fn(&str) -> String,
    /// The pair's name on the fleet board, shown in its screen's header (`None`: one pair).
    pub pair: Option<String>,
}

/// Values derived from one set of deltas (held, so its address is never reused while they
/// are kept), by what they are and a size.
type Derived = Option<(
    Arc<WindowDeltas>,
    std::collections::HashMap<(&'static str, [usize; 2]), Arc<dyn std::any::Any + Send + Sync>>,
)>;

/// What the window's deltas are computed from (see [`App::deltas`]).
#[derive(Debug, Clone, PartialEq)]
struct DeltasKey {
    window: Window,
    paused_at: Option<Timestamp>,
    primary: Option<Slot>,
    standby: Option<Slot>,
    newest: [Option<(usize, Timestamp)>; 2],
    baseline: Option<Timestamp>,
}

pub struct App<T> {
    pub cfg: AppConfig<T>,
    /// The one way from samples to metrics and findings, as for every other consumer.
    driver: Driver,
    pub assessment: Assessment,
    assessor: Assessor,
    /// Wall-clock instant injected by the loop (age of data, countdowns, spinner).
    pub now: Timestamp,
    pub focus: Pane,
    /// Selected finding in the causes pane.
    pub selected: usize,
    pub screen: Screen,
    pub overlay: Option<Overlay>,
    /// Scroll offset of zoomed panes and drill-downs (lines).
    pub scroll: u16,
    /// How far the current drill-down can scroll at the terminal's size (set by the event
    /// loop from `ui::scroll_max`): scrolling stops at the end.
    pub scroll_max: u16,
    /// `/`: the search typed or made in the drill-down or the help.
    pub search: Option<super::search::Search>,
    /// The drill-down rows holding a match of the search (set by the event loop from
    /// `ui::search_rows`, as `scroll_max`): where `n` and `N` move the view.
    pub search_rows: Vec<u16>,
    /// The window's deltas and what they were computed from: a frame, the zoom's off-screen
    /// measuring draws and `y` read them, and each computation subtracts every event's
    /// histogram (100,000 buckets in a pathological source); they change only with new data,
    /// the window, the pause point, the standby or the baseline.
    deltas_memo: std::sync::Mutex<Option<(DeltasKey, Arc<WindowDeltas>)>>,
    /// What the screen derives from those deltas (histogram rows), kept while they last: a
    /// frame redrawn without new data costs drawing, not deriving again.
    derived: std::sync::Mutex<Derived>,
    pub window: Window,
    pub log_scale: bool,
    /// Paused display: the instant being shown (collection goes on).
    pub paused_at: Option<Timestamp>,
    pub pace: Pace,
    pub theme_idx: usize,
    pub standby_idx: usize,
    /// The RAC instance the commit path pane shows (`None`: all, the cluster's sums).
    pub commit_inst: Option<u32>,
    /// Path of the recording being written, shown in the header.
    pub recording: Option<String>,
    pub conn: BTreeMap<Slot, ConnState>,
    /// The source has no more data (the end of a recording).
    pub ended: bool,
    /// The read-through of a long recording behind the screen, while it goes on or when it
    /// found a damaged line (the header says which); `None` once every line was whole.
    pub checking: Option<Checking>,
    /// One line for the footer: what the last action did ("report written to …").
    pub status: Option<String>,
    /// Deltas of the window current when the baseline was set (changes vs baseline).
    pub baseline_deltas: Option<WindowDeltas>,
    /// Log switches per hour when the baseline was set.
    pub baseline_switches_h: Option<f64>,
    /// The newest `V$LOG_HISTORY` list per slot (fetched only every minute or so).
    pub switches: BTreeMap<Slot, Arc<Vec<LogSwitch>>>,
    pub active_scenario: Option<String>,
    pub effects: Vec<Effect>,
}

impl<T> std::fmt::Debug for App<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("mode", &self.cfg.mode)
            .field("focus", &self.focus)
            .field("screen", &self.screen)
            .field("overlay", &self.overlay)
            .field("window", &self.window)
            .field("paused_at", &self.paused_at)
            .finish_non_exhaustive()
    }
}

/// Fewer good primary samples than this and the causes pane says "warming up".
pub const WARMUP_SAMPLES: usize = 5;

impl<T> App<T> {
    pub fn new(cfg: AppConfig<T>, driver: Driver, assessor: Assessor) -> App<T> {
        let pace = cfg.pace;
        App {
            cfg,
            driver,
            assessment: Assessment::default(),
            assessor,
            now: Timestamp::default(),
            focus: Pane::Commit,
            selected: 0,
            screen: Screen::Main,
            overlay: None,
            scroll: 0,
            scroll_max: u16::MAX,
            search: None,
            search_rows: Vec::new(),
            deltas_memo: std::sync::Mutex::new(None),
            derived: std::sync::Mutex::new(None),
            window: Window::Last(Duration::from_secs(60)),
            log_scale: false,
            paused_at: None,
            pace,
            theme_idx: 0,
            standby_idx: 0,
            commit_inst: None,
            recording: None,
            conn: BTreeMap::new(),
            ended: false,
            checking: None,
            status: None,
            baseline_deltas: None,
            baseline_switches_h: None,
            switches: BTreeMap::new(),
            active_scenario: None,
            effects: Vec::new(),
        }
    }

    /// The metrics the screen draws: the driver's engine.
    pub fn engine(&self) -> &Engine {
        self.driver.engine()
    }

    /// Everything raised, cleared and marked since the screen started (the `e` report).
    pub fn session(&self) -> &dgscope_core::pipeline::SessionLog {
        self.driver.session()
    }

    /// Sets the baseline (`b`): the window current now.
    pub fn set_baseline(&mut self) {
        self.driver.set_baseline(self.window);
    }

    pub fn clear_baseline(&mut self) {
        self.driver.clear_baseline();
    }

    pub fn theme(&self) -> &T {
        &self.cfg.themes[self.theme_idx.min(self.cfg.themes.len().saturating_sub(1))]
    }

    /// Feeds one event from the source. Call [`App::refresh`] after a batch.
    pub fn ingest(&mut self, ev: SourceEvent) {
        match ev {
            SourceEvent::Sample(s) => {
                self.conn
                    .entry(s.slot.clone())
                    .and_modify(|c| {
                        if !s.is_error() {
                            *c = ConnState::Connected
                        }
                    })
                    .or_insert(ConnState::Connected);
                if let Some(sw) = &s.switches {
                    self.switches.insert(s.slot.clone(), sw.clone());
                }
                self.driver.push(Entry::Sample(s));
            }
            SourceEvent::Mark(m) => {
                self.driver.push(Entry::Mark(m));
            }
            SourceEvent::Status { slot, state } => {
                self.conn.insert(slot, state);
            }
            SourceEvent::End => self.ended = true,
            SourceEvent::Checking(Checking::Whole) => self.checking = None,
            SourceEvent::Checking(c) => self.checking = Some(c),
            SourceEvent::CaughtUp => {}
        }
    }

    /// Recomputes the causes after new data, unless the display is paused (a paused screen
    /// keeps the findings it had so they match the numbers shown).
    pub fn refresh(&mut self) {
        if self.paused_at.is_none() {
            self.assessment = (self.assessor)(&mut self.driver);
            let n = self.assessment.findings.len();
            if self.selected >= n {
                self.selected = n.saturating_sub(1);
            }
        }
    }

    /// The instant the screen describes, on the source's clock (one clock per screen): the
    /// scrub cursor when paused, otherwise the newest sample's time (the twin's virtual time
    /// in the demo, the recording's in replay, the databases' sample time live). Before the
    /// first sample there is no source time yet and the wall clock stands in.
    pub fn clock(&self) -> Timestamp {
        if let Some(t) = self.paused_at {
            return t;
        }
        self.source_now()
    }

    /// The window as the screen names it: a report's whole window is the report's, not
    /// "since startup".
    pub fn window_label(&self) -> String {
        match (self.cfg.one_window, self.window) {
            (Some(_), Window::SinceStartup) => "whole report".to_string(),
            (_, w) => w.to_string(),
        }
    }

    /// The source's newest instant, paused or not: what notes, marks and baselines are
    /// stamped with.
    pub fn source_now(&self) -> Timestamp {
        self.engine().latest().unwrap_or(self.now)
    }

    /// "now" for the age of data, on the source's clock: the demo and replay have no wall
    /// clock of their own; live, a database that stopped answering ages by the wall clock
    /// (no newer sample would ever say so).
    pub fn data_now(&self) -> Timestamp {
        match self.cfg.mode {
            Mode::Replay | Mode::Demo => self.source_now(),
            Mode::Live => {
                let latest = self.source_now();
                if self.now > latest {
                    self.now
                } else {
                    latest
                }
            }
        }
    }

    pub fn primary(&self) -> Option<&Slot> {
        self.engine().primary_slot()
    }

    /// The primary's RAC instances `(inst_id, host)` as its newest sample lists them;
    /// empty on a single instance.
    pub fn primary_instances(&self) -> Vec<(u32, Option<String>)> {
        self.primary()
            .and_then(|p| self.engine().slot(p))
            .and_then(|s| s.last_good())
            .and_then(|s| s.instances.as_ref())
            .map_or(Vec::new(), |v| {
                v.iter()
                    .map(|i| (i.inst_id, i.host.as_deref().map(String::from)))
                    .collect()
            })
    }

    /// The standby panes 3–4 show (`[`/`]` choose).
    pub fn standby(&self) -> Option<&Slot> {
        let all = self.engine().standby_slots();
        let n = all.len();
        if n == 0 {
            return None;
        }
        Some(all[self.standby_idx.min(n - 1)])
    }

    /// Timestamps of the primary's points: the positions the scrub cursor can take.
    pub fn timeline(&self) -> Vec<Timestamp> {
        let slot = self
            .primary()
            .or_else(|| self.engine().slots().next().map(|(k, _)| k));
        slot.and_then(|s| self.engine().slot(s))
            .map(|s| s.points().iter().map(|p| p.t).collect())
            .unwrap_or_default()
    }

    /// Good samples of the primary in the last minute (warming up below [`WARMUP_SAMPLES`]).
    pub fn primary_samples(&self) -> usize {
        self.primary()
            .and_then(|s| self.engine().slot(s))
            .map(|s| s.samples_in(Duration::from_secs(3600)))
            .unwrap_or(0)
    }

    /// The thresholds the screen's driver judges by.
    pub fn thresholds(&self) -> &dgscope_core::causes::Thresholds {
        self.driver.thresholds()
    }

    pub fn warming_up(&self) -> bool {
        self.assessment.warming_up
            || self.primary_samples() < WARMUP_SAMPLES
            || self.data_span_s() < self.cfg.raise_after_s
    }

    /// Seconds of primary data on hand (first to newest point), on the source's clock.
    pub fn data_span_s(&self) -> f64 {
        let slot = self
            .primary()
            .or_else(|| self.engine().slots().next().map(|(k, _)| k));
        let Some(pts) = slot.and_then(|s| self.engine().slot(s)).map(|s| s.points()) else {
            return 0.0;
        };
        match (pts.iter().next(), pts.last()) {
            (Some(a), Some(b)) => b.t.secs_since(a.t),
            _ => 0.0,
        }
    }

    /// Deltas of the current window for the primary and the chosen standby, at the instant
    /// shown (the scrub cursor when paused).
    pub fn deltas(&self) -> Arc<WindowDeltas> {
        let newest = |slot: Option<&Slot>| {
            let s = self.engine().slot(slot?)?.last()?;
            // The newest sample's address and time: a new sample changes both.
            Some((Arc::as_ptr(s) as usize, s.t))
        };
        let key = DeltasKey {
            window: self.window,
            paused_at: self.paused_at,
            primary: self.primary().cloned(),
            standby: self.standby().cloned(),
            newest: [newest(self.primary()), newest(self.standby())],
            baseline: self.engine().baseline(),
        };
        let mut memo = self.deltas_memo.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, d)) = memo.as_ref() {
            if *k == key {
                return d.clone();
            }
        }
        let d = Arc::new(self.compute_deltas());
        *memo = Some((key, d.clone()));
        d
    }

    /// `make()` for these `deltas` (as [`App::deltas`] gave them), once: later calls with the
    /// same deltas and key get the kept value.
    pub fn derived<V: std::any::Any + Send + Sync>(
        &self,
        deltas: &Arc<WindowDeltas>,
        key: (&'static str, [usize; 2]),
        make: impl FnOnce() -> V,
    ) -> Arc<V> {
        let mut memo = self.derived.lock().unwrap_or_else(|e| e.into_inner());
        if !memo.as_ref().is_some_and(|(d, _)| Arc::ptr_eq(d, deltas)) {
            *memo = Some((deltas.clone(), std::collections::HashMap::new()));
        }
        let Some((_, map)) = memo.as_mut() else {
            return Arc::new(make());
        };
        if let Some(v) = map.get(&key).and_then(|v| v.clone().downcast::<V>().ok()) {
            return v;
        }
        let v = Arc::new(make());
        map.insert(key, v.clone());
        v
    }

    fn compute_deltas(&self) -> WindowDeltas {
        let at = self.paused_at;
        let get = |slot: Option<&Slot>| {
            let s = self.engine().slot(slot?)?;
            match (self.window, at) {
                (Window::Last(len), Some(t)) => s.window_ending(len, Some(t)),
                (w, _) => s.window(w),
            }
        };
        WindowDeltas {
            primary: get(self.primary()),
            standby: get(self.standby()),
        }
    }

    /// Log switches per hour on the primary in the hour up to `at` (default: its newest
    /// sample), from `V$LOG_HISTORY`.
    pub fn switches_per_hour(&self, at: Option<Timestamp>) -> Option<f64> {
        let slot = self.primary()?;
        let sw = self.switches.get(slot)?;
        let end = at.or_else(|| self.engine().slot(slot)?.last_good().map(|s| s.t))?;
        // All threads together, computed as the findings compute it (one function).
        let rates = dgscope_core::causes::switch_rates(sw, end);
        Some(dgscope_core::causes::total_per_hour(&rates))
    }

    pub fn marks(&self) -> impl Iterator<Item = &Mark> {
        self.engine().marks().iter()
    }

    /// Sets how far the view can scroll (see [`App::scroll_max`]) and keeps the offset within.
    pub fn set_scroll_max(&mut self, max: u16) {
        self.scroll_max = max;
        self.scroll = self.scroll.min(max);
    }

    /// Takes the effects queued by `update` (the loop carries them out).
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }
}
