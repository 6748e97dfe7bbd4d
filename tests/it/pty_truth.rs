//! What the screen and its files say must be true (issue 12), on the real binary in a pty:
//! one clock (the source's) for the screen, notes, baselines and reports; replay never stalls
//! on a note; a standby that stopped answering is shown stale with its real age; `y` copies
//! the whole drill-down as plain text; a paste is note text, never keys.
//!
//! Timeouts only stop a hung test; the replay check allows a generous gap between clock
//! changes (the bug it guards against froze playback for the length of a clock skew).

use crate::common;

use common::pty::Tui;
use dgscope::sample::recording::{Entry, RecordingReader};
use std::time::{Duration, Instant};

/// Pumps the screen for `d`.
fn settle(t: &mut Tui, d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        t.pump();
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first `HH:MM:SS` after `marker` on the screen.
fn clock_after(text: &str, marker: &str) -> Option<String> {
    let i = text.find(marker)? + marker.len();
    let rest = &text[i..];
    let j = rest.find(|c: char| c.is_ascii_digit())?;
    let c = rest.get(j..j + 8)?;
    (c.len() == 8 && c.as_bytes()[2] == b':' && c.as_bytes()[5] == b':').then(|| c.to_string())
}

fn header(t: &Tui) -> String {
    t.text().lines().next().unwrap_or_default().to_string()
}

/// `2026-11-30T05:03:12.000Z` → `05:03:12`.
fn clock_of(iso: &str) -> &str {
    &iso[11..19]
}

#[test]
fn demo_at_x8_keeps_one_clock_for_screen_baseline_note_pause_and_report() {
    let mut t = Tui::spawn(&["demo", "--speed", "8"], 160, 48);
    t.wait_text("5 Suggested causes");
    t.wait_text("simulated ×8");
    settle(&mut t, Duration::from_millis(800));
    t.send("b");
    t.wait_text("baseline set at");
    let base = clock_after(&t.text(), "baseline set at ").expect("baseline clock");
    settle(&mut t, Duration::from_millis(600));
    t.send("m");
    t.wait_text("note for the timeline");
    t.send("after baseline\r");
    t.wait_text("note added: after baseline");
    settle(&mut t, Duration::from_millis(600));
    t.send("p");
    t.wait_text("PAUSED");
    let paused = clock_after(&header(&t), "PAUSED").expect("paused clock");
    // Paused, the display stays put for a while (the twin goes on underneath).
    settle(&mut t, Duration::from_millis(500));
    assert_eq!(
        clock_after(&header(&t), "PAUSED").as_deref(),
        Some(paused.as_str())
    );
    t.send("e");
    t.wait_text("report written:");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();

    let report = std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "md"))
        .expect("an incident report");
    let md = std::fs::read_to_string(&report).unwrap();
    let window = md
        .lines()
        .find_map(|l| l.strip_prefix("- Window: "))
        .expect("a window line");
    let (from, to) = window.split_once(" .. ").unwrap();
    let times: Vec<&str> = md
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let mark = md
        .lines()
        .find(|l| l.contains("mark: after baseline"))
        .and_then(|l| l.strip_prefix("- `"))
        .and_then(|l| l.split('`').next())
        .expect("the note on the timeline");
    // Every time in the report lies within its own window, in order.
    for w in times.windows(2) {
        assert!(w[0] <= w[1], "timeline out of order: {times:?}\n{md}");
    }
    for x in &times {
        assert!(from <= *x && *x <= to, "{x} outside {from} .. {to}\n{md}");
    }
    // The report ends at the paused instant (the screen's clock), and the baseline, the note
    // and the pause follow one another on that one clock. (Same day: skip the clock-of-day
    // comparisons across midnight.)
    assert_eq!(clock_of(to), paused, "{md}");
    if from[..10] == to[..10] {
        assert!(clock_of(from) <= base.as_str(), "{from} vs baseline {base}");
        assert!(
            base.as_str() <= clock_of(mark),
            "baseline {base} vs note {mark}"
        );
        assert!(
            clock_of(mark) <= paused.as_str(),
            "note {mark} vs pause {paused}"
        );
        assert!(
            md.contains(&format!("baseline set at {base}")),
            "the report's baseline is the screen's: {md}"
        );
    }
}

#[test]
fn a_note_recorded_at_x8_replays_at_x1_without_stalling() {
    let mut t = Tui::spawn(&["demo", "--speed", "8"], 120, 40);
    t.wait_text("5 Suggested causes");
    t.send("r");
    t.wait_text("●REC");
    settle(&mut t, Duration::from_millis(700));
    t.send("m");
    t.wait_text("note for the timeline");
    t.send("slow disk\r");
    t.wait_text("note added: slow disk");
    settle(&mut t, Duration::from_millis(700));
    t.send("r");
    t.wait_text("recording saved:");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    let rec = std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .expect("a recording");

    // In the file the note sits among its samples, on their clock.
    let (mut first, mut last, mut mark) = (None, None, None);
    for e in RecordingReader::open(&rec).unwrap() {
        match e.unwrap() {
            Entry::Sample(s) => {
                first.get_or_insert(s.t);
                last = Some(s.t);
            }
            Entry::Mark(m) => mark = Some(m.t),
        }
    }
    let (first, last, mark) = (first.unwrap(), last.unwrap(), mark.expect("the note"));
    assert!(first <= mark && mark <= last, "{first} <= {mark} <= {last}");

    // Played back at ×1 the header clock moves on every sample, past the note, to the end.
    let mut r = Tui::spawn(&["replay", rec.to_str().unwrap(), "--speed", "1"], 120, 40);
    r.wait_text("REPLAY");
    let mut seen = vec![];
    let mut changed = Instant::now();
    let start = Instant::now();
    loop {
        r.pump();
        let h = header(&r);
        if let Some(c) = clock_after(&h, "REPLAY") {
            if seen.last() != Some(&c) {
                seen.push(c);
                changed = Instant::now();
            }
        }
        if h.contains("REPLAY END") {
            break;
        }
        assert!(
            changed.elapsed() < Duration::from_secs(6),
            "playback stalled at {seen:?}:\n{}",
            r.text()
        );
        assert!(start.elapsed() < Duration::from_secs(90), "{}", r.text());
        std::thread::sleep(Duration::from_millis(50));
    }
    let samples = (last.secs_since(first)).round() as usize + 1;
    assert!(
        seen.len() + 1 >= samples.min(4),
        "the clock moved through the recording: {seen:?}"
    );
    r.send("3\r");
    r.wait_text("slow disk");
    r.send("q");
    assert_eq!(r.wait_exit(), 0);
}

