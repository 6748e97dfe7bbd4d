//! `update(&mut App, Action)` without a terminal: focus, drill-downs, windows, baseline,
//! pause and scrub, overlays, effects for the loop.

use crate::common;

use common::screen::{act, app, render, Setup};
use dgscope::app::{Action, Control, Effect, Mode, Overlay, Pace, Pane, Screen};
use dgscope::metrics::Window;
use dgscope::tui;
use ratatui::layout::Rect;
use std::time::Duration;

#[test]
fn focus_cycles_through_the_five_panes_both_ways() {
    let mut a = app(Setup::default());
    assert_eq!(a.focus, Pane::Commit);
    let mut seen = vec![];
    for _ in 0..5 {
        act(&mut a, &[Action::FocusNext]);
        seen.push(a.focus);
    }
    assert_eq!(
        seen,
        [
            Pane::Throughput,
            Pane::Lag,
            Pane::StandbyIo,
            Pane::Causes,
            Pane::Commit
        ]
    );
    act(&mut a, &[Action::FocusPrev]);
    assert_eq!(a.focus, Pane::Causes);
    act(&mut a, &[Action::Focus(3)]);
    assert_eq!(a.focus, Pane::Lag);
    act(&mut a, &[Action::Focus(9)]);
    assert_eq!(a.focus, Pane::Lag);
}

#[test]
fn enter_zooms_a_pane_or_opens_the_selected_cause_and_esc_goes_back() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::Focus(2), Action::Enter]);
    assert_eq!(a.screen, Screen::Zoom(Pane::Throughput));
    // The throughput pane fits at 160×48: nothing to scroll.
    a.set_scroll_max(dgscope::ui::scroll_max(Rect::new(0, 0, 160, 48), &a));
    act(&mut a, &[Action::Down, Action::Down]);
    assert_eq!(a.scroll, 0, "a zoomed pane that fits does not scroll");
    act(&mut a, &[Action::Back, Action::Focus(1), Action::Enter]);
    // The commit pane's text is taller than 80×24: j scrolls it, up to its end.
    a.set_scroll_max(dgscope::ui::scroll_max(Rect::new(0, 0, 80, 24), &a));
    assert!(a.scroll_max > 2, "{}", a.scroll_max);
    act(&mut a, &[Action::Down, Action::Down]);
    assert_eq!(a.scroll, 2, "j scrolls a zoomed pane");
    act(&mut a, &[Action::Back]);
    assert_eq!((a.screen, a.scroll), (Screen::Main, 0));
    act(&mut a, &[Action::Focus(5), Action::Down, Action::Down]);
    assert_eq!(a.selected, 1, "selection stops at the last finding");
    act(&mut a, &[Action::Top]);
    assert_eq!(a.selected, 0);
    act(&mut a, &[Action::Bottom, Action::Enter]);
    assert_eq!(a.screen, Screen::Cause(1));
    let t = render(&a, 120, 40);
    assert!(t.contains("lfs-outlier-skew"), "{t}");
}

#[test]
fn causes_without_findings_zoom_the_pane() {
    let mut a = app(Setup {
        findings: false,
        ..Setup::default()
    });
    act(&mut a, &[Action::Focus(5), Action::Enter]);
    assert_eq!(a.screen, Screen::Zoom(Pane::Causes));
}

#[test]
fn window_cycle_skips_since_baseline_without_one() {
    let mut a = app(Setup {
        baseline_at: None,
        ..Setup::default()
    });
    assert_eq!(a.window, Window::Last(Duration::from_secs(60)));
    let mut seen = vec![];
    for _ in 0..5 {
        act(&mut a, &[Action::CycleWindow]);
        seen.push(a.window.to_string());
    }
    assert_eq!(seen, ["5m", "15m", "since startup", "10s", "1m"]);
    act(&mut a, &[Action::SetBaseline]);
    act(
        &mut a,
        &[
            Action::CycleWindow,
            Action::CycleWindow,
            Action::CycleWindow,
        ],
    );
    assert_eq!(a.window, Window::SinceBaseline);
    // Clearing the baseline leaves a window that means something.
    act(&mut a, &[Action::ClearBaseline]);
    assert_eq!(a.window, Window::SinceStartup);
    assert!(a.engine().baseline().is_none() && a.baseline_deltas.is_none());
}

