//! Every pane, overlay and drill-down at 80×24 and 160×48 on deterministic data, as insta
//! snapshots (reviewed like code: the numbers must make sense for seed 000's slow SRL).

use crate::common;

use common::screen::{act, app, buffer, render, Setup};
use dgscope::app::{Action, Mode, Overlay};
use dgscope::sample::Slot;
use dgscope::source::{ConnState, SourceEvent};
use ratatui::style::{Color, Modifier};

const SIZES: [(u16, u16); 2] = [(80, 24), (160, 48)];

fn snap(name: &str, text: String) {
    insta::assert_snapshot!(name, text);
}

#[test]
fn main_screen() {
    let a = app(Setup::default());
    for (w, h) in SIZES {
        snap(&format!("main_{w}x{h}"), render(&a, w, h));
    }
}

#[test]
fn every_pane_zoomed() {
    for pane in 1..=5u8 {
        let mut a = app(Setup {
            adg: pane == 3,
            ..Setup::default()
        });
        // Zooming the causes pane would open the selected cause; show the pane itself.
        if pane == 5 {
            a.screen = dgscope::app::Screen::Zoom(dgscope::app::Pane::Causes);
        } else {
            act(&mut a, &[Action::Focus(pane), Action::Enter]);
        }
        for (w, h) in SIZES {
            snap(&format!("zoom_{pane}_{w}x{h}"), render(&a, w, h));
        }
    }
}

#[test]
fn cause_drill_down() {
    let mut a = app(Setup::default());
    act(&mut a, &[Action::Focus(5), Action::Enter]);
    assert_eq!(a.screen, dgscope::app::Screen::Cause(0));
    for (w, h) in SIZES {
        snap(&format!("drill_{w}x{h}"), render(&a, w, h));
    }
}

#[test]
fn overlays() {
    let mut a = app(Setup {
        mode: Mode::Demo,
        scenarios: ["healthy-sync", "slow-srl", "sync-high-rtt", "standby-down"]
            .map(String::from)
            .to_vec(),
        ..Setup::default()
    });
    for (name, actions) in [
        ("help", vec![Action::Help]),
        ("impact", vec![Action::Impact]),
        ("fault_menu", vec![Action::FaultMenu, Action::Down]),
        (
            "mark_input",
            vec![
                Action::Mark,
                Action::Char('S'),
                Action::Char('R'),
                Action::Char('L'),
                Action::Char(' '),
                Action::Char('m'),
                Action::Char('o'),
                Action::Char('v'),
                Action::Char('e'),
                Action::Char('d'),
            ],
        ),
    ] {
        a.overlay = None;
        act(&mut a, &actions);
        assert!(a.overlay.is_some(), "{name}");
        for (w, h) in SIZES {
            snap(&format!("overlay_{name}_{w}x{h}"), render(&a, w, h));
        }
    }
}

#[test]
fn impact_without_a_baseline_says_how_to_get_one() {
    let mut a = app(Setup {
        baseline_at: None,
        ..Setup::default()
    });
    act(&mut a, &[Action::Impact]);
    let text = render(&a, 80, 24);
    assert!(text.contains("No baseline yet."), "{text}");
    assert!(text.contains("Press b"), "{text}");
}

#[test]
fn too_small_screens() {
    let a = app(Setup::default());
    snap("too_small_40x10", render(&a, 40, 10));
    let t = render(&a, 59, 16);
    assert!(
        t.contains("terminal too small (need 60×16, have 59×16)"),
        "{t}"
    );
    let t = render(&a, 60, 15);
    assert!(t.contains("have 60×15"), "{t}");
    // The minimum itself draws the panes.
    let t = render(&a, 60, 16);
    assert!(
        t.contains("1 Commit path") && t.contains("5 Suggested causes"),
        "{t}"
    );
}

#[test]
fn mono_theme_uses_no_colour_and_marks_severity_with_attributes() {
    let a = app(Setup {
        theme: "mono",
        ..Setup::default()
    });
    let buf = buffer(&a, 80, 24);
    for c in buf.content() {
        assert_eq!(c.fg, Color::Reset, "colour in mono at {:?}", c.symbol());
        assert_eq!(c.bg, Color::Reset);
    }
    // The header is reversed, and the WARN badge bold.
    assert!(buf[(1, 0)].modifier.contains(Modifier::REVERSED));
    let text = dgscope::ui::buffer_text(&buf);
    let (y, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("WARN"))
        .unwrap();
    let x = line
        .chars()
        .take_while(|_| true)
        .collect::<String>()
        .find("WARN")
        .unwrap();
    let col = line[..x].chars().count() as u16;
    assert!(buf[(col, y as u16)].modifier.contains(Modifier::BOLD));
    snap("mono_80x24", text);
}

