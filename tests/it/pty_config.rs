//! The config file on the real screen (issue 8): a profile launches the demo with its
//! scenario and theme, a rebound key acts, and `themes` previews colours on a terminal.

use crate::common;

use common::pty::Tui;
use dgscope::ui::theme::nearest_256;

fn config(dir: &tempfile::TempDir, text: &str) -> String {
    let path = dir.path().join("config.toml");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The background of the header's first cell, as vt100 saw it.
fn header_bg(t: &Tui) -> vt100::Color {
    t.screen().cell(0, 1).unwrap().bgcolor()
}

#[test]
fn a_profile_launches_the_demo_with_its_scenario_and_theme() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        &dir,
        "[profiles.practice]\nscenario = \"slow-srl\"\ntheme = \"light\"\n",
    );
    let mut t = Tui::spawn(
        &["--config", &cfg, "demo", "practice", "--speed", "8"],
        120,
        40,
    );
    t.wait_text("5 Suggested causes");
    // The profile's scenario: the twin writes to slow standby redo logs.
    t.wait_text("Standby redo log writes are slow");
    // The profile's theme: light's header background (#d0d0d0 in 256 colours).
    assert_eq!(
        header_bg(&t),
        vt100::Color::Idx(nearest_256(0xd0, 0xd0, 0xd0))
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();

    // Without the profile: the default dark theme's header.
    let mut d = Tui::spawn(&["--config", &cfg, "demo"], 120, 40);
    d.wait_text("5 Suggested causes");
    assert_ne!(
        header_bg(&d),
        vt100::Color::Idx(nearest_256(0xd0, 0xd0, 0xd0))
    );
    d.send("q");
    assert_eq!(d.wait_exit(), 0);
}

#[test]
fn a_rebound_key_acts_and_the_old_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(&dir, "[bindings]\nquit = \"x\"\nhelp = \"ctrl-h\"\n");
    let mut t = Tui::spawn(&["--config", &cfg, "demo"], 120, 40);
    t.wait_text("No cause above INFO");
    // The help overlay lists the live bindings: quit is now x.
    t.send("\x08");
    t.wait_text("keys (Esc closes)");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
    // q is no longer quit: after it the screen still answers (ctrl-h opens help again).
    t.send("q");
    t.send("\x08");
    t.wait_text("keys (Esc closes)");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
    t.send("x");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn themes_previews_colours_on_a_terminal() {
    let mut t = Tui::spawn(&["themes"], 100, 10);
    t.wait_text("high-contrast");
    t.wait_exit();
    let raw = String::from_utf8_lossy(&t.raw);
    assert!(raw.contains("\x1b[38;5;"), "colour swatches: {raw:?}");
    assert!(raw.contains("██"));
}
