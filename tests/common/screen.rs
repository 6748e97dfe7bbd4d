//! Builds apps from the synthetic pair and renders them on a TestBackend.

#![allow(dead_code)]

use super::{findings, synthetic};
use dgscope::app::{update, Action, App, Mode};
use dgscope::causes::{Assessment, Finding};
use dgscope::source::SourceEvent;
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use std::time::Duration;

pub struct Setup {
    pub secs: usize,
    pub baseline_at: Option<usize>,
    pub findings: bool,
    pub mode: Mode,
    pub scenarios: Vec<String>,
    pub theme: &'static str,
    pub ascii: bool,
    pub adg: bool,
    pub seed: u64,
    /// The last primary sample's `log file sync` and `log file parallel write` histograms
    /// get this many buckets (a pathological source; Oracle has about 30).
    pub buckets: Option<usize>,
    /// From this sample on, the standby's samples fail (unreachable).
    pub standby_down_at: Option<usize>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            secs: 180,
            baseline_at: Some(50),
            findings: true,
            mode: Mode::Replay,
            scenarios: vec![],
            theme: "dark",
            ascii: false,
            adg: false,
            seed: 7,
            buckets: None,
            standby_down_at: None,
        }
    }
}

pub fn app(s: Setup) -> App {
    let mut opts = TuiOptions::new(
        s.mode,
        "replay:synthetic seed=7".into(),
        Duration::from_secs(1),
    );
    opts.scenarios = s.scenarios.clone();
    opts.ascii = s.ascii;
    let mut themes = Theme::all_builtin(false);
    let i = themes.iter().position(|t| t.name == s.theme).unwrap();
    themes.rotate_left(i);
    let since = dgscope::timestamp::Timestamp::from_millis(synthetic::T0_MS + 75_000);
    let with_findings = s.findings;
    let assessor = Box::new(move |_: &dgscope::metrics::Engine| Assessment {
        findings: if with_findings {
            findings::slow_srl(since)
        } else {
            Vec::<Finding>::new()
        },
        warming_up: false,
    });
    let mut app = tui::build_app(&opts, themes, assessor);
    let mut g = synthetic::Synth::new(s.seed);
    g.adg = s.adg;
    for i in 0..s.secs {
        let (mut p, mut sb) = g.next_pair();
        if s.standby_down_at.is_some_and(|at| i >= at) {
            sb = dgscope::sample::Sample::failed(
                sb.t,
                sb.slot.clone(),
                dgscope::sample::SampleErrorKind::ConnectionLost,
                "ORA-03113: end-of-file on communication channel".into(),
            );
        }
        if let (Some(n), true) = (s.buckets, i + 1 == s.secs) {
            many_buckets(&mut p, n);
        }
        app.ingest(SourceEvent::Sample(Box::new(p)));
        app.ingest(SourceEvent::Sample(Box::new(sb)));
        if s.baseline_at == Some(i) {
            update(&mut app, Action::SetBaseline);
        }
    }
    app.refresh();
    app.status = None;
    app.now = app.engine.latest().unwrap_or_default();
    app
}

/// Replaces the commit-path histograms with `n` fine buckets (10 µs apart) holding more
/// waits than any earlier sample, so the window's delta has `n` buckets.
pub fn many_buckets(p: &mut dgscope::sample::Sample, n: usize) {
    use dgscope::sample::names::event;
    use dgscope::sample::Bucket;
    use dgscope::units::Micros;
    for name in [event::LOG_FILE_SYNC, event::LOG_FILE_PARALLEL_WRITE] {
        if let Some(e) = p.events.get_mut(name) {
            let per = e.waits / n as u64 + 1;
            e.hist = (0..n)
                .map(|i| Bucket(Micros((i as u64 + 1) * 10), per + (i as u64 % 7)))
                .collect();
            e.waits = e.hist.iter().map(|b| b.1).sum::<u64>().max(e.waits);
        }
    }
}

pub fn buffer(app: &App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    t.backend().buffer().clone()
}

pub fn render(app: &App, w: u16, h: u16) -> String {
    ui::buffer_text(&buffer(app, w, h))
}

pub fn act(app: &mut App, actions: &[Action]) {
    for a in actions {
        update(app, *a);
    }
}