#[test]
fn ascii_drawing_has_no_braille_or_box_characters() {
    let mut a = app(Setup {
        ascii: true,
        ..Setup::default()
    });
    for (w, h) in [(80, 24), (160, 48)] {
        let t = render(&a, w, h);
        assert!(
            !t.chars().any(|c| ('\u{2500}'..='\u{259f}').contains(&c)
                || ('\u{2800}'..='\u{28ff}').contains(&c)),
            "{t}"
        );
        snap(&format!("ascii_{w}x{h}"), t);
    }
    act(&mut a, &[Action::Focus(3), Action::Enter]);
    let t = render(&a, 160, 48);
    assert!(
        !t.chars().any(|c| ('\u{2800}'..='\u{28ff}').contains(&c)),
        "braille in ascii lag chart"
    );
}

#[test]
fn warming_up_and_healthy_empty_states() {
    let a = app(Setup {
        secs: 3,
        baseline_at: None,
        findings: false,
        ..Setup::default()
    });
    snap("warming_up_80x24", render(&a, 80, 24));
    let a = app(Setup {
        secs: 50,
        baseline_at: None,
        findings: false,
        ..Setup::default()
    });
    let t = render(&a, 80, 24);
    assert!(
        t.contains("No cause above INFO — primary and standby look healthy"),
        "{t}"
    );
    snap("healthy_80x24", t);
}

#[test]
fn paused_and_scrubbed_back_shows_the_past() {
    let mut a = app(Setup::default());
    act(
        &mut a,
        &[
            Action::TogglePause,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
            Action::ScrubBack10,
        ],
    );
    let t = render(&a, 160, 48);
    // 120 samples back from 05:02:59 is 05:00:59, the last healthy second.
    assert!(
        t.contains("PAUSED") && t.contains("05:00:59 (-2m00s)"),
        "{t}"
    );
    snap("paused_160x48", t);
}

#[test]
fn lost_standby_dims_and_counts_down() {
    let mut a = app(Setup {
        mode: Mode::Live,
        ..Setup::default()
    });
    let latest = a.engine().latest().unwrap();
    a.now = latest.add_millis(42_000);
    a.ingest(SourceEvent::Status {
        slot: Slot::standby(),
        state: ConnState::Reconnecting {
            next_try: latest.add_millis(49_000),
            attempt: 3,
            reason: "ORA-03113: end-of-file on communication channel".into(),
        },
    });
    let t = render(&a, 160, 48);
    assert!(
        t.contains("data 42 s old, reconnecting in 7 s (attempt 3)"),
        "{t}"
    );
    snap("reconnecting_160x48", t);
    assert!(a.overlay.is_none() || matches!(a.overlay, Some(Overlay::Help)));
}

const ALL_SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (160, 48)];

/// The stacked layout at 100×30 uses its whole height (charts in the taller panes).
#[test]
fn main_screen_100x30() {
    let a = app(Setup::default());
    let t = render(&a, 100, 30);
    assert!(t.contains("━ log file sync"), "the commit chart: {t}");
    snap("main_100x30", t);
}

/// A zoomed pane scrolls as a whole like a drill-down: at 80×24 the commit pane's text is
/// taller than the view; scrolled to its end its last text row is at the bottom, it says
/// where you are ("N/N end") and one more j changes nothing. Where it fits, no indicator.
#[test]
fn zoomed_pane_scrolled_to_its_end() {
    for (w, h) in ALL_SIZES {
        let mut a = app(Setup::default());
        act(&mut a, &[Action::Focus(1), Action::Enter]);
        let area = ratatui::layout::Rect::new(0, 0, w, h);
        a.set_scroll_max(dgscope::ui::scroll_max(area, &a));
        let top = render(&a, w, h);
        act(&mut a, &[Action::Bottom]);
        let end = render(&a, w, h);
        act(&mut a, &[Action::Down]);
        assert_eq!(render(&a, w, h), end, "{w}x{h}: scrolled past the end");
        if a.scroll_max > 0 {
            let rows = h as usize - 4;
            assert!(
                top.contains(&format!(" {rows}/{} ↓ ", rows + a.scroll_max as usize)),
                "{w}x{h}: position at the top\n{top}"
            );
            assert!(end.contains(" end "), "{w}x{h}: position\n{end}");
            // The bucket table's last row (<64 ms) is the end of the text.
            let lines: Vec<&str> = end.lines().collect();
            assert!(lines[lines.len() - 3].contains("<64"), "{w}x{h}\n{end}");
        } else {
            assert!(!end.contains(" end "), "{w}x{h}\n{end}");
        }
        snap(&format!("zoom_1_end_{w}x{h}"), end);
    }
}

