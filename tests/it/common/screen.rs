//! Builds apps from the synthetic pair and renders them on a TestBackend.

use super::{findings, synthetic};
use dgscope::app::{update, Action, Mode};
use dgscope::causes::{Assessment, Finding};
use dgscope::sample::{Role, Sample, Slot};
use dgscope::source::SourceEvent;
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme, App};
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
    /// The Data Guard configuration around the synthetic pair.
    pub topology: Topology,
}

/// Configurations for the header and `[`/`]`, their configuration rows and destinations
/// taken from the Oracle fake-driver fixtures (`crates/oracle/src/scenarios.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// The synthetic pair alone: prod_a SYNC to prod_b.
    Pair,
    /// `primary_two_standbys`: SYNC AFFIRM to the near prod_b, ASYNC to the far prod_c,
    /// both monitored (prod_c as a second standby slot).
    TwoStandbys,
    /// `far_sync` and `cascaded_standby`: prod_a SYNC to the far sync prod_fs, which ships
    /// ASYNC to the terminal standby prod_c; both monitored.
    FarSync,
}

/// The first good sample of a fixture database, through the real collector.
pub fn fixture_sample(db: dgscope::source::oracle::fake::FakeDb, slot: Slot) -> Sample {
    use dgscope::source::oracle::connect::Privilege;
    use dgscope::source::oracle::fake::FakeDriver;
    const CONN: &str = "//dbhost1:1521/prod_a";
    let d = FakeDriver::new();
    d.add(CONN, db);
    let name = slot.to_string();
    // A standby is read as SYSDG (it is mounted), the primary as a plain user.
    let privilege = if slot.is_standby() {
        Privilege::Sysdg
    } else {
        Privilege::Normal
    };
    let ev = super::collect(
        &d,
        vec![super::target(slot, &format!("mon@{CONN}"), privilege)],
        |_| {},
        |ev| !super::good_samples(ev, &name).is_empty(),
    );
    super::good_samples(&ev, &name)[0].clone()
}

/// Puts the synthetic pair into `topo`: returns the second monitored database's sample.
fn decorate(topo: &TopologyParts, p: &mut Sample, sb: &mut Sample) -> Option<Sample> {
    p.dests.extend(topo.primary_dests.iter().cloned());
    if let Some(n) = topo.rename_dest2 {
        for d in p.dests.iter_mut().filter(|d| d.id == 2) {
            d.name = Some(n.into());
            d.db_unique_name = Some(n.into());
        }
    }
    if topo.dg_config.is_some() {
        p.dg_config = topo.dg_config.clone();
    }
    let second = topo.second.as_ref().map(|(slot, name, role, dests)| {
        let mut x = sb.clone();
        x.slot = slot.clone();
        if let Some(db) = x.db.as_mut().map(std::sync::Arc::make_mut) {
            db.name = Some((*name).into());
            if let Some(r) = role {
                db.role = Some(r.clone());
            }
        }
        if !dests.is_empty() {
            x.dests = dests.clone();
        }
        x
    });
    if let (Some(n), Some(db)) = (
        topo.standby_name,
        sb.db.as_mut().map(std::sync::Arc::make_mut),
    ) {
        db.name = Some(n.into());
    }
    second
}

/// `secs` seconds of the synthetic pair (seed 7) in `topo`, in the order a source emits
/// them: what a recording of that configuration holds.
pub fn topology_samples(topo: Topology, secs: usize) -> Vec<Sample> {
    let parts = topology_parts(topo);
    let mut g = synthetic::Synth::new(7);
    let mut out = Vec::new();
    for _ in 0..secs {
        let (mut p, mut sb) = g.next_pair();
        let second = decorate(&parts, &mut p, &mut sb);
        out.push(p);
        out.push(sb);
        out.extend(second);
    }
    out
}

struct TopologyParts {
    /// Destinations added to (or renaming) the primary's, and its configuration rows.
    primary_dests: Vec<dgscope::sample::Dest>,
    rename_dest2: Option<&'static str>,
    dg_config: Option<std::sync::Arc<Vec<dgscope::sample::DgMember>>>,
    /// The synthetic standby under another name (the terminal standby).
    standby_name: Option<&'static str>,
    /// A second monitored database: a copy of the standby's samples under this slot, name,
    /// role and destinations.
    second: Option<(Slot, &'static str, Option<Role>, Vec<dgscope::sample::Dest>)>,
}

fn topology_parts(t: Topology) -> TopologyParts {
    use dgscope::source::oracle::scenarios::{self as sc, Release};
    match t {
        Topology::Pair => TopologyParts {
            primary_dests: vec![],
            rename_dest2: None,
            dg_config: None,
            standby_name: None,
            second: None,
        },
        Topology::TwoStandbys => {
            let p = fixture_sample(sc::primary_two_standbys(Release::R19), Slot::primary());
            TopologyParts {
                primary_dests: p
                    .dests
                    .iter()
                    .filter(|d| d.db_unique_name.as_deref() == Some("prod_c"))
                    .cloned()
                    .collect(),
                rename_dest2: None,
                dg_config: p.dg_config.clone(),
                standby_name: None,
                second: Some((Slot::named_standby("far"), "prod_c", None, vec![])),
            }
        }
        Topology::FarSync => {
            let fs = fixture_sample(sc::far_sync(Release::R19), Slot::named_standby("fs"));
            let c = fixture_sample(sc::cascaded_standby(Release::R19), Slot::standby());
            TopologyParts {
                primary_dests: vec![],
                rename_dest2: Some("prod_fs"),
                dg_config: c.dg_config.clone(),
                standby_name: Some("prod_c"),
                second: Some((
                    Slot::named_standby("fs"),
                    "prod_fs",
                    Some(Role::FarSync),
                    fs.dests.clone(),
                )),
            }
        }
    }
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
            topology: Topology::Pair,
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
    // The findings are the fixture's; the configuration overview is the driver's own, taken
    // at the newest instant as the screen's assessor takes it.
    let assessor = Box::new(move |d: &mut dgscope::pipeline::Driver| {
        d.assess_now();
        Assessment {
            findings: if with_findings {
                findings::slow_srl(since)
            } else {
                Vec::<Finding>::new()
            },
            warming_up: false,
            overview: d.assessment().overview.clone(),
            decomposition: d.assessment().decomposition.clone(),
        }
    });
    let mut app = tui::build_app(&opts, themes, assessor);
    let mut g = synthetic::Synth::new(s.seed);
    g.adg = s.adg;
    let topo = topology_parts(s.topology);
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
        let second = decorate(&topo, &mut p, &mut sb);
        app.ingest(SourceEvent::Sample(Box::new(p)));
        app.ingest(SourceEvent::Sample(Box::new(sb)));
        if let Some(x) = second {
            app.ingest(SourceEvent::Sample(Box::new(x)));
        }
        if s.baseline_at == Some(i) {
            update(&mut app, Action::SetBaseline);
        }
    }
    app.refresh();
    app.status = None;
    app.now = app.engine().latest().unwrap_or_default();
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