#[test]
fn baseline_feeds_the_impact_table_and_the_throughput_changes() {
    let a = app(Setup::default());
    let rows = a.engine().impact(a.window).expect("baseline set at 50 s");
    let tps = rows.iter().find(|r| r.metric.id() == "tps").unwrap();
    // Healthy ~7 815 TPS before, seed 000's ~6 224 after: about -20 %.
    let c = tps.change_pct.unwrap();
    assert!((-23.0..-17.0).contains(&c), "{c}");
    let t = render(&a, 160, 48);
    assert!(t.contains("vs base"), "{t}");
    assert!(t.contains("base@05:00"), "{t}");
}

#[test]
fn pause_scrub_and_back_to_live() {
    let mut a = app(Setup::default());
    let latest = a.engine().latest().unwrap();
    act(&mut a, &[Action::TogglePause]);
    assert_eq!(a.paused_at, Some(latest));
    assert_eq!(
        a.take_effects(),
        vec![Effect::Control(Control::Pause(true))]
    );
    act(&mut a, &[Action::ScrubBack, Action::ScrubBack10]);
    assert_eq!(a.paused_at, Some(latest.add_millis(-11_000)));
    act(&mut a, &[Action::ScrubForward]);
    assert_eq!(a.paused_at, Some(latest.add_millis(-10_000)));
    // Scrubbing never runs off either end of the history.
    for _ in 0..100 {
        act(&mut a, &[Action::ScrubBack10]);
    }
    assert_eq!(a.paused_at, Some(a.timeline()[0]));
    // The window is computed at the cursor: at the first sample there is no delta yet, and
    // ten samples in, the 1-minute window holds only those ten seconds.
    assert!(a.deltas().primary.is_none());
    act(&mut a, &[Action::ScrubForward10]);
    assert_eq!(a.deltas().primary.as_ref().unwrap().secs, 10.0);
    act(&mut a, &[Action::Live]);
    assert_eq!(a.paused_at, None);
    assert_eq!(
        a.take_effects(),
        vec![Effect::Control(Control::Pause(false))]
    );
    // ← while live pauses one sample back.
    act(&mut a, &[Action::ScrubBack]);
    assert_eq!(a.paused_at, Some(latest.add_millis(-1000)));
}

#[test]
fn a_paused_screen_keeps_its_findings() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::TogglePause]);
    let before = a.assessment.findings.len();
    a.assessment.findings.clear();
    a.refresh();
    assert!(
        a.assessment.findings.is_empty(),
        "refresh while paused must not recompute"
    );
    act(&mut a, &[Action::TogglePause]);
    assert_eq!(a.assessment.findings.len(), before);
}

#[test]
fn speed_keys_send_the_new_pace_to_the_source() {
    let mut a = app(Setup::default());
    assert_eq!(a.pace, Pace::Speed(1.0));
    act(&mut a, &[Action::Faster, Action::Faster]);
    assert_eq!(a.pace, Pace::Speed(4.0));
    act(&mut a, &[Action::Slower]);
    assert_eq!(
        a.take_effects(),
        vec![
            Effect::Control(Control::Speed(2.0)),
            Effect::Control(Control::Speed(4.0)),
            Effect::Control(Control::Speed(2.0)),
        ]
    );
    let t = render(&a, 160, 48);
    assert!(t.contains("×2"), "{t}");
}

#[test]
fn fault_menu_only_with_scenarios_and_sends_the_choice() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::FaultMenu]);
    assert!(a.overlay.is_none());
    assert!(a.status.as_deref().unwrap().contains("demo"));
    let mut a = app(Setup {
        mode: Mode::Demo,
        scenarios: vec!["healthy-sync".into(), "slow-srl".into()],
        ..Setup::default()
    });
    act(
        &mut a,
        &[Action::FaultMenu, Action::Down, Action::Down, Action::Enter],
    );
    assert_eq!(
        a.take_effects(),
        vec![Effect::Control(Control::SetScenario("slow-srl".into()))]
    );
    assert_eq!(a.active_scenario.as_deref(), Some("slow-srl"));
    assert!(render(&a, 160, 48).contains("fault slow-srl"));
}