/// Scrolled as far as it goes: the last row of the drill-down at the bottom, no blank rows
/// past it, and where you are ("N/N end").
#[test]
fn drill_down_scrolled_to_its_end() {
    for (w, h) in ALL_SIZES {
        let mut a = app(Setup::default());
        act(&mut a, &[Action::Focus(5), Action::Enter]);
        let area = ratatui::layout::Rect::new(0, 0, w, h);
        a.set_scroll_max(dgscope::ui::scroll_max(area, &a));
        act(&mut a, &[Action::Bottom, Action::Down, Action::Down]);
        let t = render(&a, w, h);
        let rows: Vec<&str> = t.lines().collect();
        // The frame's last row above its bottom border holds text (the end of the doc).
        let last_inner = rows[rows.len() - 3];
        if a.scroll_max > 0 {
            assert!(
                last_inner.trim_matches(|c| c == '│' || c == ' ').len() > 1,
                "{w}x{h}: blank last row\n{t}"
            );
            assert!(t.contains(" end "), "{w}x{h}: position\n{t}");
            // Scrolling up one line leaves the end.
            let mut b = app(Setup::default());
            act(&mut b, &[Action::Focus(5), Action::Enter]);
            b.set_scroll_max(a.scroll_max);
            act(&mut b, &[Action::Bottom, Action::Up]);
            assert_eq!(b.scroll, a.scroll_max - 1);
        }
        assert!(
            t.contains("FASTSYNC"),
            "{w}x{h}: the what-if is the end\n{t}"
        );
        snap(&format!("drill_end_{w}x{h}"), t);
    }
}

/// At 160 columns a header with a fault, a recording and a baseline drops source details
/// first; fault, REC and baseline stay.
#[test]
fn header_keeps_fault_rec_and_baseline_at_160() {
    let mut a = app(Setup {
        mode: Mode::Demo,
        ..Setup::default()
    });
    a.active_scenario = Some("sync-high-rtt".into());
    a.recording = Some("/tmp/dgscope-20261130-050259.jsonl".into());
    let t = render(&a, 160, 48);
    let header = t.lines().next().unwrap().to_string();
    for must in [
        "fault sync-high-rtt",
        "●REC",
        "base@05:00:50",
        "simulated ×1",
        "05:02:59",
    ] {
        assert!(header.contains(must), "{must:?} lost: {header}");
    }
    snap("header_fault_rec_baseline_160x48", header);
    let narrow = render(&a, 80, 24).lines().next().unwrap().to_string();
    for must in ["fault sync-high-rtt", "●REC", "base@05:00:50"] {
        assert!(narrow.contains(must), "{must:?} lost at 80: {narrow}");
    }
}

/// Issue 29: a long recording read through behind the replay screen says how far, and a
/// damaged line found there says DAMAGED with the last good time, at 160 and at 80 columns.
#[test]
fn header_says_how_the_read_through_behind_replay_goes() {
    use dgscope::source::{Checking, SourceEvent};
    let mut a = app(Setup {
        mode: Mode::Replay,
        ..Setup::default()
    });
    a.ingest(SourceEvent::Checking(Checking::Reading(Some(43))));
    let wide = render(&a, 160, 48).lines().next().unwrap().to_string();
    assert!(wide.contains("checking 43 %"), "{wide}");
    snap("header_checking_160x48", wide);
    let last_good = a.engine().latest().unwrap().add_millis(-60_000);
    a.ingest(SourceEvent::Checking(Checking::Damaged {
        message: "r.jsonl:5: bad sample".into(),
        last_good: Some(last_good),
    }));
    let wide = render(&a, 160, 48).lines().next().unwrap().to_string();
    assert!(!wide.contains("checking"), "{wide}");
    assert!(
        wide.contains(&format!("DAMAGED after {}", last_good.clock())),
        "{wide}"
    );
    let narrow = render(&a, 80, 24).lines().next().unwrap().to_string();
    assert!(narrow.contains("DAMAGED"), "{narrow}");
    snap("header_damaged_80x24", narrow);
    a.ingest(SourceEvent::Checking(Checking::Whole));
    let whole = render(&a, 160, 48).lines().next().unwrap().to_string();
    assert!(
        !whole.contains("checking") && !whole.contains("DAMAGED"),
        "{whole}"
    );
}

