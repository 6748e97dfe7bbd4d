//! The configuration on the real binary's screen (issue 13): a recording with two standby
//! slots, and one with a far sync before the terminal standby, built by the test from the
//! synthetic pair and the Oracle fixtures' configuration rows, replayed in a PTY.

use crate::common;

use common::pty::Tui;
use common::screen::{topology_samples, Topology};
use common::synthetic::T0_MS;
use dgscope::sample::recording::{Header, RecordingWriter};
use dgscope::timestamp::Timestamp;
use std::path::PathBuf;

fn recording(dir: &std::path::Path, topo: Topology) -> PathBuf {
    let path = dir.join(format!("{topo:?}.jsonl"));
    let header = Header::new(
        Timestamp::from_millis(T0_MS),
        1000,
        "synthetic seed=7 with the fixtures' configuration (tests/it/common/screen.rs)",
    );
    let mut w = RecordingWriter::new(std::fs::File::create(&path).unwrap(), &header).unwrap();
    for s in topology_samples(topo, 40) {
        w.write_sample(&s).unwrap();
    }
    drop(w);
    path
}

fn replay(topo: Topology) -> (tempfile::TempDir, Tui) {
    let dir = tempfile::tempdir().unwrap();
    let f = recording(dir.path(), topo);
    let mut t = Tui::spawn(&["replay", f.to_str().unwrap(), "--speed", "64"], 160, 48);
    t.wait_replay_end();
    (dir, t)
}

fn first_line(t: &Tui) -> String {
    t.text().lines().next().unwrap_or_default().to_string()
}

fn lag_title(t: &Tui) -> String {
    t.text()
        .lines()
        .find(|l| l.contains("3 Lag"))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn brackets_switch_the_standby_panes_between_two_standbys() {
    let (_dir, mut t) = replay(Topology::TwoStandbys);
    let head = first_line(&t);
    assert!(
        head.contains("SYNC AFFIRM ══▶ [prod_b]") && head.contains("ASYNC ══▶ prod_c"),
        "{head}"
    );
    assert!(
        lag_title(&t).contains("standby prod_b"),
        "{}",
        lag_title(&t)
    );
    t.send("]");
    t.wait_text("[prod_c]");
    assert!(
        lag_title(&t).contains("standby prod_c"),
        "{}",
        lag_title(&t)
    );
    assert!(t.text().contains("standby panes show prod_c (2 of 2)"));
    assert!(!first_line(&t).contains("[prod_b]"), "{}", first_line(&t));
    t.send("[");
    t.wait_text("[prod_b]");
    assert!(
        lag_title(&t).contains("standby prod_b"),
        "{}",
        lag_title(&t)
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn the_header_at_160_columns_shows_primary_far_sync_and_terminal_standby() {
    let (_dir, mut t) = replay(Topology::FarSync);
    let head = first_line(&t);
    assert!(
        head.contains("  prod_a ")
            && head.contains("══ SYNC AFFIRM ══▶ prod_fs (far sync) ══ ASYNC ══▶ [prod_c]"),
        "{head}"
    );
    // The standby panes show the terminal standby; `]` moves them to the far sync, a hop of
    // the chain with its own transport lag and RFS writes.
    assert!(
        lag_title(&t).contains("standby prod_c"),
        "{}",
        lag_title(&t)
    );
    t.send("]");
    t.wait_text("[prod_fs] (far sync)");
    assert!(
        lag_title(&t).contains("standby prod_fs"),
        "{}",
        lag_title(&t)
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn with_one_standby_a_bracket_says_so() {
    let mut t = Tui::replay(160, 48);
    t.wait_replay_end();
    t.send("]");
    t.wait_text("only one standby");
    assert!(
        lag_title(&t).contains("standby prod_b"),
        "{}",
        lag_title(&t)
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

/// The twin plays the same configurations (`demo --scenario two-standbys`, `far-sync`): the
/// header draws them and `]` moves the standby panes, as in a live watch of several members.
#[test]
fn the_twin_topologies_draw_their_configuration_and_brackets_switch() {
    let mut t = Tui::spawn(
        &["demo", "--speed", "8", "--scenario", "two-standbys"],
        160,
        48,
    );
    t.wait_text("[prod_b]");
    let head = first_line(&t);
    assert!(
        head.contains("SYNC AFFIRM ══▶ [prod_b]") && head.contains("ASYNC ══▶ prod_c"),
        "{head}"
    );
    t.send("]");
    t.wait_text("[prod_c]");
    assert!(
        lag_title(&t).contains("standby prod_c"),
        "{}",
        lag_title(&t)
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);

    let mut t = Tui::spawn(&["demo", "--speed", "8", "--scenario", "far-sync"], 160, 48);
    t.wait_text("(far sync)");
    let head = first_line(&t);
    assert!(
        head.contains("  prod_a ")
            && head.contains("prod_fs")
            && head.contains("(far sync)")
            && head.contains("ASYNC ══▶ [prod_c]"),
        "{head}"
    );
    // The panes open on the terminal standby; `]` reaches the far sync, a hop of the chain.
    t.send("]");
    t.wait_text("[prod_fs] (far sync)");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}

/// `c` in the demo's two-standbys configuration opens the configuration view with a row for
/// each standby, readable at 80×24, and `c` again goes back to the panes.
#[test]
fn c_opens_the_configuration_view_with_both_standbys() {
    let mut t = Tui::spawn(
        &["demo", "--scenario", "two-standbys", "--speed", "8"],
        80,
        24,
    );
    t.wait_text("[prod_b]");
    t.wait_text("lags  [prod_b]");
    t.send("c");
    t.wait_text("Configuration  as of");
    t.wait_for("a row per standby", |s| {
        let text = s.contents();
        let row = |n: &str| {
            text.lines()
                .any(|l| l.contains(n) && (l.contains("SYNC") || l.contains("applying")))
        };
        row("prod_b") && row("prod_c")
    });
    let text = t.text();
    assert!(text.contains("apply lag"), "{text}");
    t.send("c");
    t.wait_text("3 Lag");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}
