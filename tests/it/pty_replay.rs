//! End-to-end tests of the real binary in a pseudo-terminal: `dgscope replay` of the committed
//! synthetic incident. Each check is a function of a launcher, so `demo` gets the same tests
//! with one line each once it is wired (`fn demo(c, r) -> Tui { Tui::spawn(&["demo"], c, r) }`).

use crate::common;

use common::pty::{fixture, Tui};
use std::process::{Command, Stdio};

type Launch = fn(u16, u16) -> Tui;

const TITLES: [&str; 5] = [
    "1 Commit path",
    "2 Throughput",
    "3 Lag",
    "4 Standby I/O",
    "5 Suggested causes",
];

fn draws_every_pane(launch: Launch) {
    let mut t = launch(160, 48);
    for title in TITLES {
        t.wait_text(title);
    }
    t.wait_text("log file sync");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

fn keys_act(launch: Launch, settle: fn(&mut Tui)) {
    let mut t = launch(160, 48);
    settle(&mut t);
    // Tab moves the focus to pane 2; Enter zooms it; Esc comes back.
    t.send("\t");
    t.send("\r");
    t.wait_for("pane 2 zoomed", |s| {
        let c = s.contents();
        c.contains("2 Throughput") && !c.contains("1 Commit path") && c.contains("Esc back")
    });
    t.send("\x1b");
    t.wait_text("1 Commit path");
    // Help overlay from the live keymap.
    t.send("?");
    t.wait_text("keys (Esc closes)");
    t.wait_text("cycle theme");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
    // Pause and resume.
    t.send("p");
    t.wait_text("PAUSED");
    t.send("p");
    t.wait_gone("PAUSED");
    // Baseline.
    t.send("b");
    t.wait_text("base@");
    t.wait_text("baseline set at");
    // Window cycles 1m → 5m.
    t.wait_text("win 1m");
    t.send("w");
    t.wait_text("win 5m");
    // Impact view, then the log scale and a faster pace.
    t.send("i");
    t.wait_text("Impact: baseline vs now");
    t.send("\x1b");
    t.wait_gone("Impact: baseline vs now");
    t.send("l");
    t.wait_text("(log)");
    // Slower: half the launch speed (×64 for the replay tests, ×1 for a demo).
    t.send("-");
    t.wait_for("half speed", |s| {
        let c = s.contents();
        c.contains("×32") || c.contains("×0.5")
    });
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

fn resizes(launch: Launch, settle: fn(&mut Tui)) {
    let mut t = launch(160, 48);
    settle(&mut t);
    t.wait_text("══ SYNC AFFIRM ══▶");
    t.resize(80, 24);
    // The stacked layout: a narrower arrow and the same panes.
    t.wait_text("═SYNC AFFIRM═▶");
    for title in TITLES {
        t.wait_text(title);
    }
    t.resize(40, 10);
    t.wait_text("terminal too small");
    t.wait_text("40×10)");
    t.resize(120, 32);
    t.wait_text("══ SYNC AFFIRM ══▶");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

fn signal_restores(launch: Launch, sig: libc::c_int, code: i32) {
    let mut t = launch(100, 30);
    t.wait_text("1 Commit path");
    t.signal(sig);
    assert_eq!(t.wait_exit(), code, "{sig:?}");
    t.assert_restored();
}

fn quit_keeping_the_frame(launch: Launch, settle: fn(&mut Tui)) {
    let mut t = launch(100, 30);
    settle(&mut t);
    t.send("Q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
    let text = t.text();
    assert!(
        text.contains("1 Commit path") && text.contains("log file sync"),
        "{text}"
    );
}

fn wait_end(t: &mut Tui) {
    t.wait_replay_end();
}

fn replay(c: u16, r: u16) -> Tui {
    Tui::replay(c, r)
}

#[test]
fn replay_draws_every_pane() {
    draws_every_pane(replay);
}

#[test]
fn replay_keys_act() {
    keys_act(replay, wait_end);
}

#[test]
fn replay_resizes_down_to_too_small_and_back() {
    resizes(replay, wait_end);
}

#[test]
fn replay_sigterm_restores_the_terminal() {
    signal_restores(replay, libc::SIGTERM, 143);
}

#[test]
fn replay_sighup_restores_the_terminal() {
    // The SSH session dropped.
    signal_restores(replay, libc::SIGHUP, 129);
}

#[test]
fn replay_sigint_restores_the_terminal() {
    signal_restores(replay, libc::SIGINT, 130);
}

#[test]
fn replay_capital_q_leaves_the_last_frame() {
    quit_keeping_the_frame(replay, wait_end);
}

#[test]
fn replay_header_says_replay_and_the_recordings_clock() {
    let mut t = Tui::replay(160, 48);
    t.wait_replay_end();
    // The recording ends at 05:02:59 UTC: the header shows that, not the wall clock.
    t.wait_text("REPLAY END 05:02:59");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn not_a_tty_gets_one_line_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args([
            "replay",
            fixture("synthetic_slow_srl.jsonl").to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in [
        "terminal",
        "dgscope check",
        "dgscope report",
        "dgscope record",
    ] {
        assert!(err.contains(w), "{err}");
    }
    assert!(out.stdout.is_empty());
}

#[test]
fn a_missing_recording_is_one_line_and_exit_2() {
    let mut t = Tui::spawn(&["replay", "no-such-file.jsonl"], 80, 24);
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    assert!(
        text.contains("dgscope: ") && text.contains("no-such-file.jsonl"),
        "{text}"
    );
    assert_eq!(text.trim().lines().count(), 1, "{text}");
}

/// `replay --from end` opens on the recording's last window (the index finds it; the
/// quarter hour before is loaded at once) and reaches its end a second later, not after the
/// three minutes of playing it from the start.
#[test]
fn replay_from_the_end_opens_on_the_last_window() {
    let f = fixture("synthetic_slow_srl.jsonl");
    let mut t = Tui::spawn(&["replay", f.to_str().unwrap(), "--from", "end"], 160, 48);
    t.wait_text("REPLAY END 05:02:59");
    assert!(t.text().contains("log file sync"), "{}", t.text());
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn a_bad_from_is_one_line_and_exit_2() {
    let f = fixture("synthetic_slow_srl.jsonl");
    let mut t = Tui::spawn(
        &["replay", f.to_str().unwrap(), "--from", "yesterday"],
        80,
        24,
    );
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    assert!(
        text.contains("--from yesterday: neither `end`, a time before the end (-2h)"),
        "{text}"
    );
    assert_eq!(text.trim().lines().count(), 1, "{text}");
}

/// Issue 29: a recording larger than replay reads through before the screen (16 MB) opens at
/// once and is read through behind it. A damaged last line is said in the header while the
/// start plays, and on leaving as one line naming the file and the line, exit 2.
#[test]
fn a_long_recording_damaged_at_its_end_plays_and_says_so_in_the_header_and_on_leaving() {
    use dgscope::timestamp::Timestamp;
    let text = std::fs::read_to_string(fixture("synthetic_slow_srl.jsonl")).unwrap();
    let mut lines = text.lines();
    let mut out = String::with_capacity(20 << 20);
    out.push_str(lines.next().unwrap());
    out.push('\n');
    let body: Vec<&str> = lines.collect();
    // The fixture's three minutes again and again, later each time (a version 1 file: every
    // line whole): past 16 MB.
    let mut round = 0i64;
    while out.len() <= 17 << 20 {
        for l in &body {
            let t = Timestamp::parse(&l[6..30]).unwrap();
            let moved = Timestamp::from_millis(t.ms + round * 181_000).to_string();
            assert_eq!(moved.len(), 24, "{moved}");
            out.push_str(&l[..6]);
            out.push_str(&moved);
            out.push_str(&l[30..]);
            out.push('\n');
        }
        round += 1;
    }
    let damaged_line = out.lines().count() + 1;
    out.push_str("{\"t\":\"2026-11-30T09:00:00.000Z\",\"slot\":\"primary\",\"events\":[\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.jsonl");
    std::fs::write(&path, out).unwrap();

    let mut t = Tui::spawn(&["replay", path.to_str().unwrap()], 160, 48);
    t.wait_text("DAMAGED after");
    assert!(t.text().contains("REPLAY"), "{}", t.text());
    t.send("q");
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    let said = format!("long.jsonl:{damaged_line}:");
    assert!(text.contains(&said), "{said} in {text}");
    assert!(text.contains("replay stops before that line"), "{text}");
}

/// Replay reads a recording twice (checked, then played): a FIFO is refused before it is
/// opened (opening it would wait for a writer).
#[cfg(unix)]
#[test]
fn a_fifo_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = common::fifo(dir.path(), "rec.fifo");
    let mut t = Tui::spawn(&["replay", fifo.to_str().unwrap()], 80, 24);
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    assert!(
        text.contains("is not a regular file (a FIFO, device or socket); replay needs"),
        "{text}"
    );
}

#[test]
fn a_bad_speed_is_one_line_and_exit_2() {
    let mut t = Tui::spawn(&["replay", "x.jsonl", "--speed", "0"], 80, 24);
    assert_eq!(t.wait_exit(), 2);
    assert!(
        t.text().contains("--speed 0: must be between 0.25 and 64"),
        "{}",
        t.text()
    );
}

fn io_keys_write_files(launch: Launch, settle: fn(&mut Tui)) {
    let mut t = launch(160, 48);
    settle(&mut t);
    // r starts a recording (header shows it), m adds a note to it, r stops it.
    t.send("r");
    t.wait_text("●REC dgscope-");
    t.send("m");
    t.wait_text("note for the timeline");
    t.send("slow disk\r");
    t.wait_text("note added: slow disk");
    t.send("r");
    t.wait_text("recording saved:");
    t.wait_gone("●REC");
    // e writes the incident report and says where.
    t.send("e");
    t.wait_text("report written:");
    // y copies the focused pane through OSC 52.
    t.send("y");
    t.wait_text("copied");
    assert!(String::from_utf8_lossy(&t.raw).contains("\x1b]52;c;"));
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    let files: Vec<_> = std::fs::read_dir(t.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let rec = files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .expect("a recording");
    let text = std::fs::read_to_string(rec).unwrap();
    assert!(
        text.lines().next().unwrap().contains("dgscope-recording"),
        "{text}"
    );
    assert!(
        text.contains("\"text\":\"slow disk\""),
        "the note is in the recording: {text}"
    );
    let report = files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "md"))
        .expect("an incident report");
    let md = std::fs::read_to_string(report).unwrap();
    assert!(md.contains("| log file sync |"), "{md}");
    assert!(md.contains("slow disk"), "the note is in the report: {md}");
}

fn mouse_click_focuses(launch: Launch, settle: fn(&mut Tui)) {
    let mut t = launch(160, 48);
    settle(&mut t);
    // Left click (SGR encoding, 1-based) inside the Lag pane, then Enter zooms it.
    t.send("\x1b[<0;120;10M\x1b[<0;120;10m");
    t.send("\r");
    t.wait_for("pane 3 zoomed", |s| {
        let c = s.contents();
        c.contains("3 Lag") && !c.contains("1 Commit path")
    });
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn replay_record_note_report_and_copy_keys_write_what_they_say() {
    io_keys_write_files(replay, wait_end);
}

#[test]
fn replay_mouse_click_focuses_a_pane() {
    mouse_click_focuses(replay, wait_end);
}

#[test]
fn themes_lists_the_builtins() {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .arg("themes")
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = String::from_utf8_lossy(&out.stdout);
    let names: Vec<&str> = s
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names, ["dark", "light", "high-contrast", "mono"]);
}

#[test]
fn an_unknown_theme_is_one_line_and_exit_2() {
    let f = fixture("synthetic_slow_srl.jsonl");
    let mut t = Tui::spawn(&["replay", f.to_str().unwrap(), "--theme", "neon"], 80, 24);
    assert_eq!(t.wait_exit(), 2);
    assert!(
        t.text().contains("--theme \"neon\": unknown theme"),
        "{}",
        t.text()
    );
    t.assert_never_entered_alternate_screen();
}

#[test]
fn no_color_env_draws_without_colour_sequences() {
    let f = fixture("synthetic_slow_srl.jsonl");
    let args = ["replay", f.to_str().unwrap(), "--speed", "64"];
    let mut t = Tui::spawn_env(&args, &[("NO_COLOR", "1")], 120, 32);
    t.wait_replay_end();
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    let raw = String::from_utf8_lossy(&t.raw);
    // 256-colour and truecolor foregrounds/backgrounds never appear; reverse video does.
    for sgr in ["\x1b[38;5;", "\x1b[48;5;", "\x1b[38;2;", "\x1b[48;2;"] {
        assert!(!raw.contains(sgr), "colour sequence {sgr:?} under NO_COLOR");
    }
    assert!(
        raw.contains("\x1b[7m"),
        "mono marks the header with reverse video"
    );
}

#[test]
fn colour_is_256_unless_colorterm_says_truecolor() {
    let f = fixture("synthetic_slow_srl.jsonl");
    let args = ["replay", f.to_str().unwrap(), "--speed", "64"];
    let mut t = Tui::spawn(&args, 120, 32);
    t.wait_replay_end();
    t.send("q");
    t.wait_exit();
    let raw = String::from_utf8_lossy(&t.raw).to_string();
    assert!(raw.contains("\x1b[38;5;") && !raw.contains("\x1b[38;2;"));
    let mut t = Tui::spawn_env(&args, &[("COLORTERM", "truecolor")], 120, 32);
    t.wait_replay_end();
    t.send("q");
    t.wait_exit();
    let raw = String::from_utf8_lossy(&t.raw).to_string();
    assert!(
        raw.contains("\x1b[38;2;"),
        "truecolor announced but not used"
    );
}

#[test]
fn ascii_flag_draws_no_box_or_braille_characters() {
    let f = fixture("synthetic_slow_srl.jsonl");
    let args = ["replay", f.to_str().unwrap(), "--speed", "64", "--ascii"];
    let mut t = Tui::spawn(&args, 160, 48);
    t.wait_replay_end();
    let text = t.text();
    assert!(text.contains("+1 Commit path"), "{text}");
    assert!(
        !text
            .chars()
            .any(|c| ('\u{2500}'..='\u{259f}').contains(&c)
                || ('\u{2800}'..='\u{28ff}').contains(&c)),
        "{text}"
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn a_corrupt_recording_names_file_and_line_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read_to_string(fixture("synthetic_slow_srl.jsonl")).unwrap();
    // A bad line in the middle (a bad last line reads as a write cut short, and is skipped).
    let mut lines: Vec<&str> = good.lines().take(10).collect();
    lines.push("{\"t\": not json");
    lines.extend(good.lines().skip(10).take(5));
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let mut t = Tui::spawn(&["replay", bad.to_str().unwrap()], 120, 24);
    assert_eq!(t.wait_exit(), 2);
    let text = t.text();
    assert!(text.contains("bad.jsonl:11"), "{text}");
    assert_eq!(text.trim().lines().count(), 1, "{text}");
    t.assert_never_entered_alternate_screen();
}

// The same checks on `dgscope demo` (the twin, paced to the wall clock).

fn demo(c: u16, r: u16) -> Tui {
    Tui::spawn(&["demo"], c, r)
}

/// Until the causes engine has judged a few samples of the healthy twin: there is data to
/// pause, scrub and set a baseline on.
fn demo_settle(t: &mut Tui) {
    t.wait_text("5 Suggested causes");
    t.wait_text("No cause above INFO");
}

#[test]
fn demo_draws_every_pane() {
    draws_every_pane(demo)
}

#[test]
fn demo_keys_act() {
    keys_act(demo, demo_settle)
}

#[test]
fn demo_resizes_down_to_too_small_and_back() {
    resizes(demo, demo_settle)
}

#[test]
fn demo_sigterm_restores_the_terminal() {
    signal_restores(demo, libc::SIGTERM, 143)
}

#[test]
fn demo_capital_q_leaves_the_last_frame() {
    quit_keeping_the_frame(demo, demo_settle)
}

#[test]
fn demo_fault_menu_switches_the_twin_and_the_causes_follow() {
    let mut t = Tui::spawn(&["demo", "--speed", "16"], 160, 48);
    demo_settle(&mut t);
    t.wait_text("DEMO");
    t.send("f");
    t.wait_text("inject a fault");
    // slow-srl is fourth in the catalog: three steps down from healthy-sync.
    t.send("jjj");
    t.send("\r");
    t.wait_text("fault slow-srl");
    // The twin now writes to slow standby redo logs; the real causes engine says so.
    t.wait_text("Standby redo log writes are slow");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn demo_not_a_tty_gets_one_line_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .arg("demo")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("dgscope check"), "{err}");
}

#[test]
fn replay_plays_a_compressed_version_2_recording_to_its_end() {
    // What `record -o X.jsonl.zst` writes today (zstd, changes lines) plays like the
    // committed version 1 fixture: every pane, the slow-SRL finding, the recording's clock.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slow.jsonl.zst");
    let status = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args([
            "record",
            "--twin",
            "slow-srl",
            "--seed",
            "7",
            "--duration",
            "3m",
            "-o",
        ])
        .arg(&path)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]), "zstd");
    let p = path.to_str().unwrap();
    let mut t = Tui::spawn(&["replay", p, "--speed", "64"], 160, 48);
    for title in TITLES {
        t.wait_text(title);
    }
    t.wait_replay_end();
    t.wait_text("REPLAY END 05:03:00");
    t.wait_text("Standby redo log writes are slow");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

/// `/` in the real binary: typed in the footer, made with Enter, `n` and `N` walk the
/// matches (the border counts them), Esc clears the search, a second Esc leaves; in the
/// help, the keys are filtered as typed.
#[test]
fn slash_searches_the_drill_down_and_the_help() {
    let mut t = replay(160, 48);
    wait_end(&mut t);
    t.send("5");
    t.send("\r");
    t.wait_text("What it means");
    t.send("/");
    t.wait_text("Enter find");
    t.send("sync");
    t.wait_text("/sync");
    t.send("\r");
    t.wait_for("the first match counted", |s| {
        s.contents().contains("/sync 1/")
    });
    t.send("n");
    t.wait_for("n moved to the second", |s| {
        s.contents().contains("/sync 2/")
    });
    t.send("N");
    t.wait_for("N moved back", |s| s.contents().contains("/sync 1/"));
    t.send("\x1b");
    t.wait_gone("/sync 1/");
    t.wait_text("What it means");
    t.send("\x1b");
    t.wait_text("1 Commit path");
    t.send("?");
    t.wait_text("keys (Esc closes)");
    t.send("/");
    t.send("scrub");
    t.wait_text("keys /scrub (Esc clears)");
    t.wait_for("only scrub keys", |s| {
        let c = s.contents();
        c.contains("scrub back 1 sample") && !c.contains("this help")
    });
    t.send("\x1b");
    t.wait_text("keys (Esc closes)");
    t.wait_text("this help");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}