/// A 100 000-bucket histogram: merged to what the pane can draw; the chart stays.
#[test]
fn commit_pane_with_a_many_bucket_histogram_keeps_its_chart() {
    let a = app(Setup {
        buckets: Some(100_000),
        ..Setup::default()
    });
    for (w, h) in ALL_SIZES {
        let t = render(&a, w, h);
        if w >= 120 {
            assert!(t.contains("100 000 merged"), "{w}x{h}: merged\n{t}");
        }
        if h >= 30 {
            assert!(t.contains("━ log file sync"), "{w}x{h}: the chart\n{t}");
        }
        snap(&format!("commit_many_buckets_{w}x{h}"), t);
    }
}

/// The standby stopped answering two minutes ago: every standby figure is its last good
/// one, dimmed, with its real age; never "figure age 1 s".
#[test]
fn standby_down_shows_stale_figures_with_their_age() {
    let a = app(Setup {
        secs: 300,
        standby_down_at: Some(180),
        ..Setup::default()
    });
    for (w, h) in ALL_SIZES {
        let t = render(&a, w, h);
        assert!(t.contains("STALE, 2m00s ago"), "{w}x{h}\n{t}");
        assert!(!t.contains("figure age"), "{w}x{h}\n{t}");
        snap(&format!("standby_down_{w}x{h}"), t);
    }
    let buf = buffer(&a, 160, 48);
    let muted = a.theme().muted().fg;
    let row = (0..48u16)
        .find(|y| {
            (0..160u16)
                .map(|x| buf[(x, *y)].symbol().to_string())
                .collect::<String>()
                .contains("transport ")
        })
        .unwrap();
    // The figures are drawn dimmed.
    let x = (0..160u16)
        .find(|x| buf[(*x, row)].symbol() == "0" || buf[(*x, row)].symbol() == "1")
        .unwrap();
    assert_eq!(buf[(x, row)].fg, muted.unwrap_or(Color::Reset));
}

/// The header draws the whole Data Guard configuration (issue 13): the primary, each member
/// after the one that sends it redo, SYNC/ASYNC on each arrow; the standby panes 3–4 show is
/// bracketed when there are several. Narrower, the other members go before the path to the
/// chosen standby, and fault, REC and baseline are never lost.
#[test]
fn header_shows_the_configuration() {
    use common::screen::Topology;
    for (topo, name) in [
        (Topology::TwoStandbys, "two_standbys"),
        (Topology::FarSync, "far_sync"),
    ] {
        let mut a = app(Setup {
            mode: Mode::Demo,
            topology: topo,
            ..Setup::default()
        });
        let wide = render(&a, 160, 48);
        let head = wide.lines().next().unwrap().to_string();
        match topo {
            Topology::TwoStandbys => {
                for must in [
                    "prod_a",
                    "══ SYNC AFFIRM ══▶ [prod_b]",
                    ", ══ ASYNC ══▶ prod_c",
                ] {
                    assert!(head.contains(must), "{must:?}: {head}");
                }
            }
            _ => {
                for must in [
                    "prod_a",
                    "══ SYNC AFFIRM ══▶ prod_fs (far sync) ══ ASYNC ══▶ [prod_c]",
                ] {
                    assert!(head.contains(must), "{must:?}: {head}");
                }
            }
        }
        snap(&format!("header_{name}_160x48"), wide);
        for (w, h) in [(80, 24), (100, 30)] {
            snap(&format!("header_{name}_{w}x{h}"), render(&a, w, h));
        }
        // With a fault, a recording and a baseline at 80 columns: those stay, as do the
        // primary and the chosen standby.
        // The twin's scenario for this topology (the fault menu's name).
        let scenario = if topo == Topology::FarSync {
            "far-sync"
        } else {
            "two-standbys"
        };
        a.active_scenario = Some(scenario.into());
        a.recording = Some("/tmp/dgscope-20261130-050259.jsonl".into());
        let narrow = render(&a, 80, 24);
        let head = narrow.lines().next().unwrap().to_string();
        let fault = format!("fault {scenario}");
        for must in [fault.as_str(), "●REC", "base@05:00:50", "prod_a"] {
            assert!(head.contains(must), "{name}: {must:?} lost: {head}");
        }
        let chosen = if topo == Topology::FarSync {
            "prod_c"
        } else {
            "[prod_b]"
        };
        assert!(head.contains(chosen), "{name}: {head}");
        snap(&format!("header_{name}_fault_rec_80x24"), head);
    }
}