#[test]
fn mark_input_collects_text_and_queues_the_note() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::Mark]);
    for c in "fix SRL".chars() {
        act(&mut a, &[Action::Char(c)]);
    }
    act(&mut a, &[Action::DeleteChar, Action::Char('s')]);
    assert_eq!(
        a.overlay,
        Some(Overlay::MarkInput {
            text: "fix SRs".into()
        })
    );
    // Keys that are bindings elsewhere are text here: 'q' does not quit.
    let q = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char('q'));
    assert_eq!(
        dgscope::app::action_for_key(&a, &q),
        Some(Action::Char('q'))
    );
    act(&mut a, &[Action::Enter]);
    assert_eq!(a.overlay, None);
    assert_eq!(a.take_effects(), vec![Effect::AddMark("fix SRs".into())]);
    act(&mut a, &[Action::Mark, Action::Char('x'), Action::Back]);
    assert!(a.take_effects().is_empty(), "Esc cancels the note");
}

#[test]
fn quit_keys_and_io_actions_become_effects() {
    let mut a = app(Setup::default());
    act(
        &mut a,
        &[
            Action::Quit,
            Action::QuitKeepFrame,
            Action::ToggleRecording,
            Action::Copy,
            Action::Report,
        ],
    );
    assert_eq!(
        a.take_effects(),
        vec![
            Effect::Quit { keep_frame: false },
            Effect::Quit { keep_frame: true },
            Effect::ToggleRecording,
            Effect::Copy,
            Effect::WriteReport,
        ]
    );
}

#[test]
fn overlays_open_close_and_let_screen_keys_through() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::Help]);
    assert_eq!(a.overlay, Some(Overlay::Help));
    act(&mut a, &[Action::Impact]);
    assert_eq!(
        a.overlay,
        Some(Overlay::Impact),
        "i switches help to impact"
    );
    act(&mut a, &[Action::CycleWindow]);
    assert_eq!(a.window.to_string(), "5m", "w works under the impact table");
    act(&mut a, &[Action::Back]);
    assert_eq!(a.overlay, None);
}

#[test]
fn theme_cycles_through_the_builtins() {
    let mut a = app(Setup::default());
    let mut names = vec![a.theme().name.clone()];
    for _ in 0..4 {
        act(&mut a, &[Action::CycleTheme]);
        names.push(a.theme().name.clone());
    }
    assert_eq!(names, ["dark", "light", "high-contrast", "mono", "dark"]);
}

#[test]
fn no_color_means_mono_only_and_unknown_themes_are_one_line() {
    let t = tui::themes(None, false, true, Some("truecolor"), None).unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].name, "mono");
    let t = tui::themes(Some("light"), false, false, None, None).unwrap();
    assert_eq!(t[0].name, "light");
    assert_eq!(t.len(), 4);
    let e = tui::themes(Some("neon"), false, false, None, None).unwrap_err();
    assert!(e.is_bad_input());
    // At the edge: one line, exit 2.
    let f = dgscope::commands::Failure::from(e);
    assert_eq!(f.code, 2);
    assert!(f.message.contains("--theme \"neon\""), "{}", f.message);
}

#[test]
fn a_click_focuses_the_pane_under_it() {
    let a = app(Setup::default());
    let area = Rect::new(0, 0, 160, 48);
    assert_eq!(dgscope::ui::pane_at(area, &a, 5, 3), Some(Pane::Commit));
    assert_eq!(dgscope::ui::pane_at(area, &a, 100, 3), Some(Pane::Lag));
    assert_eq!(dgscope::ui::pane_at(area, &a, 100, 45), Some(Pane::Causes));
    assert_eq!(
        dgscope::ui::pane_at(area, &a, 5, 0),
        None,
        "the header is no pane"
    );
    let small = Rect::new(0, 0, 80, 24);
    assert_eq!(
        dgscope::ui::pane_at(small, &a, 5, 8),
        Some(Pane::Throughput)
    );
}

