//! The screen on the twin's topologies (issue 13): the commit path pane of a RAC primary
//! switches between all instances and each one with `n`, naming the instance it shows.

use dgscope::app::{update, Action, Mode};
use dgscope::pipeline::ScreenAssessor;
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::{PullSource, SourceEvent};
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn demo_app(scenario: Scenario, secs: usize) -> App {
    let mut twin = Twin::new(scenario, 7);
    let mut opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
    opts.scenarios = Scenario::names().into_iter().map(String::from).collect();
    let assessor = ScreenAssessor::new(None).into_assessor();
    let mut app = tui::build_app(&opts, Theme::all_builtin(true), assessor);
    for _ in 0..secs {
        let tick = twin.next_tick().unwrap();
        for s in tick.samples {
            app.ingest(SourceEvent::Sample(Box::new(s)));
        }
        app.refresh();
    }
    app.status = None;
    app.now = app.engine().latest().unwrap_or_default();
    app
}

fn text(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    ui::buffer_text(t.backend().buffer())
}

#[test]
fn n_cycles_the_commit_pane_through_the_rac_instances() {
    let mut app = demo_app(Scenario::RacNodeSaturated, 90);
    let all = text(&app, 160, 48);
    assert!(all.contains("(primary, all instances)"), "{all}");
    update(&mut app, Action::CycleInstance);
    assert_eq!(
        app.status.as_deref(),
        Some("commit path: inst 1 on dbhost1")
    );
    update(&mut app, Action::CycleInstance);
    assert_eq!(app.commit_inst, Some(2));
    app.status = None;
    let wide = text(&app, 160, 48);
    assert!(wide.contains("inst 2 on dbhost2; chart: all"), "{wide}");
    // Instance 2's own LGWR: its log file sync is not the cluster's.
    let lfs_line = |s: &str| {
        s.lines()
            .find(|l| l.contains("log file sync") && l.contains('.'))
            .unwrap()
            .to_string()
    };
    assert_ne!(lfs_line(&wide), lfs_line(&all));
    insta::assert_snapshot!("rac_inst2_160x48", wide);
    insta::assert_snapshot!("rac_inst2_80x24", text(&app, 80, 24));
    for _ in 0..2 {
        update(&mut app, Action::CycleInstance);
    }
    assert_eq!(app.commit_inst, None);
    assert_eq!(app.status.as_deref(), Some("commit path: all instances"));
}

#[test]
fn n_on_a_single_instance_primary_says_so() {
    let mut app = demo_app(Scenario::HealthySync, 10);
    update(&mut app, Action::CycleInstance);
    assert_eq!(app.commit_inst, None);
    assert!(app
        .status
        .as_deref()
        .is_some_and(|s| s.starts_with("single instance")));
}

#[test]
fn the_header_draws_the_twins_far_sync_chain_and_two_standbys() {
    let app = demo_app(Scenario::FarSync, 30);
    let head = text(&app, 160, 48).lines().next().unwrap().to_string();
    assert!(head.contains("prod_a PRIMARY"), "{head}");
    assert!(
        head.contains("══ SYNC AFFIRM ══▶ prod_fs (far sync) ══ ASYNC ══▶ [prod_c]"),
        "{head}"
    );
    let app = demo_app(Scenario::TwoStandbys, 30);
    let head = text(&app, 160, 48).lines().next().unwrap().to_string();
    assert!(head.contains("SYNC AFFIRM ══▶ [prod_b]"), "{head}");
    assert!(head.contains("ASYNC ══▶ prod_c"), "{head}");
}
