//! The configuration view (`c`) and the per-member lag summary, on the digital twin through
//! the real pipeline (the overview is the driver's, taken with the findings): two standbys,
//! one of them stale; the apply rate only where it means something; the causes pane's
//! "healthy" judging every standby.
//!
//! Regenerate after an intended change: `INSTA_UPDATE=always cargo test --test it ui_members::`.

use crate::common;

use dgscope::app::{update, Action, Mode, Screen};
use dgscope::pipeline::ScreenAssessor;
use dgscope::sample::{Sample, SampleErrorKind};
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::{PullSource, SourceEvent};
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// `secs` seconds of `scenario` (seed 7) through the real pipeline; from `fail_from` on, the
/// samples of the standby slot named `fail_slot` fail (the database stops answering).
fn twin_app(scenario: Scenario, secs: usize, fail: Option<(&str, usize)>) -> App {
    let mut twin = Twin::new(scenario, 7);
    let opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
    let assessor = ScreenAssessor::new(None).into_assessor();
    let mut app = tui::build_app(&opts, Theme::all_builtin(true), assessor);
    for i in 0..secs {
        for s in twin.next_tick().unwrap().samples {
            let s = match fail {
                Some((slot, from)) if i >= from && s.slot.to_string() == slot => Sample::failed(
                    s.t,
                    s.slot.clone(),
                    SampleErrorKind::ConnectionLost,
                    "ORA-03113: end-of-file on communication channel".into(),
                ),
                _ => s,
            };
            app.ingest(SourceEvent::Sample(Box::new(s)));
        }
        app.refresh();
    }
    app.status = None;
    app.now = app.engine().latest().unwrap_or_default();
    app
}

fn render(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| ui::draw(f, app)).unwrap();
    ui::buffer_text(t.backend().buffer())
}

fn act(app: &mut App, actions: &[Action]) {
    for a in actions {
        update(app, *a);
    }
}

/// The second standby's slot in the two-standbys twin.
fn second_slot(app: &App) -> String {
    let slots = app.engine().standby_slots();
    assert_eq!(slots.len(), 2, "{slots:?}");
    slots[1].to_string()
}

#[test]
fn c_opens_the_configuration_with_every_member_and_closes_it() {
    let mut a = twin_app(Scenario::TwoStandbys, 120, None);
    act(&mut a, &[Action::Configuration]);
    assert_eq!(a.screen, Screen::Members);
    let o = a.assessment.overview.clone();
    let names: Vec<String> = o.standbys.iter().map(ui::member_name).collect();
    assert_eq!(names.len(), 2);
    for (w, h) in [(80, 24), (160, 48)] {
        let t = render(&a, w, h);
        for n in &names {
            assert!(t.contains(n.as_str()), "{n} at {w}x{h}: {t}");
        }
        let head = t.lines().find(|l| l.contains("member")).unwrap();
        assert!(
            (head.contains("transport lag") || head.contains("tr lag"))
                && head.contains("apply lag"),
            "{head}"
        );
        assert!(head.contains("finish"), "the RTO figure at {w}x{h}: {head}");
        assert!(t.contains("protection MaxAvailability"), "{t}");
        insta::assert_snapshot!(format!("members_two_standbys_{w}x{h}"), t);
    }
    // Everything the view has, with nothing dropped for width.
    let copy = tui::copy_text(&a);
    assert!(copy.starts_with("Configuration  as of "), "{copy}");
    assert!(copy.contains("switchover"), "{copy}");
    act(&mut a, &[Action::Configuration]);
    assert_eq!(a.screen, Screen::Main);
    act(&mut a, &[Action::Configuration, Action::Back]);
    assert_eq!(a.screen, Screen::Main);
}