#[test]
fn several_standbys_are_chosen_with_brackets() {
    use dgscope::sample::Slot;
    use dgscope::source::SourceEvent;
    let mut a = app(Setup::default());
    // A second standby: the same samples under another slot and name.
    let mut g = common::synthetic::Synth::new(3);
    for _ in 0..10 {
        let (_, mut s) = g.next_pair();
        s.slot = Slot::named_standby("dr");
        s.db.as_mut().map(std::sync::Arc::make_mut).unwrap().name = Some("prod_dr".into());
        a.ingest(SourceEvent::Sample(Box::new(s)));
    }
    assert_eq!(a.engine().standby_slots().len(), 2);
    let first = a.standby().cloned();
    act(&mut a, &[Action::NextStandby]);
    assert_ne!(a.standby().cloned(), first);
    let t = render(&a, 160, 48);
    assert!(t.contains("[prod_"), "the chosen standby is bracketed: {t}");
    act(&mut a, &[Action::PrevStandby]);
    assert_eq!(a.standby().cloned(), first);
}

#[test]
fn copy_text_and_incident_report_carry_the_numbers() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::Focus(1)]);
    let text = tui::copy_text(&a);
    assert!(
        text.contains("log file sync") && text.contains("≤ 32"),
        "{text}"
    );
    // Text to paste into a ticket: no box drawing, no padding, nothing after the last line.
    let boxy = |t: &str| t.chars().any(|c| ('\u{2500}'..='\u{257f}').contains(&c));
    assert!(!boxy(&text), "{text}");
    assert!(text.lines().all(|l| l == l.trim_end()), "{text:?}");
    assert!(text.starts_with("Commit path (primary, last 1m)"), "{text}");
    assert!(
        !text.contains('█') && !text.contains('▓'),
        "no chart or bar in the copy: {text}"
    );
    assert!(
        !text.contains("dgscope  REPLAY"),
        "no header in the copy: {text}"
    );
    // A drill-down copies all of it, SQL included, even past the screen's bottom edge.
    let mut d = app(Setup::default());
    act(&mut d, &[Action::Focus(5), Action::Enter]);
    let text = tui::copy_text(&d);
    assert!(!boxy(&text), "{text}");
    assert!(
        text.starts_with("WARN standby-redo-write-slow — Standby redo log writes are slow"),
        "{text}"
    );
    assert!(tui::copy_status(&text).contains(&format!("{} bytes", text.len())));
    assert!(tui::copy_status(&"x".repeat(90_000)).contains("warning"));
    assert!(
        text.contains("JOIN v$logfile f ON f.group# = s.group#"),
        "{text}"
    );
    assert!(text.contains("FASTSYNC"), "{text}");
    let md = tui::incident_markdown(&a);
    assert!(md.contains("# Data Guard incident report"), "{md}");
    assert!(md.contains("| log file sync | 4.58 |"), "{md}");
    assert!(
        md.contains("## Impact vs baseline: baseline set at"),
        "{md}"
    );
    assert!(md.contains("standby-redo-write-slow"), "{md}");
    // `y` copies what the report writes: the drill-down's finding, the commit pane's table
    // and the causes pane's findings, line for line.
    common::assert_copy_in_report(&tui::copy_text(&d), &md);
    common::assert_copy_in_report(&tui::copy_text(&a), &md);
    let mut c = app(Setup::default());
    act(&mut c, &[Action::Focus(5)]);
    let causes = tui::copy_text(&c);
    assert!(causes.contains("INFO lfs-outlier-skew — "), "{causes}");
    common::assert_copy_in_report(&causes, &md);
    // Panes the report only sums up copy their figures, without sparklines.
    let mut tp = app(Setup::default());
    act(&mut tp, &[Action::Focus(2)]);
    let tps = tui::copy_text(&tp);
    assert!(tps.contains("TPS") && tps.contains("vs base"), "{tps}");
    assert!(
        !tps.chars().any(|c| ('\u{2581}'..='\u{2588}').contains(&c)),
        "{tps}"
    );
    let dir = tempfile::tempdir().unwrap();
    let p = tui::write_incident_report(&a, dir.path()).unwrap();
    assert!(p
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("dgscope-incident-20261130-050259"));
    assert_eq!(std::fs::read_to_string(p).unwrap(), md);
}

#[test]
fn without_a_causes_engine_the_pane_does_not_claim_health() {
    let mut a = app(Setup {
        findings: false,
        ..Setup::default()
    });
    a.cfg.causes_available = false;
    let t = render(&a, 80, 24);
    assert!(t.contains("not available in this build"), "{t}");
    assert!(!t.contains("look healthy"), "{t}");
}

