//! What arrives in one read of the terminal that no person types in one read (reliability
//! M3), on the real binary in a pseudo-terminal: Esc followed by an F-key or an arrow
//! (`ESC ESC O Q`, `ESC ESC [ B`) must not run the sequence's letters as keys (`Q` quits
//! keeping the frame, `B` clears the baseline).

use crate::common;

use common::pty::Tui;

/// The demo once the causes engine has judged a few samples: there is data to set a
/// baseline on.
fn demo() -> Tui {
    let mut t = Tui::spawn(&["demo"], 120, 40);
    t.wait_text("No cause above INFO");
    t
}

/// Still running and reading keys: the help opens and closes.
fn alive(t: &mut Tui) {
    t.send("?");
    t.wait_text("keys (Esc closes)");
    t.send("\x1b");
    t.wait_gone("keys (Esc closes)");
}

#[test]
fn esc_then_a_function_key_or_an_arrow_in_one_read_runs_no_letters() {
    let mut t = demo();
    t.send("b");
    t.wait_text("baseline set at");
    // Esc, then F2 (`ESC O Q`) and Esc, then ↓ (`ESC [ B`), each in one write.
    t.send("\x1b\x1bOQ");
    t.send("\x1b\x1b[B");
    t.send("\x1b\x1b[1;5A");
    alive(&mut t);
    assert!(
        t.text().contains("baseline set at") || t.text().contains("base@"),
        "the baseline was cleared:\n{}",
        t.text()
    );
    t.send("q");
    assert_eq!(t.wait_exit(), 0);
    t.assert_restored();
}
