//! "What is waiting now" (`s`) on the digital twin through the real pipeline: the primary's
//! sessions piled on `log file switch (archiving needed)` behind a stuck archiver, LGWR as
//! the blocker, next to a standby; a standby whose samples fail is STALE, its last summary
//! never shown as now; a sample without the summary (the twin's standby) says "not read".
//!
//! Regenerate after an intended change: `INSTA_UPDATE=always cargo test --test it ui_waits::`.

use dgscope::app::{update, Action, Mode, Screen};
use dgscope::pipeline::ScreenAssessor;
use dgscope::sample::{Sample, SampleErrorKind};
use dgscope::source::twin::{Scenario, Twin};
use dgscope::source::{PullSource, SourceEvent};
use dgscope::tui::{self, TuiOptions};
use dgscope::ui::{self, theme::Theme, App};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// `secs` seconds of `scenario` (seed 7); `edit` may change or fail each sample.
fn twin_app(scenario: Scenario, secs: usize, edit: impl Fn(usize, Sample) -> Sample) -> App {
    let mut twin = Twin::new(scenario, 7);
    let opts = TuiOptions::new(Mode::Demo, twin.describe(), twin.interval());
    let assessor = ScreenAssessor::new(None).into_assessor();
    let mut app = tui::build_app(&opts, Theme::all_builtin(true), assessor);
    for i in 0..secs {
        for s in twin.next_tick().unwrap().samples {
            app.ingest(SourceEvent::Sample(Box::new(edit(i, s))));
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

#[test]
fn s_opens_what_is_waiting_now_and_closes_it() {
    let mut a = twin_app(Scenario::ArchiverStuck, 200, |_, s| s);
    update(&mut a, Action::WaitsNow);
    assert_eq!(a.screen, Screen::Waits);
    for (w, h) in [(80, 24), (160, 48)] {
        let t = render(&a, w, h);
        assert!(t.contains("Waiting now"), "{t}");
        let row = t
            .lines()
            .find(|l| l.contains("log file switch (archiving needed)"))
            .unwrap_or_else(|| panic!("no archiving-needed row at {w}x{h}: {t}"));
        assert!(row.contains("LGWR"), "{row}");
        insta::assert_snapshot!(format!("waits_archiver_stuck_{w}x{h}"), t);
    }
    // `y` copies the view with the full program of the blocker.
    let text = dgscope::tui::copy_text(&a);
    assert!(
        text.contains("oracle@dbhost1 (LGWR)") && text.starts_with("Waiting now"),
        "{text}"
    );
    update(&mut a, Action::WaitsNow);
    assert_eq!(a.screen, Screen::Main);
    update(&mut a, Action::WaitsNow);
    update(&mut a, Action::Back);
    assert_eq!(a.screen, Screen::Main);
}

#[test]
fn a_failing_standby_is_stale_and_an_unread_summary_says_not_read() {
    let mut a = twin_app(Scenario::HealthySync, 60, |i, mut s| {
        if s.slot.is_standby() && i >= 50 {
            return Sample::failed(
                s.t,
                s.slot.clone(),
                SampleErrorKind::ConnectionLost,
                "ORA-03113: end-of-file on communication channel".into(),
            );
        }
        if !s.slot.is_standby() {
            s.waits_now = None;
        }
        s
    });
    update(&mut a, Action::WaitsNow);
    let t = render(&a, 160, 48);
    assert!(t.contains("V$SESSION not read"), "{t}");
    assert!(t.contains("STALE as of"), "{t}");
    assert!(t.contains("its last waits are not shown as now"), "{t}");
}

#[test]
fn the_help_lists_the_key() {
    let mut a = twin_app(Scenario::HealthySync, 5, |_, s| s);
    update(&mut a, Action::Help);
    let t = render(&a, 160, 48);
    assert!(t.contains("sessions waiting now"), "{t}");
}