/// `watch` before its first sample: no data, no baseline, no findings.
fn live_app_before_any_sample() -> dgscope::app::App<dgscope::ui::theme::Theme> {
    let mut a = app(Setup {
        secs: 0,
        baseline_at: None,
        findings: false,
        ..Setup::default()
    });
    a.cfg.mode = Mode::Live;
    a
}

#[test]
fn a_connecting_slot_shows_a_spinner_until_data_arrives() {
    use dgscope::sample::Slot;
    use dgscope::source::{ConnState, SourceEvent};
    let mut a = live_app_before_any_sample();
    a.ingest(SourceEvent::Status {
        slot: Slot::primary(),
        state: ConnState::Connecting,
    });
    // The engine has no slot yet: the primary pane still says it is connecting.
    let mut g = common::synthetic::Synth::new(1);
    let (p, _) = g.next_pair();
    let mut failed = p.clone();
    failed.error = Some(dgscope::sample::SampleError {
        kind: dgscope::sample::SampleErrorKind::ConnectionLost,
        message: "ORA-12541".into(),
    });
    a.ingest(SourceEvent::Sample(Box::new(failed)));
    a.now = p.t;
    let t = render(&a, 160, 48);
    assert!(t.contains("connecting ⠋"), "{t}");
    a.ingest(SourceEvent::Sample(Box::new(p)));
    let t = render(&a, 160, 48);
    assert!(!t.contains("connecting"), "{t}");
}

#[test]
fn log_scale_toggles_the_histogram_label() {
    let mut a = app(Setup::default());
    assert!(render(&a, 160, 48).contains("(linear)"));
    act(&mut a, &[Action::ToggleScale]);
    assert!(a.log_scale);
    assert!(render(&a, 160, 48).contains("(log)"));
}

/// `[`/`]` choose the standby the panes show, the header follows; with one standby they
/// say so instead of doing nothing.
#[test]
fn brackets_choose_the_standby_or_say_there_is_only_one() {
    use common::screen::Topology;
    let mut a = app(Setup {
        topology: Topology::TwoStandbys,
        ..Setup::default()
    });
    let head = |a: &dgscope::ui::App| render(a, 160, 48).lines().next().unwrap().to_string();
    assert!(head(&a).contains("[prod_b]"), "{}", head(&a));
    let lag = |a: &dgscope::ui::App| {
        render(a, 160, 48)
            .lines()
            .find(|l| l.contains("3 Lag"))
            .unwrap()
            .to_string()
    };
    assert!(lag(&a).contains("standby prod_b"), "{}", lag(&a));
    act(&mut a, &[Action::NextStandby]);
    assert!(head(&a).contains("[prod_c]"), "{}", head(&a));
    assert!(!head(&a).contains("[prod_b]"), "{}", head(&a));
    assert!(lag(&a).contains("standby prod_c"), "{}", lag(&a));
    assert_eq!(
        a.status.as_deref(),
        Some("standby panes show prod_c (2 of 2)")
    );
    act(&mut a, &[Action::PrevStandby]);
    assert!(lag(&a).contains("standby prod_b"), "{}", lag(&a));

    let mut one = app(Setup::default());
    let before = one.standby().cloned();
    act(&mut one, &[Action::NextStandby]);
    assert_eq!(one.standby().cloned(), before);
    assert!(
        one.status
            .as_deref()
            .is_some_and(|s| s.starts_with("only one standby")),
        "{:?}",
        one.status
    );
    assert!(render(&one, 160, 48).contains("only one standby"));
}