#[test]
fn a_stale_member_is_shown_stale_with_its_time_never_as_now() {
    let probe = twin_app(Scenario::TwoStandbys, 1, None);
    let slot = second_slot(&probe);
    let mut a = twin_app(Scenario::TwoStandbys, 150, Some((&slot, 90)));
    let m = a
        .assessment
        .overview
        .standbys
        .iter()
        .find(|m| m.slot == slot)
        .unwrap()
        .clone();
    assert!(m.stale, "{m:#?}");
    let name = ui::member_name(&m);
    // The one-line summary on the main screen says so, at both sizes.
    for (w, h) in [(80, 24), (160, 48)] {
        let t = render(&a, w, h);
        let line = t.lines().find(|l| l.contains("lags ")).unwrap_or_default();
        assert!(
            line.contains(&format!("{name} STALE as of ")),
            "{w}x{h}: {t}"
        );
    }
    act(&mut a, &[Action::Configuration]);
    for (w, h) in [(80, 24), (160, 48)] {
        let t = render(&a, w, h);
        let row = t
            .lines()
            .find(|l| l.contains(name.as_str()) && l.contains("STALE as of"))
            .unwrap_or_else(|| panic!("{w}x{h}: {t}"));
        // No lag as now on its row: the lags are unknown, not its last figures.
        assert!(row.contains('–'), "{row}");
        insta::assert_snapshot!(format!("members_stale_{w}x{h}"), t);
    }
}

#[test]
fn a_far_sync_has_no_apply_lag_in_the_summary_or_the_view() {
    let mut a = twin_app(Scenario::FarSync, 60, None);
    if a.assessment.overview.standbys.len() < 2 {
        return; // the twin monitors the far sync's terminal standby only
    }
    let t = render(&a, 160, 48);
    assert!(t.contains(" far sync"), "{t}");
    act(&mut a, &[Action::Configuration]);
    let t = render(&a, 160, 48);
    assert!(t.contains("n/a"), "{t}");
}

/// Review M5: no apply rate while MRP0 waits for a gap, and MIRA's Active Apply Rate 0 is
/// unknown, never "headroom 0.0×"; one decimal of headroom.
#[test]
fn the_apply_rate_is_shown_only_where_it_means_something() {
    let a = twin_app(Scenario::MiraApply, 120, None);
    let t = render(&a, 160, 48);
    assert!(t.contains("apply rate unknown"), "{t}");
    assert!(!t.contains("headroom 0"), "{t}");
    let a = twin_app(Scenario::GapFraFull, 240, None);
    let gap = a
        .assessment
        .overview
        .standbys
        .iter()
        .any(|m| m.apply == dgscope::causes::ApplyState::WaitingForGap);
    let t = render(&a, 160, 48);
    if gap {
        assert!(t.contains("apply waits for a gap: no apply rate"), "{t}");
        assert!(!t.contains("headroom"), "{t}");
    }
    let a = twin_app(Scenario::SlowSrl, 120, None);
    let t = render(&a, 160, 48);
    let line = t.lines().find(|l| l.contains("headroom")).unwrap();
    let h = line.split("headroom ").nth(1).unwrap();
    let digits: String = h.chars().take_while(|c| *c != '×').collect();
    assert_eq!(
        digits.split('.').nth(1).map(str::len),
        Some(1),
        "one decimal: {line}"
    );
}

/// The causes pane's empty state judges every standby: a stale one keeps it from saying
/// "healthy", and names the member.
#[test]
fn no_finding_is_not_healthy_while_a_standby_is_stale() {
    use common::screen::{app, render, Setup};
    let a = app(Setup {
        findings: false,
        standby_down_at: Some(150),
        ..Setup::default()
    });
    let t = render(&a, 160, 48);
    assert!(!t.contains("look healthy"), "{t}");
    assert!(
        t.contains("not every member looks healthy: prod_b STALE as of 05:02:29"),
        "{t}"
    );
    let a = app(Setup {
        findings: false,
        topology: common::screen::Topology::TwoStandbys,
        ..Setup::default()
    });
    let t = render(&a, 160, 48);
    assert!(
        t.contains("the primary and all 2 standbys look healthy"),
        "{t}"
    );
}