/// `/` in a drill-down: typed in the footer, then every match marked (reversed), the one `n`
/// moved to in the warning colour, the view scrolled to it and "/QUERY i/N" in the border.
/// In the help, only the keys that match stay.
#[test]
fn search_in_the_drill_down_and_the_help() {
    for (w, h) in SIZES {
        let area = ratatui::layout::Rect::new(0, 0, w, h);
        let mut a = app(Setup::default());
        act(&mut a, &[Action::Focus(5), Action::Enter, Action::Search]);
        for c in "rfs".chars() {
            act(&mut a, &[Action::Char(c)]);
        }
        let typing = render(&a, w, h);
        assert!(typing.contains("/rfs▏ Enter find · Esc cancel"), "{typing}");
        snap(&format!("search_typing_{w}x{h}"), typing);
        // The event loop hands the app the rows that match before each key.
        a.set_scroll_max(dgscope::ui::scroll_max(area, &a));
        a.search_rows = dgscope::ui::search_rows(area, &a);
        let n = a.search_rows.len();
        assert!(
            n >= 2,
            "{w}x{h}: RFS is in the evidence and the advice: {n}"
        );
        act(&mut a, &[Action::Enter, Action::SearchNext]);
        let s = a.search.as_ref().unwrap();
        assert_eq!((s.editing, s.current), (false, 1.min(n - 1)));
        let row = a.search_rows[s.current];
        assert!(
            a.scroll <= row && row < a.scroll + h,
            "{w}x{h}: match row {row} in view from {}",
            a.scroll
        );
        let made = render(&a, w, h);
        assert!(made.contains(&format!("/rfs 2/{n}")), "{made}");
        let buf = buffer(&a, w, h);
        let marked = buf
            .content()
            .iter()
            .filter(|c| c.modifier.contains(Modifier::REVERSED))
            .count();
        assert!(marked >= 3, "{w}x{h}: the matches are marked");
        snap(&format!("search_made_{w}x{h}"), made);
        // N goes back, wrapping at the first; Esc clears the search, then leaves.
        act(&mut a, &[Action::SearchPrev, Action::SearchPrev]);
        assert_eq!(a.search.as_ref().unwrap().current, n - 1);
        act(&mut a, &[Action::Back]);
        assert!(a.search.is_none());
        assert_eq!(a.screen, dgscope::app::Screen::Cause(0));
        act(&mut a, &[Action::Back]);
        assert_eq!(a.screen, dgscope::app::Screen::Main);

        let mut a = app(Setup::default());
        act(&mut a, &[Action::Help, Action::Search]);
        for c in "THEME".chars() {
            act(&mut a, &[Action::Char(c)]);
        }
        act(&mut a, &[Action::Enter]);
        let help = render(&a, w, h);
        assert!(help.contains("keys /THEME (Esc clears)"), "{help}");
        assert!(help.contains("cycle theme"), "{help}");
        assert!(!help.contains("this help"), "{help}");
        snap(&format!("search_help_{w}x{h}"), help);
        act(&mut a, &[Action::Back]);
        assert!(a.search.is_none() && a.overlay == Some(Overlay::Help));
        act(&mut a, &[Action::Back]);
        assert!(a.overlay.is_none());
    }
    // A zoomed pane is a document too: the lag pane's figures and its notes on the timeline.
    for (w, h) in SIZES {
        let area = ratatui::layout::Rect::new(0, 0, w, h);
        let mut a = app(Setup::default());
        act(&mut a, &[Action::Focus(3), Action::Enter, Action::Search]);
        for c in "apply".chars() {
            act(&mut a, &[Action::Char(c)]);
        }
        a.set_scroll_max(dgscope::ui::scroll_max(area, &a));
        a.search_rows = dgscope::ui::search_rows(area, &a);
        assert!(
            !a.search_rows.is_empty(),
            "{w}x{h}: apply is in the lag pane"
        );
        act(&mut a, &[Action::Enter]);
        let t = render(&a, w, h);
        assert!(
            t.contains(&format!("/apply 1/{}", a.search_rows.len())),
            "{w}x{h}\n{t}"
        );
        snap(&format!("search_zoom_{w}x{h}"), t);
    }
    // Nowhere else: the main screen says where a search can be made.
    let mut a = app(Setup::default());
    act(&mut a, &[Action::Search]);
    assert!(a.search.is_none());
    assert!(a.status.as_deref().unwrap_or("").contains("zoomed pane"));
}