/// A part that comes back filtered (a CDB common user without CONTAINER_DATA) or denied
/// (ORA-00942) is named on the screen with the privilege and the grant that gives it; the
/// causes pane does not call the rest healthy. The part errors are the real collector's on
/// the Oracle fake-driver fixtures.
#[test]
fn a_filtered_or_denied_part_names_the_missing_privilege() {
    use common::screen::fixture_sample;
    use dgscope::sample::Slot;
    use dgscope::source::oracle::scenarios::{cdb_primary, primary, Release};
    use dgscope::source::SourceEvent;
    let cdb = fixture_sample(cdb_primary(Release::R19, false), Slot::primary());
    let mut denied_db = primary(Release::R19, 1);
    denied_db.denied.insert("V$IOSTAT_FILE".into());
    let denied = fixture_sample(denied_db, Slot::primary());
    assert!(!cdb.errors.is_empty() && !denied.errors.is_empty());
    for (fx, must) in [
        (&cdb, "CONTAINER_DATA"),
        (&denied, "GRANT SELECT ON SYS.GV_$IOSTAT_FILE TO mon"),
    ] {
        let mut a = app(Setup {
            findings: false,
            ..Setup::default()
        });
        // The newest primary sample carries the fixture's part errors.
        let mut last = (**a
            .engine()
            .slot(&Slot::primary())
            .unwrap()
            .last_good()
            .unwrap())
        .clone();
        last.t = last.t.add_millis(1000);
        last.errors = fx.errors.clone();
        a.ingest(SourceEvent::Sample(Box::new(last)));
        a.refresh();
        let t = render(&a, 160, 48);
        assert!(t.contains("prod_a iostat: missing privilege"), "{t}");
        assert!(t.contains(must), "{must}: {t}");
        assert!(!t.contains("look healthy"), "{t}");
        assert!(t.contains("in what could be read"), "{t}");
        // At 80×24 the line is still there (wrapped, never dropped).
        assert!(render(&a, 80, 24).contains("missing privilege"));
        act(&mut a, &[Action::Focus(5)]);
        let copy = tui::copy_text(&a);
        assert!(copy.contains(must), "{copy}");
    }
}

/// `e` while the screen warms up writes what the causes pane says: not judged yet, never
/// "looked healthy"; with enough data and no finding it may say healthy.
#[test]
fn the_report_written_while_warming_up_does_not_say_healthy() {
    let young = app(Setup {
        secs: 3,
        baseline_at: None,
        findings: false,
        ..Setup::default()
    });
    assert!(young.warming_up());
    let md = tui::incident_markdown(&young);
    assert!(!md.contains("looked healthy"), "{md}");
    assert!(
        md.contains("Not judged: the session had 2 s of data"),
        "{md}"
    );
    let old = app(Setup {
        secs: 50,
        baseline_at: None,
        findings: false,
        ..Setup::default()
    });
    assert!(!old.warming_up());
    assert!(tui::incident_markdown(&old).contains("looked healthy"));
}

/// `watch` on its first sample: each database's state and lags are shown at once (they are
/// read, not rates); rates need a second sample and say `–` until then, never 0.
#[test]
fn watch_shows_state_and_lags_from_the_first_sample_and_rates_from_the_second() {
    use dgscope::source::SourceEvent;
    let mut a = live_app_before_any_sample();
    let mut g = common::synthetic::Synth::new(1);
    macro_rules! feed {
        () => {{
            let (p, s) = g.next_pair();
            a.now = p.t;
            a.ingest(SourceEvent::Sample(Box::new(p)));
            a.ingest(SourceEvent::Sample(Box::new(s)));
            render(&a, 160, 48)
        }};
    }
    let line = |t: &str, what: &str| -> String {
        t.lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what:?} in\n{t}"))
            .to_string()
    };
    let first = feed!();
    // State and lags from the first sample: roles in the header, the lags and the apply
    // process in the lag pane.
    assert!(first.contains("prod_a PRIMARY"), "{first}");
    assert!(first.contains("PHYSICAL STANDBY (MOUNTED)"), "{first}");
    assert!(
        line(&first, "transport ").contains("apply   1.0 s"),
        "{first}"
    );
    assert!(first.contains("MRP0 APPLYING_LOG"), "{first}");
    // Rates: not yet, and said as unknown.
    assert!(line(&first, "TPS ").contains("– /s"), "{first}");
    assert!(line(&first, "redo ").contains("– MB/s"), "{first}");
    let second = feed!();
    let tps = line(&second, "TPS ");
    assert!(
        tps.split_whitespace()
            .nth(2)
            .is_some_and(|x| x.chars().all(|c| c.is_ascii_digit())),
        "{tps}"
    );
    assert!(!line(&second, "log file sync ").contains(" –"), "{second}");
}
