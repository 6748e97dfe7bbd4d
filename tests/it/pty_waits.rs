//! "What is waiting now" on the real binary's screen: `s` in `demo` opens every database's
//! in-flight waits, `s` again closes it; on a hung archiver the sessions on the switch show
//! with LGWR as the blocker.

use crate::common;

use common::pty::Tui;

#[test]
fn s_in_the_demo_opens_and_closes_what_is_waiting_now() {
    let mut t = Tui::spawn(&["demo", "--speed", "8"], 120, 40);
    t.wait_text("5 Suggested causes");
    t.send("s");
    t.wait_text("Waiting now");
    t.wait_text("prod_a");
    t.wait_for("the primary's summary", |s| {
        let c = s.contents();
        c.contains("log file sync") || c.contains("nothing waiting (non-idle)")
    });
    t.send("s");
    t.wait_gone("Waiting now");
    t.wait_text("5 Suggested causes");
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}

#[test]
fn a_stuck_archiver_shows_its_sessions_blocked_by_lgwr() {
    let mut t = Tui::spawn(
        &["demo", "--scenario", "archiver-stuck", "--speed", "64"],
        120,
        40,
    );
    t.wait_text("5 Suggested causes");
    t.send("s");
    t.wait_text("Waiting now");
    t.wait_for("sessions on the switch, blocked by LGWR", |s| {
        s.contents()
            .lines()
            .any(|l| l.contains("log file switch (archiving needed)") && l.contains("LGWR"))
    });
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
}