#[test]
fn standby_down_shows_the_stale_marker_and_the_real_age() {
    let mut t = Tui::spawn(
        &["demo", "--scenario", "standby-down", "--speed", "16"],
        160,
        48,
    );
    t.wait_text("3 Lag");
    // The outage starts a minute in; a minute later its age reads in minutes.
    t.wait_for("a stale age in minutes", |s| {
        let c = s.contents();
        c.lines().any(|l| {
            l.contains("transport ") && l.contains("STALE, ") && l.contains("m") && {
                let i = l.find("STALE, ").unwrap() + 7;
                l[i..].starts_with(|c: char| c.is_ascii_digit()) && l[i..].contains("m")
            }
        })
    });
    let text = t.text();
    let lag_line = text
        .lines()
        .find(|l| l.contains("transport ") && l.contains("STALE"))
        .unwrap();
    assert!(!lag_line.contains("figure age"), "{lag_line}");
    assert!(lag_line.contains(" ago"), "{lag_line}");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

/// Standard base64 back to bytes (the test's own decoder, so it checks the encoder).
fn unbase64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let mut out = vec![];
    for chunk in s.as_bytes().chunks(4) {
        let pad = chunk.iter().filter(|c| **c == b'=').count();
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= if *c == b'=' { 0 } else { val(*c) } << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    out
}

#[test]
fn y_in_a_drill_down_at_80x24_copies_all_of_it_as_plain_text() {
    let mut t = Tui::replay(80, 24);
    t.wait_replay_end();
    t.send("5");
    t.send("\r");
    t.wait_text("since ");
    let visible = t.text();
    t.send("y");
    t.wait_text("copied ");
    let raw = String::from_utf8_lossy(&t.raw).to_string();
    let start = raw.rfind("\x1b]52;c;").expect("an OSC 52 sequence") + 7;
    let end = start + raw[start..].find('\x07').unwrap();
    let text = String::from_utf8(unbase64(&raw[start..end])).unwrap();
    assert!(
        !text.chars().any(|c| ('\u{2500}'..='\u{257f}').contains(&c)),
        "box drawing in the copy:\n{text}"
    );
    for part in ["Since ", "What to do:", "To verify:", "SELECT "] {
        assert!(text.contains(part), "{part:?} missing:\n{text}");
    }
    assert!(text.lines().all(|l| l == l.trim_end()), "{text:?}");
    // The whole drill-down, not the visible part: its last line is below the screen's edge.
    let last = text.lines().last().unwrap();
    assert!(
        !visible.contains(last),
        "{last:?} was on screen:\n{visible}"
    );
    // The status says how much went out.
    t.wait_text(&format!("{} bytes", text.len()));
    // The same text the incident report (`e`) writes for this finding: every line of the
    // copy is in the report, tables as Markdown rows.
    t.send("e");
    t.wait_text("report written");
    let report = std::fs::read_dir(t.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("dgscope-incident-")
        })
        .expect("the report file");
    let md = std::fs::read_to_string(report.path()).unwrap();
    common::assert_copy_in_report(&text, &md);
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn a_paste_is_note_text_and_is_ignored_elsewhere() {
    let mut t = Tui::replay(120, 40);
    t.wait_replay_end();
    // A bracketed paste on the main screen: "q" inside it must not quit.
    t.send("\x1b[200~qqq\x1b[201~");
    t.wait_text("paste ignored");
    t.send("m");
    t.wait_text("note for the timeline");
    let big = format!("line one\nline two {}", "x".repeat(50_000));
    t.send(&format!("\x1b[200~{big}\x1b[201~"));
    t.wait_text("note cut at 200 characters");
    t.send("\r");
    t.wait_text("note added: line one line two xxx");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

/// Issue 29.1: the demo's first frame already has figures and judged causes: the twin
/// pre-rolls its simulated minute before the screen opens, instead of two seconds of blank
/// panes and a minute of "warming up".
#[test]
fn the_demo_opens_on_figures_not_warming_up() {
    let mut t = Tui::spawn(&["demo"], 120, 40);
    t.wait_text("DEMO");
    let first = t.text();
    let row = first
        .lines()
        .find_map(|l| {
            l.split_once("log file sync")
                .map(|(_, rest)| rest.trim_start().to_string())
        })
        .unwrap_or_default();
    assert!(
        row.starts_with(|c: char| c.is_ascii_digit()),
        "the first frame has no commit figures:\n{first}"
    );
    assert!(!first.contains("warming up"), "{first}");
    assert!(first.contains("simulated"), "{first}");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}
